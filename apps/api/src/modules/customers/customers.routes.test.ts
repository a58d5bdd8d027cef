import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { customerDetailMessages as dm, hostnameToAscii, type CustomerDetail, type CustomerNote, type CustomerListQuery, type CustomerPage } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { baseOrder, drainJobs, paySimulated, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { buyDomain, createDomainCustomer } from '../../../test/domains.ts';
import { buyHosting, seedHostingServer, unique } from '../../../test/hosting.ts';
import { domains, hostingPackages, invoices, users } from '../../db/schema/index.ts';
import { findCustomers } from './customers.service.ts';

type User = Awaited<ReturnType<typeof createUser>>;
const sectionOf = (detail: CustomerDetail, kind: CustomerDetail['productSections'][number]['kind']) => detail.productSections.find((s) => s.kind === kind)!;

describeEachDatabase('customer overview', (ctx) => {
  let employee: User;
  let owner: User;
  let anna: User;
  let bert: User;
  let evil: User;
  const tag = `k${Date.now().toString(36)}`;
  beforeAll(async () => {
    employee = await createUser(ctx(), { role: 'employee' });
    owner = await createUser(ctx(), { role: 'owner' });
    anna = await createUser(ctx());
    bert = await createUser(ctx());
    evil = await createUser(ctx());
    const db = ctx().database.db;
    await db.update(users).set({ username: `Anna_${tag}`, email: `anna.${tag}@Firma.example`, companyName: 'Anna GmbH', business: true, createdAt: new Date('2025-01-01'), lastLoginAt: new Date('2026-11-01') }).where(eq(users.id, anna.user.id));
    await db.update(users).set({ username: `bert_${tag}`, email: `b.${tag}@example.com`, createdAt: new Date('2026-02-01'), lastLoginAt: null }).where(eq(users.id, bert.user.id));
    await db.update(users).set({ username: `=cmd_${tag}`, email: `evil.${tag}@example.com`, companyName: '+SUM(A1)', business: true, createdAt: new Date('2024-06-01') }).where(eq(users.id, evil.user.id));
  });

  const list = async (qs: string, who: User = employee) => {
    const res = await ctx().app.inject({ method: 'GET', url: `/api/staff/customers?${qs}`, headers: who.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CustomerPage>();
  };

  it('searches name, e-mail and customer number case-insensitively; staff accounts are not customers', async () => {
    expect((await list(`q=ANNA_${tag}`)).items.map((c) => c.id)).toEqual([anna.user.id]);
    expect((await list(`q=${tag}@firma`)).items.map((c) => c.id)).toEqual([anna.user.id]);
    const [row] = await ctx().database.db.select({ n: users.customerNumber }).from(users).where(eq(users.id, bert.user.id));
    expect((await list(`q=${row!.n}`)).items.map((c) => c.id)).toContain(bert.user.id);
    expect((await list(`q=${employee.username}`)).total).toBe(0);
    const page = await list(`q=${tag}`);
    expect(page.total).toBe(3);
    expect(page.items.find((c) => c.id === anna.user.id)).toMatchObject({ kind: 'business', companyName: 'Anna GmbH' });
    expect(page.items.find((c) => c.id === bert.user.id)).toMatchObject({ kind: 'private', lastLoginAt: null });
    // Wildcards are literal.
    expect((await list('q=%25')).total).toBe(0);
  });

  it('sorts by customer since (newest first by default), name and last login; pages on the server', async () => {
    expect((await list(`q=${tag}`)).items.map((c) => c.id)).toEqual([bert.user.id, anna.user.id, evil.user.id]);
    expect((await list(`q=${tag}&sort=createdAt`)).items.map((c) => c.id)).toEqual([evil.user.id, anna.user.id, bert.user.id]);
    expect((await list(`q=${tag}&sort=name`)).items.map((c) => c.id)).toEqual([evil.user.id, anna.user.id, bert.user.id]);
    expect((await list(`q=${tag}&sort=-lastLogin`)).items[0]!.id).toBe(anna.user.id);
    const second = await list(`q=${tag}&pageSize=2&page=2`);
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.items).toHaveLength(1);
    const bad = await ctx().app.inject({ method: 'GET', url: '/api/staff/customers?sort=password', headers: owner.auth });
    expect(bad.statusCode).toBe(400);
  });

  it('counts matches only up to a cap: beyond it the page says there are more (no count over the whole table)', async () => {
    const deps = ctx().app.deps;
    const query = { q: tag, page: 1, pageSize: 25 } as CustomerListQuery;
    expect(await findCustomers(deps, query, { countCap: 2 })).toMatchObject({ total: 2, totalCapped: true });
    const exact = await findCustomers(deps, query, { countCap: 3 });
    expect(exact.total).toBe(3);
    expect(exact.totalCapped).toBeUndefined();
    expect((await list(`q=${tag}`)).totalCapped).toBeUndefined();
  });

  it('finds a search page the same way whether it collects the matches or walks the sort order; deleted accounts stay out of both', async () => {
    const deps = ctx().app.deps;
    const gone = await createUser(ctx());
    await ctx().database.db.update(users).set({ username: `gone_${tag}`, email: `gone.${tag}@example.com`, deletedAt: new Date() }).where(eq(users.id, gone.user.id));
    for (const sort of ['-createdAt', 'createdAt', 'name', '-name', 'lastLogin', '-lastLogin'] as const) {
      for (const [page, pageSize] of [[1, 25], [1, 2], [2, 2]] as const) {
        const query = { q: tag, sort, page, pageSize } as CustomerListQuery;
        // Up to the cap the matches are collected and sorted; beyond it (cap 1 < 3 matches) the sort's index is walked.
        const collected = await findCustomers(deps, query, { countCap: 100 });
        const walked = await findCustomers(deps, query, { countCap: 1 });
        expect(walked.totalCapped).toBe(true);
        expect(collected.items.map((c) => c.id), `${sort}, page ${page} of ${pageSize}`).toEqual(walked.items.map((c) => c.id));
        expect(collected.items.map((c) => c.id)).not.toContain(gone.user.id);
        expect(collected.items).toHaveLength(page === 1 ? Math.min(pageSize, 3) : 1);
      }
    }
    // A page past the last match still says how many there are.
    expect(await findCustomers(deps, { q: tag, page: 3, pageSize: 2 } as CustomerListQuery)).toMatchObject({ items: [], total: 3 });
    // Never signed in stays last in both directions.
    for (const sort of ['lastLogin', '-lastLogin']) {
      const logins = (await findCustomers(deps, { q: tag, sort, page: 1, pageSize: 25 } as CustomerListQuery, { countCap: 100 })).items.map((c) => c.lastLoginAt);
      expect(logins[0]).not.toBeNull();
      expect(logins.slice(logins.indexOf(null))).toEqual(logins.slice(logins.indexOf(null)).map(() => null));
    }
  });

  it('exports the current search as CSV with formulas neutralised', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/export.csv?q=${tag}&sort=name`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="kunden-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Kundennummer;Name;E-Mail;Firma;Kundenart;Kunde seit;Letzte Anmeldung');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`;'=cmd_${tag};`);
    expect(lines[1]).toContain(`;'+SUM(A1);Firmenkunde;`);
    expect(lines[2]).toContain(`;Anna_${tag};anna.${tag}@Firma.example;Anna GmbH;Firmenkunde;01.01.2025;01.11.2026`);
  });

  it('is for staff only', async () => {
    for (const url of ['/api/staff/customers', '/api/staff/customers/export.csv']) {
      expect((await ctx().app.inject({ method: 'GET', url, headers: anna.auth })).statusCode).toBe(403);
      expect((await ctx().app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('shows a customer from real data: the bought server, the order, revenue net of VAT, open tickets and staff notes', async () => {
    const buyer = await createUser(ctx());
    await seedCapacity(ctx(), { ips: 1 });
    const checkout = await postCheckout(ctx(), buyer.auth, baseOrder);
    expect(checkout.statusCode, checkout.body).toBe(201);
    const { orderId, sessionId } = checkout.json() as { orderId: string; sessionId: string };
    await paySimulated(ctx(), sessionId);
    await drainJobs(ctx());
    const ticket = await ctx().app.inject({ method: 'POST', url: '/api/tickets', headers: buyer.auth, payload: { title: 'Frage zur Rechnung', description: 'Bitte prüfen.', type: 'billing' } });
    expect(ticket.statusCode).toBe(201);

    const res = await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${buyer.user.id}`, headers: employee.auth });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json<CustomerDetail>();
    const [invoice] = await ctx().database.db.select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(detail).toMatchObject({ id: buyer.user.id, kind: 'private', disabled: false, openCents: 0 });
    expect(detail.revenueNetCents).toBe(invoice!.document.totals.netCents);
    expect(detail.revenueNetCents).toBeGreaterThan(0);
    expect(detail.recentOrders.map((o) => o.id)).toEqual([orderId]);
    // The server through the root server's staff section: its IP, status and term, linked to the staff server page.
    const servers = sectionOf(detail, 'root_server').items;
    expect(servers).toEqual([{ id: expect.any(String), name: expect.stringMatching(/^srv-\d+$/), detail: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/), status: 'Online', expiresAt: expect.any(String), href: `/dashboard/servers/${servers[0]!.id}` }]);
    expect(detail.openTickets.map((t) => t.title)).toEqual(['Frage zur Rechnung']);

    const note = await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${buyer.user.id}/notes`, headers: employee.auth, payload: { body: '  Ruft lieber an als zu mailen. <b>wichtig</b> ' } });
    expect(note.statusCode, note.body).toBe(201);
    expect(note.json<CustomerNote>()).toMatchObject({ body: 'Ruft lieber an als zu mailen. <b>wichtig</b>', author: employee.username });
    const again = await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${buyer.user.id}`, headers: owner.auth });
    expect(again.json<CustomerDetail>().notes.map((n) => n.body)).toEqual(['Ruft lieber an als zu mailen. <b>wichtig</b>']);
    const empty = await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${buyer.user.id}/notes`, headers: employee.auth, payload: { body: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(dm.noteRequired);
  });

  it('lists the customer\'s domains (not deleted ones) with the readable name, status, expiry and auto-renewal', async () => {
    const holder = await createUser(ctx());
    const suffix = Math.random().toString(36).slice(2, 8);
    const idn = hostnameToAscii(`müller-${suffix}.de`)!;
    const expiresAt = new Date('2027-03-01T00:00:00Z');
    const base = { ownerId: holder.user.id, tld: 'de', nameservers: ['ns1.musterhost.de', 'ns2.musterhost.de'], yearCents: 1080 };
    const [active] = await ctx().database.db.insert(domains).values({ ...base, domain: idn, status: 'active', expiresAt, autoRenew: false }).returning();
    const [pending] = await ctx().database.db.insert(domains).values({ ...base, domain: `beispiel-${suffix}.de`, status: 'registering' }).returning();
    await ctx().database.db.insert(domains).values({ ...base, domain: `weg-${suffix}.de`, status: 'expired', deletedAt: new Date() });

    const detail = (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${holder.user.id}`, headers: employee.auth })).json<CustomerDetail>();
    expect(sectionOf(detail, 'domain').items).toEqual([
      { id: pending!.id, name: `beispiel-${suffix}.de`, detail: '', status: 'Wird registriert', expiresAt: null, note: 'verlängert automatisch' },
      { id: active!.id, name: `müller-${suffix}.de (${idn})`, detail: '', status: 'Aktiv', expiresAt: expiresAt.toISOString(), note: 'läuft aus' },
    ]);
    const other = (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${bert.user.id}`, headers: employee.auth })).json<CustomerDetail>();
    expect(sectionOf(other, 'domain').items).toEqual([]);

    // A domain bought through the shop: registered, listed with its order named by the product.
    const buyer = await createDomainCustomer(ctx());
    const bought = await buyDomain(ctx(), buyer);
    const view = (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${buyer.user.id}`, headers: employee.auth })).json<CustomerDetail>();
    expect(sectionOf(view, 'domain').items).toEqual([{ id: bought.domainId, name: bought.domain, detail: '', status: 'Aktiv', expiresAt: expect.any(String), note: 'verlängert automatisch' }]);
    expect(view.recentOrders[0]).toMatchObject({ id: bought.orderId, product: 'Domain', kind: 'new' });
  });

  it('shows every product\'s section through the port in the registry\'s order, each with its empty text', async () => {
    const detail = (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${bert.user.id}`, headers: employee.auth })).json<CustomerDetail>();
    expect(detail.productSections).toEqual([
      { kind: 'root_server', title: 'Server', empty: 'Keine Server.', items: [] },
      { kind: 'webhosting', title: 'Webhosting', empty: 'Keine Hosting-Pakete.', items: [] },
      { kind: 'domain', title: 'Domains', empty: 'Keine Domains.', items: [] },
      { kind: 'cloud_storage', title: 'Cloud-Speicher', empty: 'Kein Cloud-Speicher.', items: [] },
      { kind: 'vdc', title: 'Virtual Data Center', empty: 'Kein Virtual Data Center.', items: [] },
    ]);
  });

  it('lists the customer\'s web hosting packages by primary domain with plan, Hosting-ID, status and term', async () => {
    const buyer = await createUser(ctx());
    await seedHostingServer(ctx());
    const subdomain = unique('kunde');
    const { packageId } = await buyHosting(ctx(), buyer, { subdomain });
    const [pkg] = await ctx().database.db.select().from(hostingPackages).where(eq(hostingPackages.id, packageId));
    const detail = (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${buyer.user.id}`, headers: employee.auth })).json<CustomerDetail>();
    expect(sectionOf(detail, 'webhosting').items).toEqual([
      { id: packageId, name: pkg!.primaryDomain, detail: `Professional · Hosting-ID ${pkg!.number}`, status: 'Aktiv', expiresAt: pkg!.expiresAt!.toISOString() },
    ]);
    expect(pkg!.primaryDomain.startsWith(`${subdomain}.`)).toBe(true);
    // A deleted package leaves the page.
    await ctx().database.db.update(hostingPackages).set({ deletedAt: new Date() }).where(eq(hostingPackages.id, packageId));
    const after = (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${buyer.user.id}`, headers: employee.auth })).json<CustomerDetail>();
    expect(sectionOf(after, 'webhosting').items).toEqual([]);
  });

  it('answers 404 for staff accounts and unknown ids, and refuses customers (also their own record)', async () => {
    for (const id of [employee.user.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${id}`, headers: owner.auth });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(dm.notFound);
    }
    expect((await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${anna.user.id}`, headers: anna.auth })).statusCode).toBe(403);
    expect((await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${anna.user.id}/notes`, headers: anna.auth, payload: { body: 'x' } })).statusCode).toBe(403);
  });

  it('staff change contact data with every change recorded (who, when, old → new); locking ends all sessions', async () => {
    const target = await createUser(ctx());
    const profile = { phone: '+49 30 123456', street: 'Hauptstraße 5', zipCode: '10115', city: 'Berlin', country: 'DE', companyName: '', industry: '' };
    const res = await ctx().app.inject({ method: 'PUT', url: `/api/staff/customers/${target.user.id}`, headers: employee.auth, payload: profile });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json<CustomerDetail>();
    expect(detail).toMatchObject({ phone: '+49 30 123456', address: { street: 'Hauptstraße 5', city: 'Berlin' } });
    expect(detail.audit[0]).toMatchObject({ action: 'customer.updated', actor: employee.username });
    expect(detail.audit[0]!.changes).toEqual(expect.arrayContaining([{ field: 'phone', from: '', to: '+49 30 123456' }, { field: 'city', from: '', to: 'Berlin' }]));
    expect(detail.audit[0]!.changes.map((c) => c.field)).not.toContain('country');
    const same = await ctx().app.inject({ method: 'PUT', url: `/api/staff/customers/${target.user.id}`, headers: employee.auth, payload: profile });
    expect(same.statusCode).toBe(400);
    expect(same.json().error.message).toBe(dm.unchanged);
    const bad = await ctx().app.inject({ method: 'PUT', url: `/api/staff/customers/${target.user.id}`, headers: employee.auth, payload: { ...profile, phone: 'ruf mich an' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Bitte geben Sie eine gültige Telefonnummer ein.');
    const sneaky = await ctx().app.inject({ method: 'PUT', url: `/api/staff/customers/${target.user.id}`, headers: employee.auth, payload: { ...profile, role: 'owner' } });
    expect(sneaky.statusCode).toBe(400);

    expect((await ctx().app.inject({ method: 'GET', url: '/api/account/profile', headers: target.auth })).statusCode).toBe(200);
    const locked = await ctx().app.inject({ method: 'PUT', url: `/api/staff/customers/${target.user.id}/lock`, headers: owner.auth, payload: { locked: true } });
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json<CustomerDetail>()).toMatchObject({ disabled: true, audit: [{ action: 'customer.locked', actor: owner.username }, { action: 'customer.updated' }] });
    expect((await ctx().app.inject({ method: 'GET', url: '/api/account/profile', headers: target.auth })).statusCode).toBe(401);
    const unlocked = await ctx().app.inject({ method: 'PUT', url: `/api/staff/customers/${target.user.id}/lock`, headers: owner.auth, payload: { locked: false } });
    expect(unlocked.json<CustomerDetail>()).toMatchObject({ disabled: false, audit: [{ action: 'customer.unlocked' }, { action: 'customer.locked' }, { action: 'customer.updated' }] });
    // Customers cannot change others, nor staff accounts be edited through this route.
    expect((await ctx().app.inject({ method: 'PUT', url: `/api/staff/customers/${target.user.id}`, headers: anna.auth, payload: profile })).statusCode).toBe(403);
    expect((await ctx().app.inject({ method: 'PUT', url: `/api/staff/customers/${employee.user.id}/lock`, headers: owner.auth, payload: { locked: true } })).statusCode).toBe(404);
  });

  it('logs every mail a customer receives (code mails without their text); staff send mails and record calls', async () => {
    const target = await createUser(ctx());
    const sent = await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${target.user.id}/mails`, headers: employee.auth, payload: { subject: 'Ihr Vertrag', body: 'Guten Tag,\nanbei die Infos. <script>x</script>' } });
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json().message).toBe(dm.mailQueued);
    // A password reset code: its mail is logged by subject only.
    const reset = await ctx().app.inject({ method: 'POST', url: '/api/auth/password-reset/request', payload: { email: target.email } });
    expect(reset.statusCode, reset.body).toBeLessThan(300);
    await drainJobs(ctx());
    expect(ctx().mail.sent.filter((mm) => mm.to === target.email).map((mm) => mm.subject)).toEqual(expect.arrayContaining(['Ihr Vertrag', 'Passwort zurücksetzen']));
    const call = await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${target.user.id}/communications`, headers: owner.auth, payload: { kind: 'call', subject: 'Rückruf wegen Upgrade', body: 'Will auf 8 Kerne.' } });
    expect(call.statusCode, call.body).toBe(201);
    const detail = (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${target.user.id}`, headers: employee.auth })).json<CustomerDetail>();
    const bySubject = Object.fromEntries(detail.communications.map((c) => [c.subject, c]));
    expect(bySubject['Ihr Vertrag']).toMatchObject({ kind: 'email', staff: employee.username });
    expect(bySubject['Ihr Vertrag']!.body).toContain('anbei die Infos. <script>x</script>');
    expect(bySubject['Passwort zurücksetzen']).toMatchObject({ kind: 'email', staff: null, body: null });
    expect(bySubject['Rückruf wegen Upgrade']).toMatchObject({ kind: 'call', staff: owner.username, body: 'Will auf 8 Kerne.' });
    expect(detail.communications[0]!.subject).toBe('Rückruf wegen Upgrade');
    // Mails to staff or unknown addresses are not anyone's communication; bad input is German.
    const bad = await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${target.user.id}/communications`, headers: owner.auth, payload: { kind: 'email', subject: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(dm.kindRequired);
    const noSubject = await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${target.user.id}/mails`, headers: owner.auth, payload: { subject: ' ', body: 'x' } });
    expect(noSubject.json().error.message).toBe(dm.subjectRequired);
    expect((await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${target.user.id}/mails`, headers: target.auth, payload: { subject: 'a', body: 'b' } })).statusCode).toBe(403);
  });
});

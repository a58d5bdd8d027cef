import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { hostingPriceCents, type CustomerDetail } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { drainJobs, paySimulated } from '../../../test/shop.ts';
import { buyHosting, postHostingCheckout, seedHostingServer, unique } from '../../../test/hosting.ts';
import { hostingPackages, invoices, orders } from '../../db/schema/index.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

describeEachDatabase('web hosting: order, pay, provision, invoice', (ctx) => {
  it('buys Professional with a free subdomain: one package, active on the panel, one invoice that passes XRechnung', { timeout: 60_000 }, async () => {
    await seedHostingServer(ctx());
    const customer = await createUser(ctx());
    const sub = unique('shop');
    const res = await postHostingCheckout(ctx(), customer.auth, { plan: 'professional', months: 6, domainType: 'subdomain', subdomain: sub, acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    const [pending] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(pending).toMatchObject({ product: 'webhosting', kind: 'new', status: 'pending', amountCents: hostingPriceCents({ plan: 'professional', months: 6 }) });
    expect(pending!.config).toMatchObject({ plan: 'professional', primaryDomain: `${sub}.${ctx().app.deps.env.hostingSubdomainBase}`, domainType: 'subdomain' });
    expect(pending!.hostingServerId).not.toBeNull();
    expect(pending!.os).toBeNull();

    await paySimulated(ctx(), sessionId);
    // The return page and the webhook both try to fulfil: exactly one package.
    await Promise.all([
      ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${sessionId}`, headers: customer.auth }),
      ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${sessionId}`, headers: customer.auth }),
    ]);
    await drainJobs(ctx());
    const packages = await ctx().database.db.select().from(hostingPackages).where(eq(hostingPackages.ownerId, customer.user.id));
    expect(packages).toHaveLength(1);
    expect(packages[0]).toMatchObject({ status: 'active', plan: 'professional', primaryDomain: `${sub}.${ctx().app.deps.env.hostingSubdomainBase}` });
    const [done] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(done!.status).toBe('completed');

    const result = await ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${sessionId}`, headers: customer.auth });
    expect(result.json()).toMatchObject({ paymentStatus: 'paid', product: 'Webhosting', orderStatus: 'completed' });

    const detail = await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packages[0]!.id}`, headers: customer.auth });
    expect(detail.statusCode, detail.body).toBe(200);
    const d = detail.json();
    expect(d).toMatchObject({ status: 'active', planName: 'Professional', hostingId: String(packages[0]!.number), limits: { databases: 10, storageMb: 50_000, trafficMb: 100_000 } });
    expect(d.phpVersions).toEqual(['7.4', '8.0', '8.1', '8.2']);
    // The product's defaults were set on the panel at provisioning (portal spec §9).
    expect(d.site).toMatchObject({ memoryLimitMb: 256, maxExecutionTimeS: 60, backupFrequency: 'weekly', retentionDays: 30, phpVersion: '8.1' });
    expect(['pending', 'active']).toContain(d.site.ssl);

    const invoiceRows = await ctx().database.db.select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice')));
    expect(invoiceRows).toHaveLength(1);
    const invoice = invoiceRows[0]!;
    expect(invoice.document.lines[0]!.name).toBe('Webhosting Professional');
    expect(invoice.document.lines[0]!.description).toContain(`${sub}.`);
    expect(invoice.document.lines[0]!.quantity).toBe(6);
    const xml = await ctx().app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/xrechnung`, headers: customer.auth });
    const file = path.join(os.tmpdir(), `${invoice.number}-hosting-${ctx().kind}.xml`);
    fs.writeFileSync(file, xml.rawPayload);
    const verdict = await run(path.join(repoRoot, 'tools/xrechnung/validate'), [file]).then((r) => r.stdout, (e: { stdout?: string; message: string }) => e.stdout ?? e.message);
    expect(verdict.trim().split('\n').at(-1)).toMatch(/^PASS/);
    const pdf = await ctx().app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/pdf`, headers: customer.auth });
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // The order page shows the plan, not server parts.
    const order = await ctx().app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: customer.auth });
    expect(order.json()).toMatchObject({ product: 'Webhosting', configuration: { product: 'webhosting', planName: 'Professional' }, productKind: 'webhosting', subscriptionPath: `/dashboard/webhosting/${packages[0]!.id}` });

    // Staff see the package and the order's product on the customer page.
    const employee = await createUser(ctx(), { role: 'employee' });
    const staffView = (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${customer.user.id}`, headers: employee.auth })).json<CustomerDetail>();
    expect(staffView.productSections.find((section) => section.kind === 'webhosting')?.items).toEqual([
      expect.objectContaining({ id: packages[0]!.id, name: packages[0]!.primaryDomain, detail: expect.stringMatching(/^Professional · Hosting-ID \d+$/), status: 'Aktiv' }),
    ]);
    expect(staffView.recentOrders[0]).toMatchObject({ product: 'Webhosting', kind: 'new' });

    // Another customer: 404 on the package, and it is not in their list.
    const stranger = await createUser(ctx());
    expect((await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packages[0]!.id}`, headers: stranger.auth })).statusCode).toBe(404);
    expect((await ctx().app.inject({ method: 'PUT', url: `/api/hosting/${packages[0]!.id}/php`, headers: stranger.auth, payload: { phpVersion: '8.1' } })).statusCode).toBe(404);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/hosting', headers: stranger.auth })).json().items).toEqual([]);
  });

  it('checks input in German: own domain, subdomain, plan, term; a taken domain is refused', async () => {
    await seedHostingServer(ctx());
    const customer = await createUser(ctx());
    const bad = async (body: Record<string, unknown>, status = 400) => {
      const res = await postHostingCheckout(ctx(), customer.auth, { plan: 'starter', months: 1, acceptTerms: true, ...body });
      expect(res.statusCode, res.body).toBe(status);
      return res.json().error.message as string;
    };
    expect(await bad({ domainType: 'own', domain: 'nicht eine domain' })).toContain('gültigen Domainnamen');
    expect(await bad({ domainType: 'own', domain: `x.${ctx().app.deps.env.hostingSubdomainBase}` })).toContain('gültigen Domainnamen');
    expect(await bad({ domainType: 'subdomain', subdomain: '-ab' })).toContain('Subdomain');
    expect(await bad({ domainType: 'subdomain', subdomain: 'abc', months: 13 })).toContain('Laufzeit');
    expect(await bad({ domainType: 'subdomain', subdomain: 'abc', plan: 'gold' })).toContain('Tarif');
    expect(await bad({ domainType: 'subdomain', subdomain: 'abc', amountCents: 1 })).toBeTruthy();

    // Umlauts become punycode; the second order of the same domain by someone else is refused.
    const own = `${unique('müller')}.de`;
    const first = await postHostingCheckout(ctx(), customer.auth, { plan: 'starter', months: 1, acceptTerms: true, domainType: 'own', domain: own });
    expect(first.statusCode, first.body).toBe(201);
    const [order] = await ctx().database.db.select().from(orders).where(eq(orders.id, first.json().orderId));
    expect((order!.config as { primaryDomain: string }).primaryDomain).toMatch(/^xn--/);
    const other = await createUser(ctx());
    const second = await postHostingCheckout(ctx(), other.auth, { plan: 'starter', months: 1, acceptTerms: true, domainType: 'own', domain: own });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toContain('bereits von einem anderen Hosting-Paket');
  });

  it('the package page works against the panel: PHP, databases, domains, FTP, backups, WordPress; errors are German', { timeout: 60_000 }, async () => {
    await seedHostingServer(ctx());
    const customer = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), customer);
    const url = `/api/hosting/${packageId}`;
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', suffix: string, payload?: Record<string, unknown>) =>
      ctx().app.inject({ method, url: `${url}${suffix}`, headers: customer.auth, ...(payload ? { payload } : {}) });

    expect((await call('PUT', '/php', { phpVersion: '8.1', memoryLimitMb: 512, maxExecutionTimeS: 120 })).statusCode).toBe(200);
    expect((await call('GET', '')).json().site).toMatchObject({ phpVersion: '8.1', memoryLimitMb: 512, maxExecutionTimeS: 120 });
    const unknownPhp = await call('PUT', '/php', { phpVersion: '5.6' });
    expect(unknownPhp.statusCode).toBe(400);
    expect(unknownPhp.json().error.message).toContain('PHP-Version');
    expect((await call('PUT', '/php', { memoryLimitMb: 1024 })).statusCode).toBe(400);

    const created = await call('POST', '/databases', { name: 'shop', password: 'Geheim!Passw0rt', confirmPassword: 'Geheim!Passw0rt' });
    expect(created.statusCode, created.body).toBe(201);
    const dbs = (await call('GET', '/databases')).json();
    expect(dbs.databases.map((d: { name: string }) => d.name)).toEqual([`${dbs.prefix}shop`]);
    const dup = await call('POST', '/databases', { name: 'shop', password: 'Geheim!Passw0rt', confirmPassword: 'Geheim!Passw0rt' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toContain('bereits vergeben');
    expect((await call('POST', '/databases', { name: 'x', password: 'Geheim!Passw0rt', confirmPassword: 'Geheim!Passw0rt' })).statusCode).toBe(400);
    expect((await call('POST', '/databases', { name: 'zwei', password: 'Geheim!Passw0rt', confirmPassword: 'anders' })).statusCode).toBe(400);
    const userId = dbs.users[0].id as string;
    expect((await call('PUT', `/database-users/${userId}/password`, { password: 'Neu!Passw0rt1', confirmPassword: 'Neu!Passw0rt1' })).statusCode).toBe(200);
    expect((await call('PUT', '/ftp-password', { password: 'Ftp!Passw0rt1', confirmPassword: 'Ftp!Passw0rt1' })).statusCode).toBe(200);
    expect((await call('DELETE', `/databases/${dbs.databases[0].id}`)).statusCode).toBe(200);
    expect((await call('GET', '/databases')).json().databases).toEqual([]);

    const addon = `${unique('addon')}.de`;
    const added = await call('POST', '/domains', { domain: addon });
    expect(added.statusCode, added.body).toBe(201);
    expect((await call('POST', `/domains/${added.json().id}/ssl`)).statusCode).toBe(202);
    const domains = (await call('GET', '')).json().site.domains as { type: string; domain: string; ssl: string }[];
    expect(domains.map((d) => d.type)).toEqual(['primary', 'addon']);
    expect(domains[1]).toMatchObject({ domain: addon, ssl: 'pending' });
    const primaryId = (await call('GET', '')).json().site.domains[0].id;
    expect((await call('DELETE', `/domains/${primaryId}`)).statusCode).toBe(400);
    expect((await call('DELETE', `/domains/${added.json().id}`)).statusCode).toBe(200);

    const schedule = await call('PUT', '/backup-schedule', { frequency: 'daily', retentionDays: 14 });
    expect(schedule.statusCode).toBe(200);
    // 14 days at one copy a day: the panel's nearest allowed count is 15 copies (decision 022).
    expect(schedule.json().message).toContain('15 Sicherungen');
    expect((await call('GET', '')).json().site).toMatchObject({ backupFrequency: 'daily', backupCopies: 15, retentionDays: 14 });
    expect((await call('POST', '/backups')).statusCode).toBe(201);
    const backups = (await call('GET', '/backups')).json();
    expect(backups.items.length).toBeGreaterThan(0);
    const restore = await call('POST', `/backups/${backups.items[0].id}/restore`);
    expect(restore.statusCode).toBe(202);
    expect((await call('GET', '/backups')).json().restorePending).toBe(true);
    const again = await call('POST', `/backups/${backups.items[0].id}/restore`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain('bereits ein gleichartiger Vorgang');
    expect((await call('POST', `/backups/${backups.items[0].id}/download`)).json()).toMatchObject({ kind: 'ftp' });

    expect((await call('POST', '/app', { kind: 'wordpress' })).statusCode).toBe(202);
    const app = (await call('GET', '')).json();
    expect(app.websiteType).toBe('wordpress');
    expect(app.site.app).toMatchObject({ kind: 'wordpress', state: 'installing' });
    expect((await call('POST', '/app', { kind: 'drupal' })).statusCode).toBe(400);
  });

  it('a package of another customer is 404; sharing lets another account holder operate it but not share or renew it', async () => {
    await seedHostingServer(ctx());
    const owner = await createUser(ctx());
    const friend = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), owner);
    expect((await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: friend.auth })).statusCode).toBe(404);
    const share = await ctx().app.inject({ method: 'POST', url: `/api/hosting/${packageId}/access`, headers: owner.auth, payload: { username: friend.user.username } });
    expect(share.statusCode, share.body).toBe(201);
    const seen = await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: friend.auth });
    expect(seen.json()).toMatchObject({ access: 'shared' });
    expect((await ctx().app.inject({ method: 'PUT', url: `/api/hosting/${packageId}/php`, headers: friend.auth, payload: { phpVersion: '8.0' } })).statusCode).toBe(200);
    expect((await ctx().app.inject({ method: 'POST', url: `/api/hosting/${packageId}/access`, headers: friend.auth, payload: { username: owner.user.username } })).statusCode).toBe(403);
    const renew = await postHostingCheckout(ctx(), friend.auth, { plan: 'professional', months: 1, domainType: 'subdomain', packageId, acceptTerms: true });
    expect(renew.statusCode).toBe(404);
    expect((await ctx().app.inject({ method: 'DELETE', url: `/api/hosting/${packageId}/access/${friend.user.username}`, headers: owner.auth })).statusCode).toBe(204);
    expect((await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: friend.auth })).statusCode).toBe(404);
  });

  it('the account cannot be deleted while a package exists; the data export lists the package', async () => {
    await seedHostingServer(ctx());
    const customer = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), customer);
    const deletion = await ctx().app.inject({ method: 'POST', url: '/api/account/deletion', headers: customer.auth, payload: { currentPassword: customer.password }, remoteAddress: '10.77.0.1' });
    expect(deletion.statusCode).toBe(409);
    expect(deletion.json().error.message).toContain('Hosting-Pakete');
    const exported = await ctx().app.inject({ method: 'GET', url: '/api/account/export', headers: customer.auth });
    expect(exported.statusCode).toBe(200);
    const { unzipSync, strFromU8 } = await import('fflate');
    const data = JSON.parse(strFromU8(unzipSync(exported.rawPayload)['daten.json']!)) as { webhosting: { domain: string }[]; bestellungen: { produkt: string }[] };
    const [pkg] = await ctx().database.db.select().from(hostingPackages).where(eq(hostingPackages.id, packageId));
    expect(data.webhosting.map((h) => h.domain)).toEqual([pkg!.primaryDomain]);
    expect(data.bestellungen.map((o) => o.produkt)).toEqual(['webhosting']);
  });

  it('the last free slot is sold exactly once under 20 parallel checkouts', { timeout: 60_000 }, async () => {
    // Every other server is full for this test: one fresh server with one slot, all others taken.
    const { hostingServers } = await import('../../db/schema/index.ts');
    const db = ctx().database.db;
    await db.update(hostingServers).set({ slots: 0 });
    await seedHostingServer(ctx(), 1);
    const buyers = await Promise.all(Array.from({ length: 20 }, () => createUser(ctx())));
    const results = await Promise.all(buyers.map((b) => postHostingCheckout(ctx(), b.auth, { plan: 'starter', months: 1, domainType: 'subdomain', subdomain: unique('race'), acceptTerms: true })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect(results.find((r) => r.statusCode === 409)!.json().error.message).toContain('kein Platz frei');
    const info = await ctx().app.inject({ method: 'GET', url: '/api/shop/webhosting' });
    expect(info.json()).toMatchObject({ available: false });
    // Paying the one order builds the package; the slot stays taken.
    const winner = results.find((r) => r.statusCode === 201)!;
    await paySimulated(ctx(), winner.json().sessionId);
    await drainJobs(ctx());
    expect((await ctx().app.inject({ method: 'GET', url: '/api/shop/webhosting' })).json()).toMatchObject({ available: false });
  });

  it('term: reminded, suspended at the end (panel locked), renewed through the shop, back online', { timeout: 60_000 }, async () => {
    await seedHostingServer(ctx());
    const customer = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), customer);
    const db = ctx().database.db;
    await db.update(hostingPackages).set({ expiresAt: new Date(Date.now() + 12 * 3600_000) }).where(eq(hostingPackages.id, packageId));
    await ctx().app.scheduler.runNow('hosting-terms');
    await drainJobs(ctx());
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.subject.startsWith('Ihr Hosting-Paket') && m.subject.includes('läuft am'))).toBe(true);

    await db.update(hostingPackages).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(hostingPackages.id, packageId));
    await ctx().app.scheduler.runNow('hosting-terms');
    await drainJobs(ctx());
    const suspended = (await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: customer.auth })).json();
    expect(suspended.status).toBe('suspended');
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.subject.includes('wurde gesperrt'))).toBe(true);
    expect((await ctx().app.inject({ method: 'PUT', url: `/api/hosting/${packageId}/php`, headers: customer.auth, payload: { phpVersion: '8.1' } })).statusCode).toBe(409);

    const renewal = await postHostingCheckout(ctx(), customer.auth, { plan: 'professional', months: 3, domainType: 'subdomain', packageId, acceptTerms: true });
    expect(renewal.statusCode, renewal.body).toBe(201);
    await paySimulated(ctx(), renewal.json().sessionId);
    await drainJobs(ctx());
    const back = (await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: customer.auth })).json();
    expect(back.status).toBe('active');
    expect(back.site.domains[0]).toBeTruthy();
    expect(new Date(back.expiresAt).getTime()).toBeGreaterThan(Date.now() + 80 * 86_400_000);
    const [renewOrder] = await db.select().from(orders).where(eq(orders.id, renewal.json().orderId));
    expect(renewOrder!.status).toBe('completed');
  });

  it('after the grace period the package is deleted with its panel account, and the customer is told', { timeout: 60_000 }, async () => {
    await seedHostingServer(ctx());
    const customer = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), customer);
    const db = ctx().database.db;
    const [pkg] = await db.select().from(hostingPackages).where(eq(hostingPackages.id, packageId));
    const graceDays = ctx().app.deps.env.billing.graceDays;
    await db.update(hostingPackages).set({ expiresAt: new Date(Date.now() - (graceDays + 1) * 86_400_000) }).where(eq(hostingPackages.id, packageId));
    await ctx().app.scheduler.runNow('hosting-terms');
    await drainJobs(ctx());
    await ctx().app.scheduler.runNow('hosting-terms');
    await drainJobs(ctx());
    const [gone] = await db.select().from(hostingPackages).where(eq(hostingPackages.id, packageId));
    expect(gone!.deletedAt).not.toBeNull();
    const { simHostingAccounts } = await import('../../db/schema/index.ts');
    expect(await db.select().from(simHostingAccounts).where(eq(simHostingAccounts.username, pkg!.panelUsername))).toEqual([]);
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.subject.includes('wurde gelöscht'))).toBe(true);
    expect((await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: customer.auth })).statusCode).toBe(404);
    // The slot is free again and the domain can be ordered anew.
    const again = await postHostingCheckout(ctx(), customer.auth, { plan: 'starter', months: 1, domainType: 'subdomain', subdomain: pkg!.primaryDomain.split('.')[0], acceptTerms: true });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('review findings: reserved subdomains, names under another customer\'s domain, one\'s own open checkout, owner-only panel password, one app per package', { timeout: 60_000 }, async () => {
    await seedHostingServer(ctx());
    const alice = await createUser(ctx());
    const bob = await createUser(ctx());
    const www = await postHostingCheckout(ctx(), bob.auth, { plan: 'starter', months: 1, domainType: 'subdomain', subdomain: 'www', acceptTerms: true });
    expect(www.statusCode).toBe(400);
    expect(www.json().error.message).toContain('reserviert');

    const own = `${unique('alice')}.de`;
    const { packageId } = await buyHosting(ctx(), alice, { plan: 'business', domainType: 'own', domain: own });
    const under = await postHostingCheckout(ctx(), bob.auth, { plan: 'starter', months: 1, domainType: 'own', domain: `shop.${own}`, acceptTerms: true });
    expect(under.statusCode).toBe(409);
    expect(under.json().error.message).toContain('eines anderen Kunden');
    const { packageId: bobPackage } = await buyHosting(ctx(), bob, { plan: 'professional' });
    const addon = await ctx().app.inject({ method: 'POST', url: `/api/hosting/${bobPackage}/domains`, headers: bob.auth, payload: { domain: `www.${own}` } });
    expect(addon.statusCode).toBe(409);
    // Alice herself may use names under her domain.
    expect((await ctx().app.inject({ method: 'POST', url: `/api/hosting/${packageId}/domains`, headers: alice.auth, payload: { domain: `www.${own}` } })).statusCode).toBe(201);

    // Changing one's mind about an open checkout: told it is one's own, not "another package".
    const sub = unique('mind');
    expect((await postHostingCheckout(ctx(), bob.auth, { plan: 'starter', months: 2, domainType: 'subdomain', subdomain: sub, acceptTerms: true })).statusCode).toBe(201);
    const again = await postHostingCheckout(ctx(), bob.auth, { plan: 'starter', months: 1, domainType: 'subdomain', subdomain: sub, acceptTerms: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain('bereits eine offene Bestellung');

    // Shared users operate the package but cannot take over its panel login.
    await ctx().app.inject({ method: 'POST', url: `/api/hosting/${packageId}/access`, headers: alice.auth, payload: { username: bob.user.username } });
    const panelPw = await ctx().app.inject({ method: 'PUT', url: `/api/hosting/${packageId}/panel-password`, headers: bob.auth, payload: { password: 'Geheim!Passw0rt', confirmPassword: 'Geheim!Passw0rt' } });
    expect(panelPw.statusCode).toBe(403);

    // One application per package.
    expect((await ctx().app.inject({ method: 'POST', url: `/api/hosting/${packageId}/app`, headers: alice.auth, payload: { kind: 'joomla' } })).statusCode).toBe(202);
    const second = await ctx().app.inject({ method: 'POST', url: `/api/hosting/${packageId}/app`, headers: alice.auth, payload: { kind: 'wordpress' } });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toContain('bereits eine Anwendung');
  });
});

/**
 * Deleting a customer (docs/decisions/018): refused while servers run or invoices are open; otherwise the
 * personal data goes in one transaction while invoices stay byte for byte, and the account is dead.
 */
import { expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { privacyMessages as pm, type CustomerDetail, type CustomerPage } from '@hp/contract';
import { createUser, describeEachDatabase, STRONG_PASSWORD, type TestContext } from '../../../test/harness.ts';
import { buyServer } from '../../../test/shop.ts';
import {
  auditEvents, communications, customerNotes, domains, files, invoices, registrarContacts, servers, sessions, ticketAttachments, ticketSecrets, tickets, users, jobs,
} from '../../db/schema/index.ts';
import { storeFile } from '../../lib/files.ts';
import { sampleInvoiceDocument } from '../invoices/invoice-fixtures.ts';
import { REFRESH_COOKIE } from '../auth/sessions.ts';

type User = Awaited<ReturnType<typeof createUser>>;
let ipCounter = 0;
const nextIp = () => `10.77.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

/** An open invoice written by hand (no order, not paid, not credited). */
async function insertOpenInvoice(ctx: TestContext, userId: string) {
  const number = `RE-T-${crypto.randomBytes(4).toString('hex')}`;
  const doc = sampleInvoiceDocument({ number });
  const [row] = await ctx.database.db.insert(invoices).values({
    kind: 'invoice', number, year: 1990, sequence: crypto.randomInt(1, 2 ** 31 - 1), userId, source: 'manual',
    grossCents: doc.totals.grossCents, issueDate: doc.issueDate, dueDate: doc.dueDate, document: doc,
  }).returning();
  return row!;
}

describeEachDatabase('customer deletion', (ctx) => {
  const call = (opts: InjectOptions) => ctx().app.inject({ remoteAddress: nextIp(), ...opts });
  const del = (id: string, who: User) => call({ method: 'DELETE', url: `/api/staff/customers/${id}`, headers: who.auth });
  const me = (token: string) => call({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

  it('refuses while a server runs or an invoice is open; then anonymises, ends sessions, deletes notes, mail log and files, and keeps invoices byte for byte', async () => {
    const db = ctx().database.db;
    const owner = await createUser(ctx(), { role: 'owner' });
    const employee = await createUser(ctx(), { role: 'employee' });
    const buyer = await createUser(ctx());
    const paid = await buyServer(ctx(), buyer);
    await db.update(users).set({ phone: '+49 30 999', street: 'Geheimweg 7', city: 'Köln', companyName: 'Müller & Söhne' }).where(eq(users.id, buyer.user.id));

    const active = await del(buyer.user.id, owner);
    expect(active.statusCode, active.body).toBe(409);
    expect(active.json().error).toEqual({ code: 'ACTIVE_SERVERS', message: pm.activeServers });

    // The server is gone (terminated); an open invoice still blocks.
    await db.update(servers).set({ deletedAt: new Date() }).where(eq(servers.ownerId, buyer.user.id));
    const open = await insertOpenInvoice(ctx(), buyer.user.id);
    const unpaid = await del(buyer.user.id, owner);
    expect(unpaid.statusCode, unpaid.body).toBe(409);
    expect(unpaid.json().error).toEqual({ code: 'OPEN_INVOICES', message: pm.openInvoices });
    await db.update(invoices).set({ paidAt: new Date() }).where(eq(invoices.id, open.id));

    // Personal data that must go: staff note, mail log, a ticket file and a confidential field.
    const note = await call({ method: 'POST', url: `/api/staff/customers/${buyer.user.id}/notes`, headers: employee.auth, payload: { body: 'Zahlt immer spät, Vorsicht.' } });
    expect(note.statusCode, note.body).toBe(201);
    await call({ method: 'POST', url: `/api/staff/customers/${buyer.user.id}/communications`, headers: owner.auth, payload: { kind: 'call', subject: 'Rückruf', body: 'Privatnummer 0171 555' } });
    const ticket = await call({ method: 'POST', url: '/api/tickets', headers: buyer.auth, payload: { title: 'Frage zur Rechnung', description: 'Bitte prüfen Sie meine Rechnung.', type: 'billing' } });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const ticketId = ticket.json().id as string;
    const secret = await call({ method: 'POST', url: `/api/tickets/${ticketId}/secrets`, headers: buyer.auth, payload: { label: 'Root', value: 'TopGeheim-123' } });
    expect(secret.statusCode, secret.body).toBe(201);
    const fileId = await storeFile(db, { name: 'ausweis.txt', contentType: 'text/plain', data: Buffer.from('Personalausweis') });
    await db.insert(ticketAttachments).values({ fileId, ticketId, uploadedBy: buyer.user.id });

    // The retained records, before: rows and the rendered PDF of every invoice.
    const invoicesBefore = await db.select().from(invoices).where(eq(invoices.userId, buyer.user.id)).orderBy(invoices.number);
    expect(invoicesBefore.map((i) => i.id).sort()).toEqual([paid.id, open.id].sort());
    const pdfOf = async (id: string) => (await call({ method: 'GET', url: `/api/invoices/${id}/pdf`, headers: owner.auth })).rawPayload;
    const pdfsBefore = await Promise.all(invoicesBefore.map((i) => pdfOf(i.id)));

    // A second device with a refresh cookie.
    const login = await call({ method: 'POST', url: '/api/auth/login', payload: { username: buyer.email, password: STRONG_PASSWORD } });
    expect(login.statusCode, login.body).toBe(200);
    const cookie = login.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;

    // Only the owner deletes; a customer cannot delete anyone through the staff route.
    const other = await createUser(ctx());
    expect((await del(buyer.user.id, employee)).statusCode).toBe(403);
    expect((await del(buyer.user.id, other)).statusCode).toBe(403);
    expect((await del(other.user.id, buyer)).statusCode).toBe(403);

    // The background work about the customer ran (staff were notified of the new ticket by name).
    await ctx().app.jobs.drain();
    const naming = async () => (await db.select({ payload: jobs.payload }).from(jobs))
      .filter((j) => JSON.stringify(j.payload).includes(buyer.username) || JSON.stringify(j.payload).includes(buyer.user.id));
    expect((await naming()).length, 'finished jobs name the customer before the deletion').toBeGreaterThan(0);

    const done = await del(buyer.user.id, owner);
    expect(done.statusCode, done.body).toBe(200);
    // No job row names the customer any more (issue 21: four rows per customer stayed).
    expect(await naming()).toEqual([]);
    expect(done.json()).toEqual({ message: pm.customerDeleted });

    const [row] = await db.select().from(users).where(eq(users.id, buyer.user.id));
    expect(row).toMatchObject({
      username: `Gelöschter Kunde ${row!.customerNumber}`, email: `geloescht-${buyer.user.id}@invalid`, phone: '', street: '', city: '', companyName: '',
      passwordHash: '!deleted', totpSecret: null, totpEnabled: false,
    });
    expect(row!.deletedAt).not.toBeNull();
    expect(JSON.stringify(row)).not.toMatch(/Geheimweg|Müller|999/);

    // Every session ended: the access token and the refresh cookie.
    expect((await me(buyer.token)).statusCode).toBe(401);
    expect((await call({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: cookie } })).statusCode).toBe(401);
    expect((await db.select().from(sessions).where(eq(sessions.userId, buyer.user.id))).every((s) => s.revokedAt !== null)).toBe(true);

    // Deleted: notes, mail log, files, confidential fields. Kept: the ticket's text, linked to the anonymous row.
    expect(await db.select().from(customerNotes).where(eq(customerNotes.customerId, buyer.user.id))).toEqual([]);
    expect(await db.select().from(communications).where(eq(communications.customerId, buyer.user.id))).toEqual([]);
    expect(await db.select({ id: files.id }).from(files).where(eq(files.id, fileId))).toEqual([]);
    expect(await db.select().from(ticketSecrets).where(eq(ticketSecrets.ticketId, ticketId))).toEqual([]);
    const [keptTicket] = await db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(keptTicket).toMatchObject({ customerId: buyer.user.id, title: 'Frage zur Rechnung', description: 'Bitte prüfen Sie meine Rechnung.', status: 'closed' });

    // Invoices: the same rows and the same PDFs, byte for byte.
    const invoicesAfter = await db.select().from(invoices).where(eq(invoices.userId, buyer.user.id)).orderBy(invoices.number);
    expect(invoicesAfter).toEqual(invoicesBefore);
    const pdfsAfter = await Promise.all(invoicesAfter.map((i) => pdfOf(i.id)));
    pdfsAfter.forEach((pdf, i) => expect(Buffer.compare(pdf, pdfsBefore[i]!)).toBe(0));

    // Recorded, with the staff edits' old values gone.
    const audit = await db.select().from(auditEvents).where(and(eq(auditEvents.targetType, 'customer'), eq(auditEvents.targetId, buyer.user.id)));
    expect(audit.map((a) => a.action)).toContain('customer.deleted');
    expect(audit.find((a) => a.action === 'customer.deleted')).toMatchObject({ actorId: owner.user.id, details: { self: false } });

    // The old address logs in like an unknown one and can register again.
    const unknown = await call({ method: 'POST', url: '/api/auth/login', payload: { username: `niemand-${crypto.randomUUID()}@example.com`, password: STRONG_PASSWORD } });
    const old = await call({ method: 'POST', url: '/api/auth/login', payload: { username: buyer.email, password: STRONG_PASSWORD } });
    expect(old.statusCode).toBe(401);
    expect(old.json().error).toEqual(unknown.json().error);
    const again = await call({ method: 'POST', url: '/api/auth/register', payload: { username: buyer.username, email: buyer.email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD } });
    expect(again.statusCode, again.body).toBeLessThan(300);
    const [fresh] = await db.select().from(users).where(eq(users.email, buyer.email));
    expect(fresh!.id).not.toBe(buyer.user.id);

    // Staff: gone from the overview and its search, marked on the detail page, not deleted twice.
    const overview = (await call({ method: 'GET', url: `/api/staff/customers?q=${row!.customerNumber}`, headers: employee.auth })).json<CustomerPage>();
    expect(overview.items.map((c) => c.id)).not.toContain(buyer.user.id);
    const detail = (await call({ method: 'GET', url: `/api/staff/customers/${buyer.user.id}`, headers: employee.auth })).json<CustomerDetail>();
    expect(detail).toMatchObject({ name: row!.username, email: row!.email, notes: [], communications: [] });
    expect(detail.deletedAt).not.toBeNull();
    const twice = await del(buyer.user.id, owner);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('ALREADY_DELETED');
    expect((await call({ method: 'PUT', url: `/api/staff/customers/${buyer.user.id}/lock`, headers: owner.auth, payload: { locked: false } })).statusCode).toBe(404);
  });

  it('lets a customer delete their own account with the current password, never staff accounts or another account', async () => {
    const db = ctx().database.db;
    const customer = await createUser(ctx());
    const bystander = await createUser(ctx());
    const employee = await createUser(ctx(), { role: 'employee' });
    const deleteOwn = (who: User, payload: unknown) => call({ method: 'POST', url: '/api/account/deletion', headers: who.auth, payload: payload as object });

    const wrong = await deleteOwn(customer, { currentPassword: 'Falsch!Passwort9' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('CURRENT_PASSWORD_WRONG');
    // No id in the body names another account.
    expect((await deleteOwn(customer, { currentPassword: customer.password, userId: bystander.user.id })).statusCode).toBe(400);
    const staff = await deleteOwn(employee, { currentPassword: employee.password });
    expect(staff.statusCode).toBe(403);
    expect(staff.json().error.message).toBe(pm.staffAccount);

    const ok = await deleteOwn(customer, { currentPassword: customer.password });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ message: pm.accountDeleted });
    expect(ok.cookies.find((c) => c.name === REFRESH_COOKIE)?.value ?? '').toBe('');
    expect((await me(customer.token)).statusCode).toBe(401);
    expect((await call({ method: 'POST', url: '/api/auth/login', payload: { username: customer.username, password: customer.password } })).statusCode).toBe(401);
    const [audit] = await db.select().from(auditEvents).where(and(eq(auditEvents.targetId, customer.user.id), eq(auditEvents.action, 'customer.deleted')));
    expect(audit).toMatchObject({ actorId: customer.user.id, details: { self: true } });
    // The bystander is untouched.
    expect((await me(bystander.token)).statusCode).toBe(200);
    const [b] = await db.select({ deletedAt: users.deletedAt, email: users.email }).from(users).where(eq(users.id, bystander.user.id));
    expect(b).toEqual({ deletedAt: null, email: bystander.email });
  });

  it('refuses while a domain is registered, being registered or transferred, or expired but not yet released; a failed one does not count', async () => {
    const owner = await createUser(ctx(), { role: 'owner' });
    const customer = await createUser(ctx());
    const db = ctx().database.db;
    const name = `loeschtest-${crypto.randomBytes(4).toString('hex')}.de`;
    await db.insert(domains).values({
      ownerId: customer.user.id, domain: `fehl-${name}`, tld: 'de', status: 'failed', nameservers: ['ns1.musterhost.de', 'ns2.musterhost.de'], yearCents: 1080,
    });
    const [domain] = await db.insert(domains).values({
      ownerId: customer.user.id, domain: name, tld: 'de', status: 'registering', nameservers: ['ns1.musterhost.de', 'ns2.musterhost.de'], yearCents: 1080,
    }).returning();
    await db.insert(registrarContacts).values({ userId: customer.user.id, contactId: 'C-LOESCHTEST', contactHash: 'hash' });
    for (const status of ['registering', 'transferring', 'active', 'expired'] as const) {
      await db.update(domains).set({ status, expiresAt: status === 'registering' ? null : new Date('2027-01-01T00:00:00Z') }).where(eq(domains.id, domain!.id));
      const refused = await del(customer.user.id, owner);
      expect(refused.statusCode, `${status}: ${refused.body}`).toBe(409);
      expect(refused.json().error).toEqual({ code: 'ACTIVE_DOMAINS', message: pm.activeDomains });
    }
    const self = await call({ method: 'POST', url: '/api/account/deletion', headers: customer.auth, payload: { currentPassword: customer.password } });
    expect(self.statusCode).toBe(409);
    expect(self.json().error.code).toBe('ACTIVE_DOMAINS');
    expect((await me(customer.token)).statusCode).toBe(200);

    // Released after the grace period (deleted_at set): the account can go; the domain rows stay, owned by the anonymised row.
    await db.update(domains).set({ deletedAt: new Date() }).where(eq(domains.id, domain!.id));
    const done = await del(customer.user.id, owner);
    expect(done.statusCode, done.body).toBe(200);
    expect(await db.select().from(registrarContacts).where(eq(registrarContacts.userId, customer.user.id))).toEqual([]);
    expect(await db.select({ id: domains.id }).from(domains).where(eq(domains.ownerId, customer.user.id))).toHaveLength(2);
  });

  it('refuses the self-deletion with a German message while an invoice is open', async () => {
    const customer = await createUser(ctx());
    await insertOpenInvoice(ctx(), customer.user.id);
    const res = await call({ method: 'POST', url: '/api/account/deletion', headers: customer.auth, payload: { currentPassword: customer.password } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({ code: 'OPEN_INVOICES', message: pm.openInvoices });
    expect((await me(customer.token)).statusCode).toBe(200);
  });
});

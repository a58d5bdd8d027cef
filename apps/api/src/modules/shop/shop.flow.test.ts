import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { priceCents, splitGross } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { baseOrder, billingTick, drainJobs, paySimulated, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { invoices, ipAddresses, orders, servers } from '../../db/schema/index.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

describeEachDatabase('shop: order, pay, fulfil, invoice', (ctx) => {
  it('buys a server end to end on the simulated provider', { timeout: 60_000 }, async () => {
    await seedCapacity(ctx(), { ips: 2 });
    const customer = await createUser(ctx());
    const res = await postCheckout(ctx(), customer.auth, { ...baseOrder, months: 3 });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId, url } = res.json() as { orderId: string; sessionId: string; url: string };
    expect(url).toContain(`/pay/sim/${sessionId}`);

    const [pending] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    const expected = priceCents({ os: 'linux', cpu: 2, ram: 4, storage: 50, months: 3 });
    expect(pending!.amountCents).toBe(expected);
    expect(pending!.status).toBe('pending');
    const [held] = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.id, pending!.ipAddressId!));
    expect(held!.reservedUntil!.getTime()).toBeGreaterThan(Date.now());

    const page = await ctx().app.inject({ method: 'GET', url: `/pay/sim/${sessionId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Kartennummer');

    const paid = await paySimulated(ctx(), sessionId);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toContain(`/shop/payment?session_id=${sessionId}`);

    // The return page arrives before the webhook: it asks the provider and fulfils.
    const result = await ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${sessionId}`, headers: customer.auth });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json()).toMatchObject({ paymentStatus: 'paid', orderId, amountCents: expected, orderStatus: 'processing', kind: 'new' });

    await drainJobs(ctx());
    const [done] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(done!.status).toBe('completed');
    expect(done!.cardLast4).toBe('4242');
    const [server] = await ctx().database.db.select().from(servers).where(eq(servers.id, done!.subscriptionId!));
    expect(server!.status).toBe('online');
    expect(server!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 80 * 86_400_000);
    const [ip] = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.serverId, server!.id));
    expect(ip!.id).toBe(pending!.ipAddressId);

    const list = await ctx().app.inject({ method: 'GET', url: '/api/orders', headers: customer.auth });
    expect(list.json().items).toHaveLength(1);
    const detail = await ctx().app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: customer.auth });
    expect(detail.json()).toMatchObject({ ...splitGross(expected), configuration: { product: 'root_server', location: 'Frankfurt am Main', network: { ip: ip!.address } } });

    const inv = await ctx().app.inject({ method: 'GET', url: '/api/invoices', headers: customer.auth });
    expect(inv.json().items).toHaveLength(1);
    const invoice = inv.json().items[0];
    expect(invoice.number).toMatch(/^RE-\d{4}-\d{6}$/);
    expect(invoice.amountCents).toBe(expected);
    const pdf = await ctx().app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/pdf`, headers: customer.auth });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.headers['content-disposition']).toContain(`Rechnung-${invoice.number}.pdf`);
    const xml = await ctx().app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/xrechnung`, headers: customer.auth });
    expect(xml.body).toContain('<cbc:PrimaryAccountNumberID>4242</cbc:PrimaryAccountNumberID>');
    // The e-invoice of a real order passes the official XRechnung 3.0 rules.
    const file = path.join(os.tmpdir(), `${invoice.number}-${ctx().kind}.xml`);
    fs.writeFileSync(file, xml.rawPayload);
    const verdict = await run(path.join(repoRoot, 'tools/xrechnung/validate'), [file]).then((r) => r.stdout, (e: { stdout?: string; message: string }) => e.stdout ?? e.message);
    expect(verdict.trim().split('\n').at(-1)).toMatch(/^PASS/);

    // The invoice went out by mail with both files.
    const mail = ctx().mail.sent.find((m) => m.to === customer.email && m.subject.includes(invoice.number));
    expect(mail?.attachments?.map((a) => a.filename)).toEqual([`Rechnung-${invoice.number}.pdf`, `Rechnung-${invoice.number}.xml`]);

    // Another customer sees none of it.
    const other = await createUser(ctx());
    for (const url of [`/api/orders/${orderId}`, `/api/invoices/${invoice.id}/pdf`, `/api/invoices/${invoice.id}/xrechnung`, `/api/shop/payment-result?session_id=${sessionId}`]) {
      expect((await ctx().app.inject({ method: 'GET', url, headers: other.auth })).statusCode).toBe(404);
    }
    // Staff may download it.
    const staff = await createUser(ctx(), { role: 'employee' });
    expect((await ctx().app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/pdf`, headers: staff.auth })).statusCode).toBe(200);

    // A correction is a credit note (owner only); the invoice itself stays as issued.
    const byEmployee = await ctx().app.inject({ method: 'POST', url: `/api/admin/invoices/${invoice.id}/credit-note`, headers: staff.auth, payload: { reason: 'Kulanz' } });
    expect(byEmployee.statusCode).toBe(403);
    const owner = await createUser(ctx(), { role: 'owner' });
    const note = await ctx().app.inject({ method: 'POST', url: `/api/admin/invoices/${invoice.id}/credit-note`, headers: owner.auth, payload: { reason: 'Kulanz wegen Ausfall' } });
    expect(note.statusCode, note.body).toBe(201);
    expect(note.json()).toMatchObject({ kind: 'credit_note', amountCents: -expected });
    expect(note.json().number).toMatch(/^GS-\d{4}-\d{6}$/);
    const again = await ctx().app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/xrechnung`, headers: customer.auth });
    expect(again.body).toBe(xml.body);
    const noteXml = await ctx().app.inject({ method: 'GET', url: `/api/invoices/${note.json().id}/xrechnung`, headers: customer.auth });
    const noteFile = path.join(os.tmpdir(), `${note.json().number}-${ctx().kind}.xml`);
    fs.writeFileSync(noteFile, noteXml.rawPayload);
    const noteVerdict = await run(path.join(repoRoot, 'tools/xrechnung/validate'), [noteFile]).then((r) => r.stdout, (e: { stdout?: string; message: string }) => e.stdout ?? e.message);
    expect(noteVerdict.trim().split('\n').at(-1)).toMatch(/^PASS/);
  });

  it('a declined card creates nothing; the order stays payable until its hold runs out, then the IP is released', async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const res = await postCheckout(ctx(), customer.auth, baseOrder);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    const declined = await paySimulated(ctx(), sessionId, '4000 0000 0000 0002');
    expect(declined.statusCode).toBe(303);
    expect(declined.headers.location).toContain(`/shop/payment?order=${orderId}`);
    const result = await ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?order=${orderId}`, headers: customer.auth });
    expect(result.json()).toMatchObject({ paymentStatus: 'failed', orderStatus: 'pending', retryUntil: expect.any(String) });
    await drainJobs(ctx());
    const [open] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(open!.status).toBe('pending');

    // The hold runs out: the billing tick cancels the order and gives the address back.
    const past = new Date(Date.now() - 60_000);
    await ctx().database.db.update(orders).set({ holdUntil: past }).where(eq(orders.id, orderId));
    await ctx().database.db.update(ipAddresses).set({ reservedUntil: past }).where(eq(ipAddresses.id, open!.ipAddressId!));
    await billingTick(ctx().app);
    const [order] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).toBe('cancelled');
    expect(order!.subscriptionId).toBeNull();
    const [ip] = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.id, order!.ipAddressId!));
    expect(ip!.serverId).toBeNull();
    expect(ip!.reservedUntil).toBeNull();
    expect((await ctx().app.inject({ method: 'GET', url: '/api/orders', headers: customer.auth })).json().items).toHaveLength(0);
    expect(await ctx().database.db.select().from(invoices).where(eq(invoices.orderId, orderId))).toHaveLength(0);
  });

  it('refuses a price, a node or unknown fields in the order (no mass assignment)', async () => {
    const customer = await createUser(ctx());
    for (const extra of [{ price: 1 }, { amountCents: 1 }, { nodeId: 1 }, { userId: customer.user.id }]) {
      const res = await postCheckout(ctx(), customer.auth, { ...baseOrder, ...extra });
      expect(res.statusCode).toBe(400);
    }
    const noTerms = await postCheckout(ctx(), customer.auth, { ...baseOrder, acceptTerms: false });
    expect(noTerms.statusCode).toBe(400);
    expect(noTerms.json().error.message).toBe('Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.');
    const anonymous = await postCheckout(ctx(), {}, baseOrder);
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('shop input ranges', () => {
  it.each([
    [{ cpu: 0 }], [{ cpu: 89 }], [{ ram: 3 }], [{ ram: 514 }], [{ storage: 24 }], [{ storage: 27 }], [{ storage: 505 }], [{ months: 0 }], [{ months: 13 }],
    [{ os: 'windows' }], [{ distro: 'Arch' }],
  ])('%j is refused', async (change) => {
    const { CheckoutInput } = await import('@hp/contract');
    expect(CheckoutInput.safeParse({ ...baseOrder, ...change }).success).toBe(false);
  });
});

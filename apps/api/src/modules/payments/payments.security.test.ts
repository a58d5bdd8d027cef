import crypto from 'node:crypto';
import { expect, it, vi } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { shopMessages } from '@hp/contract';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { baseOrder, drainJobs, paySimulated, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { invoices, ipAddresses, jobs, orders, paymentEvents, servers, serverTasks, simCheckoutSessions } from '../../db/schema/index.ts';
import { signPayload } from '../../drivers/payments/signature.ts';
import type { SimulatedPayments } from '../../drivers/payments/simulated.ts';
import { AppError } from '../../http/errors.ts';
import { receiveWebhook, syncCheckout } from './payments.service.ts';

/**
 * Payments (quality/security-and-reliability.md "Payments", integrations/stripe-checkout.md): the webhook
 * refuses anything not signed by the provider without writing, events are handled exactly once however
 * often, in whatever order and through whichever door they arrive, and a payment that does not match its
 * order never fulfils it.
 */

const secretOf = (ctx: TestContext) => (ctx.app.deps.payments as SimulatedPayments).webhookSecret;
const newEventId = () => `evt_test_${crypto.randomBytes(12).toString('hex')}`;

/** A Stripe-shaped event body (the handler only trusts id, type and data.object.id). */
function eventBody(type: string, sessionId: string, id = newEventId(), extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    id, object: 'event', type, created: Math.floor(Date.now() / 1000),
    data: { object: { id: sessionId, object: 'checkout.session', status: 'complete', payment_status: 'paid', ...extra } },
  });
}

function postWebhook(ctx: TestContext, payload: string, signature?: string) {
  return ctx.app.inject({
    method: 'POST', url: '/api/payments/webhook', payload,
    headers: { 'content-type': 'application/json', ...(signature !== undefined ? { 'stripe-signature': signature } : {}) },
  });
}

/** The customer paid on the provider's side; no event has been delivered yet. */
async function markSimPaid(ctx: TestContext, sessionId: string, last4 = '4242') {
  await ctx.database.db.update(simCheckoutSessions).set({
    status: 'complete', paymentStatus: 'paid', customerName: 'Erika Müller', cardBrand: 'visa', cardLast4: last4,
    address: { line1: 'Hauptstraße 5', line2: null, postalCode: '10115', city: 'Berlin', country: 'DE' },
  }).where(eq(simCheckoutSessions.id, sessionId));
}

async function openOrder(ctx: TestContext) {
  await seedCapacity(ctx, { ips: 2 });
  const customer = await createUser(ctx);
  const res = await postCheckout(ctx, customer.auth, baseOrder);
  expect(res.statusCode, res.body).toBe(201);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  return { customer, orderId, sessionId };
}

async function tableCounts(ctx: TestContext) {
  const db = ctx.database.db;
  const n = async (table: typeof jobs | typeof paymentEvents | typeof servers | typeof invoices | typeof orders) => Number((await db.select({ n: count() }).from(table))[0]!.n);
  return { jobs: await n(jobs), events: await n(paymentEvents), servers: await n(servers), invoices: await n(invoices), orders: await n(orders) };
}

async function fulfilmentOf(ctx: TestContext, orderId: string, ownerId: string) {
  const db = ctx.database.db;
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const ownServers = await db.select().from(servers).where(eq(servers.ownerId, ownerId));
  const orderInvoices = await db.select().from(invoices).where(eq(invoices.orderId, orderId));
  const createTasks = ownServers.length
    ? await db.select().from(serverTasks).where(and(eq(serverTasks.serverId, ownServers[0]!.id), eq(serverTasks.kind, 'create')))
    : [];
  const ips = ownServers.length ? await db.select().from(ipAddresses).where(eq(ipAddresses.serverId, ownServers[0]!.id)) : [];
  const provisionJobs = await db.select().from(jobs).where(eq(jobs.dedupeKey, `provision:${orderId}`));
  return { order: order!, servers: ownServers, invoices: orderInvoices, createTasks, ips, provisionJobs };
}

describeEachDatabase('payments: webhook security and exactly-once fulfilment', (ctx) => {
  it('refuses a missing, wrong, stale or garbage signature and a body changed after signing: 400, German message, nothing written', async () => {
    const { orderId, sessionId } = await openOrder(ctx());
    await markSimPaid(ctx(), sessionId);
    const secret = secretOf(ctx());
    const body = eventBody('checkout.session.completed', sessionId);
    const now = Math.floor(Date.now() / 1000);
    const validSignature = signPayload(body, secret);
    // Timestamps are signed when the request is sent: under load the earlier cases take seconds, and a
    // "now + 301 s" taken at the start would drift back inside the 300-s tolerance. Even signed at send
    // time, whole-second rounding plus a slow request can eat one second (seen in CI), so the cases
    // stay a minute outside the tolerance.
    const at = (offset: number) => () => signPayload(body, secret, Math.floor(Date.now() / 1000) + offset);
    const cases: [string, string, string | undefined | (() => string)][] = [
      ['missing signature', body, undefined],
      ['empty signature', body, ''],
      ['wrong secret', body, signPayload(body, 'whsec_not_the_real_secret')],
      ['body changed after signing', body.replace('checkout.session.completed', 'checkout.session.expired'), validSignature],
      ['body extended after signing', `${body} `, validSignature],
      ['other event id after signing', body.replace(/evt_test_[0-9a-f]+/, newEventId()), validSignature],
      ['stale timestamp (now - 360 s)', body, at(-360)],
      ['far future timestamp (now + 360 s)', body, at(360)],
      ['garbage header', body, 'garbage'],
      ['timestamp only', body, `t=${now}`],
      ['signature only', body, validSignature.replace(/^t=\d+,/, '')],
      ['non-hex signature', body, `t=${now},v1=${'z'.repeat(64)}`],
      ['short signature', body, `t=${now},v1=abcdef`],
      ['wrong scheme', body, validSignature.replace('v1=', 'v0=')],
      ['signed body that is no JSON', 'not json', signPayload('not json', secret)],
    ];
    const before = await tableCounts(ctx());
    for (const [name, payload, header] of cases) {
      const res = await postWebhook(ctx(), payload, typeof header === 'function' ? header() : header);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
      expect(res.headers['content-type'], name).toMatch(/^application\/json/);
      expect(res.json().error, name).toMatchObject({ code: 'INVALID_SIGNATURE', message: shopMessages.webhookInvalid });
    }
    expect(await tableCounts(ctx())).toEqual(before);
    const [order] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).toBe('pending');

    // The service logs a refusal as a security event.
    const warn = vi.fn();
    const refused = await receiveWebhook({ ...ctx().app.deps, log: { warn } }, Buffer.from(body), 'garbage').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).statusCode).toBe(400);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ security: true }), expect.any(String));

    // Control: the untouched body with its valid signature is accepted (the cases above failed for their flaw only).
    const ok = await postWebhook(ctx(), body, validSignature);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ received: true, result: 'queued' });
  });

  it('the same event delivered 10 times in parallel: one order paid, one server, one invoice', async () => {
    const { customer, orderId, sessionId } = await openOrder(ctx());
    await markSimPaid(ctx(), sessionId, '1881');
    const eventId = newEventId();
    const body = eventBody('checkout.session.completed', sessionId, eventId);
    const header = signPayload(body, secretOf(ctx()));
    const responses = await Promise.all(Array.from({ length: 10 }, () => postWebhook(ctx(), body, header)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const results = responses.map((r) => (r.json() as { result: string }).result).sort();
    expect(results).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'queued']);
    const db = ctx().database.db;
    expect(await db.select().from(paymentEvents).where(eq(paymentEvents.id, eventId))).toHaveLength(1);
    expect(await db.select().from(jobs).where(eq(jobs.dedupeKey, `event:${eventId}`))).toHaveLength(1);

    await drainJobs(ctx());
    const f = await fulfilmentOf(ctx(), orderId, customer.user.id);
    expect(f.order.status).toBe('completed');
    expect(f.order.cardLast4).toBe('1881');
    expect(f.servers).toHaveLength(1);
    expect(f.servers[0]!.status).toBe('online');
    expect(f.ips).toHaveLength(1);
    expect(f.invoices).toHaveLength(1);
    expect(f.createTasks).toHaveLength(1);
  });

  it('completed + async_payment_succeeded + the return page for one payment, all at once: one fulfilment', async () => {
    const { customer, orderId, sessionId } = await openOrder(ctx());
    await markSimPaid(ctx(), sessionId);
    const secret = secretOf(ctx());
    const completed = eventBody('checkout.session.completed', sessionId);
    const asyncSucceeded = eventBody('checkout.session.async_payment_succeeded', sessionId);
    const resultPage = () => ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${sessionId}`, headers: customer.auth });
    const deps = ctx().app.deps;

    const first = await Promise.all([
      postWebhook(ctx(), completed, signPayload(completed, secret)),
      postWebhook(ctx(), asyncSucceeded, signPayload(asyncSucceeded, secret)),
      resultPage(),
      resultPage(),
    ]);
    expect(first.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(first[0]!.json().result).toBe('queued');
    expect(first[1]!.json().result).toBe('queued');
    // Now the queued webhook jobs (two runners side by side), the return page and direct calls race.
    const second = await Promise.all([
      ctx().app.jobs.drain({ ignoreRunAt: true }),
      ctx().app.jobs.drain({ ignoreRunAt: true }),
      resultPage(),
      syncCheckout(deps, sessionId),
      syncCheckout(deps, sessionId),
    ]);
    expect(second.slice(3)).not.toContain('mismatch');
    await drainJobs(ctx());

    for (const page of [...first.slice(2), second[2] as Awaited<ReturnType<typeof resultPage>>]) {
      expect(page.json()).toMatchObject({ paymentStatus: 'paid', orderId });
    }
    const f = await fulfilmentOf(ctx(), orderId, customer.user.id);
    expect(f.order.status).toBe('completed');
    expect(f.servers).toHaveLength(1);
    expect(f.invoices).toHaveLength(1);
    expect(f.createTasks).toHaveLength(1);
    expect(f.provisionJobs).toHaveLength(1);
    expect(f.ips).toHaveLength(1);
    expect(await syncCheckout(deps, sessionId)).toBe('already');
    const final = await resultPage();
    expect(final.json()).toMatchObject({ paymentStatus: 'paid', orderStatus: 'completed', productKind: 'root_server', subscriptionPath: expect.stringMatching(new RegExp(`^/dashboard/(linux|windows)/${f.servers[0]!.id}$`)), invoiceId: f.invoices[0]!.id });
  });

  it('an "expired" event arriving for a session that is actually paid: the re-fetch wins, the order is fulfilled', async () => {
    const { customer, orderId, sessionId } = await openOrder(ctx());
    await markSimPaid(ctx(), sessionId);
    const body = eventBody('checkout.session.expired', sessionId, newEventId(), { status: 'expired', payment_status: 'unpaid' });
    const res = await postWebhook(ctx(), body, signPayload(body, secretOf(ctx())));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toBe('queued');
    await drainJobs(ctx());
    const f = await fulfilmentOf(ctx(), orderId, customer.user.id);
    expect(f.order.status).toBe('completed');
    expect(f.order.failureReason).toBeNull();
    expect(f.servers).toHaveLength(1);
    expect(f.invoices).toHaveLength(1);
  });

  it('an amount or order mismatch never fulfils and is logged as a security event', async () => {
    const db = ctx().database.db;
    const deps = ctx().app.deps;

    // (1) The order's amount changed after the session was created (or the session was made for another amount).
    const a = await openOrder(ctx());
    await db.update(orders).set({ amountCents: sql`${orders.amountCents} + 100` }).where(eq(orders.id, a.orderId));
    expect((await paySimulated(ctx(), a.sessionId)).statusCode).toBe(303);
    // (2) The provider's session carries a smaller amount than the order.
    const b = await openOrder(ctx());
    await db.update(simCheckoutSessions).set({ amountCents: 100 }).where(eq(simCheckoutSessions.id, b.sessionId));
    expect((await paySimulated(ctx(), b.sessionId)).statusCode).toBe(303);
    // (3) The session refers to another order (client_reference_id).
    const c = await openOrder(ctx());
    const other = await openOrder(ctx());
    await db.update(simCheckoutSessions).set({ orderId: other.orderId }).where(eq(simCheckoutSessions.id, c.sessionId));
    expect((await paySimulated(ctx(), c.sessionId)).statusCode).toBe(303);

    for (const x of [a, b, c]) {
      const warn = vi.fn();
      expect(await syncCheckout({ ...deps, log: { warn } }, x.sessionId)).toBe('mismatch');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ security: true, orderId: x.orderId, sessionId: x.sessionId }), expect.any(String));
    }
    // The delivered webhooks and the return page do not fulfil either.
    await drainJobs(ctx());
    for (const x of [a, b, c]) {
      const page = await ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${x.sessionId}`, headers: x.customer.auth });
      expect(page.statusCode).toBe(200);
      expect(page.json().paymentStatus).toBe('open');
      const f = await fulfilmentOf(ctx(), x.orderId, x.customer.user.id);
      expect(f.order.status).toBe('pending');
      expect(f.order.paidAt).toBeNull();
      expect(f.servers).toHaveLength(0);
      expect(f.invoices).toHaveLength(0);
    }
    // The order the foreign session pointed at is untouched too.
    const [untouched] = await db.select().from(orders).where(eq(orders.id, other.orderId));
    expect(untouched!.status).toBe('pending');
  });

  it('payment-result with another customer\'s session or order: 404 and no side effect', async () => {
    const victim = await openOrder(ctx());
    const attacker = await createUser(ctx());
    const db = ctx().database.db;

    // An open session: the cancel door (?order=) must not end the victim's payment.
    const byOrder = await ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?order=${victim.orderId}`, headers: attacker.auth });
    expect(byOrder.statusCode).toBe(404);
    expect(byOrder.json().error.code).toBe('NOT_FOUND');
    expect((await (ctx().app.deps.payments as SimulatedPayments).findSession(victim.sessionId))!.status).toBe('open');

    // A paid session whose event has not arrived: the attacker's request must not fulfil it either.
    await markSimPaid(ctx(), victim.sessionId);
    const before = await tableCounts(ctx());
    const bySession = await ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${victim.sessionId}`, headers: attacker.auth });
    expect(bySession.statusCode).toBe(404);
    expect(bySession.body).not.toContain(victim.orderId);
    expect(await tableCounts(ctx())).toEqual(before);
    const [order] = await db.select().from(orders).where(eq(orders.id, victim.orderId));
    expect(order!.status).toBe('pending');

    // The victim's own return page then fulfils as usual.
    const own = await ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${victim.sessionId}`, headers: victim.customer.auth });
    expect(own.json()).toMatchObject({ paymentStatus: 'paid', orderId: victim.orderId });
  });

  it('a webhook for an unknown session is acknowledged (200) and creates nothing', async () => {
    await drainJobs(ctx()); // work left over by earlier tests
    const unknown = `cs_sim_${crypto.randomBytes(16).toString('hex')}`;
    const before = await tableCounts(ctx());
    const body = eventBody('checkout.session.completed', unknown);
    const res = await postWebhook(ctx(), body, signPayload(body, secretOf(ctx())));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().received).toBe(true);
    await drainJobs(ctx());
    const after = await tableCounts(ctx());
    expect({ servers: after.servers, invoices: after.invoices, orders: after.orders }).toEqual({ servers: before.servers, invoices: before.invoices, orders: before.orders });
    const failed = await ctx().database.db.select().from(jobs).where(eq(jobs.status, 'failed'));
    expect(failed).toEqual([]);
    const warn = vi.fn();
    expect(await syncCheckout({ ...ctx().app.deps, log: { warn } }, unknown)).toBe('unknown_order');
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ security: true }), expect.any(String));

    // An event type that is not about a checkout is stored and ignored.
    const other = JSON.stringify({ id: newEventId(), object: 'event', type: 'charge.refunded', created: Math.floor(Date.now() / 1000), data: { object: { id: 'ch_1', object: 'charge' } } });
    const ignored = await postWebhook(ctx(), other, signPayload(other, secretOf(ctx())));
    expect(ignored.json()).toEqual({ received: true, result: 'ignored' });
  });
});

import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { shopMessages } from '@hp/contract';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { baseOrder, billingTick, drainJobs, paySimulated, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { invoices, ipAddresses, orders, servers, simCheckoutSessions } from '../../db/schema/index.ts';
import { syncCheckout } from './payments.service.ts';
import { createProductRegistry } from '../products/registry.ts';
import { modules } from '../../app.ts';
import type { OrderRow } from '../products/product-module.ts';

/**
 * Decision 028: a failed payment is not a dead end. While the order's hold lasts, "Erneut versuchen"
 * opens a new payment session for the same order; fulfilment stays exactly-once whichever session
 * pays, and only a hold that ran out cancels the order.
 */

const DECLINED = '4000 0000 0000 0002';

type Customer = Awaited<ReturnType<typeof createUser>>;

async function declinedOrder(ctx: TestContext) {
  await seedCapacity(ctx, { ips: 1 });
  const customer = await createUser(ctx);
  const res = await postCheckout(ctx, customer.auth, baseOrder);
  expect(res.statusCode, res.body).toBe(201);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  const declined = await paySimulated(ctx, sessionId, DECLINED);
  expect(declined.headers.location).toContain(`/shop/payment?order=${orderId}`);
  await drainJobs(ctx); // the provider's "expired" event
  return { customer, orderId, sessionId };
}

const retry = (ctx: TestContext, customer: Pick<Customer, 'auth'>, orderId: string) =>
  ctx.app.inject({ method: 'POST', url: `/api/shop/orders/${orderId}/payment`, headers: customer.auth });
const result = (ctx: TestContext, customer: Pick<Customer, 'auth'>, query: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/shop/payment-result?${query}`, headers: customer.auth });
const orderRow = async (ctx: TestContext, id: string) => (await ctx.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const ipOf = async (ctx: TestContext, order: OrderRow) => (await ctx.database.db.select().from(ipAddresses).where(eq(ipAddresses.id, order.ipAddressId!)))[0]!;

/** What the customer got for one order: servers and invoices. */
async function deliveries(ctx: TestContext, customer: Customer, orderId: string) {
  const db = ctx.database.db;
  return {
    servers: await db.select().from(servers).where(eq(servers.ownerId, customer.user.id)),
    invoices: await db.select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice'))),
  };
}

/** The provider took the payment on its side; no event delivered yet (a session the retry could not end). */
async function markSimPaid(ctx: TestContext, sessionId: string) {
  await ctx.database.db.update(simCheckoutSessions).set({
    status: 'complete', paymentStatus: 'paid', customerName: 'Erika Müller', cardBrand: 'visa', cardLast4: '4242',
    address: { line1: 'Hauptstraße 5', line2: null, postalCode: '10115', city: 'Berlin', country: 'DE' },
  }).where(eq(simCheckoutSessions.id, sessionId));
}

/** The hold (and the IP's reservation stamped with it) ran out a minute ago. */
async function expireHold(ctx: TestContext, orderId: string) {
  const past = new Date(Date.now() - 60_000);
  const [order] = await ctx.database.db.update(orders).set({ holdUntil: past }).where(eq(orders.id, orderId)).returning();
  if (order!.ipAddressId) await ctx.database.db.update(ipAddresses).set({ reservedUntil: past }).where(eq(ipAddresses.id, order!.ipAddressId));
}

describeEachDatabase('payments: a declined card can be retried while the hold lasts', (ctx) => {
  it('a declined card leaves the order payable, and "Erneut versuchen" opens a new session that fulfils exactly once', async () => {
    const { customer, orderId, sessionId: first } = await declinedOrder(ctx());
    const page = await result(ctx(), customer, `order=${orderId}`);
    expect(page.statusCode, page.body).toBe(200);
    const before = await orderRow(ctx(), orderId);
    expect(page.json()).toMatchObject({
      paymentStatus: 'failed', orderStatus: 'pending', retryUntil: before.holdUntil.toISOString(),
      reconfigurePath: '/shop/kvm-server?os=linux&distro=Debian%2012&cpu=2&ram=4&storage=50&months=1',
    });
    expect(before).toMatchObject({ status: 'pending', paymentSessionId: first, failureReason: 'card declined' });
    // The hold is kept: the address stays reserved for this order.
    expect((await ipOf(ctx(), before)).reservedUntil?.getTime()).toBe(before.holdUntil.getTime());

    const again = await retry(ctx(), customer, orderId);
    expect(again.statusCode, again.body).toBe(201);
    const { sessionId: second, url } = again.json() as { sessionId: string; url: string; orderId: string };
    expect(again.json().orderId).toBe(orderId);
    expect(second).not.toBe(first);
    expect(url).toContain(`/pay/sim/${second}`);
    const switched = await orderRow(ctx(), orderId);
    expect(switched).toMatchObject({ status: 'pending', paymentSessionId: second, paymentUrl: url, failureReason: null });
    // The new session lasts 31 minutes, so the hold (and the IP's reservation) is renewed to outlast it.
    expect(switched.holdUntil.getTime()).toBeGreaterThanOrEqual(before.holdUntil.getTime());
    expect((await ipOf(ctx(), switched)).reservedUntil?.getTime()).toBe(switched.holdUntil.getTime());
    expect((await result(ctx(), customer, `session_id=${second}`)).json()).toMatchObject({ paymentStatus: 'open', retryUntil: null });
    // A second click while the new session is open continues with it.
    expect((await retry(ctx(), customer, orderId)).json()).toMatchObject({ sessionId: second, url });

    expect((await paySimulated(ctx(), second)).headers.location).toContain(`/shop/payment?session_id=${second}`);
    expect((await result(ctx(), customer, `session_id=${second}`)).json()).toMatchObject({ paymentStatus: 'paid', orderId });
    await drainJobs(ctx());
    expect(await syncCheckout(ctx().app.deps, second)).toBe('already');
    // The declined session's events change nothing; its page takes no money.
    expect(await syncCheckout(ctx().app.deps, first)).toBe('replaced');
    expect((await paySimulated(ctx(), first)).headers.location).toContain(`/shop/payment?order=${orderId}`);
    await drainJobs(ctx());

    const done = await orderRow(ctx(), orderId);
    expect(done).toMatchObject({ status: 'completed', paymentSessionId: second, cardLast4: '4242' });
    const got = await deliveries(ctx(), customer, orderId);
    expect(got.servers).toHaveLength(1);
    expect(got.invoices).toHaveLength(1);
    const paidAgain = await retry(ctx(), customer, orderId);
    expect(paidAgain.statusCode).toBe(409);
    expect(paidAgain.json().error).toMatchObject({ code: 'ORDER_ALREADY_PAID', message: shopMessages.orderAlreadyPaid });
  });

  it('an old session paid after the retry fulfils the order once with that payment and ends the new session', async () => {
    const { customer, orderId, sessionId: first } = await declinedOrder(ctx());
    const { sessionId: second } = (await retry(ctx(), customer, orderId)).json() as { sessionId: string };
    // The provider let the old session through after all (it was ended before the new one was opened).
    await markSimPaid(ctx(), first);
    expect(await syncCheckout(ctx().app.deps, first)).toBe('fulfilled');
    expect(await syncCheckout(ctx().app.deps, first)).toBe('already');
    const [newer] = await ctx().database.db.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.id, second));
    expect(newer!.status).toBe('expired');
    expect(await paySimulated(ctx(), second)).toMatchObject({ statusCode: 303 });
    await drainJobs(ctx());

    expect(await orderRow(ctx(), orderId)).toMatchObject({ status: 'completed', paymentSessionId: first });
    const got = await deliveries(ctx(), customer, orderId);
    expect(got.servers).toHaveLength(1);
    expect(got.invoices).toHaveLength(1);
  });

  it('an old session paid after the new one was paid does not fulfil twice: the second payment is refunded', async () => {
    const { customer, orderId, sessionId: first } = await declinedOrder(ctx());
    const { sessionId: second } = (await retry(ctx(), customer, orderId)).json() as { sessionId: string };
    await paySimulated(ctx(), second);
    await drainJobs(ctx());
    await markSimPaid(ctx(), first);
    expect(await syncCheckout(ctx().app.deps, first)).toBe('already');
    await drainJobs(ctx());

    const done = await orderRow(ctx(), orderId);
    expect(done).toMatchObject({ status: 'completed', paymentSessionId: second, refundedAt: null });
    const got = await deliveries(ctx(), customer, orderId);
    expect(got.servers).toHaveLength(1);
    expect(got.invoices).toHaveLength(1);
    const sessions = await ctx().database.db.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.orderId, orderId));
    const byId = new Map(sessions.map((s) => [s.id, s]));
    expect(byId.get(first)).toMatchObject({ refundedCents: done.amountCents });
    expect(byId.get(first)!.refundId).not.toBeNull();
    expect(byId.get(second)!.refundId).toBeNull();
  });

  it('a retry while the old session was paid meanwhile answers "already paid" and opens no new session', async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const { orderId, sessionId } = (await postCheckout(ctx(), customer.auth, baseOrder)).json() as { orderId: string; sessionId: string };
    await markSimPaid(ctx(), sessionId);
    const res = await retry(ctx(), customer, orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'ORDER_ALREADY_PAID', message: shopMessages.orderAlreadyPaid });
    expect(await ctx().database.db.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.orderId, orderId))).toHaveLength(1);
    await drainJobs(ctx());
    expect((await orderRow(ctx(), orderId)).status).toBe('completed');
    expect((await deliveries(ctx(), customer, orderId)).servers).toHaveLength(1);
  });

  it('two retries at once open one payment: both answer with the same session', async () => {
    const { customer, orderId } = await declinedOrder(ctx());
    const both = await Promise.all([retry(ctx(), customer, orderId), retry(ctx(), customer, orderId)]);
    expect(both.map((r) => r.statusCode)).toEqual([201, 201]);
    const ids = both.map((r) => r.json().sessionId as string);
    expect(ids[0]).toBe(ids[1]);
    const open = await ctx().database.db.select().from(simCheckoutSessions)
      .where(and(eq(simCheckoutSessions.orderId, orderId), eq(simCheckoutSessions.status, 'open')));
    expect(open.map((s) => s.id)).toEqual([ids[0]]);
  });

  it('after the hold ran out the order is cancelled, its address released, and a retry is refused in German', async () => {
    const { customer, orderId } = await declinedOrder(ctx());
    await expireHold(ctx(), orderId);
    const res = await retry(ctx(), customer, orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'ORDER_NOT_PAYABLE', message: shopMessages.orderNoLongerPayable });
    const order = await orderRow(ctx(), orderId);
    expect(order.status).toBe('cancelled');
    expect((await ipOf(ctx(), order)).reservedUntil).toBeNull();
    expect((await result(ctx(), customer, `order=${orderId}`)).json()).toMatchObject({ paymentStatus: 'failed', orderStatus: 'cancelled', retryUntil: null });
  });

  it('retries renew the hold, but not beyond three holds after the order was placed: then the retry is refused in German', async () => {
    const { customer, orderId } = await declinedOrder(ctx());
    const holdMinutes = ctx().app.deps.env.billing.checkoutHoldMinutes;
    // Placed almost three holds ago: too little time is left for a payment session of its own.
    await ctx().database.db.update(orders).set({ createdAt: new Date(Date.now() - (3 * holdMinutes - 20) * 60_000) }).where(eq(orders.id, orderId));
    const res = await retry(ctx(), customer, orderId);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'ORDER_NOT_PAYABLE', message: shopMessages.orderNoLongerPayable });
    // Placed two holds ago: the retry works, and its hold ends at the three-hold limit at the latest.
    const { customer: other, orderId: second } = await declinedOrder(ctx());
    const placed = Date.now() - 2 * holdMinutes * 60_000;
    await ctx().database.db.update(orders).set({ createdAt: new Date(placed) }).where(eq(orders.id, second));
    expect((await retry(ctx(), other, second)).statusCode).toBe(201);
    expect((await orderRow(ctx(), second)).holdUntil.getTime()).toBeLessThanOrEqual(placed + 3 * holdMinutes * 60_000);
  });

  it('a retry after the hold ran out ends a still open session before it cancels, and a payment taken after all is refunded', async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const { orderId, sessionId } = (await postCheckout(ctx(), customer.auth, baseOrder)).json() as { orderId: string; sessionId: string };
    await expireHold(ctx(), orderId);
    const res = await retry(ctx(), customer, orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ORDER_NOT_PAYABLE');
    const [session] = await ctx().database.db.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.id, sessionId));
    expect(session!.status).toBe('expired');
    expect((await orderRow(ctx(), orderId)).status).toBe('cancelled');

    // Should the provider still have taken the money, it goes back; nothing is delivered.
    await markSimPaid(ctx(), sessionId);
    expect(await syncCheckout(ctx().app.deps, sessionId)).toBe('already');
    await drainJobs(ctx());
    const [refunded] = await ctx().database.db.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.id, sessionId));
    expect(refunded!.refundedCents).toBe(refunded!.amountCents);
    expect((await orderRow(ctx(), orderId)).status).toBe('cancelled');
    expect((await deliveries(ctx(), customer, orderId)).servers).toHaveLength(0);
  });

  it('the billing tick cancels a declined order once its hold ran out, not before', async () => {
    const { orderId } = await declinedOrder(ctx());
    await billingTick(ctx().app);
    expect((await orderRow(ctx(), orderId)).status).toBe('pending');
    await expireHold(ctx(), orderId);
    await billingTick(ctx().app);
    await drainJobs(ctx());
    const order = await orderRow(ctx(), orderId);
    expect(order).toMatchObject({ status: 'cancelled', failureReason: 'card declined' });
    expect((await ipOf(ctx(), order)).reservedUntil).toBeNull();
  });

  it('a new order of the same product gives up the failed one, so its hold does not stand in the way', async () => {
    const { customer, orderId } = await declinedOrder(ctx());
    // Its address is still held by the declined order; a new order of the product (another configuration) gives that up.
    const next = await postCheckout(ctx(), customer.auth, { ...baseOrder, ram: 8 });
    expect(next.statusCode, next.body).toBe(201);
    const given = await orderRow(ctx(), orderId);
    expect(given).toMatchObject({ status: 'cancelled', failureReason: 'replaced by a new order' });
    const nextOrder = await orderRow(ctx(), next.json().orderId);
    const ip = await ipOf(ctx(), given);
    expect(ip.reservedUntil === null || ip.id === nextOrder.ipAddressId).toBe(true);
    const again = await retry(ctx(), customer, orderId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'ORDER_NOT_PAYABLE', message: shopMessages.orderReplaced });
    const shown = await ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?order=${orderId}`, headers: customer.auth });
    expect(shown.json()).toMatchObject({ orderStatus: 'cancelled', replaced: true, retryUntil: null });
    // An order whose payment is still open is kept when the customer orders again.
    await postCheckout(ctx(), customer.auth, { ...baseOrder, ram: 16 });
    expect((await orderRow(ctx(), nextOrder.id)).status).toBe('pending');
  });

  it('only the owner can retry; a malformed order id gets a German 400', async () => {
    const { orderId } = await declinedOrder(ctx());
    const stranger = await createUser(ctx());
    const foreign = await retry(ctx(), stranger, orderId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe(shopMessages.orderNotFound);
    const bad = await retry(ctx(), stranger, 'kein-auftrag');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(shopMessages.orderNotFound);
    expect((await ctx().app.inject({ method: 'POST', url: `/api/shop/orders/${orderId}/payment` })).statusCode).toBe(401);
    // A mangled link to the result page: German, not zod's "Invalid UUID".
    const link = await ctx().app.inject({ method: 'GET', url: '/api/shop/payment-result?order=abc', headers: stranger.auth });
    expect(link.statusCode).toBe(400);
    expect(link.json().error.message).toBe(shopMessages.orderNotFound);
  });
});

it('"Neu konfigurieren" leads to each product\'s own shop, prefilled with the order', () => {
  const productOf = createProductRegistry(modules).of;
  const order = (o: Partial<OrderRow>) => ({ kind: 'new', months: 3, ...o }) as OrderRow;
  expect(productOf('root_server').shopPath(order({ osFamily: 'windows', os: 'Windows Server 2025', cpuCores: 4, ramGb: 8, storageGb: 100 })))
    .toBe('/shop/kvm-server?os=windows&windowsVersion=Windows%20Server%202025&cpu=4&ram=8&storage=100&months=3');
  expect(productOf('root_server').shopPath(order({ kind: 'upgrade', subscriptionId: 's-1' }))).toBe('/upgrade/kvm-server/s-1');
  expect(productOf('webhosting').shopPath(order({ config: { plan: 'business', primaryDomain: 'meine-seite.musterhost-web.de', domainType: 'subdomain' } })))
    .toBe('/shop/webhosting?plan=business&months=3&subdomain=meine-seite');
  expect(productOf('webhosting').shopPath(order({ config: { plan: 'starter', primaryDomain: 'musterfirma.de', domainType: 'own' } })))
    .toBe('/shop/webhosting?plan=starter&months=3&domain=musterfirma.de');
  expect(productOf('webhosting').shopPath(order({ kind: 'upgrade', subscriptionId: 'p-1', config: { plan: 'starter', primaryDomain: 'a.de', domainType: 'own' } }))).toBe('/shop/webhosting?renew=p-1');
  const domain = (action: string) => ({ domain: 'xn--mller-kva.de', action, years: 1, nameservers: [], yearCents: 1190, premium: false });
  expect(productOf('domain').shopPath(order({ config: domain('register') }))).toBe('/shop/domain?domain=m%C3%BCller.de&action=register');
  expect(productOf('domain').shopPath(order({ config: domain('transfer') }))).toBe('/shop/domain?domain=m%C3%BCller.de&action=transfer');
  expect(productOf('domain').shopPath(order({ kind: 'upgrade', subscriptionId: 'd-1', config: domain('renew') }))).toBe('/shop/domain?renew=d-1');
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { shopMessages } from '@hp/contract';
import { createTestContext, createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { baseOrder, drainJobs, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { invoices, ipAddresses, orders, paymentEvents, servers } from '../../db/schema/index.ts';
import { startFakeStripe, type FakeStripe } from '../../drivers/payments/fake-stripe.ts';

/**
 * The shop flow with the real Stripe driver (PAYMENTS=stripe, the official SDK) against the local fake of
 * the Stripe API (integrations/stripe-checkout.md): session create, payment, signed webhook, re-fetch,
 * fulfilment and the e-invoice, plus a refused signature and a provider outage at checkout.
 */

const SECRET_KEY = 'sk_test_x';
const WEBHOOK_SECRET = 'whsec_test';

type Ctx = TestContext & { close: () => Promise<void> };

describeEachDatabase('shop with the Stripe driver against the fake Stripe API', (ctx) => {
  let fake: FakeStripe;
  let s: Ctx;

  beforeAll(async () => {
    // Stripe's clock runs 10 s ahead of ours, as real clocks may: a session asked for exactly 30 minutes
    // was then refused ("at least 30 minutes"), and at the edge of a second it was refused at random.
    fake = await startFakeStripe({ apiKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, now: () => Date.now() + 10_000 });
    const { apiPort } = fake.driverConfig();
    s = await createTestContext(ctx().kind, {
      env: { PAYMENTS: 'stripe', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: `http://127.0.0.1:${apiPort}` },
    });
    expect(s.app.deps.payments.kind).toBe('stripe');
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  const webhook = (payload: string, header: string) => s.app.inject({
    method: 'POST', url: '/api/payments/webhook', payload, headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
  const orderRow = async (id: string) => (await s.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

  async function openCheckout() {
    await seedCapacity(s, { ips: 2 });
    const customer = await createUser(s);
    const res = await postCheckout(s, customer.auth, baseOrder);
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId, url } = res.json() as { orderId: string; sessionId: string; url: string };
    return { customer, orderId, sessionId, url };
  }

  it('checkout → Stripe session → payment → signed webhook → re-fetch → server and e-invoice with the card', async () => {
    const { customer, orderId, sessionId, url } = await openCheckout();
    expect(sessionId).toMatch(/^cs_test_/);
    expect(url).toBe(`https://checkout.stripe.com/c/pay/${sessionId}`);
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ status: 'pending', paymentProvider: 'stripe', paymentSessionId: sessionId, paymentUrl: url });

    // What Stripe received: our amount, our order, the customer's address, an idempotency key per attempt.
    const create = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions' && r.body.client_reference_id === orderId)!;
    expect(create).toBeDefined();
    expect(create.status).toBe(200);
    expect(create.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(create.idempotencyKey).toBe(`order-${orderId}-checkout-1`);
    expect(create.body).toMatchObject({
      mode: 'payment',
      client_reference_id: orderId,
      customer_email: customer.email,
      locale: 'de',
      metadata: { orderId },
      payment_intent_data: { metadata: { orderId } },
      line_items: [{ quantity: '1', price_data: { currency: 'eur', unit_amount: String(order.amountCents) } }],
    });
    expect(String(create.body.success_url)).toContain('session_id={CHECKOUT_SESSION_ID}');
    expect(fake.getSession(sessionId)).toMatchObject({ amount_total: order.amountCents, currency: 'eur', status: 'open' });

    fake.completeSession(sessionId, {
      card: { brand: 'mastercard', last4: '4444' }, name: 'Erika Mustermann',
      address: { line1: 'Musterweg 7', postalCode: '80331', city: 'München', country: 'DE' },
    });
    const { payload, header } = fake.signedEvent('checkout.session.completed', sessionId);
    const res = await webhook(payload, header);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, result: 'queued' });
    await drainJobs(s);

    // The job asked Stripe itself (with the charge expanded) instead of trusting the event body.
    const retrieve = fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${sessionId}`);
    expect(retrieve.length).toBeGreaterThan(0);
    expect(retrieve.at(-1)!.query.expand).toEqual(['payment_intent.latest_charge']);

    const done = await orderRow(orderId);
    expect(done).toMatchObject({ status: 'completed', cardBrand: 'mastercard', cardLast4: '4444', billingName: 'Erika Mustermann' });
    expect(done.billingAddress).toMatchObject({ line1: 'Musterweg 7', postalCode: '80331', city: 'München', country: 'DE' });
    const [server] = await s.database.db.select().from(servers).where(eq(servers.id, done.subscriptionId!));
    expect(server!.status).toBe('online');
    expect(await s.database.db.select().from(ipAddresses).where(eq(ipAddresses.serverId, server!.id))).toHaveLength(1);

    const list = await s.app.inject({ method: 'GET', url: '/api/invoices', headers: customer.auth });
    expect(list.json().items).toHaveLength(1);
    const invoice = list.json().items[0] as { id: string; amountCents: number };
    expect(invoice.amountCents).toBe(order.amountCents);
    const xml = await s.app.inject({ method: 'GET', url: `/api/invoices/${invoice.id}/xrechnung`, headers: customer.auth });
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('<cbc:PrimaryAccountNumberID>4444</cbc:PrimaryAccountNumberID>');
    expect(xml.body).toContain('Musterweg 7');

    // Stripe delivers again: acknowledged, nothing new.
    const again = await webhook(payload, fake.signEvent(payload));
    expect(again.json()).toEqual({ received: true, result: 'duplicate' });
    const other = fake.signedEvent('checkout.session.async_payment_succeeded', sessionId);
    expect((await webhook(other.payload, other.header)).json().result).toBe('queued');
    await drainJobs(s);
    expect(await s.database.db.select().from(invoices).where(eq(invoices.orderId, orderId))).toHaveLength(1);
    expect(await s.database.db.select().from(servers).where(eq(servers.ownerId, customer.user.id))).toHaveLength(1);
    const result = await s.app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${sessionId}`, headers: customer.auth });
    expect(result.json()).toMatchObject({ paymentStatus: 'paid', orderStatus: 'completed', invoiceId: invoice.id });
  });

  it('a webhook signed with the wrong secret, too old, or changed is refused with 400 and changes nothing', async () => {
    const { orderId, sessionId } = await openCheckout();
    fake.completeSession(sessionId, { card: { brand: 'visa', last4: '4242' }, name: 'Max Muster', address: { line1: 'Weg 1', postalCode: '10115', city: 'Berlin', country: 'DE' } });
    const now = Math.floor(Date.now() / 1000);
    const attempts = [
      fake.signedEvent('checkout.session.completed', sessionId, { secret: 'whsec_wrong' }),
      fake.signedEvent('checkout.session.completed', sessionId, { timestamp: now - 301 }),
      (() => {
        const signed = fake.signedEvent('checkout.session.completed', sessionId);
        return { payload: signed.payload.replace('"checkout.session.completed"', '"checkout.session.expired"'), header: signed.header };
      })(),
    ];
    for (const { payload, header } of attempts) {
      const res = await webhook(payload, header);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_SIGNATURE', message: shopMessages.webhookInvalid });
      const eventId = (JSON.parse(payload) as { id: string }).id;
      expect(await s.database.db.select().from(paymentEvents).where(eq(paymentEvents.id, eventId))).toHaveLength(0);
    }
    await drainJobs(s);
    expect((await orderRow(orderId)).status).toBe('pending');
    // The real one goes through.
    const ok = fake.signedEvent('checkout.session.completed', sessionId);
    expect((await webhook(ok.payload, ok.header)).statusCode).toBe(200);
    await drainJobs(s);
    expect((await orderRow(orderId)).status).toBe('completed');
  });

  it('Stripe answering 503 at checkout: the API answers 503 in German and the order is cancelled, its hold released', async () => {
    await seedCapacity(s, { ips: 1 });
    const customer = await createUser(s);
    const sessionsBefore = fake.listSessions().length;
    const requestsBefore = fake.requests.length;
    // The driver retries 5xx twice with the same idempotency key: all three attempts fail.
    fake.failNext(503, 3);
    const res = await postCheckout(s, customer.auth, baseOrder);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toMatchObject({ code: 'PAYMENT_UNAVAILABLE', message: 'Der Zahlungsanbieter ist derzeit nicht erreichbar. Bitte versuchen Sie es später erneut.' });
    expect(res.body).not.toContain(SECRET_KEY);
    const attempts = fake.requests.slice(requestsBefore);
    expect(attempts.map((r) => r.status)).toEqual([503, 503, 503]);
    expect(new Set(attempts.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(fake.listSessions()).toHaveLength(sessionsBefore);

    const [cancelled, ...rest] = await s.database.db.select().from(orders).where(eq(orders.userId, customer.user.id));
    expect(rest).toHaveLength(0);
    expect(cancelled).toMatchObject({ status: 'cancelled', failureReason: 'payment provider unavailable', paymentSessionId: null });
    const [ip] = await s.database.db.select().from(ipAddresses).where(eq(ipAddresses.id, cancelled!.ipAddressId!));
    expect(ip).toMatchObject({ reservedUntil: null, serverId: null });

    // Stripe is back: the same customer orders again and gets the released address.
    const retry = await postCheckout(s, customer.auth, baseOrder);
    expect(retry.statusCode, retry.body).toBe(201);
    const again = await orderRow(retry.json().orderId);
    expect(again.ipAddressId).toBe(cancelled!.ipAddressId);
    expect(again.status).toBe('pending');
  }, 30_000);

  it('the return page before the webhook fulfils once; the cancel link ends an open Stripe session, "Erneut versuchen" opens a new one', async () => {
    const paid = await openCheckout();
    fake.completeSession(paid.sessionId, { card: { brand: 'visa', last4: '1881' }, name: 'Erika Mustermann', address: { line1: 'Hauptstraße 5', postalCode: '10115', city: 'Berlin', country: 'DE' } });
    const page = await s.app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${paid.sessionId}`, headers: paid.customer.auth });
    expect(page.json()).toMatchObject({ paymentStatus: 'paid', orderStatus: 'processing' });
    const late = fake.signedEvent('checkout.session.completed', paid.sessionId);
    expect((await webhook(late.payload, late.header)).json().result).toBe('queued');
    await drainJobs(s);
    expect((await orderRow(paid.orderId)).status).toBe('completed');
    expect(await s.database.db.select().from(servers).where(eq(servers.ownerId, paid.customer.user.id))).toHaveLength(1);
    expect(await s.database.db.select().from(invoices).where(and(eq(invoices.orderId, paid.orderId), eq(invoices.kind, 'invoice')))).toHaveLength(1);

    // Back from Stripe without paying: the session ends, the order keeps its hold and can be paid again.
    const gaveUp = await openCheckout();
    const cancel = await s.app.inject({ method: 'GET', url: `/api/shop/payment-result?order=${gaveUp.orderId}`, headers: gaveUp.customer.auth });
    expect(cancel.json()).toMatchObject({ paymentStatus: 'failed', orderStatus: 'pending', retryUntil: expect.any(String) });
    expect(fake.getSession(gaveUp.sessionId).status).toBe('expired');
    const order = await orderRow(gaveUp.orderId);
    const [ip] = await s.database.db.select().from(ipAddresses).where(eq(ipAddresses.id, order.ipAddressId!));
    expect(ip!.reservedUntil?.getTime()).toBe(order.holdUntil.getTime());
    // Stripe's own "expired" event for it arrives later and changes nothing.
    const expired = fake.signedEvent('checkout.session.expired', gaveUp.sessionId);
    expect((await webhook(expired.payload, expired.header)).statusCode).toBe(200);
    await drainJobs(s);
    expect((await orderRow(gaveUp.orderId)).status).toBe('pending');

    const retry = await s.app.inject({ method: 'POST', url: `/api/shop/orders/${gaveUp.orderId}/payment`, headers: gaveUp.customer.auth });
    expect(retry.statusCode, retry.body).toBe(201);
    const { sessionId: second, url } = retry.json() as { sessionId: string; url: string };
    expect(second).toMatch(/^cs_test_/);
    expect(second).not.toBe(gaveUp.sessionId);
    expect(url).toBe(`https://checkout.stripe.com/c/pay/${second}`);
    fake.completeSession(second, { card: { brand: 'visa', last4: '4242' }, name: 'Erika Mustermann', address: { line1: 'Hauptstraße 5', postalCode: '10115', city: 'Berlin', country: 'DE' } });
    const done = fake.signedEvent('checkout.session.completed', second);
    expect((await webhook(done.payload, done.header)).json().result).toBe('queued');
    const again = fake.signedEvent('checkout.session.expired', gaveUp.sessionId);
    await webhook(again.payload, again.header);
    await drainJobs(s);
    expect(await orderRow(gaveUp.orderId)).toMatchObject({ status: 'completed', paymentSessionId: second, cardLast4: '4242' });
    expect(await s.database.db.select().from(servers).where(eq(servers.ownerId, gaveUp.customer.user.id))).toHaveLength(1);
    expect(await s.database.db.select().from(invoices).where(and(eq(invoices.orderId, gaveUp.orderId), eq(invoices.kind, 'invoice')))).toHaveLength(1);
  });
});

import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { FakeStripe, parseStripeForm, sdkParamNames, startFakeStripe } from './fake-stripe.ts';
import { PaymentProviderError, PaymentSignatureError, type CheckoutSessionParams, type PaymentProvider } from './payments.ts';
import { CHECKOUT_SESSION_RETRIEVE_PARAMS, checkoutSessionCreateParams, createStripeProvider, refundCreateParams } from './stripe.ts';

const SECRET_KEY = 'sk_test_51PortalSecretKeyForTestsOnly0000';

let fake: FakeStripe;
let payments: PaymentProvider;

function params(overrides: Partial<CheckoutSessionParams> = {}): CheckoutSessionParams {
  return {
    orderId: 'ord_4711',
    amountCents: 1999,
    currency: 'eur',
    productName: 'Root Server (KVM) – 4 Kerne, 8 GB RAM, 100 GB',
    customerEmail: 'kunde@example.com',
    successUrl: 'https://portal.example.com/shop/payment?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://portal.example.com/shop/cart',
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    idempotencyKey: `order-4711-checkout-${Math.random().toString(36).slice(2)}`,
    ...overrides,
  };
}

async function expectProviderError(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a PaymentProviderError');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  const providerError = error as PaymentProviderError;
  expect(providerError.message).toMatch(/Zahlungsanbieter/);
  for (const text of [providerError.message, providerError.detail ?? '', String(providerError.stack), JSON.stringify(providerError)]) {
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(SECRET_KEY.slice(-8));
  }
  return providerError;
}

beforeAll(async () => {
  fake = await startFakeStripe({ apiKey: SECRET_KEY, webhookSecret: 'whsec_test_portal' });
  payments = await createStripeProvider({ ...fake.driverConfig(), maxNetworkRetries: 0 });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

describe('createCheckoutSession', () => {
  it('sends amount, currency, order reference, metadata, billing address collection and expiry the way Stripe expects', async () => {
    const p = params();
    const created = await payments.createCheckoutSession(p);

    expect(created.id).toMatch(/^cs_test_/);
    expect(created.url).toBe(`https://checkout.stripe.com/c/pay/${created.id}`);
    const request = fake.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/checkout/sessions');
    expect(request.headers['idempotency-key']).toBe(p.idempotencyKey);
    expect(request.body).toMatchObject({
      mode: 'payment',
      line_items: [{ price_data: { currency: 'eur', unit_amount: '1999', product_data: { name: p.productName } }, quantity: '1' }],
      client_reference_id: 'ord_4711',
      customer_email: 'kunde@example.com',
      locale: 'de',
      metadata: { orderId: 'ord_4711' },
      payment_intent_data: { metadata: { orderId: 'ord_4711' } },
      expires_at: String(Math.floor(p.expiresAt.getTime() / 1000)),
      billing_address_collection: 'required',
      allowed_payment_method_types: ['card'],
      cancel_url: p.cancelUrl,
    });
    // Stripe fills the placeholder itself, so it must arrive literally (not URL-encoded, not replaced).
    expect(request.body.success_url).toBe('https://portal.example.com/shop/payment?session_id={CHECKOUT_SESSION_ID}');

    const session = fake.getSession(created.id);
    expect(session).toMatchObject({ amount_total: 1999, currency: 'eur', status: 'open', payment_status: 'unpaid', client_reference_id: 'ord_4711', billing_address_collection: 'required' });
    expect(fake.successUrlFor(created.id)).toBe(`https://portal.example.com/shop/payment?session_id=${created.id}`);
  });

  it('returns the same session for a retried create with the same idempotency key', async () => {
    const p = params();
    const first = await payments.createCheckoutSession(p);
    const second = await payments.createCheckoutSession(p);
    expect(second).toEqual(first);
    expect(fake.listSessions()).toHaveLength(1);
    expect(fake.requests.at(-1)!.isIdempotentReplay).toBe(true);
  });

  it('refuses to reuse an idempotency key with different parameters', async () => {
    const p = params();
    await payments.createCheckoutSession(p);
    const error = await expectProviderError(payments.createCheckoutSession({ ...p, amountCents: 2999 }));
    expect(error.detail).toMatch(/idempotent/i);
    expect(fake.listSessions()).toHaveLength(1);
  });

  it('retries a 503 with the same idempotency key and creates exactly one session', async () => {
    const retrying = await createStripeProvider({ ...fake.driverConfig(), maxNetworkRetries: 1 });
    fake.failNext(503);
    const p = params();
    const created = await retrying.createCheckoutSession(p);
    const posts = fake.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.status)).toEqual([503, 200]);
    expect(posts.map((r) => r.idempotencyKey)).toEqual([p.idempotencyKey, p.idempotencyKey]);
    expect(fake.listSessions().map((s) => s.id)).toEqual([created.id]);
  });

  it('insists on the {CHECKOUT_SESSION_ID} placeholder in the success URL', async () => {
    await expect(payments.createCheckoutSession(params({ successUrl: 'https://portal.example.com/shop/payment' }))).rejects.toThrow(/CHECKOUT_SESSION_ID/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('retrieveCheckoutSession', () => {
  it('reads an open, unpaid session and asks for the charge to be expanded', async () => {
    const { id, url } = await payments.createCheckoutSession(params());
    const session = await payments.retrieveCheckoutSession(id);
    expect(session).toEqual({
      id,
      url,
      status: 'open',
      paymentStatus: 'unpaid',
      amountTotal: 1999,
      currency: 'eur',
      clientReferenceId: 'ord_4711',
      customerDetails: null,
      card: null,
    });
    const request = fake.requests.at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.query.expand).toEqual(['payment_intent.latest_charge']);
  });

  it('reads a paid session with the card and the billing address for the e-invoice', async () => {
    const { id } = await payments.createCheckoutSession(params());
    fake.completeSession(id, {
      card: { brand: 'mastercard', last4: '4444' },
      name: 'Erika Mustermann',
      address: { line1: 'Heidestraße 17', line2: null, postalCode: '51147', city: 'Köln', country: 'DE' },
    });
    const session = await payments.retrieveCheckoutSession(id);
    expect(session).toEqual({
      id,
      url: null,
      status: 'complete',
      paymentStatus: 'paid',
      amountTotal: 1999,
      currency: 'eur',
      clientReferenceId: 'ord_4711',
      customerDetails: {
        name: 'Erika Mustermann',
        email: 'kunde@example.com',
        address: { line1: 'Heidestraße 17', line2: null, postalCode: '51147', city: 'Köln', country: 'DE' },
      },
      card: { brand: 'mastercard', last4: '4444' },
    });
  });

  it('reads a session that ran past expires_at as expired', async () => {
    let clock = Date.now();
    const timed = new FakeStripe({ apiKey: SECRET_KEY, now: () => clock });
    await timed.start();
    try {
      const provider = await createStripeProvider({ ...timed.driverConfig(), maxNetworkRetries: 0 });
      const { id } = await provider.createCheckoutSession(params({ expiresAt: new Date(clock + 31 * 60 * 1000) }));
      clock += 32 * 60 * 1000;
      expect(await provider.retrieveCheckoutSession(id)).toMatchObject({ status: 'expired', url: null, paymentStatus: 'unpaid' });
    } finally {
      await timed.close();
    }
  });

  it('turns an unknown session id into a PaymentProviderError', async () => {
    const error = await expectProviderError(payments.retrieveCheckoutSession('cs_test_doesnotexist'));
    expect(error.detail).toMatch(/No such checkout\.session/);
  });
});

describe('expireCheckoutSession', () => {
  it('expires an open session', async () => {
    const { id } = await payments.createCheckoutSession(params());
    await payments.expireCheckoutSession(id);
    expect(await payments.retrieveCheckoutSession(id)).toMatchObject({ status: 'expired', url: null });
  });

  it('is a harmless no-op for a session that is already complete or expired', async () => {
    const paid = await payments.createCheckoutSession(params());
    fake.completeSession(paid.id);
    await expect(payments.expireCheckoutSession(paid.id)).resolves.toBeUndefined();
    expect(await payments.retrieveCheckoutSession(paid.id)).toMatchObject({ status: 'complete', paymentStatus: 'paid' });
    // Stripe did refuse it (400); the driver swallowed exactly that answer.
    expect(fake.requests.some((r) => r.path.endsWith('/expire') && r.status === 400)).toBe(true);

    const gone = await payments.createCheckoutSession(params());
    fake.expireSession(gone.id);
    await expect(payments.expireCheckoutSession(gone.id)).resolves.toBeUndefined();
  });

  it('still fails for an unknown session and for an outage', async () => {
    await expectProviderError(payments.expireCheckoutSession('cs_test_doesnotexist'));
    const { id } = await payments.createCheckoutSession(params());
    fake.failNext(500);
    await expectProviderError(payments.expireCheckoutSession(id));
    expect((await payments.retrieveCheckoutSession(id)).status).toBe('open');
  });
});

describe('refundPayment (decision 023)', () => {
  it('refunds the session\'s payment intent once, with the order in the metadata; a retry with the same key is the same refund', async () => {
    const { id } = await payments.createCheckoutSession(params({ amountCents: 2499 }));
    fake.completeSession(id);
    const first = await payments.refundPayment({ sessionId: id, amountCents: 2499, orderId: 'order-4711', idempotencyKey: 'order-4711-refund' });
    expect(first).toMatchObject({ id: expect.stringMatching(/^re_/), status: 'succeeded' });
    const again = await payments.refundPayment({ sessionId: id, amountCents: 2499, orderId: 'order-4711', idempotencyKey: 'order-4711-refund' });
    expect(again.id).toBe(first.id);
    const refunds = fake.listRefunds();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 2499, metadata: { orderId: 'order-4711' }, payment_intent: expect.stringMatching(/^pi_/) });
    const request = fake.requests.find((r) => r.path === '/v1/refunds')!;
    expect(request.idempotencyKey).toBe('order-4711-refund');
  });

  it('refuses a second refund of the same payment, an unpaid session and an outage, with the German provider error', async () => {
    const { id } = await payments.createCheckoutSession(params({ amountCents: 1000 }));
    fake.completeSession(id);
    await payments.refundPayment({ sessionId: id, amountCents: 1000, orderId: 'o1', idempotencyKey: 'k1' });
    const twice = await expectProviderError(payments.refundPayment({ sessionId: id, amountCents: 1000, orderId: 'o1', idempotencyKey: 'k2' }));
    expect(twice.detail).toContain('already been refunded');

    const open = await payments.createCheckoutSession(params());
    await expectProviderError(payments.refundPayment({ sessionId: open.id, amountCents: 1000, orderId: 'o2', idempotencyKey: 'k3' }));

    const paid = await payments.createCheckoutSession(params({ amountCents: 1000 }));
    fake.completeSession(paid.id);
    fake.failNext(500, 2);
    await expectProviderError(payments.refundPayment({ sessionId: paid.id, amountCents: 1000, orderId: 'o3', idempotencyKey: 'k4' }));
    expect(fake.listRefunds()).toHaveLength(1);
  });
});

describe('provider failures', () => {
  it('turns a 503 into a PaymentProviderError with Stripe’s text in detail and no secret anywhere', async () => {
    fake.failNext(503);
    const error = await expectProviderError(payments.createCheckoutSession(params()));
    expect(error.detail).toMatch(/503/);
    expect(fake.listSessions()).toHaveLength(0);
  });

  it('turns a wrong secret key into a PaymentProviderError without echoing the key', async () => {
    const wrongKey = 'sk_test_51WrongKeyWrongKeyWrongKey9876';
    const wrong = await createStripeProvider({ ...fake.driverConfig(), secretKey: wrongKey, maxNetworkRetries: 0 });
    const error = await expectProviderError(wrong.createCheckoutSession(params()));
    expect(error.detail).toMatch(/401/);
    expect(error.detail).toMatch(/Invalid API Key/);
    expect(error.detail).not.toContain('9876');
    expect(error.detail).not.toContain(wrongKey);
  });

  it('turns a rate limit into a PaymentProviderError', async () => {
    fake.failNext(429);
    const error = await expectProviderError(payments.retrieveCheckoutSession('cs_test_any'));
    expect(error.detail).toMatch(/429/);
  });

  it('gives up after the timeout when Stripe does not answer', async () => {
    const impatient = await createStripeProvider({ ...fake.driverConfig(), maxNetworkRetries: 0, timeoutMs: 200 });
    fake.failNext('timeout');
    const error = await expectProviderError(impatient.createCheckoutSession(params()));
    expect(error.detail).toMatch(/timeout/i);
  });

  it('reports a refused connection as a PaymentProviderError', async () => {
    const closed = new FakeStripe();
    const { port } = await closed.start();
    await closed.close();
    const unreachable = await createStripeProvider({ ...fake.driverConfig(), apiPort: port, maxNetworkRetries: 0 });
    await expectProviderError(unreachable.retrieveCheckoutSession('cs_test_any'));
  });
});

describe('constructEvent', () => {
  const sign = (t: number, body: string, secret = fake.webhookSecret) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

  async function paidSessionEvent() {
    const { id } = await payments.createCheckoutSession(params());
    fake.completeSession(id);
    return { id, ...fake.signedEvent('checkout.session.completed', id) };
  }

  it('accepts a correctly signed event and names the checkout session', async () => {
    const { id, payload, header } = await paidSessionEvent();
    const event = payments.constructEvent(Buffer.from(payload), header);
    expect(event).toEqual({ id: JSON.parse(payload).id, type: 'checkout.session.completed', created: JSON.parse(payload).created, sessionId: id });
    expect(event.id).toMatch(/^evt_/);
  });

  it('leaves sessionId empty for events about other objects', () => {
    const payload = JSON.stringify({ id: 'evt_charge', object: 'event', type: 'charge.succeeded', created: 1_700_000_000, data: { object: { id: 'ch_1', object: 'charge' } } });
    expect(payments.constructEvent(Buffer.from(payload), fake.signEvent(payload)).sessionId).toBeNull();
  });

  it('rejects a missing signature header', async () => {
    const { payload } = await paidSessionEvent();
    expect(() => payments.constructEvent(Buffer.from(payload), undefined)).toThrow(PaymentSignatureError);
    expect(() => payments.constructEvent(Buffer.from(payload), '')).toThrow(PaymentSignatureError);
  });

  it('rejects a signature made with another secret', async () => {
    const { id } = await paidSessionEvent();
    const payload = fake.eventFor('checkout.session.completed', id);
    expect(() => payments.constructEvent(Buffer.from(payload), fake.signEvent(payload, { secret: 'whsec_attacker' }))).toThrow(PaymentSignatureError);
  });

  it('rejects a body changed by one byte', async () => {
    const { payload, header } = await paidSessionEvent();
    const changed = Buffer.from(payload);
    const at = payload.indexOf('"paid"') + 1;
    changed[at] = 'P'.charCodeAt(0);
    expect(() => payments.constructEvent(changed, header)).toThrow(PaymentSignatureError);
  });

  it('rejects a timestamp older than 300 s', async () => {
    const { payload } = await paidSessionEvent();
    const t = Math.floor(Date.now() / 1000) - 301;
    expect(() => payments.constructEvent(Buffer.from(payload), sign(t, payload))).toThrow(PaymentSignatureError);
  });

  it.each(['garbage', 't=,v1=', 't=1700000000', 'v1=abc', 't=abc,v1=0123456789abcdef'])('rejects the malformed header %j', async (header) => {
    const { payload } = await paidSessionEvent();
    expect(() => payments.constructEvent(Buffer.from(payload), header)).toThrow(PaymentSignatureError);
  });

  it('ACCEPTS the same event twice: Stripe redelivers, so deduplication by event.id is the caller’s job', async () => {
    const { payload, header } = await paidSessionEvent();
    const first = payments.constructEvent(Buffer.from(payload), header);
    const second = payments.constructEvent(Buffer.from(payload), header);
    expect(second).toEqual(first);
  });

  it('does not put the webhook secret into the error', async () => {
    const { payload } = await paidSessionEvent();
    try {
      payments.constructEvent(Buffer.from(payload), sign(Math.floor(Date.now() / 1000), payload, 'whsec_attacker'));
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(fake.webhookSecret);
    }
  });
});

// The @ts-expect-error lines below are checked by `tsc -p apps/api` (the test files are part of that project):
// each turns into a type error of its own ("unused directive") the day the SDK accepts what it marks.
describe('request bodies are typed with the Stripe SDK’s own request types', () => {
  it('the driver builds SessionCreateParams, SessionRetrieveParams and RefundCreateParams, so an unknown parameter does not compile', () => {
    expectTypeOf(checkoutSessionCreateParams).returns.toEqualTypeOf<Stripe.Checkout.SessionCreateParams>();
    expectTypeOf(CHECKOUT_SESSION_RETRIEVE_PARAMS).toEqualTypeOf<Stripe.Checkout.SessionRetrieveParams>();
    expectTypeOf(refundCreateParams).returns.toEqualTypeOf<Stripe.RefundCreateParams>();
    const create: Stripe.Checkout.SessionCreateParams = {
      ...checkoutSessionCreateParams(params()),
      // @ts-expect-error API 2026-09-30.endive removed payment_method_types from creating a Checkout Session
      payment_method_types: ['card'],
    };
    // @ts-expect-error a typo of a refund parameter
    const refund: Stripe.RefundCreateParams = { payment_intent: 'pi_1', amount_cents: 500 };
    expect(create.mode).toBe('payment');
    expect(refund.payment_intent).toBe('pi_1');
    expect(checkoutSessionCreateParams(params())).toMatchObject({ allowed_payment_method_types: ['card'], billing_address_collection: 'required' });
    expect(refundCreateParams('pi_1', { sessionId: 'cs_1', amountCents: 500, orderId: 'ord_1', idempotencyKey: 'k' })).toEqual({ payment_intent: 'pi_1', amount: 500, metadata: { orderId: 'ord_1' } });
  });

  it('the fake’s parameter lists are held equal to the SDK’s types by the compiler', () => {
    // @ts-expect-error a name RefundCreateParams does not declare
    sdkParamNames<Stripe.RefundCreateParams>()(['amount', 'charge', 'currency', 'customer', 'expand', 'instructions_email', 'metadata', 'origin', 'payment_intent', 'reason', 'refund_application_fee', 'reverse_transfer', 'bogus']);
    // @ts-expect-error a declared name (reverse_transfer) is missing from the list
    sdkParamNames<Stripe.RefundCreateParams>()(['amount', 'charge', 'currency', 'customer', 'expand', 'instructions_email', 'metadata', 'origin', 'payment_intent', 'reason', 'refund_application_fee']);
    const complete = sdkParamNames<Stripe.RefundCreateParams>()(['amount', 'charge', 'currency', 'customer', 'expand', 'instructions_email', 'metadata', 'origin', 'payment_intent', 'reason', 'refund_application_fee', 'reverse_transfer']);
    expect(complete.size).toBe(12);
  });
});

describe('the fake answers like Stripe where the driver relies on it', () => {
  const api = (path: string, init: RequestInit & { key?: string | null } = {}) => {
    const { key = SECRET_KEY, ...rest } = init;
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...(key ? { authorization: `Bearer ${key}` } : {}) };
    return fetch(`http://127.0.0.1:${fake.driverConfig().apiPort}${path}`, { ...rest, headers });
  };
  const minimal = (extra = '') =>
    `mode=payment&line_items[0][price_data][currency]=eur&line_items[0][price_data][unit_amount]=500&line_items[0][price_data][product_data][name]=X&line_items[0][quantity]=1${extra}`;

  it('parses nested form keys into objects and arrays, with indexed and empty brackets', () => {
    expect(parseStripeForm('a[0][b]=1&a[0][c][d]=x%20y&e[]=p&e[]=q&f=%7BCHECKOUT_SESSION_ID%7D')).toEqual({ a: [{ b: '1', c: { d: 'x y' } }], e: ['p', 'q'], f: '{CHECKOUT_SESSION_ID}' });
  });

  it('answers 401 without or with a wrong key, in Stripe’s error envelope', async () => {
    const missing = await api('/v1/checkout/sessions', { method: 'POST', body: minimal(), key: null });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringMatching(/did not provide an API key/) } });
    expect((await api('/v1/checkout/sessions', { method: 'POST', body: minimal(), key: 'sk_test_other' })).status).toBe(401);
  });

  it('refuses parameters Stripe does not know, including payment_method_types, which API 2026-09-30 removed', async () => {
    const res = await api('/v1/checkout/sessions', { method: 'POST', body: minimal('&payment_method_types[0]=card') });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: 'Received unknown parameter: payment_method_types', param: 'payment_method_types' } });
  });

  it('refuses a refund parameter Stripe does not know as unknown, and one it knows but the fake does not model as not modelled', async () => {
    const unknown = await api('/v1/refunds', { method: 'POST', body: 'payment_intent=pi_1&amount_cents=5' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { message: 'Received unknown parameter: amount_cents', param: 'amount_cents' } });
    const unmodelled = await api('/v1/refunds', { method: 'POST', body: 'payment_intent=pi_1&instructions_email=a%40example.com' });
    expect(unmodelled.status).toBe(400);
    expect(await unmodelled.json()).toMatchObject({ error: { message: 'fake-stripe does not model the refund parameter instructions_email' } });
  });

  it('enforces the 30 min … 24 h window for expires_at', async () => {
    const soon = Math.floor(Date.now() / 1000) + 10 * 60;
    const late = Math.floor(Date.now() / 1000) + 25 * 60 * 60;
    expect((await api('/v1/checkout/sessions', { method: 'POST', body: minimal(`&expires_at=${soon}`) })).status).toBe(400);
    expect((await api('/v1/checkout/sessions', { method: 'POST', body: minimal(`&expires_at=${late}`) })).status).toBe(400);
    expect((await api('/v1/checkout/sessions', { method: 'POST', body: minimal() })).status).toBe(200);
  });

  it('accepts expand[] as well as expand[0], refuses unknown expansions, and 404s unknown URLs', async () => {
    const created = (await (await api('/v1/checkout/sessions', { method: 'POST', body: minimal() })).json()) as { id: string };
    fake.completeSession(created.id);
    const expanded = (await (await api(`/v1/checkout/sessions/${created.id}?expand[]=payment_intent`)).json()) as { payment_intent: { object: string; latest_charge: unknown } };
    expect(expanded.payment_intent.object).toBe('payment_intent');
    expect(typeof expanded.payment_intent.latest_charge).toBe('string');
    expect((await api(`/v1/checkout/sessions/${created.id}?expand[0]=customer`)).status).toBe(400);
    expect((await api('/v1/charges')).status).toBe(404);
  });
});

import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { PaymentSignatureError } from './payments.ts';
import { signPayload, verifySignature } from './signature.ts';

const SECRET = 'whsec_test_signature_secret';
const BODY = JSON.stringify({ id: 'evt_1', object: 'event', type: 'checkout.session.completed', data: { object: { id: 'cs_test_1', object: 'checkout.session' } } });
const now = () => Math.floor(Date.now() / 1000);
const hmac = (t: number, body: string, secret = SECRET) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

function expectRejected(raw: Buffer | string, header: string | undefined, secret = SECRET) {
  expect(() => verifySignature(typeof raw === 'string' ? Buffer.from(raw) : raw, header, secret)).toThrow(PaymentSignatureError);
}

describe('signPayload', () => {
  it('produces t=<unix>,v1=<hex HMAC-SHA256 over "t.body">', () => {
    const header = signPayload(BODY, SECRET, 1_700_000_000);
    expect(header).toBe(`t=1700000000,v1=${hmac(1_700_000_000, BODY)}`);
  });

  it('uses the current time by default', () => {
    const t = Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(signPayload(BODY, SECRET))?.[1]);
    expect(Math.abs(t - now())).toBeLessThanOrEqual(1);
  });

  it('writes exactly the header the Stripe SDK writes for the same timestamp', () => {
    const t = now() - 10;
    expect(signPayload(BODY, SECRET, t)).toBe(Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRET, timestamp: t }));
  });
});

describe('verifySignature', () => {
  it('accepts a fresh signature of the exact bytes', () => {
    expect(() => verifySignature(Buffer.from(BODY), signPayload(BODY, SECRET), SECRET)).not.toThrow();
  });

  it('signs and verifies the raw UTF-8 bytes (umlauts, euro sign)', () => {
    const body = JSON.stringify({ id: 'evt_2', name: 'Jürgen Groß', note: '19,99 €' });
    expect(() => verifySignature(Buffer.from(body, 'utf8'), signPayload(body, SECRET), SECRET)).not.toThrow();
  });

  it('accepts a header with several v1 entries when one of them matches (secret being rolled)', () => {
    const t = now();
    const header = `t=${t},v1=${hmac(t, BODY, 'whsec_old')},v1=${hmac(t, BODY)},v0=deadbeef`;
    expect(() => verifySignature(Buffer.from(BODY), header, SECRET)).not.toThrow();
  });

  it('rejects a missing or empty header', () => {
    expectRejected(BODY, undefined);
    expectRejected(BODY, '');
  });

  it('rejects a signature made with another secret', () => {
    expectRejected(BODY, signPayload(BODY, 'whsec_someone_else'));
  });

  it('rejects a body changed by a single byte', () => {
    const header = signPayload(BODY, SECRET);
    const changed = Buffer.from(BODY);
    changed[changed.length - 2] = changed[changed.length - 2]! ^ 0x01;
    expectRejected(changed, header);
    expectRejected(`${BODY} `, header);
  });

  it('rejects a timestamp older than the 300 s tolerance and accepts one just inside it', () => {
    const stale = now() - 301;
    expectRejected(BODY, `t=${stale},v1=${hmac(stale, BODY)}`);
    const recent = now() - 290;
    expect(() => verifySignature(Buffer.from(BODY), `t=${recent},v1=${hmac(recent, BODY)}`, SECRET)).not.toThrow();
  });

  it('rejects a timestamp more than the tolerance in the future (Stripe would accept it) but allows small clock skew', () => {
    const future = now() + 301;
    expectRejected(BODY, `t=${future},v1=${hmac(future, BODY)}`);
    const skewed = now() + 60;
    expect(() => verifySignature(Buffer.from(BODY), `t=${skewed},v1=${hmac(skewed, BODY)}`, SECRET)).not.toThrow();
  });

  it('honours a custom tolerance and refuses a tolerance that is not positive', () => {
    const t = now() - 100;
    const header = `t=${t},v1=${hmac(t, BODY)}`;
    expect(() => verifySignature(Buffer.from(BODY), header, SECRET, 60)).toThrow(PaymentSignatureError);
    expect(() => verifySignature(Buffer.from(BODY), header, SECRET, 0)).toThrow(RangeError);
  });

  it.each([
    ['garbage', 'garbage'],
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['non-numeric timestamp', `t=abc,v1=${'a'.repeat(64)}`],
    ['no v1 entry', `t=${1_700_000_000},v0=${'a'.repeat(64)}`],
    ['empty v1', `t=${1_700_000_000},v1=`],
    ['two timestamps', `t=1,t=2,v1=${'a'.repeat(64)}`],
  ])('rejects a malformed header: %s', (_name, header) => {
    expectRejected(BODY, header);
  });

  it('rejects v1 values that are not 64 hex digits without throwing anything else', () => {
    const t = now();
    const good = hmac(t, BODY);
    expectRejected(BODY, `t=${t},v1=${good.slice(0, 62)}`); // too short: timingSafeEqual would throw on unequal lengths
    expectRejected(BODY, `t=${t},v1=${good}00`); // too long
    expectRejected(BODY, `t=${t},v1=${good.slice(0, 63)}z`); // Buffer.from(…, 'hex') would silently drop the digit
  });
});

describe('cross-check with the Stripe SDK', () => {
  it('verifies a header made by Stripe.webhooks.generateTestHeaderString', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRET });
    expect(() => verifySignature(Buffer.from(BODY), header, SECRET)).not.toThrow();
  });

  it('makes headers that stripe.webhooks.constructEvent accepts', () => {
    const event = Stripe.webhooks.constructEvent(Buffer.from(BODY), signPayload(BODY, SECRET), SECRET);
    expect(event.id).toBe('evt_1');
    expect(event.type).toBe('checkout.session.completed');
  });

  it('agrees with the SDK on a wrong secret and a stale timestamp', () => {
    const wrong = signPayload(BODY, 'whsec_other');
    expect(() => Stripe.webhooks.constructEvent(BODY, wrong, SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    const stale = signPayload(BODY, SECRET, now() - 301);
    expect(() => Stripe.webhooks.constructEvent(BODY, stale, SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expectRejected(BODY, stale);
  });

  it('is stricter than the SDK on future timestamps: the SDK accepts t = now + 1 h, we do not', () => {
    const future = signPayload(BODY, SECRET, now() + 3600);
    expect(() => Stripe.webhooks.constructEvent(BODY, future, SECRET)).not.toThrow();
    expectRejected(BODY, future);
  });
});

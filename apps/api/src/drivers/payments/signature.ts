/**
 * Our own implementation of Stripe's webhook signature scheme, used by the simulated provider so that the
 * webhook route runs the same code path in the demo, in tests and in production
 * (../shared/integrations/stripe-checkout.md).
 *
 * Header: `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, where
 * v1 = HMAC-SHA256(secret, `${t}.${raw body}`). Several v1 entries appear while a secret is being rolled.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PaymentSignatureError } from './payments.ts';

const SCHEME = 'v1';
const SHA256_HEX = /^[0-9a-f]{64}$/i;

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function computeSignature(timestamp: number, payload: Buffer | string, secret: string): Buffer {
  // HMAC over the raw bytes: re-encoding a parsed body would change whitespace and break the signature.
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(payload).digest();
}

/** Builds a `Stripe-Signature` header value for `payload` (the exact bytes that will be sent). */
export function signPayload(payload: string, secret: string, timestamp: number = nowSeconds()): string {
  if (!secret) throw new Error('signPayload needs a webhook secret');
  return `t=${timestamp},${SCHEME}=${computeSignature(timestamp, payload, secret).toString('hex')}`;
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) continue;
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) throw new PaymentSignatureError('Stripe-Signature: invalid timestamp');
      timestamp = Number(value);
    } else if (key === SCHEME) {
      signatures.push(value);
    }
  }
  if (timestamp === null) throw new PaymentSignatureError('Stripe-Signature: no timestamp');
  if (signatures.length === 0) throw new PaymentSignatureError(`Stripe-Signature: no ${SCHEME} signature`);
  return { timestamp, signatures };
}

/**
 * Throws PaymentSignatureError unless `header` carries a v1 signature of `raw` made with `secret` within
 * `toleranceSeconds` of now. Unlike Stripe's `constructEvent`, a tolerance of 0 does not switch the
 * time check off.
 */
export function verifySignature(raw: Buffer | string, header: string | undefined, secret: string, toleranceSeconds = 300): void {
  if (!secret) throw new Error('verifySignature needs a webhook secret');
  if (!(toleranceSeconds > 0)) throw new RangeError('toleranceSeconds must be positive');
  if (!header) throw new PaymentSignatureError('Stripe-Signature header missing');
  const { timestamp, signatures } = parseHeader(header);

  const expected = computeSignature(timestamp, raw, secret);
  let isMatch = false;
  for (const candidate of signatures) {
    // timingSafeEqual needs equal lengths, and Buffer.from(…, 'hex') silently drops bad digits: check the shape first.
    if (!SHA256_HEX.test(candidate)) continue;
    // No early exit: every entry costs the same, whichever one matches.
    if (timingSafeEqual(Buffer.from(candidate, 'hex'), expected)) isMatch = true;
  }
  if (!isMatch) throw new PaymentSignatureError('Stripe-Signature does not match the payload');

  const age = nowSeconds() - timestamp;
  if (age > toleranceSeconds) throw new PaymentSignatureError('Stripe-Signature timestamp is too old');
  // Stripe accepts any future timestamp. We refuse one beyond the tolerance: a signature we would accept
  // for an unlimited time once a (clock-skewed or leaked) header exists is a replay window without end,
  // and our own signer never produces one.
  if (-age > toleranceSeconds) throw new PaymentSignatureError('Stripe-Signature timestamp is in the future');
}

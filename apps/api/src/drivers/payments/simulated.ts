import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { simCheckoutSessions } from '../../db/schema/index.ts';
import { z } from 'zod';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { verifySignature } from './signature.ts';
import { PaymentProviderError, PaymentSignatureError, type CheckoutSession, type PaymentAddress, type PaymentEvent, type PaymentProvider } from './payments.ts';

/**
 * Embedded default: a card checkout served by the product itself (/pay/sim/{id}). It keeps Stripe's
 * shapes: sessions with status/payment_status, `client_reference_id`, expiry, and webhook events signed
 * with the Stripe signature scheme that a job delivers to our own webhook endpoint. So the demo, the
 * tests and production run the same webhook and fulfilment code.
 */

/** The delivery of one signed event to our webhook entry; the payments module holds its handler. */
export const simWebhookDelivery = jobKind('deliver-sim-webhook', z.object({ body: z.string() }));

/** Test cards like Stripe's: these succeed, 4000 0000 0000 0002 is declined. */
export const SIM_TEST_CARDS: Record<string, { brand: string; outcome: 'success' | 'declined' }> = {
  '4242424242424242': { brand: 'visa', outcome: 'success' },
  '5555555555554444': { brand: 'mastercard', outcome: 'success' },
  '4000000000000002': { brand: 'visa', outcome: 'declined' },
};

type SimSessionRow = typeof simCheckoutSessions.$inferSelect;

export interface SimulatedPayments extends PaymentProvider {
  readonly kind: 'simulated';
  webhookSecret: string;
  findSession(id: string): Promise<SimSessionRow | null>;
  /** The customer paid with a card (outcome already decided by the card number). */
  completeSession(id: string, payment: { card: { brand: string; last4: string }; name: string; address: PaymentAddress }): Promise<'complete' | 'not_open'>;
  /** Declined card or "Abbrechen": the session ends unpaid. */
  endSession(id: string, reason: 'declined' | 'canceled' | 'expired'): Promise<'expired' | 'not_open'>;
  /** Sessions past their expiry end (Stripe expires them on its own); returns how many. */
  expireDueSessions(): Promise<number>;
}

function toSession(row: SimSessionRow, publicUrl: string): CheckoutSession {
  return {
    id: row.id,
    url: row.status === 'open' ? `${publicUrl}/pay/sim/${row.id}` : null,
    status: row.status,
    paymentStatus: row.paymentStatus,
    amountTotal: row.amountCents,
    currency: row.currency,
    clientReferenceId: row.orderId,
    customerDetails: row.customerName ? { name: row.customerName, email: row.customerEmail, address: row.address ?? null } : { name: null, email: row.customerEmail, address: null },
    card: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
    declined: row.declined > 0,
  };
}

/** The event body as Stripe sends it: `{id, object:'event', type, created, data:{object: <session>}}`. */
function eventBody(type: string, row: SimSessionRow, publicUrl: string) {
  const s = toSession(row, publicUrl);
  return JSON.stringify({
    id: `evt_sim_${crypto.randomBytes(12).toString('hex')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: s.id, object: 'checkout.session', status: s.status, payment_status: s.paymentStatus,
        amount_total: s.amountTotal, currency: s.currency, client_reference_id: s.clientReferenceId,
        metadata: { orderId: s.clientReferenceId },
      },
    },
  });
}

export function createSimulatedPayments(db: Db, opts: { publicUrl: string; webhookSecret: string }): SimulatedPayments {
  const { publicUrl, webhookSecret } = opts;

  async function findSession(id: string) {
    const [row] = await db.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.id, id));
    return row ?? null;
  }

  return {
    kind: 'simulated',
    webhookSecret,
    findSession,

    async createCheckoutSession(p) {
      const id = `cs_sim_${crypto.randomBytes(16).toString('hex')}`;
      await db.insert(simCheckoutSessions).values({
        id, idempotencyKey: p.idempotencyKey, orderId: p.orderId, amountCents: p.amountCents, currency: p.currency,
        productName: p.productName, customerEmail: p.customerEmail, successUrl: p.successUrl, cancelUrl: p.cancelUrl, expiresAt: p.expiresAt,
      }).onConflictDoNothing();
      // Like Stripe's Idempotency-Key: a retried create answers with the session of the first one.
      const [row] = await db.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.idempotencyKey, p.idempotencyKey));
      return { id: row!.id, url: `${publicUrl}/pay/sim/${row!.id}` };
    },

    async retrieveCheckoutSession(id) {
      const row = await findSession(id);
      if (!row) throw new Error(`No such checkout session: ${id}`);
      return toSession(row, publicUrl);
    },

    async expireCheckoutSession(id) {
      await this.endSession(id, 'canceled');
    },

    constructEvent(rawBody, signatureHeader): PaymentEvent {
      verifySignature(rawBody, signatureHeader, webhookSecret);
      let parsed: { id?: unknown; type?: unknown; created?: unknown; data?: { object?: { id?: unknown; object?: unknown } } };
      try {
        parsed = JSON.parse(rawBody.toString('utf8')) as typeof parsed;
      } catch {
        throw new PaymentSignatureError('invalid payload');
      }
      if (typeof parsed.id !== 'string' || typeof parsed.type !== 'string') throw new PaymentSignatureError('invalid event');
      const object = parsed.data?.object;
      return {
        id: parsed.id, type: parsed.type, created: Number(parsed.created) || 0,
        sessionId: object?.object === 'checkout.session' && typeof object.id === 'string' ? object.id : null,
      };
    },

    async refundPayment({ sessionId, amountCents, idempotencyKey }) {
      const refundId = `re_sim_${crypto.createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.id, sessionId)).for('update');
        if (!row || row.paymentStatus !== 'paid') throw new PaymentProviderError(undefined, `checkout session ${sessionId} has no paid payment to refund`);
        // Like an idempotency key: the same refund again answers with the first one.
        if (row.refundId === refundId) return { id: refundId, status: 'succeeded' as const };
        if (row.refundId || amountCents <= 0 || amountCents > row.amountCents) {
          throw new PaymentProviderError(undefined, `refund of ${amountCents} cents refused: ${row.refundId ? 'already refunded' : `paid ${row.amountCents}`}`);
        }
        await tx.update(simCheckoutSessions).set({ refundId, refundedCents: amountCents }).where(eq(simCheckoutSessions.id, sessionId));
        return { id: refundId, status: 'succeeded' as const };
      });
    },

    async completeSession(id, payment) {
      return db.transaction(async (tx) => {
        const [row] = await tx.update(simCheckoutSessions).set({
          status: 'complete', paymentStatus: 'paid', customerName: payment.name, address: payment.address,
          cardBrand: payment.card.brand, cardLast4: payment.card.last4,
        }).where(and(eq(simCheckoutSessions.id, id), eq(simCheckoutSessions.status, 'open'), sql`${simCheckoutSessions.expiresAt} > now()`)).returning();
        if (!row) return 'not_open' as const;
        await enqueue(tx, simWebhookDelivery, { body: eventBody('checkout.session.completed', row, publicUrl) });
        return 'complete' as const;
      });
    },

    async endSession(id, reason) {
      return db.transaction(async (tx) => {
        const [row] = await tx.update(simCheckoutSessions).set({ status: 'expired', declined: reason === 'declined' ? 1 : 0 })
          .where(and(eq(simCheckoutSessions.id, id), eq(simCheckoutSessions.status, 'open'))).returning();
        if (!row) return 'not_open' as const;
        await enqueue(tx, simWebhookDelivery, { body: eventBody('checkout.session.expired', row, publicUrl) });
        return 'expired' as const;
      });
    },

    async expireDueSessions() {
      return db.transaction(async (tx) => {
        const rows = await tx.update(simCheckoutSessions).set({ status: 'expired' })
          .where(and(eq(simCheckoutSessions.status, 'open'), sql`${simCheckoutSessions.expiresAt} <= now()`)).returning();
        for (const row of rows) await enqueue(tx, simWebhookDelivery, { body: eventBody('checkout.session.expired', row, publicUrl) });
        return rows.length;
      });
    },
  };
}

/** Luhn check of a card number (digits only). */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

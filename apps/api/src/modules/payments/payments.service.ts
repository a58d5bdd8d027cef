import { and, eq, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { PaymentResult } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { invoices, orders, paymentEvents } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { PaymentSignatureError, type CheckoutSession } from '../../drivers/payments/payments.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { defineJob, defineSchedule } from '../../jobs/define.ts';
import { signPayload } from '../../drivers/payments/signature.ts';
import { simWebhookDelivery, type SimulatedPayments } from '../../drivers/payments/simulated.ts';
import { issueInvoiceJob } from '../invoices/invoices.service.ts';
import { productOfOrder } from '../products/registry.ts';

type PaymentDeps = Pick<Deps, 'db' | 'payments'> & { log?: { warn: (obj: object, msg: string) => void; info?: (obj: object, msg: string) => void } };

const syncCheckoutKind = jobKind('sync-checkout', z.object({ sessionId: z.string() }));

/** Ends a pending order and releases what it held (capacity by status, the rest by its product). */
export async function cancelPendingOrder(db: Db, orderId: string, reason: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [order] = await tx.update(orders).set({ status: 'cancelled', failureReason: reason })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'pending'))).returning();
    if (!order) return false;
    await productOfOrder(order).release(tx, order);
    return true;
  });
}

/**
 * Webhook entry: verify the signature over the raw body, store the event id (the provider repeats
 * events), and leave the work to a job so the provider gets its 2xx fast. Returns whether it was new.
 */
export async function receiveWebhook(deps: PaymentDeps, raw: Buffer, signature: string | undefined): Promise<'queued' | 'duplicate' | 'ignored'> {
  let event;
  try {
    event = deps.payments.constructEvent(raw, signature);
  } catch (err) {
    if (err instanceof PaymentSignatureError) {
      deps.log?.warn({ security: true, reason: err.message }, 'webhook refused: bad signature');
      throw badRequest('INVALID_SIGNATURE', 'Ungültige Webhook-Signatur.');
    }
    throw err;
  }
  const relevant = event.type.startsWith('checkout.session.') && event.sessionId;
  return deps.db.transaction(async (tx) => {
    const inserted = await tx.insert(paymentEvents).values({ id: event.id, type: event.type, sessionId: event.sessionId })
      .onConflictDoNothing().returning({ id: paymentEvents.id });
    if (!inserted.length) return 'duplicate' as const;
    if (!relevant) return 'ignored' as const;
    // The event only says "look again": the job re-fetches the session instead of trusting the body.
    await enqueue(tx, syncCheckoutKind, { sessionId: event.sessionId! }, { dedupeKey: `event:${event.id}` });
    return 'queued' as const;
  });
}

export type FulfilOutcome = 'fulfilled' | 'already' | 'not_paid' | 'mismatch' | 'unknown_order' | 'expired';

/** What the session says, checked against our order; only a paid, matching session fulfils. */
function checkSession(order: typeof orders.$inferSelect, session: CheckoutSession): 'ok' | 'mismatch' | 'not_paid' {
  if (session.clientReferenceId !== order.id) return 'mismatch';
  if (session.amountTotal !== order.amountCents || session.currency.toLowerCase() !== order.currency) return 'mismatch';
  if (session.status !== 'complete' || session.paymentStatus !== 'paid') return 'not_paid';
  return 'ok';
}

/**
 * Exactly-once fulfilment (stripe-checkout.md): called by the webhook job and by the return page.
 * Re-fetches the session, requires it paid and matching the order, then in ONE transaction moves the
 * order from pending to processing (only if still pending), creates the server record or applies the
 * renewal, and enqueues provisioning and invoicing. Only the caller that made the change does the work.
 */
export async function syncCheckout(deps: PaymentDeps, sessionId: string): Promise<FulfilOutcome> {
  const { db, payments } = deps;
  const [order] = await db.select().from(orders).where(eq(orders.paymentSessionId, sessionId));
  if (!order) {
    deps.log?.warn({ security: true, sessionId }, 'payment for an unknown checkout session');
    return 'unknown_order';
  }
  if (order.status !== 'pending') return 'already';
  const session = await payments.retrieveCheckoutSession(sessionId);
  const verdict = checkSession(order, session);
  if (verdict === 'mismatch') {
    deps.log?.warn({ security: true, orderId: order.id, sessionId, amount: session.amountTotal, expected: order.amountCents, reference: session.clientReferenceId }, 'payment does not match its order: not fulfilled');
    return 'mismatch';
  }
  if (verdict === 'not_paid') {
    if (session.status === 'expired') {
      await cancelPendingOrder(db, order.id, session.declined ? 'card declined' : 'payment expired or cancelled');
      return 'expired';
    }
    return 'not_paid';
  }

  const changed = await db.transaction(async (tx) => {
    const now = new Date();
    const [paid] = await tx.update(orders).set({
      status: 'processing', paidAt: now,
      cardBrand: session.card?.brand ?? null, cardLast4: session.card?.last4 ?? null,
      billingName: session.customerDetails?.name ?? null, billingAddress: session.customerDetails?.address ?? null,
    }).where(and(eq(orders.id, order.id), eq(orders.status, 'pending'))).returning();
    if (!paid) return false;

    // A subscription that vanished before the payment fails the order: refunded automatically, no invoice.
    if (await productOfOrder(paid).fulfil(tx, paid, { now, log: deps.log }) === 'failed') return true;
    await enqueue(tx, issueInvoiceJob, { orderId: paid.id }, { dedupeKey: `invoice:${paid.id}` });
    return true;
  });
  deps.log?.info?.({ orderId: order.id, fulfilled: changed }, 'checkout paid');
  return changed ? 'fulfilled' : 'already';
}

/**
 * /shop/payment: the result as the server knows it. A pending order is synced with the provider first
 * (the return page may arrive before the webhook), so "paid" is shown only when the provider says so.
 */
export async function getPaymentResult(deps: PaymentDeps, user: RequestUser, query: { session_id?: string; order?: string }): Promise<PaymentResult> {
  const { db } = deps;
  if (!query.session_id && !query.order) throw badRequest('MISSING_REFERENCE', 'Es fehlt die Angabe, welche Zahlung geprüft werden soll.');
  const where = query.session_id ? eq(orders.paymentSessionId, query.session_id) : eq(orders.id, query.order!);
  const load = async () => (await db.select().from(orders).where(and(where, eq(orders.userId, user.id))))[0];
  let order = await load();
  if (!order) throw notFound('Diese Zahlung wurde nicht gefunden.');

  if (order.status === 'pending' && order.paymentSessionId) {
    try {
      await syncCheckout(deps, order.paymentSessionId);
      // Coming back through the cancel link: the customer gave up, so the session ends now.
      if (query.order && !query.session_id) {
        const fresh = await load();
        if (fresh?.status === 'pending') {
          await deps.payments.expireCheckoutSession(order.paymentSessionId);
          await syncCheckout(deps, order.paymentSessionId);
        }
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      deps.log?.warn({ orderId: order.id, err: { message: (err as Error).message } }, 'payment status could not be checked');
    }
    order = (await load())!;
  }
  const [invoice] = await db.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.orderId, order.id), eq(invoices.kind, 'invoice')));
  const paid = order.status === 'processing' || order.status === 'completed' || order.status === 'refunded' || (order.status === 'failed' && order.paidAt !== null);
  return {
    paymentStatus: paid ? 'paid' : order.status === 'pending' ? 'open' : 'failed',
    orderId: order.id,
    orderNumber: String(order.number),
    amountCents: order.amountCents,
    date: (order.paidAt ?? order.createdAt).toISOString(),
    orderStatus: order.status,
    product: productOfOrder(order).name,
    kind: order.kind,
    serverId: order.serverId,
    hostingPackageId: order.hostingPackageId,
    domainId: order.domainId,
    invoiceId: invoice?.id ?? null,
  };
}

/**
 * Safety net for lost events: pending orders whose hold ran out are synced with the provider (which
 * reports them paid or expired). Runs from the billing tick.
 */
export async function syncStalePendingOrders(deps: PaymentDeps, limit = 50) {
  const stale = await deps.db.select({ id: orders.id, sessionId: orders.paymentSessionId }).from(orders)
    .where(and(eq(orders.status, 'pending'), lt(orders.holdUntil, sql`now()`))).limit(limit);
  for (const o of stale) {
    if (!o.sessionId) {
      await cancelPendingOrder(deps.db, o.id, 'no payment session');
      continue;
    }
    try {
      const outcome = await syncCheckout(deps, o.sessionId);
      if (outcome === 'not_paid') {
        await deps.payments.expireCheckoutSession(o.sessionId);
        await syncCheckout(deps, o.sessionId);
      }
    } catch (err) {
      deps.log?.warn({ orderId: o.id, err: { message: (err as Error).message } }, 'stale order could not be synced');
    }
  }
}

// ── Jobs and schedules ─────────────────────────────────────────────────────────────────────────────

/** A webhook said "look again": fetch the session from the provider and apply what it says. */
export const syncCheckoutJob = defineJob(syncCheckoutKind, async (deps, { sessionId }) => {
  await syncCheckout(deps, sessionId);
});

/**
 * The simulated provider delivers its events like Stripe: signed, through the same entry as the real
 * webhook route (signature check, event de-duplication, sync job).
 */
export const simWebhookJob = defineJob(simWebhookDelivery, async (deps, { body }) => {
  const payments = deps.payments as SimulatedPayments;
  if (payments.kind !== 'simulated') return;
  await receiveWebhook(deps, Buffer.from(body, 'utf8'), signPayload(body, payments.webhookSecret));
});

/**
 * Payment housekeeping (every billing tick): simulated sessions past their expiry end like Stripe's,
 * and pending orders whose hold ran out are synced with the provider (lost events).
 */
export const paymentHousekeeping = defineSchedule({
  name: 'payment-housekeeping',
  everyMs: (deps) => deps.env.billing.tickMs,
  firstAfterMs: () => 5_000,
  run: async (deps) => {
    if (deps.payments.kind === 'simulated') await (deps.payments as SimulatedPayments).expireDueSessions();
    await syncStalePendingOrders(deps);
  },
});

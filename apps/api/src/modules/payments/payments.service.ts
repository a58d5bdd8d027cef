import { and, eq, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { LEGACY_ORDER_TAX, type PaymentResult } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { invoices, orders, paymentEvents } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { PaymentProviderError, PaymentSignatureError, type CheckoutSession } from '../../drivers/payments/payments.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { defineJob, defineSchedule } from '../../jobs/define.ts';
import { signPayload } from '../../drivers/payments/signature.ts';
import { simWebhookDelivery, type SimulatedPayments } from '../../drivers/payments/simulated.ts';
import { issueInvoiceJob } from '../invoices/invoices.service.ts';
import { refundDuplicatePaymentKind } from './fail-order.ts';

type PaymentDeps = Pick<Deps, 'db' | 'payments' | 'env' | 'products'> & { log?: { warn: (obj: object, msg: string) => void; info?: (obj: object, msg: string) => void } };

const syncCheckoutKind = jobKind('sync-checkout', z.object({ sessionId: z.string() }));

/** Why an order was given up when the customer ordered the same product again (decision 028). */
export const REPLACED_BY_NEW_ORDER = 'replaced by a new order';

/** Ends a pending order and releases what it held (capacity by status, the rest by its product). */
export async function cancelPendingOrder({ db, products }: Pick<Deps, 'db' | 'products'>, orderId: string, reason: string, sessionId?: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    // With a session: only while that session is still the order's payment (a retry may have replaced it).
    const [order] = await tx.update(orders).set({ status: 'cancelled', failureReason: reason })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'pending'), sessionId ? eq(orders.paymentSessionId, sessionId) : undefined)).returning();
    if (!order) return false;
    await products.ofOrder(order).release(tx, order);
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

export type FulfilOutcome = 'fulfilled' | 'already' | 'not_paid' | 'mismatch' | 'unknown_order' | 'expired' | 'retryable' | 'replaced';

/** What the session says, checked against our order; only a paid, matching session fulfils. */
function checkSession(order: typeof orders.$inferSelect, session: CheckoutSession): 'ok' | 'mismatch' | 'not_paid' {
  if (session.clientReferenceId !== order.id) return 'mismatch';
  if (session.amountTotal !== order.amountCents || session.currency.toLowerCase() !== order.currency) return 'mismatch';
  if (session.status !== 'complete' || session.paymentStatus !== 'paid') return 'not_paid';
  return 'ok';
}

/** Why an attempt ended unpaid, as staff read it in the order (a pending order keeps it until the next attempt). */
const endedReason = (session: CheckoutSession) => (session.declined ? 'card declined' : 'payment expired or cancelled');

/**
 * Moves the order from pending to processing with this session's payment and runs the product's
 * fulfilment, all in one transaction; `sessionId` becomes the order's payment (refunds use it).
 * Returns whether this caller made the change.
 */
async function fulfilOrder(deps: PaymentDeps, order: typeof orders.$inferSelect, session: CheckoutSession): Promise<boolean> {
  const changed = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const [paid] = await tx.update(orders).set({
      status: 'processing', paidAt: now, paymentSessionId: session.id, failureReason: null,
      cardBrand: session.card?.brand ?? null, cardLast4: session.card?.last4 ?? null,
      billingName: session.customerDetails?.name ?? null, billingAddress: session.customerDetails?.address ?? null,
    }).where(and(eq(orders.id, order.id), eq(orders.status, 'pending'))).returning();
    if (!paid) return false;

    // A subscription that vanished before the payment fails the order: refunded automatically, no invoice.
    if (await deps.products.ofOrder(paid).fulfil(tx, paid, { now, env: deps.env, log: deps.log }) === 'failed') return true;
    await enqueue(tx, issueInvoiceJob, { orderId: paid.id }, { dedupeKey: `invoice:${paid.id}` });
    return true;
  });
  deps.log?.info?.({ orderId: order.id, sessionId: session.id, fulfilled: changed }, 'checkout paid');
  return changed;
}

/**
 * Exactly-once fulfilment (stripe-checkout.md): called by the webhook job and by the return page.
 * Re-fetches the session, requires it paid and matching the order, then in ONE transaction moves the
 * order from pending to processing (only if still pending), creates the server record or applies the
 * renewal, and enqueues provisioning and invoicing. Only the caller that made the change does the work.
 *
 * A session that ended unpaid (declined, cancelled, expired) leaves the order payable while its hold
 * lasts (decision 028: "Erneut versuchen" opens a new session for it); once the hold has run out, or
 * with `cancelUnpaid` (the same order was placed again), the order is cancelled and its hold released.
 */
export async function syncCheckout(deps: PaymentDeps, sessionId: string, opts: { cancelUnpaid?: boolean } = {}): Promise<FulfilOutcome> {
  const { db, payments } = deps;
  const [order] = await db.select().from(orders).where(eq(orders.paymentSessionId, sessionId));
  if (!order) return syncReplacedSession(deps, sessionId);
  if (order.status === 'cancelled') return refundIfPaid(deps, order, sessionId);
  if (order.status !== 'pending') return 'already';
  const session = await payments.retrieveCheckoutSession(sessionId);
  const verdict = checkSession(order, session);
  if (verdict === 'mismatch') {
    deps.log?.warn({ security: true, orderId: order.id, sessionId, amount: session.amountTotal, expected: order.amountCents, reference: session.clientReferenceId }, 'payment does not match its order: not fulfilled');
    return 'mismatch';
  }
  if (verdict === 'not_paid') {
    if (session.status !== 'expired') return 'not_paid';
    if (opts.cancelUnpaid || order.holdUntil.getTime() <= Date.now()) {
      await cancelPendingOrder(deps, order.id, endedReason(session), sessionId);
      return 'expired';
    }
    // Only while this session is still the order's payment: a newer attempt must not look failed.
    await db.update(orders).set({ failureReason: endedReason(session) })
      .where(and(eq(orders.id, order.id), eq(orders.status, 'pending'), eq(orders.paymentSessionId, sessionId)));
    return 'retryable';
  }
  if (await fulfilOrder(deps, order, session)) return 'fulfilled';
  // Someone else moved the order on between our read and our update. If that was an earlier session of
  // the same order paying at the same moment (decision 028), this payment is a second one: refunded.
  const [now] = await db.select().from(orders).where(eq(orders.id, order.id));
  if (now && now.paymentSessionId !== sessionId) return refundIfPaid(deps, now, sessionId);
  return 'already';
}

/** Money must not stay with us for an order that ended unpaid (the provider took a payment after all): it goes back. */
async function refundIfPaid(deps: PaymentDeps, order: typeof orders.$inferSelect, sessionId: string): Promise<FulfilOutcome> {
  const session = await deps.payments.retrieveCheckoutSession(sessionId);
  if (checkSession(order, session) !== 'ok') return 'already';
  await enqueue(deps.db, refundDuplicatePaymentKind, { orderId: order.id, sessionId, amountCents: session.amountTotal }, { dedupeKey: `refund-session:${sessionId}` });
  deps.log?.warn({ orderId: order.id, sessionId, status: order.status }, 'a payment the order does not keep (cancelled, or paid twice): refunded');
  return 'already';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A session no order points to any more: an earlier attempt of an order that got a new session
 * (decision 028). The retry ends the old session at the provider before it opens the new one, so a
 * payment of it should not exist; if the provider still took one, it is handled here: the order is
 * fulfilled once (with this payment, the newer session is ended), and a second payment for an order
 * that was paid already (or ended) is refunded. The session is asked from the provider, never taken
 * from the event; only a session that names one of our orders and matches its amount counts.
 */
async function syncReplacedSession(deps: PaymentDeps, sessionId: string): Promise<FulfilOutcome> {
  const unknown = () => {
    deps.log?.warn({ security: true, sessionId }, 'payment for an unknown checkout session');
    return 'unknown_order' as const;
  };
  let session: CheckoutSession;
  try {
    session = await deps.payments.retrieveCheckoutSession(sessionId);
  } catch (err) {
    // An outage is retried by the webhook job; a session the provider does not know is nobody's.
    if (err instanceof PaymentProviderError && !/no such|not found|404/i.test(err.detail ?? '')) throw err;
    return unknown();
  }
  const orderId = session.clientReferenceId;
  if (!orderId || !UUID.test(orderId)) return unknown();
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order || order.paymentProvider !== deps.payments.kind) return unknown();
  const verdict = checkSession(order, session);
  if (verdict === 'mismatch') {
    deps.log?.warn({ security: true, orderId, sessionId, amount: session.amountTotal, expected: order.amountCents }, 'payment of a replaced session does not match its order');
    return 'mismatch';
  }
  if (verdict === 'not_paid') return 'replaced';

  if (order.status === 'pending') {
    const current = order.paymentSessionId;
    if (await fulfilOrder(deps, order, session)) {
      deps.log?.warn({ orderId, sessionId, replacedBy: current }, 'an earlier payment session of the order was paid: fulfilled with it');
      // The newer session must not take a second payment; should it have, its own sync refunds it.
      if (current && current !== sessionId) {
        try {
          await deps.payments.expireCheckoutSession(current);
        } catch (err) {
          deps.log?.warn({ orderId, sessionId: current, err: { message: (err as Error).message } }, 'newer payment session could not be ended');
        }
      }
      return 'fulfilled';
    }
  }
  // Paid twice (or paid after the order ended): this payment goes back, the order keeps the other one.
  return refundIfPaid(deps, order, sessionId);
}

/**
 * /shop/payment: the result as the server knows it. A pending order is synced with the provider first
 * (the return page may arrive before the webhook), so "paid" is shown only when the provider says so.
 * A failed attempt of an order that still holds its reservation is 'failed' with `retryUntil`.
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
  // The last attempt ended unpaid, the order still holds what it reserved: it can be paid again.
  const retryable = order.status === 'pending' && order.failureReason !== null && order.holdUntil.getTime() > Date.now();
  const product = deps.products.ofOrder(order);
  const tax = order.tax ?? LEGACY_ORDER_TAX;
  return {
    paymentStatus: paid ? 'paid' : order.status === 'pending' && !retryable ? 'open' : 'failed',
    orderId: order.id,
    orderNumber: String(order.number),
    amountCents: order.amountCents,
    date: (order.paidAt ?? order.createdAt).toISOString(),
    orderStatus: order.status,
    product: product.name,
    kind: order.kind,
    productKind: order.product,
    subscriptionPath: product.subscriptionPath(order),
    invoiceId: invoice?.id ?? null,
    retryUntil: retryable ? order.holdUntil.toISOString() : null,
    reconfigurePath: product.shopPath(order),
    ...(order.status === 'cancelled' && order.failureReason === REPLACED_BY_NEW_ORDER ? { replaced: true } : {}),
    tax: { ratePercent: tax.ratePercent, category: tax.category, placeOfSupply: tax.placeOfSupply, priceMode: tax.priceMode, priceLabel: tax.priceLabel, invoiceNote: tax.invoiceNote, explanation: tax.explanation ?? null },
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
      await cancelPendingOrder(deps, o.id, 'no payment session');
      continue;
    }
    try {
      // The hold ran out (by the database's clock): an ended or now ended session cancels the order.
      const outcome = await syncCheckout(deps, o.sessionId, { cancelUnpaid: true });
      if (outcome === 'not_paid') {
        await deps.payments.expireCheckoutSession(o.sessionId);
        await syncCheckout(deps, o.sessionId, { cancelUnpaid: true });
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

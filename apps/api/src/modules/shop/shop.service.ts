import crypto from 'node:crypto';
import { and, count, eq, gt, isNull, isNotNull } from 'drizzle-orm';
import { chargedLabel, priceFor, shopMessages, type CheckoutResponse } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { OutsideSystems } from '../../drivers/outside-systems.ts';
import { orders, users } from '../../db/schema/index.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { PaymentProviderError } from '../../drivers/payments/payments.ts';
import type { RequestUser } from '../../http/auth.ts';
import { cancelPendingOrder, REPLACED_BY_NEW_ORDER, syncCheckout } from '../payments/payments.service.ts';
import type { ProductModule } from '../products/product-module.ts';
import { customerTaxFacts, decideTaxForOrder } from '../tax/tax.service.ts';

export type ShopDeps = Pick<Deps, 'db' | 'payments' | 'env' | 'vatCheck' | 'products' | keyof OutsideSystems> & { log?: { warn: (obj: object, msg: string) => void; info?: (obj: object, msg: string) => void } };

/** Open (unpaid, still holding) checkouts one customer may have: nobody can hold all free IPs. */
export const MAX_OPEN_CHECKOUTS = 3;

/**
 * A customer who starts the same order again (back button, second tab) gets a fresh payment page; the
 * older one is ended at the provider and then settled like any other session, so a payment that
 * arrived meanwhile is still fulfilled and an unpaid one releases its hold. Orders of the same product
 * whose payment failed are given up too.
 */
async function replaceSameOpenCheckout<I>(deps: ShopDeps, user: RequestUser, product: ProductModule<I>, input: I) {
  const same = await deps.db.select({ sessionId: orders.paymentSessionId }).from(orders).where(and(
    eq(orders.userId, user.id), eq(orders.product, product.kind), eq(orders.status, 'pending'), gt(orders.holdUntil, new Date()), isNotNull(orders.paymentSessionId),
    product.sameOrder(input, deps.env),
  ));
  for (const { sessionId } of same) {
    try {
      await deps.payments.expireCheckoutSession(sessionId!);
      await syncCheckout(deps, sessionId!, { cancelUnpaid: true });
    } catch {
      // The provider is unreachable: the old checkout keeps its hold until it runs out; the cap still holds.
    }
  }
  // Orders of this product whose payment failed stay payable for a while (decision 028); a new order of
  // the product ("Neu konfigurieren") gives them up, as a failed payment did at once before, so their
  // holds (a domain name, a subdomain, an address) do not stand in its way. Their sessions have ended.
  const failed = await deps.db.select({ id: orders.id, sessionId: orders.paymentSessionId }).from(orders).where(and(
    eq(orders.userId, user.id), eq(orders.product, product.kind), eq(orders.status, 'pending'), gt(orders.holdUntil, new Date()),
    isNotNull(orders.failureReason), isNotNull(orders.paymentSessionId),
  ));
  for (const { id, sessionId } of failed) await cancelPendingOrder(deps, id, REPLACED_BY_NEW_ORDER, sessionId!);
}

/** Lifetime of a provider checkout session (Stripe: at least 30 minutes). */
export const CHECKOUT_SESSION_MINUTES = 31;

/** How many holds' worth of time after it was placed an order may still be paid by retrying (decision 028). */
export const MAX_HOLD_FACTOR = 3;

/**
 * Places the order of any product and opens the payment. One transaction takes the customer's row lock
 * (open-checkout cap), lets the product check and hold what it needs (decision 022) and stores the
 * pending order with its hold; the payment session is created afterwards. If the provider cannot be
 * reached the order is cancelled at once, releasing the hold. The price comes from the product's shared
 * formula; nothing price-like is accepted from the client.
 */
export async function placeOrder<I>(deps: ShopDeps, user: RequestUser, product: ProductModule<I>, input: I): Promise<CheckoutResponse> {
  const { db, env, payments } = deps;
  const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
  if (!account) throw notFound();
  const holdUntil = new Date(Date.now() + env.billing.checkoutHoldMinutes * 60_000);

  await product.precheck?.({ userId: user.id, env, db, drivers: deps }, input);
  await replaceSameOpenCheckout(deps, user, product, input);
  // The customer's tax facts, with the VAT ID checked again when due, before any lock is taken (the
  // check service may take seconds); the decision itself is made with the order's price below.
  const taxCustomer = await customerTaxFacts(deps, user.id, { recheck: true });
  if (!taxCustomer) throw notFound();

  const order = await db.transaction(async (tx) => {
    // One customer's checkouts take turns, so parallel requests cannot slip past the cap.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('no key update');
    const [open] = await tx.select({ n: count() }).from(orders)
      .where(and(eq(orders.userId, user.id), eq(orders.status, 'pending'), gt(orders.holdUntil, new Date())));
    if ((open?.n ?? 0) >= MAX_OPEN_CHECKOUTS) throw conflict('TOO_MANY_OPEN_CHECKOUTS', shopMessages.tooManyOpenCheckouts);
    // The same purchase started in another tab at the same moment: replaceSameOpenCheckout ran before
    // either existed, so under the customer's lock the later one is refused instead of stacking.
    const same = product.sameOrder(input, env);
    if (same) {
      const [twin] = await tx.select({ id: orders.id }).from(orders)
        .where(and(eq(orders.userId, user.id), eq(orders.product, product.kind), eq(orders.status, 'pending'), gt(orders.holdUntil, new Date()), isNull(orders.failureReason), same)).limit(1);
      if (twin) throw conflict('SAME_ORDER_OPEN', shopMessages.sameOrderOpen);
    }
    const reserved = await product.reserve(tx, { userId: user.id, holdUntil, env }, input);
    // Products price in German gross list prices; the customer pays what the tax decision makes of its
    // net price (issue 24, decision 031).
    const tax = await decideTaxForOrder(tx, env.tax, taxCustomer, reserved.netCents);
    const price = priceFor(reserved.amountCents, tax);
    const [row] = await tx.insert(orders).values({
      ...reserved, amountCents: price.grossCents, netCents: price.netCents, vatCents: price.vatCents, tax,
      userId: user.id, product: product.kind, holdUntil, paymentProvider: payments.kind,
    }).returning();
    return row!;
  });

  try {
    return await openPaymentSession(deps, order, account.email, `order-${order.id}-checkout-1`);
  } catch (err) {
    await cancelPendingOrder(deps, order.id, 'payment provider unavailable');
    throw err;
  }
}

type OrderRow = typeof orders.$inferSelect;

/** Creates a provider session for the order (provider failures leave as 503 in German) and returns it. */
async function createPaymentSession({ env, payments, products }: ShopDeps, order: OrderRow, email: string, idempotencyKey: string) {
  try {
    return await payments.createCheckoutSession({
      orderId: order.id,
      amountCents: order.amountCents,
      currency: 'eur',
      // The payment page shows how the amount is taxed ("Reverse Charge", "inkl. 20 % USt.", …).
      productName: order.tax ? `${products.ofOrder(order).paymentLine(order)} – ${chargedLabel(order.tax)}` : products.ofOrder(order).paymentLine(order),
      customerEmail: email,
      successUrl: `${env.publicUrl}/shop/payment?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${env.publicUrl}/shop/payment?order=${order.id}`,
      // Stripe refuses less than 30 minutes from *its* clock: one minute of margin for latency and clock
      // skew (exactly 30 min failed whenever a second ticked in between). The session still ends before
      // our hold (at least 32 min) does, so a late payment always finds its hold.
      expiresAt: new Date(Date.now() + CHECKOUT_SESSION_MINUTES * 60_000),
      idempotencyKey,
    });
  } catch (err) {
    if (err instanceof PaymentProviderError) throw new AppError(503, 'PAYMENT_UNAVAILABLE', err.message);
    throw err;
  }
}

/** The first payment session of a new order, stored on it. */
async function openPaymentSession(deps: ShopDeps, order: OrderRow, email: string, idempotencyKey: string): Promise<CheckoutResponse> {
  const session = await createPaymentSession(deps, order, email, idempotencyKey);
  await deps.db.update(orders).set({ paymentSessionId: session.id, paymentUrl: session.url }).where(eq(orders.id, order.id));
  return { orderId: order.id, sessionId: session.id, url: session.url };
}

async function endExpiredOrder(deps: ShopDeps, order: OrderRow) {
  if (!order.paymentSessionId) {
    await cancelPendingOrder(deps, order.id, 'no payment session');
    return;
  }
  try {
    await deps.payments.expireCheckoutSession(order.paymentSessionId);
    await syncCheckout(deps, order.paymentSessionId, { cancelUnpaid: true });
  } catch (err) {
    // The provider is unreachable: the housekeeping tick ends the order later.
    deps.log?.warn({ orderId: order.id, err: { message: (err as Error).message } }, 'expired order could not be ended');
  }
}

/**
 * "Erneut versuchen" (decision 028): a new payment session for an open order whose last attempt failed
 * (declined, cancelled or expired), while its hold lasts. The current session is asked first: an open
 * one is simply returned; an ended one is settled (a paid one fulfils the order and is answered as
 * paid; an expired one can take no money any more). The new session replaces the old one on the order
 * in one conditional update, which also renews the hold: a Stripe session lasts at least 30 minutes and
 * must end before the hold does, as at checkout. Of two parallel retries the first update wins; the
 * other one ends its own session and answers with the winner's.
 */
export async function retryPayment(deps: ShopDeps, user: RequestUser, orderId: string): Promise<CheckoutResponse> {
  const { db, env, payments } = deps;
  const load = async () => (await db.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, user.id))))[0];
  const order = await load();
  if (!order) throw notFound(shopMessages.orderNotFound);
  const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
  if (!account) throw notFound();
  const refuse = (current: OrderRow) => {
    if (current.paidAt !== null || current.status === 'processing' || current.status === 'completed') return conflict('ORDER_ALREADY_PAID', shopMessages.orderAlreadyPaid);
    if (current.failureReason === REPLACED_BY_NEW_ORDER) return conflict('ORDER_NOT_PAYABLE', shopMessages.orderReplaced);
    return conflict('ORDER_NOT_PAYABLE', shopMessages.orderNoLongerPayable);
  };
  if (order.status !== 'pending') throw refuse(order);

  const oldSessionId = order.paymentSessionId;
  if (oldSessionId) {
    let current;
    try {
      current = await payments.retrieveCheckoutSession(oldSessionId);
    } catch (err) {
      if (err instanceof PaymentProviderError) throw new AppError(503, 'PAYMENT_UNAVAILABLE', err.message);
      throw err;
    }
    // Still open (a second click, another tab): the customer continues with it; nothing is replaced.
    if (current.status === 'open' && current.url && order.holdUntil.getTime() > Date.now()) return { orderId: order.id, sessionId: oldSessionId, url: current.url };
    // Ended sessions are final at the provider: a paid one fulfils the order here, an unpaid one can take no money any more.
    await syncCheckout(deps, oldSessionId);
  }
  const settled = await load();
  if (!settled || settled.status !== 'pending' || settled.holdUntil.getTime() <= Date.now()) {
    // A hold that ran out ends the order now rather than at the next housekeeping tick; a session that is
    // still open is ended first, so nothing can be paid for a cancelled order.
    if (settled?.status === 'pending') await endExpiredOrder(deps, settled);
    throw refuse((await load()) ?? order);
  }
  if (settled.paymentSessionId !== oldSessionId) {
    // Another retry was quicker: its session is the payment now.
    return { orderId: settled.id, sessionId: settled.paymentSessionId!, url: settled.paymentUrl! };
  }

  // Retries renew the hold, but not beyond MAX_HOLD_FACTOR holds after the order was placed: cancelling and
  // retrying must not keep capacity or a name from others for hours (adversarial review, issue 23). The
  // last retry still leaves the payment session its whole lifetime inside the hold.
  const latest = settled.createdAt.getTime() + MAX_HOLD_FACTOR * env.billing.checkoutHoldMinutes * 60_000;
  if (latest - Date.now() < (CHECKOUT_SESSION_MINUTES + 1) * 60_000) throw conflict('ORDER_NOT_PAYABLE', shopMessages.orderNoLongerPayable);
  const holdUntil = new Date(Math.min(Date.now() + env.billing.checkoutHoldMinutes * 60_000, latest));
  const session = await createPaymentSession(deps, settled, account.email, `order-${settled.id}-retry-${crypto.randomUUID()}`);
  const switched = await db.transaction(async (tx) => {
    const [row] = await tx.update(orders).set({ paymentSessionId: session.id, paymentUrl: session.url, holdUntil, failureReason: null })
      .where(and(
        eq(orders.id, settled.id), eq(orders.status, 'pending'), gt(orders.holdUntil, new Date()),
        oldSessionId ? eq(orders.paymentSessionId, oldSessionId) : isNull(orders.paymentSessionId),
      )).returning();
    if (!row) return false;
    await deps.products.ofOrder(settled).renewHold?.(tx, settled, holdUntil);
    return true;
  });
  if (switched) return { orderId: settled.id, sessionId: session.id, url: session.url };

  // Lost the race (another retry, a payment, the hold's end): this session must never take money.
  await payments.expireCheckoutSession(session.id).catch((err: unknown) => {
    deps.log?.warn({ orderId, sessionId: session.id, err: { message: (err as Error).message } }, 'unused payment session could not be ended');
  });
  const now = await load();
  if (now?.status === 'pending' && now.holdUntil.getTime() > Date.now() && now.paymentSessionId && now.paymentUrl) {
    return { orderId: now.id, sessionId: now.paymentSessionId, url: now.paymentUrl };
  }
  throw refuse(now ?? order);
}

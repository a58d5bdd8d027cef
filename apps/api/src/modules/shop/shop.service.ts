import { and, count, eq, gt, isNull, isNotNull } from 'drizzle-orm';
import {
  LINUX_DISTROS, WINDOWS_VERSIONS, shopMessages,
  type CheckoutInput, type CheckoutResponse, type LinuxDistro, type UpgradeInfo, type WindowsVersion,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { ipAddresses, orders, servers, users } from '../../db/schema/index.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { PaymentProviderError } from '../../drivers/payments/payments.ts';
import type { RequestUser } from '../../http/auth.ts';
import { cancelPendingOrder, syncCheckout } from '../payments/payments.service.ts';
import type { ProductModule } from '../products/product-module.ts';
import { osFamilyOf, rootServerProduct } from '../products/root-server.ts';

type ShopDeps = Pick<Deps, 'db' | 'payments' | 'env'>;

export { osFamilyOf };

async function findOwnServer(db: ShopDeps['db'], user: RequestUser, serverId: string) {
  // Shared users operate a server but see no billing: only the owner may renew or upgrade it.
  const [server] = await db.select().from(servers)
    .where(and(eq(servers.id, serverId), eq(servers.ownerId, user.id), isNull(servers.deletedAt)));
  if (!server) throw notFound();
  return server;
}

export async function getUpgradeInfo({ db }: ShopDeps, user: RequestUser, serverId: string): Promise<UpgradeInfo> {
  const server = await findOwnServer(db, user, serverId);
  const [ip] = await db.select({ address: ipAddresses.address }).from(ipAddresses)
    .where(eq(ipAddresses.serverId, server.id)).orderBy(ipAddresses.version, ipAddresses.id).limit(1);
  const os = osFamilyOf(server.os);
  return {
    serverId: server.id,
    name: server.name,
    os,
    distro: os === 'linux' && (LINUX_DISTROS as readonly string[]).includes(server.os) ? server.os as LinuxDistro : null,
    windowsVersion: os === 'windows' && (WINDOWS_VERSIONS as readonly string[]).includes(server.os) ? server.os as WindowsVersion : null,
    osName: server.os,
    cpu: server.cpuCores,
    ram: server.ramGb,
    storage: server.storageGb,
    ip: ip?.address ?? null,
    expiresAt: server.expiresAt?.toISOString() ?? null,
  };
}

/** Open (unpaid, still holding) checkouts one customer may have: nobody can hold all free IPs. */
export const MAX_OPEN_CHECKOUTS = 3;

/**
 * A customer who starts the same order again (back button, second tab) gets a fresh payment page; the
 * older one is ended at the provider and then settled like any other session, so a payment that
 * arrived meanwhile is still fulfilled and an unpaid one releases its hold.
 */
async function replaceSameOpenCheckout<I>(deps: ShopDeps, user: RequestUser, product: ProductModule<I>, input: I) {
  const same = await deps.db.select({ sessionId: orders.paymentSessionId }).from(orders).where(and(
    eq(orders.userId, user.id), eq(orders.product, product.kind), eq(orders.status, 'pending'), gt(orders.holdUntil, new Date()), isNotNull(orders.paymentSessionId),
    product.sameOrder(input, deps.env),
  ));
  for (const { sessionId } of same) {
    try {
      await deps.payments.expireCheckoutSession(sessionId!);
      await syncCheckout(deps, sessionId!);
    } catch {
      // The provider is unreachable: the old checkout keeps its hold until it runs out; the cap still holds.
    }
  }
}

/** Lifetime of a provider checkout session (Stripe: at least 30 minutes). */
export const CHECKOUT_SESSION_MINUTES = 31;

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

  await replaceSameOpenCheckout(deps, user, product, input);

  const order = await db.transaction(async (tx) => {
    // One customer's checkouts take turns, so parallel requests cannot slip past the cap.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('no key update');
    const [open] = await tx.select({ n: count() }).from(orders)
      .where(and(eq(orders.userId, user.id), eq(orders.status, 'pending'), gt(orders.holdUntil, new Date())));
    if ((open?.n ?? 0) >= MAX_OPEN_CHECKOUTS) throw conflict('TOO_MANY_OPEN_CHECKOUTS', shopMessages.tooManyOpenCheckouts);
    const reserved = await product.reserve(tx, { userId: user.id, holdUntil, env }, input);
    const [row] = await tx.insert(orders).values({
      ...reserved, userId: user.id, product: product.kind, holdUntil, paymentProvider: payments.kind,
    }).returning();
    return row!;
  });

  let session: { id: string; url: string };
  try {
    session = await payments.createCheckoutSession({
      orderId: order.id,
      amountCents: order.amountCents,
      currency: 'eur',
      productName: product.paymentLine(order),
      customerEmail: account.email,
      successUrl: `${env.publicUrl}/shop/payment?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${env.publicUrl}/shop/payment?order=${order.id}`,
      // Stripe refuses less than 30 minutes from *its* clock: one minute of margin for latency and clock
      // skew (exactly 30 min failed whenever a second ticked in between). The session still ends before
      // our hold (at least 32 min) does, so a late payment always finds its hold.
      expiresAt: new Date(Date.now() + CHECKOUT_SESSION_MINUTES * 60_000),
      idempotencyKey: `order-${order.id}-checkout-1`,
    });
  } catch (err) {
    await cancelPendingOrder(db, order.id, 'payment provider unavailable');
    if (err instanceof PaymentProviderError) throw new AppError(503, 'PAYMENT_UNAVAILABLE', err.message);
    throw err;
  }
  await db.update(orders).set({ paymentSessionId: session.id, paymentUrl: session.url }).where(eq(orders.id, order.id));
  return { orderId: order.id, sessionId: session.id, url: session.url };
}

/** The root server configurator's checkout (new server, or upgrade/renewal of one's own). */
export const checkout = (deps: ShopDeps, user: RequestUser, input: CheckoutInput) => placeOrder(deps, user, rootServerProduct, input);

import { and, count, desc, eq, isNotNull } from 'drizzle-orm';
import { addMonthsClamped, durationDiscountPercent, LEGACY_ORDER_TAX, type OrderCard, type OrderDetail, type OrderList } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { invoices, orders } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import type { OrderRow, SubscriptionTerm } from '../products/product-module.ts';

// Orders are what was bought: checkouts that were never paid (cancelled, declined, expired) are not listed.
const isOrder = isNotNull(orders.paidAt);

function nextBillingDate(o: OrderRow, term: SubscriptionTerm | undefined): Date | null {
  // An order that was not delivered (failed, refunded) bills nothing further.
  if (o.status === 'failed' || o.status === 'refunded' || o.status === 'cancelled') return null;
  // A renewal moves the subscription's end; the older orders of the same subscription must not contradict it.
  if (term && !term.deletedAt && term.expiresAt) return term.expiresAt;
  return o.periodEnd ?? addMonthsClamped(o.paidAt ?? o.createdAt, o.months);
}

/** The current terms of the orders' subscriptions, asked of each product once (decision 033). */
type OrderDeps = Pick<Deps, 'db' | 'products'>;

async function termsOf({ db, products }: OrderDeps, rows: OrderRow[]): Promise<Map<string, SubscriptionTerm>> {
  const byProduct = new Map<OrderRow['product'], string[]>();
  for (const o of rows) if (o.subscriptionId) byProduct.set(o.product, [...(byProduct.get(o.product) ?? []), o.subscriptionId]);
  const maps = await Promise.all([...byProduct].map(([product, ids]) => products.of(product).terms(db, [...new Set(ids)])));
  return new Map(maps.flatMap((m) => [...m]));
}

function toCard({ products }: OrderDeps, o: OrderRow, term: SubscriptionTerm | undefined): OrderCard {
  const date = o.paidAt ?? o.createdAt;
  const product = products.ofOrder(o);
  return {
    id: o.id,
    number: String(o.number),
    product: product.name,
    kind: o.kind,
    status: o.status,
    date: date.toISOString(),
    amountCents: o.amountCents,
    months: o.months,
    // Portal spec §5 counts from the order date; a renewal extends from the old end, so the paid period
    // (and for a live subscription its current end) is what the customer will be billed next.
    nextBillingDate: nextBillingDate(o, term)?.toISOString() ?? null,
    productKind: o.product,
    subscriptionPath: term?.deletedAt ? null : product.subscriptionPath(o),
  };
}

export async function listOrders(deps: OrderDeps, user: RequestUser, page: { limit: number; offset: number }): Promise<OrderList> {
  const { db } = deps;
  const where = and(eq(orders.userId, user.id), isOrder);
  const [rows, [total]] = await Promise.all([
    db.select().from(orders).where(where).orderBy(desc(orders.paidAt), desc(orders.number)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(orders).where(where),
  ]);
  const terms = await termsOf(deps, rows);
  return { items: rows.map((o) => toCard(deps, o, o.subscriptionId ? terms.get(o.subscriptionId) : undefined)), total: total?.total ?? 0 };
}

export async function getOrder(deps: OrderDeps, user: RequestUser, id: string): Promise<OrderDetail> {
  const { db } = deps;
  const [order] = await db.select().from(orders).where(and(eq(orders.id, id), eq(orders.userId, user.id), isOrder));
  if (!order) throw notFound('Bestellung nicht gefunden.');
  const product = deps.products.ofOrder(order);
  const [terms, [invoice], own] = await Promise.all([
    termsOf(deps, [order]),
    db.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.orderId, order.id), eq(invoices.kind, 'invoice'))),
    product.orderDetail(db, order),
  ]);
  // What was charged, split by the order's tax decision (issue 24); 'pro Monat' spreads it over the term.
  const tax = order.tax ?? LEGACY_ORDER_TAX;
  const monthNet = Math.round(order.netCents / order.months);
  const monthVat = Math.round(order.vatCents / order.months);
  return {
    ...toCard(deps, order, order.subscriptionId ? terms.get(order.subscriptionId) : undefined),
    configuration: own.configuration,
    discountPercent: own.discountPercent ?? durationDiscountPercent(order.months),
    netCents: order.netCents,
    vatCents: order.vatCents,
    grossCents: order.amountCents,
    perMonth: { netCents: monthNet, vatCents: monthVat, grossCents: monthNet + monthVat },
    tax: {
      ratePercent: tax.ratePercent, category: tax.category, placeOfSupply: tax.placeOfSupply, priceMode: tax.priceMode,
      priceLabel: tax.priceLabel, invoiceNote: tax.invoiceNote, explanation: tax.explanation ?? null,
    },
    invoiceId: invoice?.id ?? null,
    paymentMethod: order.cardLast4 ? `${(order.cardBrand ?? 'Karte').toUpperCase()} •••• ${order.cardLast4}` : null,
  };
}

import { and, count, desc, eq, isNotNull } from 'drizzle-orm';
import { addMonthsClamped, domainToUnicode, durationDiscountPercent, HOSTING_PLANS, priceBreakdown, LEGACY_ORDER_TAX, type OrderCard, type OrderDetail, type OrderList } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { invoices, ipAddresses, orders, servers } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { productOfOrder } from '../products/registry.ts';
import { serverConfigOf } from '../products/root-server.ts';
import { hostingConfigOf } from '../hosting/hosting.product.ts';
import { domainConfigOf } from '../domains/domain.product.ts';

type OrderRow = typeof orders.$inferSelect;

// Orders are what was bought: checkouts that were never paid (cancelled, declined, expired) are not listed.
const isOrder = isNotNull(orders.paidAt);

/** The term the customer holds now: every order of a live server shows the server's term end. */
const termEnd = { expiresAt: servers.expiresAt, deletedAt: servers.deletedAt };
type TermEnd = { expiresAt: Date | null; deletedAt: Date | null } | null;

function nextBillingDate(o: OrderRow, server: TermEnd): Date | null {
  // An order that was not delivered (failed, refunded) bills nothing further.
  if (o.status === 'failed' || o.status === 'refunded' || o.status === 'cancelled') return null;
  // A renewal moves the server's end; the older orders of the same server must not contradict it.
  if (server && !server.deletedAt && server.expiresAt) return server.expiresAt;
  return o.periodEnd ?? addMonthsClamped(o.paidAt ?? o.createdAt, o.months);
}

function toCard(o: OrderRow, server: TermEnd): OrderCard {
  const date = o.paidAt ?? o.createdAt;
  return {
    id: o.id,
    number: String(o.number),
    product: productOfOrder(o).name,
    kind: o.kind,
    status: o.status,
    date: date.toISOString(),
    amountCents: o.amountCents,
    months: o.months,
    // Portal spec §5 counts from the order date; a renewal extends from the old end, so the paid period
    // (and for a live server its current end) is what the customer will be billed next.
    nextBillingDate: nextBillingDate(o, server)?.toISOString() ?? null,
    serverId: o.serverId,
  };
}

export async function listOrders({ db }: Pick<Deps, 'db'>, user: RequestUser, page: { limit: number; offset: number }): Promise<OrderList> {
  const where = and(eq(orders.userId, user.id), isOrder);
  const [rows, [total]] = await Promise.all([
    db.select({ order: orders, server: termEnd }).from(orders).leftJoin(servers, eq(servers.id, orders.serverId))
      .where(where).orderBy(desc(orders.paidAt), desc(orders.number)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(orders).where(where),
  ]);
  return { items: rows.map((r) => toCard(r.order, r.server)), total: total?.total ?? 0 };
}

export async function getOrder({ db }: Pick<Deps, 'db'>, user: RequestUser, id: string): Promise<OrderDetail> {
  const [row] = await db.select({ order: orders, server: termEnd }).from(orders).leftJoin(servers, eq(servers.id, orders.serverId))
    .where(and(eq(orders.id, id), eq(orders.userId, user.id), isOrder));
  if (!row) throw notFound('Bestellung nicht gefunden.');
  const { order } = row;
  // The address as recorded on the order (it survives the pool entry); older upgrades look at the server.
  const [ip] = order.ipAddress
    ? [{ address: order.ipAddress }]
    : order.serverId
      ? await db.select({ address: ipAddresses.address }).from(ipAddresses).where(eq(ipAddresses.serverId, order.serverId)).limit(1)
      : [];
  const [invoice] = await db.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.orderId, order.id), eq(invoices.kind, 'invoice')));
  // What was charged, split by the order's tax decision (issue 24); 'pro Monat' spreads it over the term.
  const tax = order.tax ?? LEGACY_ORDER_TAX;
  const total = { netCents: order.netCents, vatCents: order.vatCents, grossCents: order.amountCents };
  const monthNet = Math.round(order.netCents / order.months);
  const monthVat = Math.round(order.vatCents / order.months);
  const perMonth = { netCents: monthNet, vatCents: monthVat, grossCents: monthNet + monthVat };
  const common = {
    ...toCard(order, row.server),
    location: 'Frankfurt am Main',
    discountPercent: durationDiscountPercent(order.months),
    netCents: total.netCents,
    vatCents: total.vatCents,
    grossCents: total.grossCents,
    perMonth,
    tax: {
      ratePercent: tax.ratePercent, category: tax.category, placeOfSupply: tax.placeOfSupply, priceMode: tax.priceMode,
      priceLabel: tax.priceLabel, invoiceNote: tax.invoiceNote, explanation: tax.explanation ?? null,
    },
    invoiceId: invoice?.id ?? null,
    paymentMethod: order.cardLast4 ? `${(order.cardBrand ?? 'Karte').toUpperCase()} •••• ${order.cardLast4}` : null,
  };
  if (order.product === 'domain') {
    const c = domainConfigOf(order);
    return {
      ...common, discountPercent: 0, os: null, cpu: null, ram: null, storage: null, osPriceCents: null, network: null, hosting: null,
      domain: { domainId: order.domainId, domain: c.domain, unicode: domainToUnicode(c.domain), action: c.action, years: c.years, premium: c.premium },
    };
  }
  if (order.product === 'webhosting') {
    const c = hostingConfigOf(order);
    const plan = HOSTING_PLANS[c.plan];
    return {
      ...common, os: null, cpu: null, ram: null, storage: null, osPriceCents: null, network: null,
      hosting: {
        packageId: order.hostingPackageId, plan: c.plan, planName: plan.name, primaryDomain: c.primaryDomain,
        storageMb: plan.storageMb, trafficMb: plan.trafficMb, databases: plan.databases, domains: plan.domains, phpVersions: plan.phpVersions,
      },
      domain: null,
    };
  }
  const config = serverConfigOf(order);
  const prices = priceBreakdown({ os: config.osFamily, cpu: config.cpuCores, ram: config.ramGb, storage: config.storageGb, months: order.months });
  // Each line as charged per month: list price × 1.22 × (1 − discount), shown net of 19 % VAT like the
  // totals below, so the lines add up to the monthly net (up to rounding).
  const discount = durationDiscountPercent(order.months);
  const charged = (listCents: number) => Math.round((listCents * 122 * (100 - discount)) / (100 * 119));
  return {
    ...common,
    os: config.os,
    cpu: { cores: config.cpuCores, priceCents: charged(prices.monthly.cpuCents) },
    ram: { size: config.ramGb, type: 'DDR4 ECC', priceCents: charged(prices.monthly.ramCents) },
    storage: { size: config.storageGb, type: 'NVMe SSD', priceCents: charged(prices.monthly.storageCents) },
    osPriceCents: charged(prices.monthly.osCents),
    network: { ip: ip?.address ?? null, bandwidth: '1 Gbit/s', priceCents: 0 },
    hosting: null,
    domain: null,
  };
}


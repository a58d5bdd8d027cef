import { and, asc, count, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  addMonthsClamped, HOSTING_PLANS, HOSTING_STATUS_LABEL, privacyMessages, HostingOrderConfig, hostingMessages, hostingPriceCents, splitGross,
  type HostingCheckoutInput,
} from '@hp/contract';
import type { Tx } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import { domains, hostingPackages, hostingServers, orders } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { OrderRow, ProductModule } from '../products/product-module.ts';
import { failPaidOrder } from '../payments/fail-order.ts';
import { isoOrNull, ordersOfSubscription } from '../products/subscription.ts';

/** Web hosting (decision 022): a new order holds a package slot on a hosting server and its domain. */
export const HOSTING_PRODUCT_NAME = 'Webhosting';

export const hostingConfigOf = (order: OrderRow) => HostingOrderConfig.parse(order.config);

export const provisionHostingKind = jobKind('provision-hosting', z.object({ orderId: z.string() }));
export const unsuspendHostingKind = jobKind('unsuspend-hosting', z.object({ packageId: z.string() }));

/** Packages on a server plus the slots open checkouts hold until their hold runs out. */
export async function usedSlots(tx: Pick<Tx, 'select'>, hostingServerId: number) {
  // A package whose set-up failed holds no slot (staff refund it; nothing runs on the panel).
  const [packages] = await tx.select({ n: count() }).from(hostingPackages)
    .where(and(eq(hostingPackages.hostingServerId, hostingServerId), isNull(hostingPackages.deletedAt), ne(hostingPackages.status, 'failed')));
  const [held] = await tx.select({ n: count() }).from(orders)
    .where(and(eq(orders.hostingServerId, hostingServerId), eq(orders.kind, 'new'), eq(orders.status, 'pending'), gt(orders.holdUntil, sql`now()`)));
  return { used: Number(packages?.n ?? 0), held: Number(held?.n ?? 0) };
}

/**
 * Takes a slot: candidate servers are locked one by one in id order (no deadlocks between parallel
 * checkouts) and counted again under the lock, like nodes for root servers.
 */
async function takeSlot(tx: Tx) {
  const candidates = await tx.select({ id: hostingServers.id }).from(hostingServers).where(isNull(hostingServers.deletedAt)).orderBy(hostingServers.id);
  for (const { id } of candidates) {
    const [server] = await tx.select().from(hostingServers).where(and(eq(hostingServers.id, id), isNull(hostingServers.deletedAt))).for('update');
    if (!server) continue;
    const { used, held } = await usedSlots(tx, id);
    if (used + held < server.slots) return server;
  }
  return null;
}

/**
 * Who else has the domain: a live package (as its primary domain), an open checkout, or another
 * customer's package whose primary domain it lies under (www.their-domain.de). Serialised per domain.
 */
export async function domainClaim(tx: Pick<Tx, 'select' | 'execute'>, domain: string, userId: string): Promise<'taken' | 'own-order' | 'other-parent' | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`hosting-domain:${domain}`}))`);
  const [pkg] = await tx.select({ id: hostingPackages.id }).from(hostingPackages)
    .where(and(eq(hostingPackages.primaryDomain, domain), isNull(hostingPackages.deletedAt), ne(hostingPackages.status, 'failed'))).limit(1);
  if (pkg) return 'taken';
  const [held] = await tx.select({ userId: orders.userId }).from(orders)
    .where(and(eq(orders.product, 'webhosting'), eq(orders.kind, 'new'), eq(orders.status, 'pending'), gt(orders.holdUntil, sql`now()`),
      sql`${orders.config}->>'primaryDomain' = ${domain}`)).limit(1);
  if (held) return held.userId === userId ? 'own-order' : 'taken';
  const [parent] = await tx.select({ id: hostingPackages.id }).from(hostingPackages)
    .where(and(isNull(hostingPackages.deletedAt), ne(hostingPackages.status, 'failed'), ne(hostingPackages.ownerId, userId),
      sql`${domain} like '%.' || ${hostingPackages.primaryDomain}`)).limit(1);
  if (parent) return 'other-parent';
  // A domain another customer registered with us (or a name under it) is theirs to host.
  const [registered] = await tx.select({ id: domains.id }).from(domains)
    .where(and(isNull(domains.deletedAt), ne(domains.status, 'failed'), ne(domains.ownerId, userId),
      sql`(${domains.domain} = ${domain} or ${domain} like '%.' || ${domains.domain})`)).limit(1);
  return registered ? 'other-parent' : null;
}

export function domainClaimError(claim: 'taken' | 'own-order' | 'other-parent') {
  if (claim === 'own-order') return conflict('DOMAIN_OPEN_ORDER', hostingMessages.domainOwnOpenOrder);
  if (claim === 'other-parent') return conflict('DOMAIN_OF_OTHER', hostingMessages.domainOfOther);
  return conflict('DOMAIN_TAKEN', hostingMessages.domainTaken);
}

const primaryDomainOf = (input: HostingCheckoutInput, env: Env) => (input.domainType === 'subdomain' ? `${input.subdomain!}.${env.hostingSubdomainBase}` : input.domain!);

export const hostingProduct: ProductModule<HostingCheckoutInput> = (() => {
  const describe = (order: OrderRow) => {
    const c = hostingConfigOf(order);
    return `Tarif ${HOSTING_PLANS[c.plan].name} · ${c.primaryDomain} · ${order.months} ${order.months === 1 ? 'Monat' : 'Monate'}`;
  };
  return {
    kind: 'webhosting',
    name: HOSTING_PRODUCT_NAME,

    async terms(db, ids) {
      if (!ids.length) return new Map();
      const rows = await db.select({ id: hostingPackages.id, expiresAt: hostingPackages.expiresAt, deletedAt: hostingPackages.deletedAt }).from(hostingPackages).where(inArray(hostingPackages.id, ids));
      return new Map(rows.map((r) => [r.id, r]));
    },

    async orderDetail(_db, order) {
      const c = hostingConfigOf(order);
      const plan = HOSTING_PLANS[c.plan];
      return {
        configuration: {
          product: 'webhosting', plan: c.plan, planName: plan.name, primaryDomain: c.primaryDomain,
          storageMb: plan.storageMb, trafficMb: plan.trafficMb, databases: plan.databases, domains: plan.domains, phpVersions: plan.phpVersions,
        },
      };
    },

    async deletionBlock(tx, customerId) {
      const [live] = await tx.select({ id: hostingPackages.id }).from(hostingPackages)
        .where(and(eq(hostingPackages.ownerId, customerId), isNull(hostingPackages.deletedAt))).limit(1);
      return live ? { code: 'ACTIVE_HOSTING', message: privacyMessages.activeHosting } : null;
    },

    exportSection: {
      key: 'webhosting',
      async rows(db, userId) {
        const rows = await db.select().from(hostingPackages).where(eq(hostingPackages.ownerId, userId)).orderBy(asc(hostingPackages.createdAt));
        return rows.map((h) => ({
          hostingId: h.number, name: h.name, tarif: h.plan, domain: h.primaryDomain, status: h.status, websiteTyp: h.websiteType,
          panelBenutzer: h.panelUsername, backupAufbewahrungTage: h.backupRetentionDays,
          erstelltAm: isoOrNull(h.createdAt), laeuftAbAm: isoOrNull(h.expiresAt), gesperrtAm: isoOrNull(h.suspendedAt), geloeschtAm: isoOrNull(h.deletedAt),
        }));
      },
    },

    staffSection: {
      title: 'Webhosting',
      empty: 'Keine Hosting-Pakete.',
      async items(db, customerId) {
        const rows = await db.select().from(hostingPackages)
          .where(and(eq(hostingPackages.ownerId, customerId), isNull(hostingPackages.deletedAt))).orderBy(asc(hostingPackages.number));
        return rows.map((p) => ({
          id: p.id, name: p.primaryDomain, detail: `${HOSTING_PLANS[p.plan].name} · Hosting-ID ${p.number}`, status: HOSTING_STATUS_LABEL[p.status], expiresAt: isoOrNull(p.expiresAt),
        }));
      },
    },

    // A package whose set-up failed was refunded and never ran.
    churnSource: {
      label: 'Webhosting-Pakete', table: hostingPackages, ownerId: hostingPackages.ownerId, expiresAt: hostingPackages.expiresAt, deletedAt: hostingPackages.deletedAt,
      where: ne(hostingPackages.status, 'failed'),
    },

    subscriptionPath: (order) => (order.subscriptionId ? `/dashboard/webhosting/${order.subscriptionId}` : null),

    shopPath(order) {
      if (order.kind === 'upgrade' && order.subscriptionId) return `/shop/webhosting?renew=${order.subscriptionId}`;
      const c = hostingConfigOf(order);
      const domain = c.domainType === 'subdomain' ? ['subdomain', c.primaryDomain.slice(0, c.primaryDomain.indexOf('.'))] : ['domain', c.primaryDomain];
      return `/shop/webhosting?${new URLSearchParams([['plan', c.plan], ['months', String(order.months)], domain as [string, string]]).toString()}`;
    },

    sameOrder(input, env) {
      if (input.packageId) return and(ordersOfSubscription('webhosting', input.packageId), eq(orders.months, input.months));
      return and(eq(orders.kind, 'new'), eq(orders.months, input.months), sql`${orders.config}->>'primaryDomain' = ${primaryDomainOf(input, env)}`, sql`${orders.config}->>'plan' = ${input.plan}`);
    },

    async reserve(tx, { userId, env }, input) {
      if (input.packageId) {
        const [pkg] = await tx.select().from(hostingPackages)
          .where(and(eq(hostingPackages.id, input.packageId), eq(hostingPackages.ownerId, userId), isNull(hostingPackages.deletedAt))).for('update');
        if (!pkg) throw notFound('Hosting-Paket nicht gefunden.');
        if (pkg.status === 'provisioning' || pkg.status === 'failed') throw conflict('PACKAGE_NOT_READY', hostingMessages.notRenewable);
        // A renewal keeps the plan (a plan change would need a panel template change: not offered yet).
        const config: HostingOrderConfig = { plan: pkg.plan, primaryDomain: pkg.primaryDomain, domainType: pkg.primaryDomain.endsWith(`.${env.hostingSubdomainBase}`) ? 'subdomain' : 'own' };
        const gross = hostingPriceCents({ plan: pkg.plan, months: input.months });
        const split = splitGross(gross);
        return { kind: 'upgrade', subscriptionId: pkg.id, hostingServerId: pkg.hostingServerId, config, months: input.months, amountCents: gross, netCents: split.netCents, vatCents: split.vatCents };
      }
      const primaryDomain = primaryDomainOf(input, env);
      if (input.domainType === 'own' && (primaryDomain === env.hostingSubdomainBase || primaryDomain.endsWith(`.${env.hostingSubdomainBase}`))) {
        throw new AppError(400, 'DOMAIN_INVALID', hostingMessages.domainInvalid);
      }
      if (input.domainType === 'subdomain') {
        // A hosting server's own name (web-fra-01.<base>) is never a customer's site.
        const [server] = await tx.select({ id: hostingServers.id }).from(hostingServers).where(eq(hostingServers.hostname, primaryDomain)).limit(1);
        if (server) throw new AppError(400, 'SUBDOMAIN_RESERVED', hostingMessages.subdomainReserved);
      }
      const claim = await domainClaim(tx, primaryDomain, userId);
      if (claim) throw domainClaimError(claim);
      const server = await takeSlot(tx);
      if (!server) throw conflict('NO_HOSTING_SLOT', hostingMessages.noSlot);
      const config: HostingOrderConfig = { plan: input.plan, primaryDomain, domainType: input.domainType };
      const gross = hostingPriceCents({ plan: input.plan, months: input.months });
      const split = splitGross(gross);
      return { kind: 'new', hostingServerId: server.id, config, months: input.months, amountCents: gross, netCents: split.netCents, vatCents: split.vatCents };
    },

    // The slot and the domain are held by the order's status and hold time: nothing to give back.
    async release() {},

    paymentLine(order) {
      return `${HOSTING_PRODUCT_NAME} – ${describe(order)}${order.kind === 'upgrade' ? ' (Verlängerung)' : ''}`;
    },

    invoiceLine(order) {
      const c = hostingConfigOf(order);
      const plan = HOSTING_PLANS[c.plan];
      return {
        name: `${HOSTING_PRODUCT_NAME} ${plan.name}${order.kind === 'upgrade' ? ' – Verlängerung' : ''}`,
        description: `${c.primaryDomain} · ${plan.storageMb.toLocaleString('de-DE')} MB Speicher · ${plan.trafficMb.toLocaleString('de-DE')} MB Traffic · ${plan.databases} Datenbanken · ${order.months} ${order.months === 1 ? 'Monat' : 'Monate'}`,
      };
    },

    async fulfil(tx, paid, { now, log }) {
      const config = hostingConfigOf(paid);
      if (paid.kind === 'new') {
        // The hold ran out and someone else took the domain meanwhile: refunded automatically, nothing is built.
        const [taken] = await tx.select({ id: hostingPackages.id }).from(hostingPackages)
          .where(and(eq(hostingPackages.primaryDomain, config.primaryDomain), isNull(hostingPackages.deletedAt), ne(hostingPackages.status, 'failed'))).limit(1);
        if (taken) {
          await failPaidOrder(tx, paid.id, 'domain taken before payment');
          return 'failed';
        }
        const { used } = await usedSlots(tx, paid.hostingServerId!);
        const [server] = await tx.select({ slots: hostingServers.slots }).from(hostingServers).where(eq(hostingServers.id, paid.hostingServerId!));
        if (server && used >= server.slots) log?.warn({ orderId: paid.id, hostingServerId: paid.hostingServerId }, 'paid hosting order beyond the server\'s slots (hold ran out): placed anyway');
        const result = await tx.execute<{ n: number }>(sql`select nextval('hosting_package_number_seq')::int as n`);
        const number = Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
        const periodEnd = addMonthsClamped(now, paid.months);
        const [pkg] = await tx.insert(hostingPackages).values({
          number, ownerId: paid.userId, hostingServerId: paid.hostingServerId!, plan: config.plan, name: config.primaryDomain,
          primaryDomain: config.primaryDomain, panelUsername: `c${number}`, expiresAt: periodEnd,
        }).returning({ id: hostingPackages.id });
        await tx.update(orders).set({ subscriptionId: pkg!.id, periodStart: now, periodEnd }).where(eq(orders.id, paid.id));
        await enqueue(tx, provisionHostingKind, { orderId: paid.id }, { dedupeKey: `provision-hosting:${paid.id}` });
        return 'delivering';
      }
      const [pkg] = await tx.select().from(hostingPackages).where(eq(hostingPackages.id, paid.subscriptionId!)).for('update');
      if (!pkg || pkg.deletedAt) {
        await failPaidOrder(tx, paid.id, 'hosting package deleted before payment');
        return 'failed';
      }
      const from = pkg.expiresAt && pkg.expiresAt > now ? pkg.expiresAt : now;
      const periodEnd = addMonthsClamped(from, paid.months);
      await tx.update(hostingPackages).set({ expiresAt: periodEnd, expiryReminderStage: 0 }).where(eq(hostingPackages.id, pkg.id));
      await tx.update(orders).set({ periodStart: from, periodEnd, status: pkg.suspendedAt ? 'processing' : 'completed', completedAt: pkg.suspendedAt ? null : now }).where(eq(orders.id, paid.id));
      if (pkg.suspendedAt) await enqueue(tx, unsuspendHostingKind, { packageId: pkg.id }, { dedupeKey: `unsuspend-hosting:${paid.id}` });
      return 'delivering';
    },
  };
})();

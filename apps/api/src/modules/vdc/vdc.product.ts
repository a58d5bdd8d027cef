import { and, asc, count, eq, inArray, isNull, ne, or, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  addMonthsClamped, splitGross, VDC_INCLUDED, VDC_STATUS_LABEL, VdcOrderConfig, vdcPriceCents,
  type VdcCheckoutInput,
} from '@hp/contract';
import type { Tx } from '../../db/client.ts';
import { ipAddresses, nodes, orders, servers, vdcOffers, vdcs } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { fits, ipIsFree, lockNodeFree, placeOnNode } from '../servers/capacity.ts';
import type { OrderRow, ProductModule, ReserveContext, ReservedOrder } from '../products/product-module.ts';
import { isoOrNull, ordersOfSubscription } from '../products/subscription.ts';
import { failPaidOrder } from '../payments/fail-order.ts';
import { vdcMessages } from './vdc-access.ts';

/**
 * The virtual data center (issue 25, decision 036): a pool of cores, RAM, storage and public IPv4
 * addresses on one node, bought for a term. A new order places the whole pool on a node under the
 * node's row lock and holds it there like a root server (the order's node and hold columns), and holds
 * its IPv4 addresses (reserved_until, listed in the order's configuration); a renewal may grow the pool
 * and holds only the growth on the pool's node.
 */
export const VDC_PRODUCT_NAME = 'Virtual Data Center';

export const vdcConfigOf = (order: OrderRow) => VdcOrderConfig.parse(order.config);

/** Creates the pool on the hypervisor after payment and completes the order. */
export const provisionVdcKind = jobKind('provision-vdc', z.object({ orderId: z.string() }));
/** A paid renewal of a suspended pool: lifts the suspension and starts its VMs again. */
export const applyVdcRenewalKind = jobKind('apply-vdc-renewal', z.object({ orderId: z.string() }));

export const vdcShopMessages = {
  noCapacity: 'Für einen Pool dieser Größe ist derzeit auf keinem unserer Hosts genug Platz frei. Bitte wählen Sie einen kleineren Pool oder stellen Sie eine individuelle Anfrage.',
  noGrowth: 'Auf dem Host Ihres Virtual Data Centers ist für diese Vergrößerung derzeit nicht genug Platz frei. Bitte wählen Sie eine kleinere Vergrößerung oder stellen Sie eine individuelle Anfrage.',
  noFreeIps: (wanted: number, free: number) => `Derzeit sind nur ${free} freie IPv4-Adressen verfügbar; dieser Pool braucht ${wanted}. Bitte wählen Sie weniger Adressen oder wenden Sie sich an den Support.`,
  notReady: 'Dieses Virtual Data Center wird noch eingerichtet und kann erst danach verlängert werden.',
  failed: 'Die Einrichtung dieses Virtual Data Centers ist fehlgeschlagen; es kann nicht verlängert werden. Der Betrag wurde erstattet.',
  shrink: (parts: string[]) => `Bei einer Verlängerung kann der Pool nicht verkleinert werden: ${parts.join(', ')}.`,
  activeVdc: 'Das Kundenkonto kann nicht gelöscht werden, solange noch ein Virtual Data Center besteht. Bitte warten Sie, bis es abgelaufen ist, oder wenden Sie sich an den Support.',
} as const;

const monthsText = (months: number) => `${months} ${months === 1 ? 'Monat' : 'Monate'}`;
export const describeVdcPool = (c: { cpu: number; ram: number; storage: number; ipv4: number }) =>
  `${c.cpu} vCPU · ${c.ram} GB RAM · ${c.storage} GB Speicher · ${c.ipv4} IPv4`;

/** Takes `n` free IPv4 addresses (SKIP LOCKED: parallel checkouts take different ones); fewer when there are not enough. */
export async function takeFreeIpv4s(tx: Tx, n: number) {
  if (n <= 0) return [];
  return tx.select({ id: ipAddresses.id, address: ipAddresses.address }).from(ipAddresses)
    .where(and(eq(ipAddresses.version, 'IPv4'), ipIsFree))
    .orderBy(ipAddresses.id).limit(n)
    .for('update', { skipLocked: true });
}

async function holdIpv4s(tx: Tx, n: number, holdUntil: Date) {
  const ips = await takeFreeIpv4s(tx, n);
  if (ips.length < n) {
    const [free] = await tx.select({ n: count() }).from(ipAddresses).where(and(eq(ipAddresses.version, 'IPv4'), ipIsFree));
    throw conflict('NO_FREE_IP', vdcShopMessages.noFreeIps(n, Math.min(Number(free?.n ?? 0), n - 1)));
  }
  if (ips.length) await tx.update(ipAddresses).set({ reservedUntil: holdUntil }).where(inArray(ipAddresses.id, ips.map((ip) => ip.id)));
  return ips.map((ip) => ip.id);
}

const priceOf = (gross: number, months: number) => {
  const split = splitGross(gross);
  return { months, amountCents: gross, netCents: split.netCents, vatCents: split.vatCents };
};

interface PoolFigures { cpu: number; ram: number; storage: number; ipv4: number; months: number }

/** A new pool: placed on the first node with room (node row locks in id order), its addresses held. */
async function reserveNewPool(tx: Tx, ctx: ReserveContext, pool: PoolFigures, name: string | undefined, grossCents: number, offerId: string | null): Promise<ReservedOrder> {
  const want = { cpuCores: pool.cpu, ramGb: pool.ram, storageGb: pool.storage };
  const node = await placeOnNode(tx, want);
  if (!node) throw conflict('NOT_ENOUGH_RESOURCES', vdcShopMessages.noCapacity);
  const ipAddressIds = await holdIpv4s(tx, pool.ipv4, ctx.holdUntil);
  const config: VdcOrderConfig = {
    cpu: pool.cpu, ram: pool.ram, storage: pool.storage, ipv4: pool.ipv4, name: name ?? '', nodeId: node.id, offerId, previous: null, ipAddressIds,
  };
  return {
    kind: 'new', nodeId: node.id, config,
    holdCpuCores: want.cpuCores, holdRamGb: want.ramGb, holdStorageGb: want.storageGb,
    ...priceOf(grossCents, pool.months),
  };
}

/**
 * The checkout of a staff offer ("VDC-Anfrage", decision 036): the offer's figures, which may lie
 * beyond the sliders, placed and held exactly like a standard pool, at the price staff stored (a gross
 * list price like every other; the tax engine makes the customer's price of it). The caller loads the
 * offer (open, the customer's own, still valid) and passes it; the order names it in `offerId`.
 */
export function reserveFromOffer(tx: Tx, ctx: ReserveContext, offer: { id: string; cpuCores: number; ramGb: number; storageGb: number; ipv4Count: number; months: number; priceCents: number }, name?: string) {
  return reserveNewPool(tx, ctx, { cpu: offer.cpuCores, ram: offer.ramGb, storage: offer.storageGb, ipv4: offer.ipv4Count, months: offer.months }, name, offer.priceCents, offer.id);
}

/** The IPv4 addresses a paid order held, as far as nobody else has taken them meanwhile; topped up from the free pool. */
async function claimHeldIpv4s(tx: Tx, order: OrderRow, ids: number[], log?: { warn: (obj: object, msg: string) => void }) {
  const held = ids.length
    ? await tx.select({ id: ipAddresses.id }).from(ipAddresses)
      .where(and(inArray(ipAddresses.id, ids), isNull(ipAddresses.serverId), isNull(ipAddresses.vdcId),
        or(isNull(ipAddresses.reservedUntil), eq(ipAddresses.reservedUntil, order.holdUntil), lte(ipAddresses.reservedUntil, sql`now()`))))
      .orderBy(ipAddresses.id).for('update')
    : [];
  const got = held.map((ip) => ip.id);
  if (got.length < ids.length) {
    // A payment settled after its hold ran out: another free address instead, or staff add one.
    const more = await takeFreeIpv4s(tx, ids.length - got.length);
    got.push(...more.map((ip) => ip.id));
    log?.warn({ orderId: order.id, held: ids, assigned: got }, got.length < ids.length ? 'paid VDC order without enough free IPv4: staff must add addresses' : 'held IPv4 gone; other free addresses assigned');
  }
  return got;
}

/** Cores, RAM and storage the pool's live VMs use, their number, and the pool's addresses (given to a VM or not). */
export async function poolUsage(db: Pick<Tx, 'select'>, vdcId: string) {
  const [vms] = await db.select({
    cpu: sql<number>`coalesce(sum(${servers.cpuCores}), 0)::int`, ram: sql<number>`coalesce(sum(${servers.ramGb}), 0)::int`,
    storage: sql<number>`coalesce(sum(${servers.storageGb}), 0)::int`, n: count(),
  }).from(servers).where(and(eq(servers.vdcId, vdcId), isNull(servers.deletedAt)));
  const [ips] = await db.select({ total: count(), used: sql<number>`count(${ipAddresses.serverId})::int` }).from(ipAddresses).where(eq(ipAddresses.vdcId, vdcId));
  return {
    cpu: Number(vms?.cpu ?? 0), ram: Number(vms?.ram ?? 0), storage: Number(vms?.storage ?? 0), vms: Number(vms?.n ?? 0),
    ipv4Total: Number(ips?.total ?? 0), ipv4Used: Number(ips?.used ?? 0),
  };
}

export const vdcProduct: ProductModule<VdcCheckoutInput> = {
  kind: 'vdc',
  name: VDC_PRODUCT_NAME,

  sameOrder(input) {
    if (input.vdcId) return and(ordersOfSubscription('vdc', input.vdcId), eq(orders.kind, 'upgrade'));
    return and(eq(orders.kind, 'new'), eq(orders.months, input.months),
      sql`(${orders.config}->>'cpu')::int = ${input.cpu} and (${orders.config}->>'ram')::int = ${input.ram}
        and (${orders.config}->>'storage')::int = ${input.storage} and (${orders.config}->>'ipv4')::int = ${input.ipv4}
        and coalesce(${orders.config}->>'offerId', '') = ''`);
  },

  async reserve(tx, ctx, input) {
    const gross = vdcPriceCents({ cpu: input.cpu, ram: input.ram, storage: input.storage, ipv4: input.ipv4, months: input.months });
    if (!input.vdcId) return reserveNewPool(tx, ctx, input, input.name, gross, null);

    const [vdc] = await tx.select().from(vdcs)
      .where(and(eq(vdcs.id, input.vdcId), eq(vdcs.ownerId, ctx.userId), isNull(vdcs.deletedAt))).for('update');
    if (!vdc) throw notFound(vdcMessages.notFound);
    if (vdc.status === 'provisioning') throw conflict('VDC_NOT_READY', vdcShopMessages.notReady);
    if (vdc.status === 'failed') throw conflict('VDC_FAILED', vdcShopMessages.failed);
    const below = [
      input.cpu < vdc.cpuCores ? `mindestens ${vdc.cpuCores} vCPU` : null,
      input.ram < vdc.ramGb ? `mindestens ${vdc.ramGb} GB RAM` : null,
      input.storage < vdc.storageGb ? `mindestens ${vdc.storageGb} GB Speicher` : null,
      input.ipv4 < vdc.ipv4Count ? `mindestens ${vdc.ipv4Count} IPv4-Adressen` : null,
    ].filter((p): p is string => p !== null);
    if (below.length) throw conflict('VDC_SHRINK', vdcShopMessages.shrink(below));
    const growth = { cpuCores: input.cpu - vdc.cpuCores, ramGb: input.ram - vdc.ramGb, storageGb: input.storage - vdc.storageGb };
    const locked = await lockNodeFree(tx, vdc.nodeId);
    if (!locked || !fits(growth, locked.free)) throw conflict('NOT_ENOUGH_RESOURCES', vdcShopMessages.noGrowth);
    const ipAddressIds = await holdIpv4s(tx, input.ipv4 - vdc.ipv4Count, ctx.holdUntil);
    const config: VdcOrderConfig = {
      cpu: input.cpu, ram: input.ram, storage: input.storage, ipv4: input.ipv4, name: vdc.name, nodeId: vdc.nodeId, offerId: null,
      previous: { cpu: vdc.cpuCores, ram: vdc.ramGb, storage: vdc.storageGb, ipv4: vdc.ipv4Count }, ipAddressIds,
    };
    return {
      kind: 'upgrade', subscriptionId: vdc.id, nodeId: vdc.nodeId, config,
      holdCpuCores: growth.cpuCores, holdRamGb: growth.ramGb, holdStorageGb: growth.storageGb,
      ...priceOf(gross, input.months),
    };
  },

  async release(tx, order) {
    const ids = vdcConfigOf(order).ipAddressIds ?? [];
    if (!ids.length) return;
    // Only this order's own holds: after a hold ran out an address may be held by a newer order.
    await tx.update(ipAddresses).set({ reservedUntil: null })
      .where(and(inArray(ipAddresses.id, ids), isNull(ipAddresses.serverId), isNull(ipAddresses.vdcId), eq(ipAddresses.reservedUntil, order.holdUntil)));
  },

  async renewHold(tx, order, holdUntil) {
    const ids = vdcConfigOf(order).ipAddressIds ?? [];
    if (!ids.length) return;
    await tx.update(ipAddresses).set({ reservedUntil: holdUntil })
      .where(and(inArray(ipAddresses.id, ids), isNull(ipAddresses.serverId), isNull(ipAddresses.vdcId), eq(ipAddresses.reservedUntil, order.holdUntil)));
  },

  shopPath(order) {
    if (order.kind === 'upgrade' && order.subscriptionId) return `/shop/vdc-request?renew=${order.subscriptionId}`;
    const c = vdcConfigOf(order);
    return `/shop/vdc-request?${new URLSearchParams({ cpu: String(c.cpu), ram: String(c.ram), storage: String(c.storage), ipv4: String(c.ipv4), months: String(order.months) }).toString()}`;
  },

  subscriptionPath: (order) => (order.subscriptionId ? `/dashboard/vdc/${order.subscriptionId}` : null),

  async terms(db, ids) {
    if (!ids.length) return new Map();
    const rows = await db.select({ id: vdcs.id, expiresAt: vdcs.expiresAt, deletedAt: vdcs.deletedAt }).from(vdcs).where(inArray(vdcs.id, ids));
    return new Map(rows.map((r) => [r.id, r]));
  },

  async orderDetail(db, order) {
    const c = vdcConfigOf(order);
    let name = c.name;
    if (order.subscriptionId) {
      const [vdc] = await db.select({ name: vdcs.name }).from(vdcs).where(eq(vdcs.id, order.subscriptionId));
      if (vdc) name = vdc.name;
    }
    return {
      configuration: {
        product: 'vdc', name, cpu: c.cpu, ram: c.ram, storage: c.storage, ipv4: c.ipv4,
        isoLibraryGb: VDC_INCLUDED.isoLibraryGb, maxVms: VDC_INCLUDED.maxVms, fromOffer: Boolean(c.offerId),
      },
    };
  },

  async deletionBlock(tx, customerId) {
    const [live] = await tx.select({ id: vdcs.id }).from(vdcs)
      .where(and(eq(vdcs.ownerId, customerId), isNull(vdcs.deletedAt), ne(vdcs.status, 'failed'))).limit(1);
    return live ? { code: 'ACTIVE_VDC', message: vdcShopMessages.activeVdc } : null;
  },

  exportSection: {
    key: 'virtualDataCenter',
    async rows(db, userId) {
      const rows = await db.select().from(vdcs).where(eq(vdcs.ownerId, userId)).orderBy(asc(vdcs.createdAt));
      return rows.map((v) => ({
        vdcId: v.number, name: v.name, vcpu: v.cpuCores, ramGb: v.ramGb, speicherGb: v.storageGb, ipv4Adressen: v.ipv4Count,
        isoBibliothekGb: v.isoQuotaGb, maxVms: v.maxVms, privatesNetz: v.networkCidr, status: v.status,
        erstelltAm: isoOrNull(v.createdAt), laeuftAbAm: isoOrNull(v.expiresAt), gesperrtAm: isoOrNull(v.suspendedAt), geloeschtAm: isoOrNull(v.deletedAt),
      }));
    },
  },

  staffSection: {
    title: 'Virtual Data Center',
    empty: 'Kein Virtual Data Center.',
    async items(db, customerId) {
      const rows = await db.select({
        vdc: vdcs,
        vms: sql<number>`(select count(*)::int from ${servers} s where s.vdc_id = "vdcs"."id" and s.deleted_at is null)`,
      }).from(vdcs).where(and(eq(vdcs.ownerId, customerId), isNull(vdcs.deletedAt))).orderBy(asc(vdcs.number));
      return rows.map(({ vdc, vms }) => ({
        id: vdc.id, name: vdc.name,
        detail: `VDC-ID ${vdc.number} · ${describeVdcPool({ cpu: vdc.cpuCores, ram: vdc.ramGb, storage: vdc.storageGb, ipv4: vdc.ipv4Count })} · ${Number(vms)} ${Number(vms) === 1 ? 'VM' : 'VMs'}`,
        status: VDC_STATUS_LABEL[vdc.status], expiresAt: isoOrNull(vdc.expiresAt),
      }));
    },
  },

  // A pool whose delivery failed was refunded and never ran.
  churnSource: {
    label: 'Virtual Data Center', table: vdcs, ownerId: vdcs.ownerId, expiresAt: vdcs.expiresAt, deletedAt: vdcs.deletedAt,
    where: ne(vdcs.status, 'failed'),
  },

  // The pools count in the nodes' capacity already (capacity.ts); this shows how much of each node they take, in cores.
  async capacity(db) {
    const rows = await db.select({
      id: nodes.id, name: nodes.name, cpu: nodes.cpuCores,
      allocated: sql<number>`coalesce(sum(${vdcs.cpuCores}), 0)::int`, pools: count(vdcs.id),
    }).from(vdcs).innerJoin(nodes, eq(nodes.id, vdcs.nodeId))
      .where(and(isNull(vdcs.deletedAt), ne(vdcs.status, 'failed'))).groupBy(nodes.id).orderBy(nodes.id);
    return {
      kind: 'vdc', title: 'Virtual Data Center (vCPU der Pools je Host)', unit: 'vCPU',
      servers: rows.map((r) => ({ id: r.id, name: r.name, capacity: r.cpu, sellable: r.cpu, allocated: Number(r.allocated), count: Number(r.pools) })),
    };
  },

  paymentLine(order) {
    const c = vdcConfigOf(order);
    return `${VDC_PRODUCT_NAME}${c.name ? ` – ${c.name}` : ''} · ${describeVdcPool(c)} · ${monthsText(order.months)}${order.kind === 'upgrade' ? ' (Verlängerung)' : ''}`;
  },

  invoiceLine(order) {
    const c = vdcConfigOf(order);
    const change = order.kind === 'upgrade' && c.previous && describeVdcPool(c.previous) !== describeVdcPool(c) ? ` (vergrößert von ${describeVdcPool(c.previous)})` : '';
    return {
      name: `${VDC_PRODUCT_NAME}${order.kind === 'upgrade' ? ' – Verlängerung' : ''}`,
      description: `Ressourcen-Pool${c.name ? ` ${c.name}` : ''}: ${describeVdcPool(c)}${change}, ISO-Bibliothek ${VDC_INCLUDED.isoLibraryGb} GB, privates Netz · ${monthsText(order.months)}, Standort Frankfurt am Main`,
    };
  },

  async fulfil(tx, paid, { now, log }) {
    const c = vdcConfigOf(paid);
    if (paid.kind === 'new') {
      // A payment settled after its hold ran out is placed anyway (the customer paid); staff see it in the log.
      // (The order is processing now, so its own hold no longer counts in the node's free figures.)
      const locked = await lockNodeFree(tx, c.nodeId);
      if (locked && !fits({ cpuCores: c.cpu, ramGb: c.ram, storageGb: c.storage }, locked.free)) log?.warn({ orderId: paid.id, nodeId: c.nodeId }, 'paid VDC beyond the node\'s capacity (hold ran out): placed anyway');
      const ipIds = await claimHeldIpv4s(tx, paid, c.ipAddressIds ?? [], log);
      const result = await tx.execute<{ n: number }>(sql`select nextval('vdc_number_seq')::bigint as n`);
      const number = Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
      const periodEnd = addMonthsClamped(now, paid.months);
      const [vdc] = await tx.insert(vdcs).values({
        number, ownerId: paid.userId, nodeId: c.nodeId, name: c.name || `VDC ${number}`,
        cpuCores: c.cpu, ramGb: c.ram, storageGb: c.storage, ipv4Count: ipIds.length,
        isoQuotaGb: VDC_INCLUDED.isoLibraryGb, maxVms: VDC_INCLUDED.maxVms,
        // Proxmox: pool ids are free text; a VNet id has at most 8 characters (`vdc` + 5 digits).
        poolId: `vdc-${number}`, vnet: `vdc${number % 100_000}`,
        status: 'provisioning', expiresAt: periodEnd,
      }).returning({ id: vdcs.id });
      if (ipIds.length) await tx.update(ipAddresses).set({ vdcId: vdc!.id, reservedUntil: null }).where(inArray(ipAddresses.id, ipIds));
      await tx.update(orders).set({ subscriptionId: vdc!.id, periodStart: now, periodEnd }).where(eq(orders.id, paid.id));
      // Paying an offer accepts it (even one withdrawn or expired while the payment was under way: it was paid).
      if (c.offerId) await tx.update(vdcOffers).set({ status: 'accepted', orderId: paid.id }).where(eq(vdcOffers.id, c.offerId));
      await enqueue(tx, provisionVdcKind, { orderId: paid.id }, { dedupeKey: `provision-vdc:${paid.id}` });
      return 'delivering';
    }

    const [vdc] = await tx.select().from(vdcs).where(eq(vdcs.id, paid.subscriptionId!)).for('update');
    if (!vdc || vdc.deletedAt || vdc.status === 'failed') {
      // Deleted between checkout and payment (grace period over): refunded automatically.
      await failPaidOrder(tx, paid.id, 'virtual data center deleted before payment');
      return 'failed';
    }
    const ipIds = await claimHeldIpv4s(tx, paid, c.ipAddressIds ?? [], log);
    if (ipIds.length) await tx.update(ipAddresses).set({ vdcId: vdc.id, reservedUntil: null }).where(inArray(ipAddresses.id, ipIds));
    const from = vdc.expiresAt && vdc.expiresAt > now ? vdc.expiresAt : now;
    const periodEnd = addMonthsClamped(from, paid.months);
    // The pool only grows (the checkout refused less); its limits apply at once, Proxmox enforces none.
    await tx.update(vdcs).set({
      cpuCores: Math.max(vdc.cpuCores, c.cpu), ramGb: Math.max(vdc.ramGb, c.ram), storageGb: Math.max(vdc.storageGb, c.storage),
      ipv4Count: vdc.ipv4Count + ipIds.length, expiresAt: periodEnd, expiryReminderStage: 0,
    }).where(eq(vdcs.id, vdc.id));
    const suspended = vdc.suspendedAt !== null;
    await tx.update(orders).set({ periodStart: from, periodEnd, ...(suspended ? {} : { status: 'completed', completedAt: now }) }).where(eq(orders.id, paid.id));
    if (suspended) await enqueue(tx, applyVdcRenewalKind, { orderId: paid.id }, { dedupeKey: `apply-vdc-renewal:${paid.id}` });
    return 'delivering';
  },
};

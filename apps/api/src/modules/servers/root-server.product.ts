import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { addMonthsClamped, durationDiscountPercent, privacyMessages, orderLinkQuery, priceBreakdown, serverDetailPath, priceCents, serverStatusLabels, shopMessages, splitGross, type CheckoutInput, type ServerConfig } from '@hp/contract';
import { ipAddresses, orders, servers, serverTasks } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { defineJob } from '../../jobs/define.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { fits, lockNodeFree, nextVmid, placeOnNode, takeFreeIpv4 } from './capacity.ts';
import { provisionServer } from './provision-server.ts';
import { applyUpgradeJob } from './resize.ts';
import type { OrderRow, ProductModule } from '../products/product-module.ts';
import { failPaidOrder } from '../payments/fail-order.ts';
import { isoOrNull, ordersOfSubscription } from '../products/subscription.ts';

/** The product as orders, invoices and the checkout name it. */
export const ROOT_SERVER_NAME = 'Root Server';

export const osFamilyOf = (os: string): 'linux' | 'windows' => (os.toLowerCase().startsWith('windows') ? 'windows' : 'linux');

export function describeServerConfig(c: { os: string; cpuCores: number; ramGb: number; storageGb: number; months: number }) {
  return `${c.cpuCores} vCPU · ${c.ramGb} GB RAM · ${c.storageGb} GB SSD · ${c.os} · ${c.months} ${c.months === 1 ? 'Monat' : 'Monate'}`;
}

/** A root server order's configuration (its typed columns; the check constraint guarantees them). */
export function serverConfigOf(order: OrderRow) {
  return { os: order.os!, osFamily: order.osFamily!, cpuCores: order.cpuCores!, ramGb: order.ramGb!, storageGb: order.storageGb!, months: order.months, nodeId: order.nodeId! };
}

// Qualified by hand: in a single-table select Drizzle leaves column names bare, and "id" would bind to ip_addresses.
const primaryIpOfServer = sql<string | null>`(select ip.address from ${ipAddresses} ip where ip.server_id = "servers"."id" order by (ip.version = 'IPv4') desc, ip.id limit 1)`;

const notEnoughResources = () => conflict('NOT_ENOUGH_RESOURCES', shopMessages.notEnoughResources);
const noFreeIp = () => conflict('NO_FREE_IP', shopMessages.noFreeIp);

const provisionOrderKind = jobKind('provision-order', z.object({ orderId: z.string() }));

/** Builds the server of a paid order and completes (or fails) the order with the outcome. */
export const provisionOrderJob = defineJob(provisionOrderKind, async (deps, { orderId }) => {
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order?.subscriptionId) throw new PermanentJobError('order has no server');
  const outcome = await provisionServer(deps, order.subscriptionId);
  const [server] = await deps.db.select({ status: servers.status, message: servers.statusMessage }).from(servers).where(eq(servers.id, order.subscriptionId));
  if (outcome === 'online' || server?.status === 'online') {
    await deps.db.update(orders).set({ status: 'completed', completedAt: new Date() }).where(and(eq(orders.id, order.id), eq(orders.status, 'processing')));
  } else if (outcome === 'failed' || server?.status === 'failed') {
    // Paid but not delivered: the failed server stays for staff to inspect; the payment goes back (decision 023).
    await deps.db.transaction((tx) => failPaidOrder(tx, order.id, server?.message ?? 'provisioning failed'));
  }
});

/**
 * The root server (KVM): a new order holds node capacity (node row lock) and an IPv4 (row lock, SKIP
 * LOCKED); an upgrade or renewal of an existing server holds only its growth on the server's node.
 */
export const rootServerProduct: ProductModule<CheckoutInput> = {
  kind: 'root_server',
  name: ROOT_SERVER_NAME,

  sameOrder(input) {
    const os = input.serverId ? undefined : input.os === 'windows' ? input.windowsVersion! : input.distro!;
    return and(
      input.serverId ? ordersOfSubscription('root_server', input.serverId) : and(eq(orders.kind, 'new'), eq(orders.os, os!)),
      eq(orders.osFamily, input.os), eq(orders.cpuCores, input.cpu), eq(orders.ramGb, input.ram), eq(orders.storageGb, input.storage), eq(orders.months, input.months),
    );
  },

  async reserve(tx, { userId, holdUntil }, input) {
    const gross = priceCents({ os: input.os, cpu: input.cpu, ram: input.ram, storage: input.storage, months: input.months });
    const split = splitGross(gross);
    const money = { amountCents: gross, netCents: split.netCents, vatCents: split.vatCents };

    if (input.serverId) {
      const [server] = await tx.select().from(servers)
        // A VM of a virtual data center has no term of its own: its pool is renewed instead.
        .where(and(eq(servers.id, input.serverId), eq(servers.ownerId, userId), isNull(servers.deletedAt), isNull(servers.vdcId))).for('update');
      if (!server) throw notFound();
      if (server.status === 'provisioning' || server.status === 'failed') throw conflict('SERVER_NOT_READY', shopMessages.serverNotUpgradable);
      if (input.storage < server.storageGb) throw new AppError(400, 'STORAGE_SHRINK', shopMessages.storageShrink);
      if (osFamilyOf(server.os) !== input.os) throw new AppError(400, 'OS_MISMATCH', shopMessages.osMismatch);
      const growth = {
        cpuCores: Math.max(0, input.cpu - server.cpuCores),
        ramGb: Math.max(0, input.ram - server.ramGb),
        storageGb: Math.max(0, input.storage - server.storageGb),
      };
      const locked = await lockNodeFree(tx, server.nodeId);
      if (!locked || !fits(growth, locked.free)) throw notEnoughResources();
      return {
        kind: 'upgrade', subscriptionId: server.id, nodeId: server.nodeId,
        // The installed system stays; a different one is a reinstall, not an order.
        osFamily: input.os, os: server.os,
        cpuCores: input.cpu, ramGb: input.ram, storageGb: input.storage, months: input.months,
        holdCpuCores: growth.cpuCores, holdRamGb: growth.ramGb, holdStorageGb: growth.storageGb,
        ...money,
      };
    }

    const want = { cpuCores: input.cpu, ramGb: input.ram, storageGb: input.storage };
    const node = await placeOnNode(tx, want);
    if (!node) throw notEnoughResources();
    const ip = await takeFreeIpv4(tx);
    if (!ip) throw noFreeIp();
    await tx.update(ipAddresses).set({ reservedUntil: holdUntil }).where(eq(ipAddresses.id, ip.id));
    return {
      kind: 'new', nodeId: node.id, ipAddressId: ip.id, ipAddress: ip.address,
      osFamily: input.os, os: input.os === 'windows' ? input.windowsVersion! : input.distro!,
      cpuCores: input.cpu, ramGb: input.ram, storageGb: input.storage, months: input.months,
      holdCpuCores: want.cpuCores, holdRamGb: want.ramGb, holdStorageGb: want.storageGb,
      ...money,
    };
  },

  async release(tx, order) {
    if (!order.ipAddressId) return;
    // Only this order's own hold (stamped with its hold_until): after a hold ran out the address may
    // already be held by a newer order, which must keep it.
    await tx.update(ipAddresses).set({ reservedUntil: null })
      .where(and(eq(ipAddresses.id, order.ipAddressId), isNull(ipAddresses.serverId), eq(ipAddresses.reservedUntil, order.holdUntil)));
  },

  async renewHold(tx, order, holdUntil) {
    if (!order.ipAddressId) return;
    await tx.update(ipAddresses).set({ reservedUntil: holdUntil })
      .where(and(eq(ipAddresses.id, order.ipAddressId), isNull(ipAddresses.serverId), eq(ipAddresses.reservedUntil, order.holdUntil)));
  },

  async terms(db, ids) {
    if (!ids.length) return new Map();
    const rows = await db.select({ id: servers.id, expiresAt: servers.expiresAt, deletedAt: servers.deletedAt }).from(servers).where(inArray(servers.id, ids));
    return new Map(rows.map((r) => [r.id, r]));
  },

  async orderDetail(db, order) {
    const config = serverConfigOf(order);
    // The address as recorded on the order (it survives the pool entry); older upgrades look at the server.
    const [ip] = order.ipAddress
      ? [{ address: order.ipAddress }]
      : order.subscriptionId
        ? await db.select({ address: ipAddresses.address }).from(ipAddresses).where(eq(ipAddresses.serverId, order.subscriptionId)).limit(1)
        : [];
    const prices = priceBreakdown({ os: config.osFamily, cpu: config.cpuCores, ram: config.ramGb, storage: config.storageGb, months: order.months });
    // Each line as charged per month: list price × 1.22 × (1 − discount), shown net of 19 % VAT like the
    // totals, so the lines add up to the monthly net (up to rounding).
    const discount = durationDiscountPercent(order.months);
    const charged = (listCents: number) => Math.round((listCents * 122 * (100 - discount)) / (100 * 119));
    return {
      configuration: {
        product: 'root_server',
        location: 'Frankfurt am Main',
        os: config.os,
        cpu: { cores: config.cpuCores, priceCents: charged(prices.monthly.cpuCents) },
        ram: { size: config.ramGb, type: 'DDR4 ECC', priceCents: charged(prices.monthly.ramCents) },
        storage: { size: config.storageGb, type: 'NVMe SSD', priceCents: charged(prices.monthly.storageCents) },
        osPriceCents: charged(prices.monthly.osCents),
        network: { ip: ip?.address ?? null, bandwidth: '1 Gbit/s', priceCents: 0 },
      },
    };
  },

  async deletionBlock(tx, customerId) {
    const [live] = await tx.select({ id: servers.id }).from(servers).where(and(eq(servers.ownerId, customerId), isNull(servers.deletedAt))).limit(1);
    return live ? { code: 'ACTIVE_SERVERS', message: privacyMessages.activeServers } : null;
  },

  exportSection: {
    key: 'server',
    async rows(db, userId) {
      const rows = await db.select().from(servers).where(eq(servers.ownerId, userId)).orderBy(asc(servers.createdAt));
      const ips = rows.length
        ? await db.select({ serverId: ipAddresses.serverId, address: ipAddresses.address, version: ipAddresses.version }).from(ipAddresses).where(inArray(ipAddresses.serverId, rows.map((s) => s.id)))
        : [];
      return rows.map((s) => ({
        id: s.id, name: s.name, betriebssystem: s.os, cpuKerne: s.cpuCores, ramGb: s.ramGb, speicherGb: s.storageGb, status: s.status,
        ipAdressen: ips.filter((ip) => ip.serverId === s.id).map((ip) => ({ adresse: ip.address, version: ip.version })),
        sshSchluessel: s.sshKeys, firewallAktiv: s.firewallEnabled,
        erstelltAm: isoOrNull(s.createdAt), laeuftAbAm: isoOrNull(s.expiresAt), gesperrtAm: isoOrNull(s.suspendedAt), geloeschtAm: isoOrNull(s.deletedAt),
      }));
    },
  },

  staffSection: {
    title: 'Server',
    empty: 'Keine Server.',
    async items(db, customerId) {
      const rows = await db.select({ id: servers.id, name: servers.name, status: servers.status, expiresAt: servers.expiresAt, ip: primaryIpOfServer }).from(servers)
        .where(and(eq(servers.ownerId, customerId), isNull(servers.deletedAt), isNull(servers.vdcId))).orderBy(asc(servers.vmid));
      return rows.map((s) => ({
        id: s.id, name: s.name, detail: s.ip ?? '', status: serverStatusLabels[s.status] ?? s.status, expiresAt: isoOrNull(s.expiresAt),
        href: `/dashboard/servers/${s.id}`,
      }));
    },
  },

  // A server that failed to be built was refunded and never ran; one staff created has no term (expires_at null).
  // A VDC's VMs are the pool's (its own churn source), not root servers.
  churnSource: { label: 'Server', table: servers, ownerId: servers.ownerId, expiresAt: servers.expiresAt, deletedAt: servers.deletedAt, where: and(ne(servers.status, 'failed'), isNull(servers.vdcId)) },

  subscriptionPath: (order) => (order.subscriptionId ? serverDetailPath(order.os!, order.subscriptionId) : null),

  shopPath(order) {
    if (order.kind === 'upgrade' && order.subscriptionId) return `/upgrade/kvm-server/${order.subscriptionId}`;
    // The configurator checks the query itself: a system no longer sold just leaves its defaults.
    const config = {
      os: order.osFamily!, ...(order.osFamily === 'windows' ? { windowsVersion: order.os! } : { distro: order.os! }),
      cpu: order.cpuCores!, ram: order.ramGb!, storage: order.storageGb!, months: order.months,
    } as ServerConfig;
    return `/shop/kvm-server?${orderLinkQuery(config, false)}`;
  },

  paymentLine(order) {
    return `${ROOT_SERVER_NAME} (KVM) – ${describeServerConfig(serverConfigOf(order))}${order.kind === 'upgrade' ? ' (Verlängerung/Upgrade)' : ''}`;
  },

  invoiceLine(order) {
    return {
      name: `${ROOT_SERVER_NAME} (KVM)${order.kind === 'upgrade' ? ' – Verlängerung/Upgrade' : ''}`,
      description: `${describeServerConfig(serverConfigOf(order))}, Standort Frankfurt am Main`,
    };
  },

  async fulfil(tx, paid, { now, log }) {
    const config = serverConfigOf(paid);
    if (paid.kind === 'new') {
      const periodEnd = addMonthsClamped(now, paid.months);
      const vmid = await nextVmid(tx);
      // The held IP, unless it was somehow given away (hold expired under clock skew): then any free one.
      let ip: { id: number; address: string } | null = null;
      if (paid.ipAddressId) {
        const [held] = await tx.select({ id: ipAddresses.id, address: ipAddresses.address, serverId: ipAddresses.serverId }).from(ipAddresses)
          .where(eq(ipAddresses.id, paid.ipAddressId)).for('update');
        if (held && !held.serverId) ip = held;
      }
      if (ip === null) {
        ip = (await takeFreeIpv4(tx)) ?? null;
        const ipId = ip?.id ?? null;
        log?.warn({ orderId: paid.id, heldIp: paid.ipAddressId, fallbackIp: ipId }, ipId === null ? 'paid order without a free IP: staff must assign one' : 'held IP was gone; another free IP assigned');
      }
      const [server] = await tx.insert(servers).values({
        vmid, name: `srv-${vmid}`, ownerId: paid.userId, nodeId: config.nodeId, os: config.os,
        cpuCores: config.cpuCores, ramGb: config.ramGb, storageGb: config.storageGb, status: 'provisioning', expiresAt: periodEnd,
      }).returning({ id: servers.id });
      if (ip !== null) await tx.update(ipAddresses).set({ serverId: server!.id, reservedUntil: null }).where(eq(ipAddresses.id, ip.id));
      await tx.insert(serverTasks).values({ serverId: server!.id, kind: 'create', status: 'running', progress: 0, payload: { orderId: paid.id } });
      await tx.update(orders).set({ subscriptionId: server!.id, periodStart: now, periodEnd, ipAddressId: ip?.id ?? null, ipAddress: ip?.address ?? null }).where(eq(orders.id, paid.id));
      await enqueue(tx, provisionOrderKind, { orderId: paid.id }, { dedupeKey: `provision:${paid.id}` });
      return 'delivering';
    }
    const [server] = await tx.select().from(servers).where(eq(servers.id, paid.subscriptionId!)).for('update');
    if (!server || server.deletedAt) {
      // Deleted between checkout and payment (e.g. grace period ended): refunded automatically.
      await failPaidOrder(tx, paid.id, 'server deleted before payment');
      return 'failed';
    }
    const from = server.expiresAt && server.expiresAt > now ? server.expiresAt : now;
    const periodEnd = addMonthsClamped(from, paid.months);
    await tx.update(servers).set({
      cpuCores: config.cpuCores, ramGb: config.ramGb, storageGb: Math.max(server.storageGb, config.storageGb),
      expiresAt: periodEnd, expiryReminderStage: 0,
    }).where(eq(servers.id, server.id));
    await tx.insert(serverTasks).values({ serverId: server.id, kind: 'upgrade', status: 'running', progress: 0, payload: { orderId: paid.id } });
    await tx.update(orders).set({ periodStart: from, periodEnd }).where(eq(orders.id, paid.id));
    await enqueue(tx, applyUpgradeJob, { orderId: paid.id }, { dedupeKey: `upgrade:${paid.id}` });
    return 'delivering';
  },
};

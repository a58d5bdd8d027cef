import { and, asc, count, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  addMonthsClamped, daysLeft, plansHolding, splitGross, storageUpgradeCents, STORAGE_PLANS, STORAGE_STATUS_LABEL, StorageOrderConfig, storageMessages, storagePriceCents,
  type StorageCheckoutInput, type StoragePlanId,
} from '@hp/contract';
import type { Tx } from '../../db/client.ts';
import { orders, storageAccounts, storageServers } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { OrderRow, ProductModule } from '../products/product-module.ts';
import { isoOrNull, ordersOfSubscription } from '../products/subscription.ts';
import { failPaidOrder } from '../payments/fail-order.ts';

/** Cloud storage (issue 23, decision 034): a Nextcloud account with the plan's quota on a storage server. */
export const STORAGE_PRODUCT_NAME = 'Cloud-Speicher';

export const storageConfigOf = (order: OrderRow) => StorageOrderConfig.parse(order.config);

export const provisionStorageKind = jobKind('provision-storage', z.object({ orderId: z.string() }));
/** A paid renewal changed the plan or ends a suspension: quota and login follow on the storage server. */
export const applyStorageRenewalKind = jobKind('apply-storage-renewal', z.object({ orderId: z.string() }));

/** Names of the provider's own users on every Nextcloud (admins, service accounts): never a customer's. */
const RESERVED_NAMES = new Set(['root', 'nextcloud', 'support', 'portal', 'system', 'guest', 'test', 'backup', 'webmaster', 'postmaster', 'hostmaster', 'abuse',
  'info', 'security', 'noreply', 'no-reply', 'mail', 'www', 'ftp', 'billing', 'owncloud', 'occ']);
const isReserved = (name: string) => RESERVED_NAMES.has(name) || name.startsWith('admin');

/** Quotas of the live accounts on a server plus what open checkouts hold there, in GiB. */
export async function allocatedGb(tx: Pick<Tx, 'select'>, storageServerId: number) {
  const [accounts] = await tx.select({ gb: sql<number>`coalesce(sum(${storageAccounts.quotaGb}), 0)::int`, n: count() }).from(storageAccounts)
    .where(and(eq(storageAccounts.storageServerId, storageServerId), isNull(storageAccounts.deletedAt), ne(storageAccounts.status, 'failed')));
  const [held] = await tx.select({ gb: sql<number>`coalesce(sum(${orders.holdStorageGb}), 0)::int` }).from(orders)
    .where(and(eq(orders.product, 'cloud_storage'), eq(orders.status, 'pending'), gt(orders.holdUntil, sql`now()`),
      sql`(${orders.config}->>'storageServerId')::int = ${storageServerId}`));
  return { accountsGb: Number(accounts?.gb ?? 0), accounts: Number(accounts?.n ?? 0), heldGb: Number(held?.gb ?? 0) };
}

export const sellableGb = (server: { capacityGb: number }, overcommit: number) => Math.floor(server.capacityGb * overcommit);

/**
 * Takes room for a quota: candidate servers are locked one by one in id order (no deadlocks between
 * parallel checkouts) and summed again under the lock, like nodes and hosting slots.
 */
async function takeRoom(tx: Tx, quotaGb: number, overcommit: number) {
  const candidates = await tx.select({ id: storageServers.id }).from(storageServers).where(isNull(storageServers.deletedAt)).orderBy(storageServers.id);
  for (const { id } of candidates) {
    const [server] = await tx.select().from(storageServers).where(and(eq(storageServers.id, id), isNull(storageServers.deletedAt))).for('update');
    if (!server) continue;
    const { accountsGb, heldGb } = await allocatedGb(tx, id);
    if (accountsGb + heldGb + quotaGb <= sellableGb(server, overcommit)) return server;
  }
  return null;
}

/** Whether a growth of `growGb` still fits on the (locked) server. */
async function roomFor(tx: Tx, serverId: number, growGb: number, overcommit: number) {
  const [server] = await tx.select().from(storageServers).where(eq(storageServers.id, serverId)).for('update');
  if (!server) return false;
  const { accountsGb, heldGb } = await allocatedGb(tx, serverId);
  return accountsGb + heldGb + growGb <= sellableGb(server, overcommit);
}

/**
 * Who else has the name: a live account (anyone's, on any server: names are the login and unique
 * across our servers), an open checkout, or a user on the storage server itself. Serialised per name.
 */
export async function nameClaim(tx: Pick<Tx, 'select' | 'execute'>, name: string, userId: string): Promise<'taken' | 'own-order' | null> {
  if (isReserved(name)) return 'taken';
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`storage-name:${name}`}))`);
  const [live] = await tx.select({ id: storageAccounts.id }).from(storageAccounts)
    .where(and(eq(storageAccounts.accountName, name), isNull(storageAccounts.deletedAt), ne(storageAccounts.status, 'failed'))).limit(1);
  if (live) return 'taken';
  const [held] = await tx.select({ userId: orders.userId }).from(orders)
    .where(and(eq(orders.product, 'cloud_storage'), eq(orders.kind, 'new'), eq(orders.status, 'pending'), gt(orders.holdUntil, sql`now()`),
      sql`${orders.config}->>'accountName' = ${name}`)).limit(1);
  if (held) return held.userId === userId ? 'own-order' : 'taken';
  return null;
}

export const nameClaimError = (claim: 'taken' | 'own-order') =>
  (claim === 'own-order' ? conflict('STORAGE_NAME_OPEN_ORDER', storageMessages.accountNameOwnOrder) : conflict('STORAGE_NAME_TAKEN', storageMessages.accountNameTaken));

const planText = (plan: StoragePlanId, months: number) => `Tarif ${STORAGE_PLANS[plan].name} · ${months} ${months === 1 ? 'Monat' : 'Monate'}`;

export const storageProduct: ProductModule<StorageCheckoutInput> = {
  kind: 'cloud_storage',
  name: STORAGE_PRODUCT_NAME,

  async terms(db, ids) {
    if (!ids.length) return new Map();
    const rows = await db.select({ id: storageAccounts.id, expiresAt: storageAccounts.expiresAt, deletedAt: storageAccounts.deletedAt }).from(storageAccounts).where(inArray(storageAccounts.id, ids));
    return new Map(rows.map((r) => [r.id, r]));
  },

  async orderDetail(_db, order) {
    const c = storageConfigOf(order);
    const plan = STORAGE_PLANS[c.plan];
    return { configuration: { product: 'cloud_storage', plan: plan.id, planName: plan.name, accountName: c.accountName, quotaGb: plan.quotaGb } };
  },

  async deletionBlock(tx, customerId) {
    const [live] = await tx.select({ id: storageAccounts.id }).from(storageAccounts)
      .where(and(eq(storageAccounts.ownerId, customerId), isNull(storageAccounts.deletedAt), ne(storageAccounts.status, 'failed'))).limit(1);
    return live ? { code: 'ACTIVE_STORAGE', message: storageMessages.activeStorage } : null;
  },

  exportSection: {
    key: 'cloudSpeicher',
    async rows(db, userId) {
      const rows = await db.select().from(storageAccounts).where(eq(storageAccounts.ownerId, userId)).orderBy(asc(storageAccounts.createdAt));
      return rows.map((a) => ({
        speicherId: a.number, kontoname: a.accountName, tarif: STORAGE_PLANS[a.plan].name, kontingentGb: a.quotaGb, status: a.status,
        erstelltAm: isoOrNull(a.createdAt), laeuftAbAm: isoOrNull(a.expiresAt), gesperrtAm: isoOrNull(a.suspendedAt), geloeschtAm: isoOrNull(a.deletedAt),
      }));
    },
  },

  staffSection: {
    title: 'Cloud-Speicher',
    empty: 'Kein Cloud-Speicher.',
    async items(db, customerId) {
      const rows = await db.select().from(storageAccounts).where(and(eq(storageAccounts.ownerId, customerId), isNull(storageAccounts.deletedAt))).orderBy(asc(storageAccounts.number));
      return rows.map((a) => ({
        id: a.id, name: a.accountName, detail: `${STORAGE_PLANS[a.plan].name} · Speicher-ID ${a.number}`, status: STORAGE_STATUS_LABEL[a.status], expiresAt: isoOrNull(a.expiresAt),
      }));
    },
  },

  // An account whose set-up failed was refunded and never ran.
  churnSource: {
    label: 'Cloud-Speicher', table: storageAccounts, ownerId: storageAccounts.ownerId, expiresAt: storageAccounts.expiresAt, deletedAt: storageAccounts.deletedAt,
    where: ne(storageAccounts.status, 'failed'),
  },

  async capacity(db, env) {
    const rows = await db.select().from(storageServers).where(isNull(storageServers.deletedAt)).orderBy(storageServers.id);
    const servers = [];
    for (const s of rows) {
      const { accountsGb, heldGb, accounts } = await allocatedGb(db, s.id);
      servers.push({ id: s.id, name: s.name, capacity: s.capacityGb, sellable: sellableGb(s, env.storageOvercommit), allocated: accountsGb + heldGb, count: accounts });
    }
    return { kind: 'cloud_storage', title: 'Cloud-Speicher', unit: 'GB', servers };
  },

  subscriptionPath: (order) => (order.subscriptionId ? `/dashboard/cloud-storage/${order.subscriptionId}` : null),

  shopPath(order) {
    if (order.kind === 'upgrade' && order.subscriptionId) return `/shop/cloud-storage?renew=${order.subscriptionId}`;
    const c = storageConfigOf(order);
    return `/shop/cloud-storage?${new URLSearchParams({ plan: c.plan, months: String(order.months), name: c.accountName }).toString()}`;
  },

  async precheck({ db, userId, drivers }, input) {
    if (input.storageId) {
      // A smaller plan must hold what the account uses now (asked live; a server that cannot answer refuses the downgrade).
      const [row] = await db.select({ account: storageAccounts, url: storageServers.url, fingerprint: storageServers.fingerprint }).from(storageAccounts)
        .innerJoin(storageServers, eq(storageServers.id, storageAccounts.storageServerId))
        .where(and(eq(storageAccounts.id, input.storageId), eq(storageAccounts.ownerId, userId), isNull(storageAccounts.deletedAt)));
      if (!row || STORAGE_PLANS[input.plan].quotaGb >= row.account.quotaGb) return; // reserve refuses a missing account
      const live = await drivers.storage.getAccount({ server: { url: row.url, ...(row.fingerprint ? { fingerprint: row.fingerprint } : {}) }, userId: row.account.accountName })
        .catch(() => { throw new AppError(503, 'STORAGE_UNAVAILABLE', storageMessages.unavailable); });
      if (!live || !plansHolding(live.usedBytes).includes(input.plan)) throw new AppError(409, 'STORAGE_TOO_SMALL', storageMessages.downgradeTooSmall);
      return;
    }
    // A user a storage server has already (created outside the portal) cannot be ours: asked on every server a new account may go to.
    const servers = await db.select({ url: storageServers.url, fingerprint: storageServers.fingerprint }).from(storageServers).where(isNull(storageServers.deletedAt));
    // A server that cannot be asked now does not stop the sale (the account may go to another; if it goes
    // there and the name is taken after all, provisioning fails and the payment is refunded); none at all does.
    let asked = 0;
    for (const s of servers) {
      let free: boolean;
      try {
        free = await drivers.storage.isNameAvailable({ url: s.url, ...(s.fingerprint ? { fingerprint: s.fingerprint } : {}) }, input.accountName!);
      } catch {
        continue;
      }
      asked += 1;
      if (!free) throw nameClaimError('taken');
    }
    if (servers.length > 0 && asked === 0) throw new AppError(503, 'STORAGE_UNAVAILABLE', storageMessages.unavailable);
  },

  sameOrder(input) {
    if (input.storageId) return and(ordersOfSubscription('cloud_storage', input.storageId), eq(orders.kind, 'upgrade'));
    return and(eq(orders.kind, 'new'), sql`${orders.config}->>'accountName' = ${input.accountName!}`);
  },

  async reserve(tx, { userId, env }, input) {
    const plan = STORAGE_PLANS[input.plan];
    const priceOf = (gross: number) => { const split = splitGross(gross); return { months: input.months, amountCents: gross, netCents: split.netCents, vatCents: split.vatCents }; };
    const termCents = storagePriceCents({ plan: input.plan, months: input.months });
    if (input.storageId) {
      const [account] = await tx.select().from(storageAccounts)
        .where(and(eq(storageAccounts.id, input.storageId), eq(storageAccounts.ownerId, userId), isNull(storageAccounts.deletedAt))).for('update');
      if (!account) throw notFound(storageMessages.notFound);
      if (account.status === 'failed') throw conflict('STORAGE_FAILED', storageMessages.failedNotRenewable);
      if (account.status === 'provisioning') throw conflict('STORAGE_NOT_READY', storageMessages.notRenewable);
      const grow = Math.max(0, plan.quotaGb - account.quotaGb);
      if (grow > 0 && !await roomFor(tx, account.storageServerId, grow, env.storageOvercommit)) throw conflict('NO_STORAGE_CAPACITY', storageMessages.noCapacity);
      // A larger plan applies when paid: the rest of the current term costs the difference (decision 034).
      const upgradeDays = daysLeft(account.expiresAt, new Date());
      const upgradeCents = storageUpgradeCents(account.plan, input.plan, upgradeDays);
      const config: StorageOrderConfig = {
        plan: input.plan, accountName: account.accountName, storageServerId: account.storageServerId, previousPlan: account.plan,
        ...(upgradeCents > 0 ? { upgradeDays, upgradeCents } : {}),
      };
      return { kind: 'upgrade', subscriptionId: account.id, config, holdStorageGb: grow, ...priceOf(termCents + upgradeCents) };
    }
    const name = input.accountName!;
    const claim = await nameClaim(tx, name, userId);
    if (claim) throw nameClaimError(claim);
    const server = await takeRoom(tx, plan.quotaGb, env.storageOvercommit);
    if (!server) throw conflict('NO_STORAGE_CAPACITY', storageMessages.noCapacity);
    const config: StorageOrderConfig = { plan: input.plan, accountName: name, storageServerId: server.id, previousPlan: null };
    return { kind: 'new', config, holdStorageGb: plan.quotaGb, ...priceOf(termCents) };
  },

  // The quota and the name are held by the order's status and hold time: nothing to give back.
  async release() {},

  paymentLine(order) {
    const c = storageConfigOf(order);
    return `${STORAGE_PRODUCT_NAME} – ${c.accountName} · ${planText(c.plan, order.months)}${order.kind === 'upgrade' ? ' (Verlängerung)' : ''}`;
  },

  invoiceLine(order) {
    const c = storageConfigOf(order);
    const plan = STORAGE_PLANS[c.plan];
    const change = order.kind === 'upgrade' && c.previousPlan && c.previousPlan !== c.plan
      ? ` (Tarifwechsel von ${STORAGE_PLANS[c.previousPlan].name}${c.upgradeDays ? `, inkl. Aufpreis für die restlichen ${c.upgradeDays} Tage der bisherigen Laufzeit` : ''})` : '';
    return {
      name: `${STORAGE_PRODUCT_NAME} ${plan.name}${order.kind === 'upgrade' ? ' – Verlängerung' : ''}`,
      description: `Konto ${c.accountName} · ${plan.name} Speicher${change} · ${order.months} ${order.months === 1 ? 'Monat' : 'Monate'}`,
    };
  },

  async fulfil(tx, paid, { now, env, log }) {
    const c = storageConfigOf(paid);
    const plan = STORAGE_PLANS[c.plan];
    if (paid.kind === 'new') {
      // The hold ran out and someone else took the name meanwhile: refunded automatically, nothing is built.
      const [taken] = await tx.select({ id: storageAccounts.id }).from(storageAccounts)
        .where(and(eq(storageAccounts.accountName, c.accountName), isNull(storageAccounts.deletedAt), ne(storageAccounts.status, 'failed'))).limit(1);
      if (taken) {
        await failPaidOrder(tx, paid.id, 'account name taken before payment');
        return 'failed';
      }
      // A payment settled after its hold ran out is placed anyway (the customer paid); staff are told in
      // the log when the server is now sold beyond capacity × overcommit, like web hosting's slots.
      const [server] = await tx.select().from(storageServers).where(eq(storageServers.id, c.storageServerId)).for('update');
      const { accountsGb, heldGb } = await allocatedGb(tx, c.storageServerId);
      if (server && accountsGb + heldGb + plan.quotaGb > sellableGb(server, env.storageOvercommit)) {
        log?.warn({ orderId: paid.id, storageServerId: c.storageServerId }, 'paid storage order beyond the server\'s sellable capacity (hold ran out): placed anyway');
      }
      const periodEnd = addMonthsClamped(now, paid.months);
      const [account] = await tx.insert(storageAccounts).values({
        ownerId: paid.userId, storageServerId: c.storageServerId, plan: c.plan, quotaGb: plan.quotaGb, accountName: c.accountName, expiresAt: periodEnd,
      }).returning({ id: storageAccounts.id });
      await tx.update(orders).set({ subscriptionId: account!.id, periodStart: now, periodEnd }).where(eq(orders.id, paid.id));
      await enqueue(tx, provisionStorageKind, { orderId: paid.id }, { dedupeKey: `provision-storage:${paid.id}` });
      return 'delivering';
    }
    const [account] = await tx.select().from(storageAccounts).where(eq(storageAccounts.id, paid.subscriptionId!)).for('update');
    if (!account || account.deletedAt) {
      await failPaidOrder(tx, paid.id, 'storage account deleted before payment');
      return 'failed';
    }
    const from = account.expiresAt && account.expiresAt > now ? account.expiresAt : now;
    const periodEnd = addMonthsClamped(from, paid.months);
    const changes = account.plan !== c.plan || account.suspendedAt !== null;
    await tx.update(storageAccounts).set({ expiresAt: periodEnd, expiryReminderStage: 0, plan: c.plan, quotaGb: plan.quotaGb }).where(eq(storageAccounts.id, account.id));
    await tx.update(orders).set({ periodStart: from, periodEnd, ...(changes ? {} : { status: 'completed', completedAt: now }) }).where(eq(orders.id, paid.id));
    if (changes) await enqueue(tx, applyStorageRenewalKind, { orderId: paid.id }, { dedupeKey: `apply-storage-renewal:${paid.id}` });
    return 'delivering';
  },
};

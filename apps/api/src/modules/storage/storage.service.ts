import crypto from 'node:crypto';
import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import {
  daysLeft, GIB, plansHolding, STORAGE_PLAN_IDS, STORAGE_PLANS, StorageAccountName, storageMessages,
  type StorageCard, type StorageDetail, type StorageList, type StorageNameCheck, type StoragePasswordResult, type StorageServerInput,
  type StorageServerList, type StorageServerView, type StorageShopInfo,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { storageAccounts, storageServers } from '../../db/schema/index.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { StorageError } from '../../drivers/storage/storage.ts';
import { allocatedGb, nameClaim, sellableGb } from './storage.product.ts';
import { accountRefOf } from './storage-lifecycle.ts';

type StorageDeps = Pick<Deps, 'db' | 'env' | 'storage'>;
type Account = typeof storageAccounts.$inferSelect;

/** How long the account page waits for the storage server before it shows what it has. */
const LIVE_TIMEOUT_MS = 4000;

function card(a: Account): StorageCard {
  const plan = STORAGE_PLANS[a.plan];
  return {
    id: a.id, number: a.number, accountName: a.accountName, plan: a.plan, planName: plan.name, quotaBytes: a.quotaGb * GIB,
    status: a.status, statusMessage: a.statusMessage, expiresAt: a.expiresAt?.toISOString() ?? null,
  };
}

/** The customer's accounts. Only the owner sees them: cloud storage is not shared with other logins. */
async function ownAccount(db: Deps['db'], user: RequestUser, id: string) {
  const [a] = await db.select().from(storageAccounts).where(and(eq(storageAccounts.id, id), eq(storageAccounts.ownerId, user.id), isNull(storageAccounts.deletedAt)));
  if (!a) throw notFound(storageMessages.notFound);
  return a;
}

export async function listAccounts({ db }: Pick<Deps, 'db'>, user: RequestUser): Promise<StorageList> {
  const rows = await db.select().from(storageAccounts).where(and(eq(storageAccounts.ownerId, user.id), isNull(storageAccounts.deletedAt))).orderBy(desc(storageAccounts.createdAt));
  return { items: rows.map(card) };
}

const withTimeout = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new StorageError('unavailable')), ms).unref())]);

export async function getAccountDetail(deps: StorageDeps, user: RequestUser, id: string): Promise<StorageDetail> {
  const a = await ownAccount(deps.db, user, id);
  const ref = await accountRefOf(deps, a);
  if (!ref) throw notFound(storageMessages.notFound);
  let usedBytes: number | null = null;
  let liveError: string | null = null;
  if (a.status === 'active' || a.status === 'suspended') {
    try {
      const live = await withTimeout(deps.storage.getAccount(ref), LIVE_TIMEOUT_MS);
      usedBytes = live?.usedBytes ?? null;
      if (!live) liveError = 'Das Konto wurde auf dem Speicherserver nicht gefunden. Bitte wenden Sie sich an den Support.';
    } catch (err) {
      liveError = err instanceof StorageError ? err.message : storageMessages.unavailable;
    }
  }
  const addresses = deps.storage.addresses(ref);
  return {
    ...card(a), usedBytes, webUrl: addresses.webUrl, webdavUrl: addresses.webdavUrl, serverUrl: addresses.serverUrl, liveError,
    renewPath: `/shop/cloud-storage?renew=${a.id}`, graceDays: deps.env.billing.graceDays,
  };
}

/** 20 characters from an alphabet without look-alikes, plus a digit and a sign for Nextcloud's password policy. */
function generatePassword() {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = crypto.randomBytes(20);
  const body = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${body.slice(0, 5)}-${body.slice(5, 10)}-${body.slice(10, 15)}-${body.slice(15, 20)}`;
}

/** A new password for the Nextcloud login, set there and shown once; never stored or mailed. */
export async function resetPassword(deps: StorageDeps, user: RequestUser, id: string): Promise<StoragePasswordResult> {
  const a = await ownAccount(deps.db, user, id);
  if (a.status !== 'active') throw conflict('STORAGE_NOT_ACTIVE', storageMessages.notActive);
  const ref = await accountRefOf(deps, a);
  if (!ref) throw notFound(storageMessages.notFound);
  const password = generatePassword();
  try {
    await deps.storage.setPassword(ref, password);
  } catch (err) {
    if (err instanceof StorageError) throw new AppError(err.kind === 'unavailable' ? 503 : 409, 'STORAGE_REFUSED', err.kind === 'unavailable' ? storageMessages.unavailable : err.message);
    throw err;
  }
  return { password, message: storageMessages.passwordSet };
}

/** The shop: which plans fit on a server now, and (signed in, renewing) the account with the plans its use allows. */
export async function getStorageShopInfo(deps: StorageDeps, user: RequestUser | null, renewId?: string): Promise<StorageShopInfo> {
  const servers = await deps.db.select().from(storageServers).where(isNull(storageServers.deletedAt));
  let room = 0;
  for (const s of servers) {
    const { accountsGb, heldGb } = await allocatedGb(deps.db, s.id);
    room = Math.max(room, sellableGb(s, deps.env.storageOvercommit) - accountsGb - heldGb);
  }
  const available = STORAGE_PLAN_IDS.filter((id) => STORAGE_PLANS[id].quotaGb <= room);
  let renewal: StorageShopInfo['renewal'] = null;
  if (renewId && user) {
    const a = await ownAccount(deps.db, user, renewId);
    if (a.status === 'failed') throw conflict('STORAGE_FAILED', storageMessages.failedNotRenewable);
    if (a.status === 'provisioning') throw conflict('STORAGE_NOT_READY', storageMessages.notRenewable);
    const ref = await accountRefOf(deps, a);
    const live = ref ? await withTimeout(deps.storage.getAccount(ref), LIVE_TIMEOUT_MS).catch(() => null) : null;
    const usedBytes = live?.usedBytes ?? null;
    // Without a reading, only the current plan and larger ones are offered.
    const allowed = usedBytes === null ? STORAGE_PLAN_IDS.filter((p) => STORAGE_PLANS[p].quotaGb >= a.quotaGb) : plansHolding(usedBytes);
    renewal = { storageId: a.id, accountName: a.accountName, plan: a.plan, expiresAt: a.expiresAt?.toISOString() ?? null, usedBytes, remainingDays: daysLeft(a.expiresAt, new Date()), allowedPlans: allowed };
  }
  return { available, renewal };
}

/** Told before paying: whether the name is free with us and on the storage server a new account would go to. */
export async function checkName(deps: StorageDeps, user: RequestUser, raw: string): Promise<StorageNameCheck> {
  const parsed = StorageAccountName.safeParse(raw);
  if (!parsed.success) return { available: false, message: storageMessages.accountNameInvalid };
  const name = parsed.data;
  const claim = await deps.db.transaction((tx) => nameClaim(tx, name, user.id));
  if (claim === 'own-order') return { available: false, message: storageMessages.accountNameOwnOrder };
  if (claim) return { available: false, message: storageMessages.accountNameTaken };
  const servers = await deps.db.select().from(storageServers).where(isNull(storageServers.deletedAt)).orderBy(storageServers.id);
  for (const s of servers) {
    try {
      if (!await withTimeout(deps.storage.isNameAvailable({ url: s.url, ...(s.fingerprint ? { fingerprint: s.fingerprint } : {}) }, name), LIVE_TIMEOUT_MS)) {
        return { available: false, message: storageMessages.accountNameTaken };
      }
    } catch {
      // The server cannot be asked now: the checkout asks again and refuses a taken name there.
    }
  }
  return { available: true, message: null };
}

// ── Staff: storage servers ─────────────────────────────────────────────────────────────────────────

async function serverView(deps: Pick<Deps, 'db' | 'env'>, row: typeof storageServers.$inferSelect): Promise<StorageServerView> {
  const { accountsGb, heldGb, accounts } = await allocatedGb(deps.db, row.id);
  return {
    id: row.id, name: row.name, url: row.url, capacityGb: row.capacityGb, sellableGb: sellableGb(row, deps.env.storageOvercommit),
    allocatedGb: accountsGb + heldGb, accounts, createdAt: row.createdAt.toISOString(),
  };
}

export async function listStorageServers(deps: Pick<Deps, 'db' | 'env'>): Promise<StorageServerList> {
  const rows = await deps.db.select().from(storageServers).where(isNull(storageServers.deletedAt)).orderBy(storageServers.id);
  return { items: await Promise.all(rows.map((r) => serverView(deps, r))), overcommit: deps.env.storageOvercommit };
}

export async function createStorageServer(deps: Pick<Deps, 'db' | 'env'>, input: StorageServerInput): Promise<StorageServerView> {
  const [taken] = await deps.db.select({ id: storageServers.id }).from(storageServers).where(and(eq(storageServers.url, input.url), isNull(storageServers.deletedAt))).limit(1);
  if (taken) throw conflict('STORAGE_SERVER_EXISTS', 'Dieser Speicherserver ist bereits eingetragen.');
  const [row] = await deps.db.insert(storageServers).values({ name: input.name, url: input.url, fingerprint: input.fingerprint.toUpperCase(), capacityGb: input.capacityGb }).returning();
  return serverView(deps, row!);
}

/** Only an empty server can go: accounts live on it (and open checkouts hold room on it). */
export async function deleteStorageServer(deps: Pick<Deps, 'db'>, id: number) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(storageServers).where(and(eq(storageServers.id, id), isNull(storageServers.deletedAt))).for('update');
    if (!row) throw notFound('Speicherserver nicht gefunden.');
    const [live] = await tx.select({ id: storageAccounts.id }).from(storageAccounts)
      .where(and(eq(storageAccounts.storageServerId, id), isNull(storageAccounts.deletedAt), ne(storageAccounts.status, 'failed'))).limit(1);
    const { heldGb } = await allocatedGb(tx, id);
    if (live || heldGb > 0) throw conflict('STORAGE_SERVER_IN_USE', storageMessages.serverInUse);
    await tx.update(storageServers).set({ deletedAt: new Date() }).where(eq(storageServers.id, id));
  });
}

import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { simStorageAccounts } from '../../../db/schema/index.ts';
import {
  StorageError, assertValidQuota, assertValidUserId, nextcloudQuota, serverKey, storageAddresses, storageMessages,
  type CreateStorageAccountSpec, type StorageAccount, type StorageAccountRef, type StorageDriver, type StorageServerRef,
} from '../storage.ts';

/**
 * The embedded storage server: every account is one row of sim_storage_accounts. It behaves like
 * Nextcloud where the product can observe it: user ids unique regardless of case, the default password
 * policy (10 characters, no common password), quotas kept rounded like Nextcloud's humanFileSize, no usage
 * figures before the first login, "taken" for a name that exists with another email. Usage grows by
 * itself: the customer logs in a few minutes after the account exists and then holds some hundred MB
 * that grow a few MB a day (deterministic per user id), never more than the quota. Timed steps read
 * timestamps lazily, divided by SIMULATED_SPEED.
 */

const MB = 1024 * 1024;
const DAY = 86_400_000;
/** Nextcloud's password policy defaults (nextcloud-api-table.ts PASSWORD_POLICY). */
const MIN_PASSWORD_LENGTH = 10;
const COMMON_PASSWORDS = new Set(['1234567890', 'qwertyuiop', 'passwort123', 'password123', 'iloveyou123', 'sommer2024!']);
/** The customer's first login after the account exists (ms before SIMULATED_SPEED). */
const FIRST_LOGIN_AFTER_MS = 10 * 60_000;

export interface SimulatedStorageOptions {
  /** Divides the durations (demo 1, browser tests 10, API tests 50). */
  speed?: number;
  /** Clock (tests move it forward). */
  now?: () => number;
}

type Row = typeof simStorageAccounts.$inferSelect;

/** A stable number in [0, 1) per user id, so every user has its own, repeatable amount of files. */
function seedOf(userId: string): number {
  let h = 2166136261;
  for (const ch of userId.toLowerCase()) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h / 2 ** 32;
}

function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Das Passwort ist dem Speicher-Server zu kurz. Es muss mindestens ${MIN_PASSWORD_LENGTH} Zeichen lang sein.`;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return 'Das Passwort gehört zu den gebräuchlichsten Passwörtern. Bitte wählen Sie ein eigenes.';
  return null;
}

export function createSimulatedStorage(db: Db, options: SimulatedStorageOptions = {}): StorageDriver & { kind: 'simulated' } {
  const speed = Math.max(1, options.speed ?? 1);
  const now = options.now ?? (() => Date.now());

  const byName = (server: StorageServerRef, userId: string) =>
    and(eq(simStorageAccounts.serverId, serverKey(server)), sql`lower(${simStorageAccounts.userId}) = lower(${userId})`);

  async function find(server: StorageServerRef, userId: string): Promise<Row | undefined> {
    const [row] = await db.select().from(simStorageAccounts).where(byName(server, userId));
    return row;
  }

  async function update(ref: StorageAccountRef, change: Partial<Row>) {
    const rows = await db.update(simStorageAccounts).set({ ...change, updatedAt: new Date(now()) }).where(byName(ref.server, ref.userId)).returning({ id: simStorageAccounts.id });
    if (!rows.length) throw new StorageError('not_found', storageMessages.not_found, `no user ${ref.userId}`);
  }

  function checkPassword(password: string) {
    const problem = passwordProblem(password);
    if (problem) throw new StorageError('weak_password', problem, 'simulated password policy');
  }

  function toAccount(row: Row): StorageAccount {
    const elapsed = (now() - row.createdAt.getTime()) * speed;
    const loggedIn = elapsed >= FIRST_LOGIN_AFTER_MS;
    const seed = seedOf(row.userId);
    const days = Math.max(0, elapsed - FIRST_LOGIN_AFTER_MS) / DAY;
    const grown = Math.round((120 + seed * 260) * MB + days * (2 + seed * 4) * MB);
    const usedBytes = !loggedIn ? 0 : row.quotaBytes === null ? grown : Math.min(row.quotaBytes, grown);
    const quota = row.quotaBytes;
    return {
      userId: row.userId,
      displayName: row.displayName,
      email: row.email,
      enabled: row.enabled,
      quotaBytes: quota,
      usedBytes,
      freeBytes: quota === null || !loggedIn ? null : quota - usedBytes,
      usedPercent: quota === null || quota === 0 ? 0 : Math.round((usedBytes / quota) * 10_000) / 100,
      lastLoginAt: loggedIn ? new Date(row.createdAt.getTime() + FIRST_LOGIN_AFTER_MS / speed) : null,
    };
  }

  return {
    kind: 'simulated',

    async isNameAvailable(server, userId) {
      assertValidUserId(userId);
      return (await find(server, userId)) === undefined;
    },

    async createAccount(spec: CreateStorageAccountSpec) {
      assertValidUserId(spec.userId);
      assertValidQuota(spec.quotaBytes);
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(spec.email)) throw new StorageError('invalid', 'Bitte geben Sie eine gültige E-Mail-Adresse an.', 'email');
      const existing = await find(spec.server, spec.userId);
      if (!existing) checkPassword(spec.password);
      const [inserted] = existing
        ? []
        : await db.insert(simStorageAccounts).values({
          serverId: serverKey(spec.server), userId: spec.userId, displayName: spec.displayName || spec.userId, email: spec.email,
          quotaBytes: nextcloudQuota(spec.quotaBytes), createdAt: new Date(now()), updatedAt: new Date(now()), passwordChangedAt: new Date(now()),
        }).onConflictDoNothing().returning();
      if (inserted) return { server: spec.server, userId: inserted.userId };
      // Exists (now or after losing a race): ours from an earlier attempt when the email matches.
      const row = existing ?? await find(spec.server, spec.userId);
      if (!row || row.email?.toLowerCase() !== spec.email.toLowerCase()) throw new StorageError('taken', storageMessages.taken, `user ${spec.userId} exists`);
      checkPassword(spec.password);
      const ref = { server: spec.server, userId: row.userId };
      await update(ref, { quotaBytes: nextcloudQuota(spec.quotaBytes), passwordChangedAt: new Date(now()) });
      return ref;
    },

    async getAccount(ref) {
      const row = await find(ref.server, ref.userId);
      return row ? toAccount(row) : null;
    },

    async setQuota(ref, quotaBytes) {
      assertValidQuota(quotaBytes);
      await update(ref, { quotaBytes: nextcloudQuota(quotaBytes) });
    },

    async setPassword(ref, password) {
      if (!(await find(ref.server, ref.userId))) throw new StorageError('not_found', storageMessages.not_found, `no user ${ref.userId}`);
      checkPassword(password);
      await update(ref, { passwordChangedAt: new Date(now()) });
    },

    async enable(ref) { await update(ref, { enabled: true }); },
    async disable(ref) { await update(ref, { enabled: false }); },

    async deleteAccount(ref) {
      await db.delete(simStorageAccounts).where(byName(ref.server, ref.userId));
    },

    addresses: storageAddresses,
  };
}

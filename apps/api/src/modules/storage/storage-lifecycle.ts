import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { GIB } from '@hp/contract';
import { orders, storageAccounts, storageServers, users } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { StorageError, type StorageAccountRef } from '../../drivers/storage/storage.ts';
import type { MailMessage } from '../../drivers/mail/mail.ts';
import { germanDate, signature } from '../../drivers/mail/templates.ts';
import { defineJob, defineSchedule, type JobDeps } from '../../jobs/define.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import { randomToken } from '../../lib/secrets.ts';
import { runTerms, type ProductTerms } from '../products/terms.ts';
import { ordersOfSubscription } from '../products/subscription.ts';
import { failPaidOrder } from '../payments/fail-order.ts';
import { applyStorageRenewalKind, provisionStorageKind } from './storage.product.ts';

/**
 * Delivery and term of a cloud storage account (decision 034): the Nextcloud user is created after
 * payment; a paid renewal applies a new quota and lifts a suspension; at the term's end the user is
 * disabled (files stay), after the grace period it is deleted with its files, with warning mails that
 * say so. Each step is a conditional UPDATE plus a job, like web hosting.
 */

type Account = typeof storageAccounts.$inferSelect;

export async function accountRefOf(deps: Pick<JobDeps, 'db'>, account: Pick<Account, 'storageServerId' | 'accountName'>): Promise<StorageAccountRef | null> {
  const [server] = await deps.db.select({ url: storageServers.url, fingerprint: storageServers.fingerprint }).from(storageServers).where(eq(storageServers.id, account.storageServerId));
  return server ? { server: { url: server.url, ...(server.fingerprint ? { fingerprint: server.fingerprint } : {}) }, userId: account.accountName } : null;
}

/** Errors a retry can cure (server away, our admin login being fixed); the others fail the order. */
const retryable = (err: unknown) => !(err instanceof StorageError) || err.kind === 'unavailable' || err.kind === 'auth';

/**
 * Creates the Nextcloud user with the plan's quota (idempotent by name and e-mail, so a retry after a
 * crash finds what the first run made) and completes the order. The customer sets the password on the
 * account page; the one set here is random and never shown.
 */
export const provisionStorageJob = defineJob(provisionStorageKind, async (deps, { orderId }) => {
  const [row] = await deps.db.select({ account: storageAccounts, email: users.email, username: users.username })
    .from(orders).innerJoin(storageAccounts, ordersOfSubscription('cloud_storage', storageAccounts.id))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row) throw new PermanentJobError('order has no storage account');
  const { account } = row;
  if (account.status !== 'provisioning') return;
  const ref = await accountRefOf(deps, account);
  if (!ref) throw new PermanentJobError('storage server missing');
  try {
    await deps.storage.createAccount({
      server: ref.server, userId: account.accountName, password: `${randomToken(18)}-Aa1!`, displayName: row.username, email: row.email,
      quotaBytes: account.quotaGb * GIB,
    });
    await deps.db.transaction(async (tx) => {
      await tx.update(storageAccounts).set({ status: 'active', statusMessage: null }).where(and(eq(storageAccounts.id, account.id), eq(storageAccounts.status, 'provisioning')));
      await tx.update(orders).set({ status: 'completed', completedAt: new Date() }).where(and(eq(orders.id, orderId), eq(orders.status, 'processing')));
    });
  } catch (err) {
    if (retryable(err)) throw err;
    const e = err as StorageError;
    await deps.db.transaction(async (tx) => {
      await tx.update(storageAccounts).set({ status: 'failed', statusMessage: e.message }).where(and(eq(storageAccounts.id, account.id), eq(storageAccounts.status, 'provisioning')));
      await failPaidOrder(tx, orderId, `${e.kind}: ${e.detail ?? e.message}`);
    });
  }
});

/** A paid renewal: the plan's quota on the server, and login again if the term had ended. */
export const applyStorageRenewalJob = defineJob(applyStorageRenewalKind, async (deps, { orderId }) => {
  const [row] = await deps.db.select({ account: storageAccounts, order: orders }).from(orders)
    .innerJoin(storageAccounts, ordersOfSubscription('cloud_storage', storageAccounts.id)).where(eq(orders.id, orderId));
  if (!row || row.order.status !== 'processing') return;
  const { account } = row;
  if (account.deletedAt) return;
  const ref = await accountRefOf(deps, account);
  if (ref) {
    await deps.storage.setQuota(ref, account.quotaGb * GIB);
    if (account.suspendedAt && account.expiresAt && account.expiresAt > new Date()) await deps.storage.enable(ref);
  }
  await deps.db.transaction(async (tx) => {
    await tx.update(storageAccounts).set({ suspendedAt: null, status: 'active', statusMessage: null })
      .where(and(eq(storageAccounts.id, account.id), eq(storageAccounts.status, 'suspended'), sql`${storageAccounts.expiresAt} > now()`));
    await tx.update(orders).set({ status: 'completed', completedAt: new Date() }).where(and(eq(orders.id, orderId), eq(orders.status, 'processing')));
  });
});

const accountPayload = z.object({ accountId: z.string() });

export const suspendStorageJob = defineJob(jobKind('suspend-storage', accountPayload), async (deps, { accountId }) => {
  const [account] = await deps.db.select().from(storageAccounts).where(eq(storageAccounts.id, accountId));
  if (!account || account.deletedAt || !account.suspendedAt) return; // renewed meanwhile
  const ref = await accountRefOf(deps, account);
  if (ref) await deps.storage.disable(ref);
});

/**
 * After the grace period: the account is marked deleted first, under its row lock and only while its
 * term still ended before the grace period (a renewal paid meanwhile moved it: nothing happens); a
 * renewal paid after the mark finds it deleted and is refunded. Then the Nextcloud user goes with its
 * files; a retry after a crash deletes it again, which Nextcloud takes as done.
 */
export const deleteExpiredStorageJob = defineJob(jobKind('delete-expired-storage', accountPayload), async (deps, { accountId }) => {
  const [row] = await deps.db.select({ account: storageAccounts, email: users.email, username: users.username }).from(storageAccounts)
    .innerJoin(users, eq(users.id, storageAccounts.ownerId)).where(eq(storageAccounts.id, accountId));
  if (!row) return;
  if (!row.account.deletedAt) {
    const marked = await deps.db.transaction(async (tx) => {
      const [deleted] = await tx.update(storageAccounts).set({ deletedAt: new Date() })
        .where(and(eq(storageAccounts.id, row.account.id), isNull(storageAccounts.deletedAt), isNotNull(storageAccounts.suspendedAt),
          sql`${storageAccounts.expiresAt} + (${deps.env.billing.graceDays} * interval '1 day') <= now()`)).returning({ id: storageAccounts.id });
      if (deleted) await enqueueMail(tx, storageDeletedMail(row.email, row.username, row.account.accountName));
      return Boolean(deleted);
    });
    if (!marked) return; // renewed meanwhile
  }
  const ref = await accountRefOf(deps, row.account);
  if (ref) await deps.storage.deleteAccount(ref);
});


export const storageExpiryReminderMail = (to: string, name: string, account: string, expiresAt: Date, renewUrl: string): MailMessage => ({
  to,
  subject: `Ihr Cloud-Speicher ${account} läuft am ${germanDate(expiresAt)} ab`,
  text: `Hallo ${name},\n\ndie bezahlte Laufzeit Ihres Cloud-Speichers ${account} endet am ${germanDate(expiresAt)}. Danach ist keine Anmeldung und keine Synchronisierung mehr möglich, und Freigabe-Links funktionieren nicht mehr.\n\nSie können den Speicher hier verlängern: ${renewUrl}${signature}`,
});

export const storageSuspendedMail = (to: string, name: string, account: string, deleteAt: Date, renewUrl: string): MailMessage => ({
  to,
  subject: `Ihr Cloud-Speicher ${account} wurde gesperrt – Ihre Dateien werden am ${germanDate(deleteAt)} gelöscht`,
  text: `Hallo ${name},\n\ndie bezahlte Laufzeit Ihres Cloud-Speichers ${account} ist abgelaufen, deshalb ist das Konto gesperrt. Ihre Dateien bleiben bis zum ${germanDate(deleteAt)} erhalten. Danach werden das Konto und alle darin gespeicherten Dateien endgültig gelöscht; sie können nicht wiederhergestellt werden.\n\nVerlängern Sie jetzt, um das Konto sofort wieder freizuschalten: ${renewUrl}${signature}`,
});

export const storageDeletedMail = (to: string, name: string, account: string): MailMessage => ({
  to,
  subject: `Ihr Cloud-Speicher ${account} wurde gelöscht`,
  text: `Hallo ${name},\n\nda die Laufzeit Ihres Cloud-Speichers ${account} nicht verlängert wurde, haben wir das Konto nach Ablauf der Kulanzfrist mit allen Dateien gelöscht.${signature}`,
});

/** An account's term: login disabled at the end (files kept), deleted with its files after the grace period. */
const storageTerms: ProductTerms = {
  table: storageAccounts,
  columns: {
    id: storageAccounts.id, ownerId: storageAccounts.ownerId, name: storageAccounts.accountName, expiresAt: storageAccounts.expiresAt,
    suspendedAt: storageAccounts.suspendedAt, deletedAt: storageAccounts.deletedAt, reminderStage: storageAccounts.expiryReminderStage,
  },
  suspendable: sql`${storageAccounts.status} not in ('provisioning', 'failed')`,
  renewUrl: (publicUrl, id) => `${publicUrl}/shop/cloud-storage?renew=${id}`,
  reminderMail: (s, url) => storageExpiryReminderMail(s.email, s.username, s.name, s.expiresAt, url),
  suspendedMail: (s, deleteAt, url) => storageSuspendedMail(s.email, s.username, s.name, deleteAt, url),
  markSuspended: async (tx, s) => {
    const [suspended] = await tx.update(storageAccounts).set({ suspendedAt: new Date(), status: 'suspended', statusMessage: 'Laufzeit abgelaufen – bitte verlängern.' })
      .where(and(eq(storageAccounts.id, s.id), isNull(storageAccounts.suspendedAt), lte(storageAccounts.expiresAt, sql`now()`))).returning({ id: storageAccounts.id });
    return Boolean(suspended);
  },
  enqueueSuspend: (tx, s) => enqueue(tx, suspendStorageJob, { accountId: s.id }, { dedupeKey: `suspend-storage:${s.id}:${s.expiresAt.toISOString()}` }),
  enqueueTerminate: (tx, s) => enqueue(tx, deleteExpiredStorageJob, { accountId: s.id }, { dedupeKey: `delete-storage:${s.id}:${s.expiresAt.toISOString()}` }),
};

/** Reminders, suspension and deletion that are due now (the same thresholds and grace days as the other products). */
export const runStorageTerms = (deps: Pick<JobDeps, 'db' | 'env'>) => runTerms(deps, storageTerms);

export const storageTermsSchedule = defineSchedule({
  name: 'storage-terms',
  everyMs: (deps) => deps.env.billing.tickMs,
  firstAfterMs: () => 5_000,
  run: runStorageTerms,
});

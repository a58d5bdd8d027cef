import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { DEFAULT_PHP_VERSION, HOSTING_PLANS, retentionCopies } from '@hp/contract';
import { hostingPackages, hostingServers, orders, users } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { HostingError, type BackupCopies, type HostingAccountRef } from '../../drivers/hosting/hosting.ts';
import { hostingDeletedMail, hostingExpiryReminderMail, hostingSuspendedMail } from '../../drivers/mail/templates.ts';
import { defineJob, defineSchedule, type JobDeps } from '../../jobs/define.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import { runTerms, type ProductTerms } from '../products/terms.ts';
import { randomToken } from '../../lib/secrets.ts';
import { provisionHostingKind, unsuspendHostingKind } from './hosting.product.ts';
import { failPaidOrder } from '../payments/fail-order.ts';
import { ordersOfSubscription } from '../products/subscription.ts';

/**
 * Delivery and term of a hosting package (decision 022): provisioning on the panel after payment,
 * reminders before the term ends, suspension at its end, deletion after the grace period, and
 * unsuspension when a renewal is paid. Each step is a conditional UPDATE plus a job, like servers.
 */

type Pkg = typeof hostingPackages.$inferSelect;

export async function accountRefOf(deps: Pick<JobDeps, 'db'>, pkg: Pkg): Promise<HostingAccountRef | null> {
  if (!pkg.panelClientId || !pkg.panelSiteId) return null;
  const [server] = await deps.db.select({ panelServerId: hostingServers.panelServerId }).from(hostingServers).where(eq(hostingServers.id, pkg.hostingServerId));
  return server ? { serverId: server.panelServerId, clientId: pkg.panelClientId, siteId: pkg.panelSiteId } : null;
}

/**
 * Creates the account on the panel (idempotent by the package's panel username, so a retry after a
 * crash finds what the first run made) and completes the order. An unreachable panel is retried by
 * the job runner; a refusal fails package and order with the panel's German message.
 */
export const provisionHostingJob = defineJob(provisionHostingKind, async (deps, { orderId }) => {
  const [row] = await deps.db.select({ order: orders, pkg: hostingPackages, server: hostingServers, email: users.email, username: users.username })
    .from(orders).innerJoin(hostingPackages, ordersOfSubscription('webhosting', hostingPackages.id))
    .innerJoin(hostingServers, eq(hostingServers.id, hostingPackages.hostingServerId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row) throw new PermanentJobError('order has no hosting package');
  const { pkg, server } = row;
  if (pkg.status !== 'provisioning') return;
  const plan = HOSTING_PLANS[pkg.plan];
  try {
    const phpVersions = await deps.hosting.phpVersions({ serverId: server.panelServerId });
    const ref = await deps.hosting.createAccount({
      serverId: server.panelServerId, username: pkg.panelUsername, password: randomToken(18), contactName: row.username, email: row.email,
      plan: { name: plan.name, storageMb: plan.storageMb, trafficMb: plan.trafficMb, databases: plan.databases, domains: plan.domains },
      primaryDomain: pkg.primaryDomain,
      // The product's default where plan and server offer it, else the newest they both have.
      phpVersion: ((offered) => (offered.includes(DEFAULT_PHP_VERSION) ? DEFAULT_PHP_VERSION : offered.at(-1) ?? null))(plan.phpVersions.filter((v) => phpVersions.includes(v))),
    });
    // The product's defaults (portal spec §9: weekly backups kept 30 days, 256 MB, 60 s) and a
    // certificate for the primary domain, through the same calls the package page uses; a retry after
    // a crash sets them again, which changes nothing.
    await deps.hosting.setPhp(ref, { memoryLimitMb: 256, maxExecutionTimeS: 60 });
    await deps.hosting.setBackupSchedule(ref, { interval: 'weekly', copies: retentionCopies('weekly', 30) as BackupCopies });
    await deps.hosting.requestSsl(ref, ref.siteId);
    await deps.db.transaction(async (tx) => {
      await tx.update(hostingPackages).set({ panelClientId: ref.clientId, panelSiteId: ref.siteId, status: 'active', statusMessage: null })
        .where(and(eq(hostingPackages.id, pkg.id), eq(hostingPackages.status, 'provisioning')));
      await tx.update(orders).set({ status: 'completed', completedAt: new Date() }).where(and(eq(orders.id, orderId), eq(orders.status, 'processing')));
    });
  } catch (err) {
    if (err instanceof HostingError && err.code !== 'UNAVAILABLE') {
      await deps.db.transaction(async (tx) => {
        await tx.update(hostingPackages).set({ status: 'failed', statusMessage: err.message }).where(and(eq(hostingPackages.id, pkg.id), eq(hostingPackages.status, 'provisioning')));
        await failPaidOrder(tx, orderId, `${err.code}: ${err.detail ?? err.message}`);
      });
      return;
    }
    throw err;
  }
});

const packagePayload = z.object({ packageId: z.string() });

/** A renewal of a suspended package was paid: unlock it on the panel and complete the renewal orders. */
export const unsuspendHostingJob = defineJob(unsuspendHostingKind, async (deps, { packageId }) => {
  const [pkg] = await deps.db.select().from(hostingPackages).where(eq(hostingPackages.id, packageId));
  if (!pkg || pkg.deletedAt) return;
  if (pkg.expiresAt && pkg.expiresAt <= new Date()) return;
  const ref = await accountRefOf(deps, pkg);
  if (ref) await deps.hosting.unsuspend(ref);
  await deps.db.transaction(async (tx) => {
    await tx.update(hostingPackages).set({ suspendedAt: null, status: 'active', statusMessage: null }).where(and(eq(hostingPackages.id, pkg.id), eq(hostingPackages.status, 'suspended')));
    await tx.update(orders).set({ status: 'completed', completedAt: new Date() })
      .where(and(ordersOfSubscription('webhosting', pkg.id), eq(orders.kind, 'upgrade'), eq(orders.status, 'processing')));
  });
});

export const suspendHostingJob = defineJob(jobKind('suspend-hosting', packagePayload), async (deps, { packageId }) => {
  const [pkg] = await deps.db.select().from(hostingPackages).where(eq(hostingPackages.id, packageId));
  if (!pkg || pkg.deletedAt || !pkg.suspendedAt) return; // renewed meanwhile
  const ref = await accountRefOf(deps, pkg);
  if (ref) await deps.hosting.suspend(ref);
});

export const deleteExpiredHostingJob = defineJob(jobKind('delete-expired-hosting', packagePayload), async (deps, { packageId }) => {
  const [row] = await deps.db.select({ pkg: hostingPackages, email: users.email, username: users.username }).from(hostingPackages)
    .innerJoin(users, eq(users.id, hostingPackages.ownerId)).where(eq(hostingPackages.id, packageId));
  if (!row || row.pkg.deletedAt) return;
  const graceEnd = row.pkg.expiresAt ? row.pkg.expiresAt.getTime() + deps.env.billing.graceDays * 86_400_000 : Infinity;
  if (!row.pkg.suspendedAt || graceEnd > Date.now()) return; // renewed meanwhile
  const ref = await accountRefOf(deps, row.pkg);
  if (ref) await deps.hosting.deleteAccount(ref);
  await deps.db.transaction(async (tx) => {
    const [deleted] = await tx.update(hostingPackages).set({ deletedAt: new Date() })
      .where(and(eq(hostingPackages.id, row.pkg.id), isNull(hostingPackages.deletedAt), isNotNull(hostingPackages.suspendedAt))).returning({ id: hostingPackages.id });
    if (deleted) await enqueueMail(tx, hostingDeletedMail(row.email, row.username, row.pkg.name));
  });
});

/** A package's term: locked on the panel at the end, deleted with everything after the grace period. */
const hostingTerms: ProductTerms = {
  table: hostingPackages,
  columns: {
    id: hostingPackages.id, ownerId: hostingPackages.ownerId, name: hostingPackages.name, expiresAt: hostingPackages.expiresAt,
    suspendedAt: hostingPackages.suspendedAt, deletedAt: hostingPackages.deletedAt, reminderStage: hostingPackages.expiryReminderStage,
  },
  suspendable: sql`${hostingPackages.status} not in ('provisioning', 'failed')`,
  renewUrl: (publicUrl, id) => `${publicUrl}/shop/webhosting?renew=${id}`,
  reminderMail: (s, url) => hostingExpiryReminderMail(s.email, s.username, s.name, s.expiresAt, url),
  suspendedMail: (s, deleteAt, url) => hostingSuspendedMail(s.email, s.username, s.name, deleteAt, url),
  markSuspended: async (tx, s) => {
    const [suspended] = await tx.update(hostingPackages).set({ suspendedAt: new Date(), status: 'suspended', statusMessage: 'Laufzeit abgelaufen – bitte verlängern.' })
      .where(and(eq(hostingPackages.id, s.id), isNull(hostingPackages.suspendedAt), lte(hostingPackages.expiresAt, sql`now()`))).returning({ id: hostingPackages.id });
    return Boolean(suspended);
  },
  enqueueSuspend: (tx, s) => enqueue(tx, suspendHostingJob, { packageId: s.id }, { dedupeKey: `suspend-hosting:${s.id}:${s.expiresAt.toISOString()}` }),
  enqueueTerminate: (tx, s) => enqueue(tx, deleteExpiredHostingJob, { packageId: s.id }, { dedupeKey: `delete-hosting:${s.id}:${s.expiresAt.toISOString()}` }),
};

/** Reminders, suspension and deletion that are due now (the same thresholds and grace days as servers). */
export const runHostingTerms = (deps: Pick<JobDeps, 'db' | 'env'>) => runTerms(deps, hostingTerms);

export const hostingTermsSchedule = defineSchedule({
  name: 'hosting-terms',
  everyMs: (deps) => deps.env.billing.tickMs,
  firstAfterMs: () => 5_000,
  run: runHostingTerms,
});

import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ipAddresses, nodes, servers, users } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { HypervisorError } from '../../drivers/hypervisor/hypervisor.ts';
import { expiryReminderMail, serverDeletedMail, serverSuspendedMail } from '../../drivers/mail/templates.ts';
import { defineJob, defineSchedule, type JobDeps } from '../../jobs/define.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { runTerms, type ProductTerms } from '../products/terms.ts';

/**
 * The prepaid term of a server (docs/decisions/007): reminders before it ends, a stop when it ended, and
 * deletion after the grace period. The schedule finds what is due; each step is a conditional UPDATE plus
 * a job in one transaction, so running it twice (or on two instances) changes nothing.
 */

const serverPayload = z.object({ serverId: z.string() });

/** Stops the VM of a server whose term ended (the row is already marked suspended). */
export const suspendServerJob = defineJob(jobKind('suspend-server', serverPayload), async (deps, { serverId }) => {
  const [row] = await deps.db.select({ server: servers, node: nodes.name }).from(servers).innerJoin(nodes, eq(nodes.id, servers.nodeId))
    .where(eq(servers.id, serverId));
  if (!row || row.server.deletedAt || !row.server.suspendedAt) return; // renewed meanwhile
  const vm = { node: row.node, vmid: row.server.vmid };
  try {
    const status = await deps.hypervisor.currentStatus(vm);
    if (status.status === 'running') await deps.hypervisor.waitForTask(await deps.hypervisor.power(vm, 'stop'), { timeoutMs: 120_000 });
  } catch (err) {
    if (!(err instanceof HypervisorError && err.code === 'NOT_FOUND')) throw err;
  }
  await deps.db.update(servers).set({ status: 'offline' }).where(and(eq(servers.id, row.server.id), isNotNull(servers.suspendedAt)));
});

/** Deletes the VM after the grace period and gives its addresses back to the pool. */
export const deleteExpiredServerJob = defineJob(jobKind('delete-expired-server', serverPayload), async (deps, { serverId }) => {
  const [row] = await deps.db.select({ server: servers, node: nodes.name, email: users.email, username: users.username }).from(servers)
    .innerJoin(nodes, eq(nodes.id, servers.nodeId)).innerJoin(users, eq(users.id, servers.ownerId))
    .where(eq(servers.id, serverId));
  if (!row || row.server.deletedAt) return;
  const graceEnd = row.server.expiresAt ? row.server.expiresAt.getTime() + deps.env.billing.graceDays * 86_400_000 : Infinity;
  if (!row.server.suspendedAt || graceEnd > Date.now()) return; // renewed meanwhile
  await deps.hypervisor.deleteServer({ node: row.node, vmid: row.server.vmid });
  await deps.db.transaction(async (tx) => {
    const [deleted] = await tx.update(servers).set({ deletedAt: new Date() })
      .where(and(eq(servers.id, row.server.id), isNull(servers.deletedAt), isNotNull(servers.suspendedAt))).returning({ id: servers.id });
    if (!deleted) return;
    // The addresses go back to the pool only once the VM that used them is gone.
    await tx.update(ipAddresses).set({ serverId: null, reservedUntil: null }).where(eq(ipAddresses.serverId, row.server.id));
    await enqueueMail(tx, serverDeletedMail(row.email, row.username, row.server.name));
  });
});

/** The root server's term (decision 007): stopped at the end, deleted after the grace period. */
const serverTerms: ProductTerms = {
  table: servers,
  columns: { id: servers.id, ownerId: servers.ownerId, name: servers.name, expiresAt: servers.expiresAt, suspendedAt: servers.suspendedAt, deletedAt: servers.deletedAt, reminderStage: servers.expiryReminderStage },
  // A VDC's VMs have no term of their own (expires_at null); the pool's term stops and deletes them.
  suspendable: sql`${servers.status} not in ('provisioning', 'failed') and ${servers.vdcId} is null`,
  remindable: isNull(servers.vdcId),
  renewUrl: (publicUrl, id) => `${publicUrl}/upgrade/kvm-server/${id}`,
  reminderMail: (s, url) => expiryReminderMail(s.email, s.username, s.name, s.expiresAt, url),
  suspendedMail: (s, deleteAt, url) => serverSuspendedMail(s.email, s.username, s.name, deleteAt, url),
  markSuspended: async (tx, s) => {
    const [suspended] = await tx.update(servers).set({ suspendedAt: new Date(), statusMessage: 'Laufzeit abgelaufen – bitte verlängern.' })
      .where(and(eq(servers.id, s.id), isNull(servers.suspendedAt), lte(servers.expiresAt, sql`now()`))).returning({ id: servers.id });
    return Boolean(suspended);
  },
  enqueueSuspend: (tx, s) => enqueue(tx, suspendServerJob, { serverId: s.id }, { dedupeKey: `suspend:${s.id}:${s.expiresAt.toISOString()}` }),
  enqueueTerminate: (tx, s) => enqueue(tx, deleteExpiredServerJob, { serverId: s.id }, { dedupeKey: `delete:${s.id}:${s.expiresAt.toISOString()}` }),
};

/** Reminders, suspension and deletion that are due now. */
export const runServerTerms = (deps: Pick<JobDeps, 'db' | 'env'>) => runTerms(deps, serverTerms);

export const serverTermsSchedule = defineSchedule({
  name: 'server-terms',
  everyMs: (deps) => deps.env.billing.tickMs,
  firstAfterMs: () => 5_000,
  run: runServerTerms,
});

import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ipAddresses, nodes, servers, users } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { HypervisorError } from '../../drivers/hypervisor/hypervisor.ts';
import { expiryReminderMail, serverDeletedMail, serverSuspendedMail } from '../../drivers/mail/templates.ts';
import { defineJob, defineSchedule, type JobDeps } from '../../jobs/define.ts';
import { enqueueMail } from '../../jobs/mail.ts';

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

/** Reminders, suspension and deletion that are due now. */
export async function runServerTerms(deps: Pick<JobDeps, 'db' | 'env'>) {
  const { db, env } = deps;
  const renewUrl = (id: string) => `${env.publicUrl}/upgrade/kvm-server/${id}`;

  // Reminders: one mail per threshold crossed (several crossed at once → one mail).
  const thresholds = env.billing.reminderDays;
  let reminded = 0;
  if (thresholds.length) {
    const due = await db.select({ server: servers, email: users.email, username: users.username }).from(servers)
      .innerJoin(users, eq(users.id, servers.ownerId))
      .where(and(isNull(servers.deletedAt), isNull(servers.suspendedAt), isNotNull(servers.expiresAt),
        sql`${servers.expiresAt} > now()`, sql`${servers.expiresAt} <= now() + (${thresholds[0]!} * interval '1 day')`,
        sql`${servers.expiryReminderStage} < ${thresholds.length}`));
    for (const { server, email, username } of due) {
      const daysLeft = (server.expiresAt!.getTime() - Date.now()) / 86_400_000;
      const stage = thresholds.filter((days) => daysLeft <= days).length;
      if (stage <= server.expiryReminderStage) continue;
      await db.transaction(async (tx) => {
        const [moved] = await tx.update(servers).set({ expiryReminderStage: stage })
          .where(and(eq(servers.id, server.id), eq(servers.expiryReminderStage, server.expiryReminderStage))).returning({ id: servers.id });
        if (!moved) return;
        await enqueueMail(tx, expiryReminderMail(email, username, server.name, server.expiresAt!, renewUrl(server.id)));
        reminded++;
      });
    }
  }

  // Term ended: stop (suspend) the server.
  const ended = await db.select({ server: servers, email: users.email, username: users.username }).from(servers)
    .innerJoin(users, eq(users.id, servers.ownerId))
    .where(and(isNull(servers.deletedAt), isNull(servers.suspendedAt), isNotNull(servers.expiresAt), lte(servers.expiresAt, sql`now()`),
      sql`${servers.status} not in ('provisioning', 'failed')`));
  for (const { server, email, username } of ended) {
    await db.transaction(async (tx) => {
      const [suspended] = await tx.update(servers).set({ suspendedAt: new Date(), statusMessage: 'Laufzeit abgelaufen – bitte verlängern.' })
        .where(and(eq(servers.id, server.id), isNull(servers.suspendedAt), lte(servers.expiresAt, sql`now()`))).returning({ id: servers.id });
      if (!suspended) return;
      const deleteAt = new Date(server.expiresAt!.getTime() + env.billing.graceDays * 86_400_000);
      await enqueue(tx, suspendServerJob, { serverId: server.id }, { dedupeKey: `suspend:${server.id}:${server.expiresAt!.toISOString()}` });
      await enqueueMail(tx, serverSuspendedMail(email, username, server.name, deleteAt, renewUrl(server.id)));
    });
  }

  // Grace period over: delete.
  const graceOver = await db.select({ id: servers.id, expiresAt: servers.expiresAt }).from(servers)
    .where(and(isNull(servers.deletedAt), isNotNull(servers.suspendedAt),
      sql`${servers.expiresAt} + (${env.billing.graceDays} * interval '1 day') <= now()`));
  if (graceOver.length) {
    await db.transaction(async (tx) => {
      for (const s of graceOver) await enqueue(tx, deleteExpiredServerJob, { serverId: s.id }, { dedupeKey: `delete:${s.id}:${s.expiresAt!.toISOString()}` });
    });
  }
  return { reminded, suspended: ended.length, deleting: graceOver.length };
}

export const serverTermsSchedule = defineSchedule({
  name: 'server-terms',
  everyMs: (deps) => deps.env.billing.tickMs,
  firstAfterMs: () => 5_000,
  run: runServerTerms,
});

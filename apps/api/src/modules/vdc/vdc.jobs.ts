import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ipAddresses, nodes, orders, servers, users, vdcIsos, vdcs } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { HypervisorError, hypervisorMessages, type VmRef } from '../../drivers/hypervisor/hypervisor.ts';
import type { MailMessage } from '../../drivers/mail/mail.ts';
import { germanDate, signature } from '../../drivers/mail/templates.ts';
import { defineJob, defineSchedule, type JobDeps } from '../../jobs/define.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import { runTerms, type ProductTerms } from '../products/terms.ts';
import { ordersOfSubscription } from '../products/subscription.ts';
import { failPaidOrder } from '../payments/fail-order.ts';
import { provisionServer } from '../servers/provision-server.ts';
import { finishTask } from '../servers/server-operation.ts';
import { applyVdcRenewalKind, provisionVdcKind } from './vdc.product.ts';

/**
 * Delivery and term of a virtual data center (decision 036), and the hypervisor side of its VMs: the
 * pool is created after payment (a refused pool fails the order, which is refunded); VMs are built,
 * resized and deleted by durable jobs; at the term's end the VMs are stopped, after the grace period
 * the VDC is deleted with its VMs, ISO images, network and pool, and its addresses go back to the pool.
 * Unreachable or busy hosts are retried with backoff; every step can run again after a crash.
 */

/** Errors a retry can cure (host away, busy, slow); the others are the hypervisor refusing. */
const retryable = (err: unknown) => !(err instanceof HypervisorError) || ['UNAVAILABLE', 'TIMEOUT', 'LOCKED'].includes(err.code);

/** The template a VM booting the customer's own ISO is created from (the port has no empty VM); the ISO then boots first. */
export const ISO_VM_TEMPLATE = 'debian-12' as const;

/** Creates the pool (idempotent on the hypervisor) and completes the order; a refusal fails and refunds it. */
export const provisionVdcJob = defineJob(provisionVdcKind, async (deps, { orderId }) => {
  const [row] = await deps.db.select({ vdc: vdcs, customerNumber: users.customerNumber }).from(orders)
    .innerJoin(vdcs, ordersOfSubscription('vdc', vdcs.id)).innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row) throw new PermanentJobError('order has no virtual data center');
  const { vdc } = row;
  if (vdc.status !== 'provisioning') return;
  try {
    await deps.hypervisor.createPool({ poolid: vdc.poolId, comment: `VDC ${vdc.number} (Kunde ${row.customerNumber})` });
  } catch (err) {
    if (retryable(err)) throw err;
    const message = err instanceof HypervisorError ? err.message : hypervisorMessages.TASK_FAILED;
    await deps.db.transaction(async (tx) => {
      const [failed] = await tx.update(vdcs).set({ status: 'failed', statusMessage: `Die Einrichtung ist fehlgeschlagen: ${message} Der Betrag wird erstattet.` })
        .where(and(eq(vdcs.id, vdc.id), eq(vdcs.status, 'provisioning'))).returning({ id: vdcs.id });
      if (!failed) return;
      // Never ran: its addresses go back to the provider's pool, the payment back to the customer.
      await tx.update(ipAddresses).set({ vdcId: null, serverId: null, reservedUntil: null }).where(eq(ipAddresses.vdcId, vdc.id));
      await failPaidOrder(tx, orderId, `pool: ${(err as HypervisorError).detail ?? message}`);
    });
    return;
  }
  await deps.db.transaction(async (tx) => {
    await tx.update(vdcs).set({ status: 'active', statusMessage: null }).where(and(eq(vdcs.id, vdc.id), eq(vdcs.status, 'provisioning')));
    await tx.update(orders).set({ status: 'completed', completedAt: new Date() }).where(and(eq(orders.id, orderId), eq(orders.status, 'processing')));
  });
});

/** A VM of a pool, located: its row, the pool's id and node, the ISO in its drive. */
async function locateVm(deps: Pick<JobDeps, 'db'>, serverId: string) {
  const [row] = await deps.db.select({ server: servers, poolId: vdcs.poolId, vnet: vdcs.vnet, node: nodes.name, isoVolid: vdcIsos.volid }).from(servers)
    .innerJoin(vdcs, eq(vdcs.id, servers.vdcId)).innerJoin(nodes, eq(nodes.id, servers.nodeId))
    .leftJoin(vdcIsos, eq(vdcIsos.id, servers.isoId))
    .where(eq(servers.id, serverId));
  return row ?? null;
}

export const vmPayload = z.object({ serverId: z.string() });

/**
 * Builds a VM inside its pool with the root server's provisioning (same task, same outcome rules). A
 * VM from the customer's ISO is created from the default template and boots the ISO first.
 */
export const provisionVdcVmJob = defineJob(jobKind('provision-vdc-vm', vmPayload), async (deps, { serverId }) => {
  const row = await locateVm(deps, serverId);
  if (!row) return;
  const { isoVolid: volid, vnet } = row;
  const address = row.server.privateAddress;
  const result = await provisionServer(deps, serverId, {
    pool: row.poolId,
    template: ISO_VM_TEMPLATE,
    ...(volid || address ? {
      afterCreate: async (vm: VmRef) => {
        if (volid) await deps.hypervisor.attachIso(vm, volid);
        // Created with "Mit dem privaten Netz verbinden": the second card on the pool's VNet.
        if (address) await deps.hypervisor.attachPrivateNetwork(vm, vnet);
      },
    } : {}),
  });
  // A VM that could not be built does not hold an address of the private network.
  if (result === 'failed' && address) {
    await deps.db.update(servers).set({ privateAddress: null }).where(and(eq(servers.id, serverId), eq(servers.privateAddress, address)));
  }
});

export const resizeVdcVmKind = jobKind('resize-vdc-vm', z.object({
  serverId: z.string(), taskId: z.string(),
  previous: z.object({ cpuCores: z.number().int(), ramGb: z.number().int(), storageGb: z.number().int() }),
}));

/**
 * The host side of a resize. The row already carries the new figures (the pool counted them under its
 * lock); a change the host refuses puts the old figures back, so the pool frees them again.
 */
export const resizeVdcVmJob = defineJob(resizeVdcVmKind, async (deps, { serverId, taskId, previous }) => {
  const row = await locateVm(deps, serverId);
  if (!row || row.server.busyTaskId !== taskId) return;
  const { server } = row;
  try {
    await deps.hypervisor.resizeServer({ node: row.node, vmid: server.vmid }, { cores: server.cpuCores, memoryMb: server.ramGb * 1024, diskGb: server.storageGb });
  } catch (err) {
    if (retryable(err)) throw err;
    const message = err instanceof HypervisorError ? err.message : hypervisorMessages.TASK_FAILED;
    await finishTask(deps.db, serverId, taskId, { ok: false, error: message, server: { ...previous, statusMessage: message } });
    return;
  }
  await finishTask(deps.db, serverId, taskId, { ok: true, server: { statusMessage: null } });
});

/**
 * Deletes a VM on the host (its row was marked deleted and its resources freed when the customer asked),
 * then frees its private address: only now can another VM of the pool take it without a clash.
 */
export const deleteVdcVmJob = defineJob(jobKind('delete-vdc-vm', vmPayload), async (deps, { serverId }) => {
  const [row] = await deps.db.select({ vmid: servers.vmid, node: nodes.name, deletedAt: servers.deletedAt }).from(servers)
    .innerJoin(nodes, eq(nodes.id, servers.nodeId)).where(eq(servers.id, serverId));
  if (!row || !row.deletedAt) return;
  await deps.hypervisor.deleteServer({ node: row.node, vmid: row.vmid });
  await deps.db.update(servers).set({ privateAddress: null }).where(eq(servers.id, serverId));
});

// ── Term ───────────────────────────────────────────────────────────────────────────────────────────

const vdcPayload = z.object({ vdcId: z.string() });

/** The term ended: every VM of the pool stops (they were marked suspended with the pool). */
export const suspendVdcJob = defineJob(jobKind('suspend-vdc', vdcPayload), async (deps, { vdcId }) => {
  const [vdc] = await deps.db.select().from(vdcs).where(eq(vdcs.id, vdcId));
  if (!vdc || vdc.deletedAt || !vdc.suspendedAt) return; // renewed meanwhile
  const vms = await deps.db.select({ id: servers.id, vmid: servers.vmid, node: nodes.name }).from(servers).innerJoin(nodes, eq(nodes.id, servers.nodeId))
    .where(and(eq(servers.vdcId, vdcId), isNull(servers.deletedAt), isNotNull(servers.suspendedAt)));
  for (const vm of vms) {
    const ref = { node: vm.node, vmid: vm.vmid };
    try {
      const status = await deps.hypervisor.currentStatus(ref);
      if (status.status === 'running') await deps.hypervisor.waitForTask(await deps.hypervisor.power(ref, 'stop'), { timeoutMs: 120_000 });
    } catch (err) {
      if (!(err instanceof HypervisorError && err.code === 'NOT_FOUND')) throw err;
    }
    await deps.db.update(servers).set({ status: 'offline' }).where(and(eq(servers.id, vm.id), isNotNull(servers.suspendedAt), sql`${servers.status} not in ('provisioning', 'failed')`));
  }
});

/** A paid renewal of a suspended pool: the pool and its VMs are released and the VMs start again. */
export const applyVdcRenewalJob = defineJob(applyVdcRenewalKind, async (deps, { orderId }) => {
  const [row] = await deps.db.select({ vdc: vdcs, order: orders }).from(orders)
    .innerJoin(vdcs, ordersOfSubscription('vdc', vdcs.id)).where(eq(orders.id, orderId));
  if (!row || row.order.status !== 'processing') return;
  const { vdc } = row;
  if (!vdc.deletedAt && vdc.suspendedAt && vdc.expiresAt && vdc.expiresAt > new Date()) {
    const vms = await deps.db.select({ id: servers.id, vmid: servers.vmid, node: nodes.name, status: servers.status }).from(servers).innerJoin(nodes, eq(nodes.id, servers.nodeId))
      .where(and(eq(servers.vdcId, vdc.id), isNull(servers.deletedAt), isNotNull(servers.suspendedAt)));
    for (const vm of vms) {
      if (vm.status === 'failed' || vm.status === 'provisioning') continue;
      const ref = { node: vm.node, vmid: vm.vmid };
      const status = await deps.hypervisor.currentStatus(ref).catch((err) => {
        if (err instanceof HypervisorError && err.code === 'NOT_FOUND') return null;
        throw err;
      });
      if (status && status.status !== 'running') await deps.hypervisor.waitForTask(await deps.hypervisor.power(ref, 'start'), { timeoutMs: 120_000 });
      await deps.db.update(servers).set({ suspendedAt: null, status: status ? 'online' : vm.status, statusMessage: null }).where(eq(servers.id, vm.id));
    }
    await deps.db.transaction(async (tx) => {
      await tx.update(servers).set({ suspendedAt: null }).where(and(eq(servers.vdcId, vdc.id), isNull(servers.deletedAt)));
      await tx.update(vdcs).set({ suspendedAt: null, status: 'active', statusMessage: null }).where(and(eq(vdcs.id, vdc.id), sql`${vdcs.expiresAt} > now()`));
    });
  }
  await deps.db.update(orders).set({ status: 'completed', completedAt: new Date() }).where(and(eq(orders.id, orderId), eq(orders.status, 'processing')));
});

/**
 * After the grace period: the VDC, its VMs and its ISO images are marked deleted first, under its row
 * lock and only while its term still ended before the grace period (a renewal paid meanwhile moved it:
 * nothing happens; one paid after the mark finds it deleted and is refunded). Then the host side goes:
 * VMs, images, network, pool; a retry after a crash does it again (missing things count as done).
 * The addresses go back to the provider's pool only once the VMs that used them are gone.
 */
export const deleteExpiredVdcJob = defineJob(jobKind('delete-expired-vdc', vdcPayload), async (deps, { vdcId }) => {
  const [row] = await deps.db.select({ vdc: vdcs, node: nodes.name, email: users.email, username: users.username }).from(vdcs)
    .innerJoin(nodes, eq(nodes.id, vdcs.nodeId)).innerJoin(users, eq(users.id, vdcs.ownerId)).where(eq(vdcs.id, vdcId));
  if (!row) return;
  if (!row.vdc.deletedAt) {
    const marked = await deps.db.transaction(async (tx) => {
      const [deleted] = await tx.update(vdcs).set({ deletedAt: new Date() })
        .where(and(eq(vdcs.id, vdcId), isNull(vdcs.deletedAt), isNotNull(vdcs.suspendedAt),
          sql`${vdcs.expiresAt} + (${deps.env.billing.graceDays} * interval '1 day') <= now()`)).returning({ id: vdcs.id });
      if (!deleted) return false;
      const now = new Date();
      // As a VM the customer deletes: no private address or ISO drive stays with a deleted row.
      await tx.update(servers).set({ deletedAt: now, privateAddress: null, isoId: null }).where(and(eq(servers.vdcId, vdcId), isNull(servers.deletedAt)));
      await tx.update(vdcIsos).set({ deletedAt: now }).where(and(eq(vdcIsos.vdcId, vdcId), isNull(vdcIsos.deletedAt)));
      await enqueueMail(tx, vdcDeletedMail(row.email, row.username, row.vdc.name, row.vdc.number));
      return true;
    });
    if (!marked) return; // renewed meanwhile
  }
  const vms = await deps.db.select({ vmid: servers.vmid, node: nodes.name }).from(servers).innerJoin(nodes, eq(nodes.id, servers.nodeId)).where(eq(servers.vdcId, vdcId));
  for (const vm of vms) await deps.hypervisor.deleteServer({ node: vm.node, vmid: vm.vmid });
  const isos = await deps.db.select({ volid: vdcIsos.volid }).from(vdcIsos).where(and(eq(vdcIsos.vdcId, vdcId), isNotNull(vdcIsos.volid)));
  for (const iso of isos) await deps.hypervisor.deleteIso(row.node, iso.volid!);
  await deps.hypervisor.deletePrivateNetwork(row.vdc.vnet);
  await deps.hypervisor.deletePool(row.vdc.poolId);
  await deps.db.update(ipAddresses).set({ vdcId: null, serverId: null, reservedUntil: null }).where(eq(ipAddresses.vdcId, vdcId));
});

const renewUrl = (publicUrl: string, id: string) => `${publicUrl}/shop/vdc-request?renew=${id}`;

export const vdcExpiryReminderMail = (to: string, name: string, vdc: string, expiresAt: Date, url: string): MailMessage => ({
  to,
  subject: `Ihr Virtual Data Center ${vdc} läuft am ${germanDate(expiresAt)} ab`,
  text: `Hallo ${name},\n\ndie bezahlte Laufzeit Ihres Virtual Data Centers ${vdc} endet am ${germanDate(expiresAt)}. Danach werden alle VMs darin angehalten.\n\nSie können es hier verlängern: ${url}${signature}`,
});

export const vdcSuspendedMail = (to: string, name: string, vdc: string, deleteAt: Date, url: string): MailMessage => ({
  to,
  subject: `Ihr Virtual Data Center ${vdc} wurde gesperrt – es wird am ${germanDate(deleteAt)} gelöscht`,
  text: `Hallo ${name},\n\ndie bezahlte Laufzeit Ihres Virtual Data Centers ${vdc} ist abgelaufen, deshalb wurden alle VMs darin angehalten. Ihre VMs, ISO-Images und Daten bleiben bis zum ${germanDate(deleteAt)} erhalten. Danach werden sie endgültig gelöscht und können nicht wiederhergestellt werden.\n\nVerlängern Sie jetzt, um Ihre VMs sofort wieder zu starten: ${url}${signature}`,
});

export const vdcDeletedMail = (to: string, name: string, vdc: string, number: number): MailMessage => ({
  to,
  subject: `Ihr Virtual Data Center ${vdc} wurde gelöscht`,
  text: `Hallo ${name},\n\nda die Laufzeit Ihres Virtual Data Centers ${vdc} (VDC-ID ${number}) nicht verlängert wurde, haben wir es nach Ablauf der Kulanzfrist mit allen VMs, ISO-Images und Daten gelöscht.${signature}`,
});

/** A pool's term: its VMs stop at the end, everything is deleted after the grace period. */
const vdcTerms: ProductTerms = {
  table: vdcs,
  columns: {
    id: vdcs.id, ownerId: vdcs.ownerId, name: vdcs.name, expiresAt: vdcs.expiresAt,
    suspendedAt: vdcs.suspendedAt, deletedAt: vdcs.deletedAt, reminderStage: vdcs.expiryReminderStage,
  },
  suspendable: sql`${vdcs.status} not in ('provisioning', 'failed')`,
  renewUrl,
  reminderMail: (s, url) => vdcExpiryReminderMail(s.email, s.username, s.name, s.expiresAt, url),
  suspendedMail: (s, deleteAt, url) => vdcSuspendedMail(s.email, s.username, s.name, deleteAt, url),
  markSuspended: async (tx, s) => {
    const now = new Date();
    const [suspended] = await tx.update(vdcs).set({ suspendedAt: now, status: 'suspended', statusMessage: 'Laufzeit abgelaufen – bitte verlängern.' })
      .where(and(eq(vdcs.id, s.id), isNull(vdcs.suspendedAt), lte(vdcs.expiresAt, sql`now()`))).returning({ id: vdcs.id });
    if (!suspended) return false;
    // The VMs' own panels refuse every operation while they are suspended (guardOperation).
    await tx.update(servers).set({ suspendedAt: now, statusMessage: 'Laufzeit des Virtual Data Centers abgelaufen – bitte verlängern.' })
      .where(and(eq(servers.vdcId, s.id), isNull(servers.deletedAt)));
    return true;
  },
  enqueueSuspend: (tx, s) => enqueue(tx, suspendVdcJob, { vdcId: s.id }, { dedupeKey: `suspend-vdc:${s.id}:${s.expiresAt.toISOString()}` }),
  enqueueTerminate: (tx, s) => enqueue(tx, deleteExpiredVdcJob, { vdcId: s.id }, { dedupeKey: `delete-vdc:${s.id}:${s.expiresAt.toISOString()}` }),
};

/** Reminders, suspension and deletion that are due now (the same thresholds and grace days as the other products). */
export const runVdcTerms = (deps: Pick<JobDeps, 'db' | 'env'>) => runTerms(deps, vdcTerms);

export const vdcTermsSchedule = defineSchedule({
  name: 'vdc-terms',
  everyMs: (deps) => deps.env.billing.tickMs,
  firstAfterMs: () => 5_000,
  run: runVdcTerms,
});

import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { nodes, orders, servers, serverTasks } from '../../db/schema/index.ts';
import { jobKind } from '../../db/jobs.ts';
import { HypervisorError } from '../../drivers/hypervisor/hypervisor.ts';
import { defineJob } from '../../jobs/define.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import { ordersOfSubscription } from '../products/subscription.ts';

/**
 * A paid upgrade or renewal (payments.service.ts enqueues it with the payment): the server row already
 * carries the paid resources, so capacity stays counted; the VM follows here. A server stopped at the end
 * of its term starts again. Busy or unreachable hosts are retried with backoff; a refused change fails
 * the order for staff.
 */
export const applyUpgradeJob = defineJob(jobKind('apply-upgrade', z.object({ orderId: z.string() })), async (deps, { orderId }) => {
  const [row] = await deps.db.select({ order: orders, server: servers, node: nodes.name }).from(orders)
    .innerJoin(servers, ordersOfSubscription('root_server', servers.id)).innerJoin(nodes, eq(nodes.id, servers.nodeId))
    .where(eq(orders.id, orderId));
  if (!row) throw new PermanentJobError('order or server missing');
  const { order, server, node } = row;
  if (order.status !== 'processing') return;
  const vm = { node, vmid: server.vmid };
  const task = (await deps.db.select().from(serverTasks).where(and(eq(serverTasks.serverId, server.id), eq(serverTasks.kind, 'upgrade'), eq(serverTasks.status, 'running'))))
    .find((t) => (t.payload as { orderId?: string }).orderId === order.id);
  try {
    await deps.hypervisor.resizeServer(vm, { cores: server.cpuCores, memoryMb: server.ramGb * 1024, diskGb: server.storageGb });
    if (server.suspendedAt) {
      const status = await deps.hypervisor.currentStatus(vm);
      if (status.status !== 'running') await deps.hypervisor.waitForTask(await deps.hypervisor.power(vm, 'start'), { timeoutMs: 120_000 });
    }
  } catch (err) {
    if (err instanceof HypervisorError && err.code === 'INVALID') {
      await deps.db.transaction(async (tx) => {
        if (task) await tx.update(serverTasks).set({ status: 'failed', error: err.message, finishedAt: new Date() }).where(eq(serverTasks.id, task.id));
        await tx.update(orders).set({ status: 'failed', failureReason: err.detail ?? err.message }).where(eq(orders.id, order.id));
      });
      throw new PermanentJobError(err.detail ?? err.message);
    }
    throw err;
  }
  await deps.db.transaction(async (tx) => {
    if (server.suspendedAt) await tx.update(servers).set({ suspendedAt: null, status: 'online', statusMessage: null }).where(eq(servers.id, server.id));
    if (task) await tx.update(serverTasks).set({ status: 'ok', progress: 100, finishedAt: new Date() }).where(eq(serverTasks.id, task.id));
    await tx.update(orders).set({ status: 'completed', completedAt: new Date() }).where(and(eq(orders.id, order.id), eq(orders.status, 'processing')));
  });
});

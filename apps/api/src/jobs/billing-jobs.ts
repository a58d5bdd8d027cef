import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { formatEuro } from '@hp/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.ts';
import { ipAddresses, invoices, nodes, orders, servers, serverTasks, users } from '../db/schema/index.ts';
import { HypervisorError } from '../drivers/hypervisor/hypervisor.ts';
import { signPayload } from '../drivers/payments/signature.ts';
import { SIM_WEBHOOK_JOB, type SimulatedPayments } from '../drivers/payments/simulated.ts';
import { expiryReminderMail, invoiceMail, serverDeletedMail, serverSuspendedMail } from '../drivers/mail/templates.ts';
import { renderInvoicePdf } from '../modules/invoices/invoice-pdf.ts';
import { renderXRechnung } from '../modules/invoices/invoice-xrechnung.ts';
import { invoiceFileName, issueInvoice, JOB_MAIL_INVOICE } from '../modules/invoices/invoices.service.ts';
import {
  JOB_APPLY_UPGRADE, JOB_ISSUE_INVOICE, JOB_PROVISION_ORDER, JOB_SYNC_CHECKOUT, syncCheckout, syncStalePendingOrders,
} from '../modules/payments/payments.service.ts';
import { provisionServer } from '../modules/infrastructure/provision-server.ts';
import { PermanentJobError, type JobRunner } from './queue.ts';
import { enqueueJob } from '../db/enqueue.ts';
import { JOB_SEND_MAIL } from './mail-queue.ts';

type Log = FastifyInstance['log'];
const JOB_SUSPEND_SERVER = 'suspend-server';
const JOB_DELETE_SERVER = 'delete-expired-server';

/** Every job of the sale and the term, registered in one place. */
export function registerBillingJobs(runner: JobRunner, app: FastifyInstance) {
  const deps = (): Deps & { log: Log } => ({ ...app.deps, log: app.log });

  runner.register(JOB_SYNC_CHECKOUT, async ({ payload }) => {
    await syncCheckout(deps(), String(payload.sessionId));
  });

  runner.register(JOB_PROVISION_ORDER, async ({ payload }) => {
    const d = deps();
    const [order] = await d.db.select().from(orders).where(eq(orders.id, String(payload.orderId)));
    if (!order?.serverId) throw new PermanentJobError('order has no server');
    const outcome = await provisionServer(d, order.serverId);
    const [server] = await d.db.select({ status: servers.status, message: servers.statusMessage }).from(servers).where(eq(servers.id, order.serverId));
    if (outcome === 'online' || server?.status === 'online') {
      await d.db.update(orders).set({ status: 'completed', completedAt: new Date() }).where(and(eq(orders.id, order.id), eq(orders.status, 'processing')));
    } else if (outcome === 'failed' || server?.status === 'failed') {
      // Paid but not delivered: staff sees the failed server and the order; the customer sees the message.
      await d.db.update(orders).set({ status: 'failed', failureReason: server?.message ?? 'provisioning failed' }).where(and(eq(orders.id, order.id), eq(orders.status, 'processing')));
    }
  });

  runner.register(JOB_APPLY_UPGRADE, async ({ payload }) => {
    const d = deps();
    const [row] = await d.db.select({ order: orders, server: servers, node: nodes.name }).from(orders)
      .innerJoin(servers, eq(servers.id, orders.serverId)).innerJoin(nodes, eq(nodes.id, servers.nodeId))
      .where(eq(orders.id, String(payload.orderId)));
    if (!row) throw new PermanentJobError('order or server missing');
    const { order, server, node } = row;
    if (order.status !== 'processing') return;
    const vm = { node, vmid: server.vmid };
    const task = (await d.db.select().from(serverTasks).where(and(eq(serverTasks.serverId, server.id), eq(serverTasks.kind, 'upgrade'), eq(serverTasks.status, 'running'))))
      .find((t) => (t.payload as { orderId?: string }).orderId === order.id);
    try {
      // The server row already carries the paid resources (capacity stays counted); the VM follows.
      await d.hypervisor.resizeServer(vm, { cores: server.cpuCores, memoryMb: server.ramGb * 1024, diskGb: server.storageGb });
      if (server.suspendedAt) {
        const status = await d.hypervisor.currentStatus(vm);
        if (status.status !== 'running') await d.hypervisor.waitForTask(await d.hypervisor.power(vm, 'start'), { timeoutMs: 120_000 });
      }
    } catch (err) {
      // Busy or unreachable hosts are retried with backoff; a refused change needs staff.
      if (err instanceof HypervisorError && err.code === 'INVALID') {
        await d.db.transaction(async (tx) => {
          if (task) await tx.update(serverTasks).set({ status: 'failed', error: err.message, finishedAt: new Date() }).where(eq(serverTasks.id, task.id));
          await tx.update(orders).set({ status: 'failed', failureReason: err.detail ?? err.message }).where(eq(orders.id, order.id));
        });
        throw new PermanentJobError(err.detail ?? err.message);
      }
      throw err;
    }
    await d.db.transaction(async (tx) => {
      if (server.suspendedAt) await tx.update(servers).set({ suspendedAt: null, status: 'online', statusMessage: null }).where(eq(servers.id, server.id));
      if (task) await tx.update(serverTasks).set({ status: 'ok', progress: 100, finishedAt: new Date() }).where(eq(serverTasks.id, task.id));
      await tx.update(orders).set({ status: 'completed', completedAt: new Date() }).where(and(eq(orders.id, order.id), eq(orders.status, 'processing')));
    });
  });

  runner.register(JOB_ISSUE_INVOICE, async ({ payload }) => {
    await issueInvoice(deps(), String(payload.orderId));
  });

  runner.register(JOB_MAIL_INVOICE, async ({ payload }) => {
    const d = deps();
    const [row] = await d.db.select({ invoice: invoices, username: users.username }).from(invoices)
      .innerJoin(users, eq(users.id, invoices.userId)).where(eq(invoices.id, String(payload.invoiceId)));
    if (!row) throw new PermanentJobError('invoice missing');
    if (row.invoice.mailedAt) return;
    const { invoice } = row;
    const pdf = await renderInvoicePdf(invoice.document);
    const xml = Buffer.from(renderXRechnung(invoice.document), 'utf8');
    await d.mail.send(invoiceMail(invoice.document.buyer.email, invoice.document.buyer.name, invoice.kind, invoice.number, formatEuro(invoice.grossCents), [
      { filename: invoiceFileName(invoice, 'pdf'), content: pdf, contentType: 'application/pdf' },
      { filename: invoiceFileName(invoice, 'xml'), content: xml, contentType: 'application/xml' },
    ]));
    await d.db.update(invoices).set({ mailedAt: new Date() }).where(eq(invoices.id, invoice.id));
  });

  // The simulated provider delivers its events like Stripe: signed, over the real webhook route.
  runner.register(SIM_WEBHOOK_JOB, async ({ payload }) => {
    const payments = app.deps.payments as SimulatedPayments;
    if (payments.kind !== 'simulated') return;
    const body = String(payload.body);
    const res = await app.inject({
      method: 'POST', url: '/api/payments/webhook', payload: body,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signPayload(body, payments.webhookSecret) },
    });
    if (res.statusCode >= 300) throw new Error(`webhook answered ${res.statusCode}`);
  });

  runner.register(JOB_SUSPEND_SERVER, async ({ payload }) => {
    const d = deps();
    const [row] = await d.db.select({ server: servers, node: nodes.name }).from(servers).innerJoin(nodes, eq(nodes.id, servers.nodeId))
      .where(eq(servers.id, String(payload.serverId)));
    if (!row || row.server.deletedAt || !row.server.suspendedAt) return; // renewed meanwhile
    const vm = { node: row.node, vmid: row.server.vmid };
    try {
      const status = await d.hypervisor.currentStatus(vm);
      if (status.status === 'running') await d.hypervisor.waitForTask(await d.hypervisor.power(vm, 'stop'), { timeoutMs: 120_000 });
    } catch (err) {
      if (!(err instanceof HypervisorError && err.code === 'NOT_FOUND')) throw err;
    }
    await d.db.update(servers).set({ status: 'offline' }).where(and(eq(servers.id, row.server.id), isNotNull(servers.suspendedAt)));
  });

  runner.register(JOB_DELETE_SERVER, async ({ payload }) => {
    const d = deps();
    const [row] = await d.db.select({ server: servers, node: nodes.name, email: users.email, username: users.username }).from(servers)
      .innerJoin(nodes, eq(nodes.id, servers.nodeId)).innerJoin(users, eq(users.id, servers.ownerId))
      .where(eq(servers.id, String(payload.serverId)));
    if (!row || row.server.deletedAt) return;
    const graceEnd = row.server.expiresAt ? row.server.expiresAt.getTime() + d.env.billing.graceDays * 86_400_000 : Infinity;
    if (!row.server.suspendedAt || graceEnd > Date.now()) return; // renewed meanwhile
    await d.hypervisor.deleteServer({ node: row.node, vmid: row.server.vmid });
    await d.db.transaction(async (tx) => {
      const [deleted] = await tx.update(servers).set({ deletedAt: new Date() })
        .where(and(eq(servers.id, row.server.id), isNull(servers.deletedAt), isNotNull(servers.suspendedAt))).returning({ id: servers.id });
      if (!deleted) return;
      // The addresses go back to the pool only once the VM that used them is gone.
      await tx.update(ipAddresses).set({ serverId: null, reservedUntil: null }).where(eq(ipAddresses.serverId, row.server.id));
      await enqueueJob(tx, JOB_SEND_MAIL, { message: serverDeletedMail(row.email, row.username, row.server.name) });
    });
  });
}

/**
 * The billing tick (every minute): ends payments nobody finished, mails reminders before a term ends,
 * stops servers whose term ended and deletes them after the grace period. Each step is a conditional
 * UPDATE plus a job in one transaction, so running it twice (or on two instances) changes nothing.
 */
export async function runBillingTick(deps: Deps & { log?: Log }) {
  const { db, env } = deps;
  const renewUrl = (id: string) => `${env.publicUrl}/upgrade/kvm-server/${id}`;
  if (deps.payments.kind === 'simulated') await (deps.payments as SimulatedPayments).expireDueSessions();
  await syncStalePendingOrders(deps);

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
        await enqueueJob(tx, JOB_SEND_MAIL, { message: expiryReminderMail(email, username, server.name, server.expiresAt!, renewUrl(server.id)) });
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
      await enqueueJob(tx, JOB_SUSPEND_SERVER, { serverId: server.id }, { dedupeKey: `suspend:${server.id}:${server.expiresAt!.toISOString()}` });
      await enqueueJob(tx, JOB_SEND_MAIL, { message: serverSuspendedMail(email, username, server.name, deleteAt, renewUrl(server.id)) });
    });
  }

  // Grace period over: delete.
  const graceOver = await db.select({ id: servers.id, expiresAt: servers.expiresAt }).from(servers)
    .where(and(isNull(servers.deletedAt), isNotNull(servers.suspendedAt),
      sql`${servers.expiresAt} + (${env.billing.graceDays} * interval '1 day') <= now()`));
  if (graceOver.length) {
    await db.transaction(async (tx) => {
      for (const s of graceOver) await enqueueJob(tx, JOB_DELETE_SERVER, { serverId: s.id }, { dedupeKey: `delete:${s.id}:${s.expiresAt!.toISOString()}` });
    });
  }
  return { reminded, suspended: ended.length, deleting: graceOver.length };
}


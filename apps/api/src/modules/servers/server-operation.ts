import { and, eq, inArray, isNull } from 'drizzle-orm';
import { POWER_THROTTLE_SECONDS, serverMessages, serverSettingsMessages, softwareMessages } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { servers, serverTasks } from '../../db/schema/index.ts';
import { AppError, conflict, tooManyRequests } from '../../http/errors.ts';
import { HypervisorError, hypervisorMessages, type TaskRef } from '../../drivers/hypervisor/hypervisor.ts';
import { toAppError } from './server-access.ts';

/**
 * One lifecycle for everything that occupies a server (docs/decisions/013):
 *
 *   guardOperation → claimServer → (host task: startHostTask … settleServerTask)
 *                                  (job body: durable job … finishTask)
 *
 * Power, restart, backup and restore start a host task whose UPID the settler (task-settler.ts) follows;
 * software, reinstall and resize run as durable jobs that finish the task themselves. Either way the
 * server holds `busy_task_id` from the claim to the end, and the end is applied exactly once.
 */

export type OperationDeps = Pick<Deps, 'db' | 'hypervisor'> & { log?: { error: (obj: object, msg: string) => void } };
export type ServerRow = typeof servers.$inferSelect;
export type ServerStatus = ServerRow['status'];

export interface GuardOptions {
  /** Whose texts the refusals use: the power buttons, the restart button, or the management tabs. */
  family: 'power' | 'restart' | 'manage';
  /**
   * Seconds since the same power action (start, stop or restart) last began on this server, or null if
   * never: within POWER_THROTTLE_SECONDS it is refused. Per kind, so "Neustart" right after "Start"
   * passes while a double click on one button does not (docs/decisions/027).
   */
  sinceSameAction?: number | null;
  /** Also refuse servers whose installation failed (they have no usable VM). */
  refuseFailed?: boolean;
  /** Leave the busy check to the caller (backups: "limit reached" while a backup runs). */
  skipBusy?: boolean;
}

const maintenanceText = { power: serverMessages.maintenance, restart: serverMessages.restartMaintenance, manage: serverMessages.maintenanceManage };

/** The one guard: maintenance, restart running, term expired, not ready, throttled, busy — in this order. */
export function guardOperation(server: ServerRow, opts: GuardOptions) {
  if (server.status === 'maintenance') throw conflict('SERVER_MAINTENANCE', maintenanceText[opts.family]);
  if (opts.family === 'restart' && server.status === 'restart') throw conflict('SERVER_RESTARTING', serverMessages.restartRunning);
  // A prepaid term that ended stops the server until it is renewed ("Verlängern").
  if (server.suspendedAt) throw conflict('SERVER_EXPIRED', serverMessages.expired);
  if (server.status === 'provisioning' || (opts.refuseFailed && server.status === 'failed')) throw conflict('SERVER_NOT_READY', serverMessages.notReady);
  if (opts.sinceSameAction != null && opts.sinceSameAction < POWER_THROTTLE_SECONDS) {
    throw tooManyRequests(POWER_THROTTLE_SECONDS - opts.sinceSameAction, serverMessages.throttled, 'POWER_THROTTLED');
  }
  if (!opts.skipBusy && server.busyTaskId) throw conflict('SERVER_BUSY', serverMessages.busy);
}

export interface ClaimOptions {
  kind: string;
  /** Status while the operation runs (absent: unchanged). */
  status?: ServerStatus;
  /** Only from these statuses (absent: any). */
  from?: ServerStatus[];
  payload?: Record<string, unknown>;
  /** Further columns set with the claim. */
  set?: Partial<typeof servers.$inferInsert>;
  /** The refusal when another operation won (default 409 SERVER_BUSY). */
  refusal?: () => Promise<AppError>;
}

class LostClaim extends Error {}

/**
 * Records the task and claims the server for it in one transaction (conditional UPDATE on
 * busy_task_id IS NULL): of parallel requests exactly one wins, the losers leave nothing behind.
 * `then` runs in the same transaction (e.g. to enqueue the job that does the work).
 */
export async function claimServer(db: Db, server: ServerRow, opts: ClaimOptions, then?: (tx: Parameters<Parameters<Db['transaction']>[0]>[0], taskId: string) => Promise<void>): Promise<string> {
  try {
    return await db.transaction(async (tx) => {
      const [task] = await tx.insert(serverTasks).values({ serverId: server.id, kind: opts.kind, payload: { ...opts.payload, previousStatus: server.status } }).returning({ id: serverTasks.id });
      const claimed = await tx.update(servers)
        .set({ busyTaskId: task!.id, ...(opts.status ? { status: opts.status, statusMessage: null } : {}), ...opts.set })
        .where(and(eq(servers.id, server.id), isNull(servers.busyTaskId), opts.from ? inArray(servers.status, opts.from) : undefined))
        .returning({ id: servers.id });
      if (!claimed.length) throw new LostClaim();
      await then?.(tx, task!.id);
      return task!.id;
    });
  } catch (err) {
    if (!(err instanceof LostClaim)) throw err;
    throw opts.refusal ? await opts.refusal() : conflict('SERVER_BUSY', serverMessages.busy);
  }
}

/**
 * Starts the host task of a claimed operation and records its UPID (and node) on the task. If the host
 * refuses, nothing started: the server is given back as it was and the task fails.
 */
export async function startHostTask(deps: OperationDeps, server: ServerRow, taskId: string, start: () => Promise<TaskRef>, failure?: () => AppError) {
  let ref: TaskRef;
  try {
    ref = await start();
  } catch (err) {
    await deps.db.transaction(async (tx) => {
      await tx.update(servers).set({ busyTaskId: null, status: server.status, statusMessage: server.statusMessage }).where(and(eq(servers.id, server.id), eq(servers.busyTaskId, taskId)));
      await tx.update(serverTasks).set({ status: 'failed', error: (err as Error).message, finishedAt: new Date() }).where(eq(serverTasks.id, taskId));
    });
    throw err instanceof HypervisorError || !failure ? toAppError(err) : failure();
  }
  const [task] = await deps.db.select({ payload: serverTasks.payload }).from(serverTasks).where(eq(serverTasks.id, taskId));
  const [updated] = await deps.db.update(serverTasks).set({ upid: ref.upid, payload: { ...(task?.payload ?? {}), node: ref.node } }).where(eq(serverTasks.id, taskId)).returning();
  return updated!;
}

export interface TaskResult {
  ok: boolean;
  error?: string | null;
  server: Partial<typeof servers.$inferInsert>;
  payload?: Record<string, unknown>;
}

/** Ends a task and gives the server back, exactly once (only while it still holds the server). */
export async function finishTask(db: Db, serverId: string, taskId: string, result: TaskResult) {
  return db.transaction(async (tx) => {
    const released = await tx.update(servers).set({ ...result.server, busyTaskId: null })
      .where(and(eq(servers.id, serverId), eq(servers.busyTaskId, taskId)))
      .returning({ id: servers.id });
    if (!released.length) return false;
    const [task] = await tx.select({ payload: serverTasks.payload }).from(serverTasks).where(eq(serverTasks.id, taskId));
    await tx.update(serverTasks).set({
      status: result.ok ? 'ok' : 'failed', progress: 100, error: result.ok ? null : (result.error ?? softwareMessages.failed), finishedAt: new Date(),
      payload: { ...(task?.payload ?? {}), ...(result.payload ?? {}) },
    }).where(eq(serverTasks.id, taskId));
    return true;
  });
}

/** Progress writes, chained so an older value never overwrites a newer one; only while running. */
export function progressWriter(db: Db, taskId: string) {
  let chain: Promise<unknown> = Promise.resolve();
  let last = -1;
  const write = (percent: number) => {
    const p = Math.max(0, Math.min(99, Math.floor(percent)));
    if (p <= last) return chain;
    last = p;
    chain = chain.then(() => db.update(serverTasks).set({ progress: p }).where(and(eq(serverTasks.id, taskId), eq(serverTasks.status, 'running')))).catch(() => {});
    return chain;
  };
  return { write, done: () => chain };
}

/**
 * Last line of defence for job-run tasks (install, uninstall, reinstall): a task that outlived any
 * plausible run, e.g. because its job failed for good, is failed and the server released, so a server
 * is never locked for ever. Normal crashes do not get here: the durable job runs again.
 */
const STALE_MS: Record<string, number> = {
  install: 30 * 60_000, uninstall: 30 * 60_000, reinstall: 2 * 60 * 60_000,
  // A VDC VM's private network card (vdc-network.service.ts): one config call, claimed in the request.
  'network-join': 5 * 60_000, 'network-leave': 5 * 60_000,
};

export async function releaseStaleTask(deps: Pick<OperationDeps, 'db'>, server: ServerRow) {
  if (!server.busyTaskId) return server;
  const [task] = await deps.db.select().from(serverTasks).where(eq(serverTasks.id, server.busyTaskId));
  const limit = task ? STALE_MS[task.kind] : undefined;
  if (!task || limit === undefined || Date.now() - task.startedAt.getTime() < limit) return server;
  await finishTask(deps.db, server.id, task.id, task.kind === 'reinstall'
    ? { ok: false, error: serverSettingsMessages.reinstallFailed, server: { status: 'failed', statusMessage: serverSettingsMessages.reinstallFailed } }
    // The card's state is unknown: the address stays with the VM, and joining or leaving again settles it.
    : task.kind.startsWith('network-') ? { ok: false, error: hypervisorMessages.TASK_FAILED, server: {} }
    : { ok: false, error: softwareMessages.failed, server: { status: 'online' } });
  const [fresh] = await deps.db.select().from(servers).where(eq(servers.id, server.id));
  return fresh ?? server;
}

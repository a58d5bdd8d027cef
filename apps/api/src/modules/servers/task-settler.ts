import { eq, sql } from 'drizzle-orm';
import { backupMessages, serverMessages } from '@hp/contract';
import { servers, serverTasks } from '../../db/schema/index.ts';
import type { TaskState } from '../../drivers/hypervisor/hypervisor.ts';
import { defineSchedule } from '../../jobs/define.ts';
import { finishTask, type OperationDeps, type ServerRow, type ServerStatus, type TaskResult } from './server-operation.ts';

/**
 * Follows the host tasks of running operations (power, restart, backup, restore) and applies their end
 * exactly once (server-operation.ts). Runs as a schedule on one instance every SETTLE_TASKS_MS, and on
 * reads that show a busy server, so the end is seen at once by whoever looks. Job-run operations
 * (software, reinstall, resize, create) have no UPID and are finished by their jobs.
 */

type TaskRow = typeof serverTasks.$inferSelect;
type TaskPayload = { node?: string; previousStatus?: ServerStatus; before?: string[]; volids?: string[] };
type Ended = Exclude<TaskState, { status: 'running' }>;

const powerPhases: Record<string, ServerStatus> = { start: 'online', stop: 'offline', reboot: 'online' };

/** What the end of each host task means for the server and the task. */
async function outcomeOf(deps: OperationDeps, server: ServerRow, task: TaskRow, state: Ended): Promise<TaskResult | null> {
  const payload = task.payload as TaskPayload;
  const failed = state.status === 'failed';
  const exit = state.status === 'failed' ? state.error : '';
  const done = powerPhases[task.kind];
  if (done) {
    return failed
      ? { ok: false, error: exit, server: { status: payload.previousStatus ?? 'offline', statusMessage: `${serverMessages.powerFailed}: ${exit}` } }
      : { ok: true, server: { status: done, statusMessage: null } };
  }
  if (task.kind === 'restore') {
    const error = failed ? `${backupMessages.restoreFailed}: ${exit}` : null;
    return { ok: !failed, error, server: { status: payload.previousStatus ?? 'online', statusMessage: error } };
  }
  if (task.kind === 'backup') {
    if (failed) return { ok: false, error: backupMessages.failed(exit), server: {} };
    // Remember which volumes this portal backup produced (type 'Manuell'); the host is asked outside the transaction.
    const after = await deps.hypervisor.listBackups({ node: String(payload.node ?? ''), vmid: server.vmid }).catch(() => null);
    return { ok: true, server: {}, ...(after ? { payload: { volids: after.map((b) => b.volid).filter((v) => !(payload.before ?? []).includes(v)) } } : {}) };
  }
  return null;
}

/** Looks at the server's running host task and, when it has ended, applies the result exactly once. */
export async function settleServerTask(deps: OperationDeps, serverId: string) {
  const [row] = await deps.db.select({ server: servers, task: serverTasks }).from(servers)
    .innerJoin(serverTasks, eq(serverTasks.id, servers.busyTaskId))
    .where(eq(servers.id, serverId));
  if (!row || !row.task.upid) return;
  const { server, task } = row;
  let state: TaskState;
  try {
    state = await deps.hypervisor.taskStatus({ node: String((task.payload as TaskPayload).node ?? ''), upid: task.upid! });
  } catch {
    return; // host not reachable right now; the next look tries again
  }
  if (state.status === 'running') {
    if (state.progress !== undefined && state.progress !== task.progress) {
      await deps.db.update(serverTasks).set({ progress: state.progress }).where(eq(serverTasks.id, task.id));
    }
    return;
  }
  const outcome = await outcomeOf(deps, server, task, state);
  if (outcome) await finishTask(deps.db, server.id, task.id, outcome);
}

/** Settles every running host operation. */
export async function settleRunningTasks(deps: OperationDeps) {
  const busy = await deps.db.select({ id: servers.id }).from(servers).where(sql`${servers.busyTaskId} is not null`).limit(200);
  for (const { id } of busy) await settleServerTask(deps, id).catch((err) => deps.log?.error({ err: { message: (err as Error).message } }, 'settling a server task failed'));
}

export const settleTasksSchedule = defineSchedule({
  name: 'settle-server-tasks',
  everyMs: (deps) => deps.env.settleTaskMs,
  firstAfterMs: () => 1_000,
  run: settleRunningTasks,
});

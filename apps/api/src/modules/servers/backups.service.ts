import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { backupMessages, MAX_BACKUPS, serverMessages, type Backup, type BackupList, type BackupTask } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { servers, serverTasks } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { HypervisorError, type BackupInfo, type TaskRef, type VmRef } from '../../drivers/hypervisor/hypervisor.ts';
import { findAccessibleServer, toAppError, vmOf } from './server-access.ts';

type BackupDeps = Pick<Deps, 'db' | 'hypervisor'>;
type ServerRow = typeof servers.$inferSelect;
type TaskRow = typeof serverTasks.$inferSelect;
type TaskPayload = { node?: string; previousStatus?: ServerRow['status']; before?: string[]; volids?: string[]; backupId?: string };

const KINDS = ['backup', 'restore'] as const;
/** While a restore runs the server shows this transitional status (the VM is overwritten). */
const RESTORING_STATUS: ServerRow['status'] = 'reinstall';

/** Opaque, stable id of a backup: base64url of the volume id. Never decoded; only compared. */
export const backupIdOf = (volid: string) => Buffer.from(volid, 'utf8').toString('base64url');
const filenameOf = (volid: string) => volid.slice(volid.lastIndexOf('/') + 1).replace(/^[^:]*:/, '');

const toTask = (t: TaskRow): BackupTask => ({
  id: t.id,
  kind: t.kind as BackupTask['kind'],
  status: t.status,
  progress: t.progress,
  error: t.error,
  startedAt: t.startedAt.toISOString(),
  finishedAt: t.finishedAt ? t.finishedAt.toISOString() : null,
});

async function hostBackups(deps: BackupDeps, vm: VmRef): Promise<BackupInfo[]> {
  try {
    return await deps.hypervisor.listBackups(vm);
  } catch (err) {
    throw toAppError(err);
  }
}

function assertOperable(server: ServerRow) {
  if (server.status === 'maintenance') throw conflict('SERVER_MAINTENANCE', serverMessages.maintenanceManage);
  if (server.status === 'provisioning' || server.status === 'failed') throw conflict('SERVER_NOT_READY', serverMessages.notReady);
}

/**
 * Applies the end of the server's running backup or restore exactly once (conditional UPDATE on
 * busy_task_id). Called by every backups read (the tab polls every 5 s); other kinds are left alone.
 */
export async function settleBackupTask(deps: BackupDeps, serverId: string) {
  const [row] = await deps.db.select({ server: servers, task: serverTasks }).from(servers)
    .innerJoin(serverTasks, eq(serverTasks.id, servers.busyTaskId))
    .where(eq(servers.id, serverId));
  if (!row || !row.task.upid || !(KINDS as readonly string[]).includes(row.task.kind)) return;
  const { server, task } = row;
  const payload = task.payload as TaskPayload;
  let state;
  try {
    state = await deps.hypervisor.taskStatus({ node: String(payload.node ?? ''), upid: task.upid! });
  } catch {
    return; // host not reachable right now; the next poll tries again
  }
  if (state.status === 'running') {
    if (state.progress !== undefined && state.progress !== task.progress) {
      await deps.db.update(serverTasks).set({ progress: state.progress }).where(and(eq(serverTasks.id, task.id), eq(serverTasks.status, 'running')));
    }
    return;
  }
  const failed = state.status === 'failed';
  const exit = state.status === 'failed' ? state.error : '';
  const error = failed ? (task.kind === 'backup' ? backupMessages.failed(exit) : `${backupMessages.restoreFailed}: ${exit}`) : null;
  let nextPayload = payload;
  if (task.kind === 'backup' && !failed) {
    // Remember which volumes this portal backup produced (type 'Manuell'); the host is asked outside the transaction.
    const after = await deps.hypervisor.listBackups({ node: String(payload.node ?? ''), vmid: server.vmid }).catch(() => null);
    if (after) nextPayload = { ...payload, volids: after.map((b) => b.volid).filter((v) => !(payload.before ?? []).includes(v)) };
  }
  await deps.db.transaction(async (tx) => {
    const released = await tx.update(servers)
      .set(task.kind === 'restore'
        ? { busyTaskId: null, status: payload.previousStatus ?? 'online', statusMessage: error }
        : { busyTaskId: null })
      .where(and(eq(servers.id, server.id), eq(servers.busyTaskId, task.id)))
      .returning({ id: servers.id });
    if (released.length) {
      await tx.update(serverTasks).set({ status: failed ? 'failed' : 'ok', progress: 100, error, payload: nextPayload, finishedAt: new Date() }).where(eq(serverTasks.id, task.id));
    }
  });
}

async function latestTask(deps: BackupDeps, serverId: string): Promise<TaskRow | undefined> {
  const [task] = await deps.db.select().from(serverTasks)
    .where(and(eq(serverTasks.serverId, serverId), inArray(serverTasks.kind, [...KINDS])))
    .orderBy(desc(serverTasks.startedAt)).limit(1);
  return task;
}

export async function listServerBackups(deps: BackupDeps, user: RequestUser, id: string): Promise<BackupList> {
  const found = await findAccessibleServer(deps.db, user, id);
  if (found.server.busyTaskId) await settleBackupTask(deps, found.server.id);
  const { server, node } = found;
  const infos = await hostBackups(deps, vmOf(server, node));
  const manualTasks = await deps.db.select({ payload: serverTasks.payload }).from(serverTasks)
    .where(and(eq(serverTasks.serverId, server.id), eq(serverTasks.kind, 'backup'), eq(serverTasks.status, 'ok')));
  const manual = new Set(manualTasks.flatMap((t) => (t.payload as TaskPayload).volids ?? []));
  const backups: Backup[] = infos.map((b) => ({
    id: backupIdOf(b.volid),
    filename: filenameOf(b.volid),
    date: new Date(b.ctime * 1000).toISOString(),
    type: manual.has(b.volid) ? 'Manuell' : 'Automatisch',
    size: b.size,
  }));
  const task = await latestTask(deps, server.id);
  const recent = task && (task.status === 'running' || (task.finishedAt && Date.now() - task.finishedAt.getTime() < 60_000));
  return { backups, max: MAX_BACKUPS, task: recent ? toTask(task) : null };
}

/** Loads the server after settling a finished backup/restore, so a finished task never blocks the next one. */
async function loadSettled(deps: BackupDeps, user: RequestUser, id: string) {
  const found = await findAccessibleServer(deps.db, user, id);
  if (!found.server.busyTaskId) return found;
  await settleBackupTask(deps, found.server.id);
  return findAccessibleServer(deps.db, user, id);
}

async function busyKind(deps: BackupDeps, taskId: string | null) {
  if (!taskId) return null;
  const [t] = await deps.db.select({ kind: serverTasks.kind }).from(serverTasks).where(eq(serverTasks.id, taskId));
  return t?.kind ?? null;
}

/** Claims the server for one task (conditional UPDATE: of parallel requests only one wins). */
async function claim(deps: BackupDeps, server: ServerRow, kind: 'backup' | 'restore', payload: TaskPayload, set: Partial<ServerRow> = {}) {
  const [task] = await deps.db.insert(serverTasks).values({ serverId: server.id, kind, payload }).returning();
  const claimed = await deps.db.update(servers).set({ busyTaskId: task!.id, ...set })
    .where(and(eq(servers.id, server.id), isNull(servers.busyTaskId)))
    .returning({ id: servers.id });
  if (claimed.length) return task!;
  await deps.db.delete(serverTasks).where(eq(serverTasks.id, task!.id));
  const [now] = await deps.db.select({ busy: servers.busyTaskId }).from(servers).where(eq(servers.id, server.id));
  if (kind === 'backup' && (await busyKind(deps, now?.busy ?? null)) === 'backup') throw conflict('BACKUP_LIMIT', backupMessages.maxReached);
  throw conflict('SERVER_BUSY', serverMessages.busy);
}

async function startTask(deps: BackupDeps, server: ServerRow, task: TaskRow, start: () => Promise<TaskRef>, failure: () => AppError) {
  let ref: TaskRef;
  try {
    ref = await start();
  } catch (err) {
    // Nothing started on the host: give the server back as it was.
    await deps.db.update(servers).set({ busyTaskId: null, status: server.status }).where(and(eq(servers.id, server.id), eq(servers.busyTaskId, task.id)));
    await deps.db.update(serverTasks).set({ status: 'failed', error: (err as Error).message, finishedAt: new Date() }).where(eq(serverTasks.id, task.id));
    throw err instanceof HypervisorError ? toAppError(err) : failure();
  }
  const payload = { ...(task.payload as TaskPayload), node: ref.node };
  const [updated] = await deps.db.update(serverTasks).set({ upid: ref.upid, payload }).where(eq(serverTasks.id, task.id)).returning();
  return toTask(updated!);
}

export async function createServerBackup(deps: BackupDeps, user: RequestUser, id: string) {
  const { server, node } = await loadSettled(deps, user, id);
  assertOperable(server);
  const kind = await busyKind(deps, server.busyTaskId);
  if (kind === 'backup') throw conflict('BACKUP_LIMIT', backupMessages.maxReached);
  if (kind) throw conflict('SERVER_BUSY', serverMessages.busy);
  const vm = vmOf(server, node);
  const existing = await hostBackups(deps, vm);
  if (existing.length >= MAX_BACKUPS) throw conflict('BACKUP_LIMIT', backupMessages.maxReached);
  const task = await claim(deps, server, 'backup', { before: existing.map((b) => b.volid) });
  const started = await startTask(deps, server, task, () => deps.hypervisor.createBackup(vm), () => new AppError(503, 'BACKUP_START_FAILED', backupMessages.startFailed));
  return { task: started, message: backupMessages.creating };
}

async function findBackup(deps: BackupDeps, vm: VmRef, backupId: string) {
  // The client only knows the opaque id; the volume id comes from the host's own list for this VM.
  const backup = (await hostBackups(deps, vm)).find((b) => backupIdOf(b.volid) === backupId);
  if (!backup) throw notFound(backupMessages.notFound);
  return backup;
}

export async function restoreServerBackup(deps: BackupDeps, user: RequestUser, id: string, backupId: string) {
  const { server, node } = await loadSettled(deps, user, id);
  assertOperable(server);
  if (server.busyTaskId) throw conflict('SERVER_BUSY', serverMessages.busy);
  const vm = vmOf(server, node);
  const backup = await findBackup(deps, vm, backupId);
  const task = await claim(deps, server, 'restore', { previousStatus: server.status, backupId }, { status: RESTORING_STATUS, statusMessage: null });
  const started = await startTask(deps, server, task, () => deps.hypervisor.restoreBackup(vm, backup.volid), () => new AppError(503, 'RESTORE_START_FAILED', serverMessages.powerFailed));
  return { task: started, message: backupMessages.restoring };
}

export async function deleteServerBackup(deps: BackupDeps, user: RequestUser, id: string, backupId: string) {
  const { server, node } = await loadSettled(deps, user, id);
  assertOperable(server);
  if (server.busyTaskId) throw conflict('SERVER_BUSY', serverMessages.busy);
  const vm = vmOf(server, node);
  const backup = await findBackup(deps, vm, backupId);
  try {
    await deps.hypervisor.deleteBackup(vm, backup.volid);
  } catch (err) {
    throw toAppError(err);
  }
  return { message: backupMessages.deleted };
}

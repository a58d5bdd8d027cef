import { and, desc, eq, inArray } from 'drizzle-orm';
import { backupMessages, MAX_BACKUPS, serverMessages, type Backup, type BackupList, type BackupTask } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { servers, serverTasks } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { BackupInfo, VmRef } from '../../drivers/hypervisor/hypervisor.ts';
import { findAccessibleServer, toAppError, vmOf } from './server-access.ts';
import { claimServer, guardOperation, startHostTask } from './server-operation.ts';
import { settleServerTask } from './task-settler.ts';

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

async function latestTask(deps: BackupDeps, serverId: string): Promise<TaskRow | undefined> {
  const [task] = await deps.db.select().from(serverTasks)
    .where(and(eq(serverTasks.serverId, serverId), inArray(serverTasks.kind, [...KINDS])))
    .orderBy(desc(serverTasks.startedAt)).limit(1);
  return task;
}

export async function listServerBackups(deps: BackupDeps, user: RequestUser, id: string): Promise<BackupList> {
  const found = await findAccessibleServer(deps.db, user, id);
  if (found.server.busyTaskId) await settleServerTask(deps, found.server.id);
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
  await settleServerTask(deps, found.server.id);
  return findAccessibleServer(deps.db, user, id);
}

async function busyKind(deps: BackupDeps, taskId: string | null) {
  if (!taskId) return null;
  const [t] = await deps.db.select({ kind: serverTasks.kind }).from(serverTasks).where(eq(serverTasks.id, taskId));
  return t?.kind ?? null;
}

/** The refusal when another operation holds the server: a running backup counts against the limit. */
const busyRefusal = (deps: BackupDeps, serverId: string) => async () => {
  const [now] = await deps.db.select({ busy: servers.busyTaskId }).from(servers).where(eq(servers.id, serverId));
  return (await busyKind(deps, now?.busy ?? null)) === 'backup' ? conflict('BACKUP_LIMIT', backupMessages.maxReached) : conflict('SERVER_BUSY', serverMessages.busy);
};

export async function createServerBackup(deps: BackupDeps, user: RequestUser, id: string) {
  const { server, node } = await loadSettled(deps, user, id);
  guardOperation(server, { family: 'manage', refuseFailed: true, skipBusy: true });
  if (server.busyTaskId) throw await busyRefusal(deps, server.id)();
  const vm = vmOf(server, node);
  const existing = await hostBackups(deps, vm);
  if (existing.length >= MAX_BACKUPS) throw conflict('BACKUP_LIMIT', backupMessages.maxReached);
  const taskId = await claimServer(deps.db, server, { kind: 'backup', payload: { before: existing.map((b) => b.volid) }, refusal: busyRefusal(deps, server.id) });
  const started = await startHostTask(deps, server, taskId, () => deps.hypervisor.createBackup(vm), () => new AppError(503, 'BACKUP_START_FAILED', backupMessages.startFailed));
  return { task: toTask(started), message: backupMessages.creating };
}

async function findBackup(deps: BackupDeps, vm: VmRef, backupId: string) {
  // The client only knows the opaque id; the volume id comes from the host's own list for this VM.
  const backup = (await hostBackups(deps, vm)).find((b) => backupIdOf(b.volid) === backupId);
  if (!backup) throw notFound(backupMessages.notFound);
  return backup;
}

export async function restoreServerBackup(deps: BackupDeps, user: RequestUser, id: string, backupId: string) {
  const { server, node } = await loadSettled(deps, user, id);
  guardOperation(server, { family: 'manage', refuseFailed: true });
  const vm = vmOf(server, node);
  const backup = await findBackup(deps, vm, backupId);
  const taskId = await claimServer(deps.db, server, { kind: 'restore', status: RESTORING_STATUS, payload: { backupId } });
  const started = await startHostTask(deps, server, taskId, () => deps.hypervisor.restoreBackup(vm, backup.volid), () => new AppError(503, 'RESTORE_START_FAILED', serverMessages.powerFailed));
  return { task: toTask(started), message: backupMessages.restoring };
}

export async function deleteServerBackup(deps: BackupDeps, user: RequestUser, id: string, backupId: string) {
  const { server, node } = await loadSettled(deps, user, id);
  guardOperation(server, { family: 'manage', refuseFailed: true });
  const vm = vmOf(server, node);
  const backup = await findBackup(deps, vm, backupId);
  try {
    await deps.hypervisor.deleteBackup(vm, backup.volid);
  } catch (err) {
    throw toAppError(err);
  }
  return { message: backupMessages.deleted };
}

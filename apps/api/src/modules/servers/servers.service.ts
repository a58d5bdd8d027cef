import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { serverMessages, POWER_THROTTLE_SECONDS, type ServerCard, type ServerDetail, type ServerUsage } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { ipAddresses, serverAccess, servers, serverTasks } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { conflict, tooManyRequests } from '../../http/errors.ts';
import { settleBackupTask } from './backups.service.ts';
import { findAccessibleServer, toAppError, vmOf } from './server-access.ts';
import type { PowerAction, TaskRef } from '../../drivers/hypervisor/hypervisor.ts';

type ServerDeps = Pick<Deps, 'db' | 'hypervisor'> & { log?: { error: (obj: object, msg: string) => void } };
type ServerRow = typeof servers.$inferSelect;

export async function listServers(deps: ServerDeps, user: RequestUser): Promise<ServerCard[]> {
  const shared = deps.db.select({ id: serverAccess.serverId }).from(serverAccess).where(eq(serverAccess.userId, user.id));
  const rows = await deps.db
    .select({ server: servers, ip: ipAddresses.address })
    .from(servers)
    .leftJoin(ipAddresses, and(eq(ipAddresses.serverId, servers.id), eq(ipAddresses.version, 'IPv4')))
    .where(and(isNull(servers.deletedAt), or(eq(servers.ownerId, user.id), inArray(servers.id, shared))))
    .orderBy(desc(servers.createdAt));
  return rows.map(({ server, ip }) => toCard(server, ip ?? null, server.ownerId === user.id ? 'owner' : 'shared'));
}

const toCard = (s: ServerRow, ip: string | null, access: 'owner' | 'shared'): ServerCard => ({
  id: s.id, vmid: s.vmid, name: s.name, status: s.status, ip, os: s.os, specs: { cpu: s.cpuCores, ram: s.ramGb, storage: s.storageGb }, access,
});

export async function getServerDetail(deps: ServerDeps, user: RequestUser, id: string): Promise<ServerDetail> {
  const { server, access } = await findAccessibleServer(deps.db, user, id);
  const ips = await deps.db.select().from(ipAddresses).where(eq(ipAddresses.serverId, server.id));
  const v4 = ips.find((i) => i.version === 'IPv4');
  const v6 = ips.find((i) => i.version === 'IPv6');
  return {
    ...toCard(server, v4?.address ?? null, access),
    statusMessage: server.statusMessage,
    // Shared users see no billing information.
    expiresAt: access === 'owner' && server.expiresAt ? server.expiresAt.toISOString() : null,
    createdAt: server.createdAt.toISOString(),
    firewallEnabled: server.firewallEnabled,
    network: { ipv4: v4?.address ?? null, subnet: v4?.subnet ?? null, gateway: v4?.gateway ?? null, ipv6: v6?.address ?? null, speed: '1 Gbit/s' },
  };
}

// ── Operations: one at a time per server, finished by whoever sees the task end ────────────────────

const transitional: Record<string, { running: ServerRow['status']; done: ServerRow['status'] }> = {
  start: { running: 'starting', done: 'online' },
  stop: { running: 'stopping', done: 'offline' },
  reboot: { running: 'restart', done: 'online' },
};

/**
 * Claims the server for one operation (conditional UPDATE, so two parallel requests cannot both win),
 * starts the hypervisor task and records its UPID. The task is settled later by settleServerTask.
 */
async function startOperation(deps: ServerDeps, server: ServerRow, node: string, action: PowerAction) {
  const phase = transitional[action]!;
  const [task] = await deps.db.insert(serverTasks).values({ serverId: server.id, kind: action, payload: { previousStatus: server.status } }).returning({ id: serverTasks.id });
  const claimed = await deps.db.update(servers)
    .set({ busyTaskId: task!.id, status: phase.running, lastPowerActionAt: new Date() })
    .where(and(eq(servers.id, server.id), isNull(servers.busyTaskId)))
    .returning({ id: servers.id });
  if (!claimed.length) {
    await deps.db.delete(serverTasks).where(eq(serverTasks.id, task!.id));
    throw conflict('SERVER_BUSY', serverMessages.busy);
  }
  let ref: TaskRef;
  try {
    ref = await deps.hypervisor.power(vmOf(server, node), action);
  } catch (err) {
    // Nothing started on the host: give the server back in its previous state.
    await deps.db.update(servers).set({ busyTaskId: null, status: server.status }).where(eq(servers.id, server.id));
    await deps.db.update(serverTasks).set({ status: 'failed', error: (err as Error).message, finishedAt: new Date() }).where(eq(serverTasks.id, task!.id));
    throw toAppError(err);
  }
  await deps.db.update(serverTasks).set({ upid: ref.upid, payload: { previousStatus: server.status, node: ref.node } }).where(eq(serverTasks.id, task!.id));
  return phase.running;
}

function assertOperable(server: ServerRow) {
  if (server.status === 'maintenance') throw conflict('SERVER_MAINTENANCE', serverMessages.maintenance);
  // A prepaid term that ended stops the server until it is renewed ("Verlängern").
  if (server.suspendedAt) throw conflict('SERVER_EXPIRED', serverMessages.expired);
  if (server.status === 'provisioning') throw conflict('SERVER_NOT_READY', serverMessages.notReady);
}

function assertNotThrottled(server: ServerRow) {
  if (!server.lastPowerActionAt) return;
  const elapsed = (Date.now() - server.lastPowerActionAt.getTime()) / 1000;
  if (elapsed < POWER_THROTTLE_SECONDS) throw tooManyRequests(POWER_THROTTLE_SECONDS - elapsed, serverMessages.throttled, 'POWER_THROTTLED');
}

/** Start/Stop (spec: offline → start, otherwise stop; the client says which it means). */
export async function powerServer(deps: ServerDeps, user: RequestUser, id: string, action: 'start' | 'stop') {
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  return powerLocatedServer(deps, server, node, action);
}

/** Start/Stop of a server the caller may operate (the customer's own, or any for staff). */
export async function powerLocatedServer(deps: ServerDeps, server: ServerRow, node: string, action: 'start' | 'stop') {
  assertOperable(server);
  assertNotThrottled(server);
  if (server.busyTaskId) throw conflict('SERVER_BUSY', serverMessages.busy);
  const newStatus = await startOperation(deps, server, node, action);
  return { newStatus, message: action === 'start' ? serverMessages.starting : serverMessages.stopping };
}

export async function restartServer(deps: ServerDeps, user: RequestUser, id: string) {
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  return restartLocatedServer(deps, server, node);
}

export async function restartLocatedServer(deps: ServerDeps, server: ServerRow, node: string) {
  if (server.status === 'maintenance') throw conflict('SERVER_MAINTENANCE', serverMessages.restartMaintenance);
  if (server.status === 'restart') throw conflict('SERVER_RESTARTING', serverMessages.restartRunning);
  if (server.suspendedAt) throw conflict('SERVER_EXPIRED', serverMessages.expired);
  assertNotThrottled(server);
  if (server.status !== 'online') throw conflict('SERVER_OFFLINE', serverMessages.restartNeedsOnline);
  if (server.busyTaskId) throw conflict('SERVER_BUSY', serverMessages.busy);
  const newStatus = await startOperation(deps, server, node, 'reboot');
  return { newStatus, message: serverMessages.restarting };
}

/**
 * Looks at the server's running operation and, when its task has ended, applies the result exactly
 * once (conditional UPDATE on busy_task_id). Called by status reads and by the background settler, so
 * an operation finishes even after a restart of the API.
 */
export async function settleServerTask(deps: ServerDeps, serverId: string) {
  const [row] = await deps.db.select({ server: servers, task: serverTasks }).from(servers)
    .innerJoin(serverTasks, eq(serverTasks.id, servers.busyTaskId))
    .where(eq(servers.id, serverId));
  if (!row || !row.task.upid) return;
  const { server, task } = row;
  if (task.kind === 'backup' || task.kind === 'restore') return settleBackupTask(deps, serverId);
  const phase = transitional[task.kind];
  if (!phase) return; // install and reinstall are finished by their own background jobs
  let state;
  try {
    state = await deps.hypervisor.taskStatus({ node: String((task.payload as { node?: string }).node ?? ''), upid: task.upid! });
  } catch {
    return; // host not reachable right now; try again on the next read
  }
  if (state.status === 'running') {
    if (state.progress !== undefined && state.progress !== task.progress) {
      await deps.db.update(serverTasks).set({ progress: state.progress }).where(eq(serverTasks.id, task.id));
    }
    return;
  }
  const error = state.status === 'failed' ? state.error : null;
  const failed = error !== null;
  const previous = (task.payload as { previousStatus?: ServerRow['status'] }).previousStatus ?? 'offline';
  await deps.db.transaction(async (tx) => {
    const released = await tx.update(servers)
      .set({ busyTaskId: null, status: failed ? previous : phase.done, statusMessage: failed ? `${serverMessages.powerFailed}: ${error}` : null })
      .where(and(eq(servers.id, server.id), eq(servers.busyTaskId, task.id)))
      .returning({ id: servers.id });
    if (released.length) {
      await tx.update(serverTasks).set({ status: failed ? 'failed' : 'ok', progress: 100, error, finishedAt: new Date() }).where(eq(serverTasks.id, task.id));
    }
  });
}

/** Settles every running power operation (background loop, every 2 s). */
export async function settleRunningTasks(deps: ServerDeps) {
  const busy = await deps.db.select({ id: servers.id }).from(servers).where(sql`${servers.busyTaskId} is not null`).limit(200);
  for (const { id } of busy) await settleServerTask(deps, id).catch((err) => deps.log?.error({ err: { message: (err as Error).message } }, 'settling a server task failed'));
}

export async function getServerUsage(deps: ServerDeps, user: RequestUser, id: string): Promise<ServerUsage> {
  const found = await findAccessibleServer(deps.db, user, id);
  if (found.server.busyTaskId) await settleServerTask(deps, id);
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  return usageOf(deps, server, node);
}

/** Live usage of a located server, with its current or just finished task. */
export async function usageOf(deps: ServerDeps, server: ServerRow, node: string): Promise<ServerUsage> {
  const [task] = await deps.db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id)).orderBy(desc(serverTasks.startedAt)).limit(1);
  const base = {
    status: server.status,
    task: task && (task.status === 'running' || (task.finishedAt && Date.now() - task.finishedAt.getTime() < 60_000))
      ? { kind: task.kind, progress: task.progress, status: task.status, error: task.error } : null,
  };
  if (server.status === 'provisioning' || server.status === 'failed') {
    return { ...base, running: false, cpuUsage: 0, ramUsedMb: 0, ramTotalMb: server.ramGb * 1024, storageUsedGb: 0, storageTotalGb: server.storageGb, netInBytes: 0, netOutBytes: 0, uptimeSeconds: 0 };
  }
  try {
    const s = await deps.hypervisor.currentStatus(vmOf(server, node));
    return {
      ...base,
      running: s.status === 'running',
      cpuUsage: Math.round(s.cpu * 1000) / 10,
      ramUsedMb: Math.round(s.mem / 1048576),
      ramTotalMb: Math.round(s.maxmem / 1048576) || server.ramGb * 1024,
      storageUsedGb: Math.round((s.disk / 1073741824) * 10) / 10,
      storageTotalGb: Math.round(s.maxdisk / 1073741824) || server.storageGb,
      netInBytes: s.netin,
      netOutBytes: s.netout,
      uptimeSeconds: s.uptime,
    };
  } catch (err) {
    throw toAppError(err);
  }
}

export async function getUsageHistory(deps: ServerDeps, user: RequestUser, id: string, timeframe: 'hour' | 'day' | 'week') {
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  try {
    const points = await deps.hypervisor.usageHistory(vmOf(server, node), timeframe);
    return { points: points.map((p) => ({ time: p.time, cpu: Math.round(p.cpu * 1000) / 10, ramUsedMb: Math.round(p.mem / 1048576), netIn: p.netin, netOut: p.netout })) };
  } catch (err) {
    throw toAppError(err);
  }
}

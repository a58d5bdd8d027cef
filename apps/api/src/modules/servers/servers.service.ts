import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { serverMessages, type ServerCard, type ServerDetail, type ServerUsage } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { ipAddresses, serverAccess, servers, serverTasks } from '../../db/schema/index.ts';
import { preparedQuery } from '../../db/prepared.ts';
import type { RequestUser } from '../../http/auth.ts';
import { conflict } from '../../http/errors.ts';
import { findAccessibleServer, toAppError, vmOf } from './server-access.ts';
import type { PowerAction } from '../../drivers/hypervisor/hypervisor.ts';
import { claimServer, guardOperation, startHostTask } from './server-operation.ts';
import { settleServerTask } from './task-settler.ts';

type ServerDeps = Pick<Deps, 'db' | 'hypervisor'> & { log?: { error: (obj: object, msg: string) => void } };
type ServerRow = typeof servers.$inferSelect;

// Own ids by the owner index, shared ids by the access index, then the rows by primary key. An
// `owner_id = … OR id IN (shares)` filter could use neither index (55 ms on 50,000 servers).
const serverList = preparedQuery((db) => {
  const userId = sql.placeholder('userId');
  const ids = sql`(select ${servers.id} from ${servers} where ${servers.ownerId} = ${userId} union select ${serverAccess.serverId} from ${serverAccess} where ${serverAccess.userId} = ${userId})`;
  return db
    .select({ server: servers, ip: ipAddresses.address })
    .from(servers)
    .leftJoin(ipAddresses, and(eq(ipAddresses.serverId, servers.id), eq(ipAddresses.version, 'IPv4')))
    // A virtual data center's VMs are listed on its own page, not among the root servers.
    .where(and(isNull(servers.deletedAt), isNull(servers.vdcId), sql`${servers.id} in ${ids}`))
    .orderBy(desc(servers.createdAt))
    .prepare('server_list');
});
const serverAddresses = preparedQuery((db) => db.select().from(ipAddresses).where(eq(ipAddresses.serverId, sql.placeholder('serverId'))).prepare('server_addresses'));
const lastTask = preparedQuery((db) => db.select().from(serverTasks).where(eq(serverTasks.serverId, sql.placeholder('serverId'))).orderBy(desc(serverTasks.startedAt)).limit(1).prepare('server_last_task'));

export async function listServers(deps: ServerDeps, user: RequestUser): Promise<ServerCard[]> {
  const rows = await serverList(deps.db).execute({ userId: user.id });
  return rows.map(({ server, ip }) => toCard(server, ip ?? null, server.ownerId === user.id ? 'owner' : 'shared'));
}

const toCard = (s: ServerRow, ip: string | null, access: 'owner' | 'shared'): ServerCard => ({
  id: s.id, vmid: s.vmid, name: s.name, status: s.status, ip, os: s.os, specs: { cpu: s.cpuCores, ram: s.ramGb, storage: s.storageGb }, access,
});

export async function getServerDetail(deps: ServerDeps, user: RequestUser, id: string): Promise<ServerDetail> {
  const { server, access } = await findAccessibleServer(deps.db, user, id);
  const ips = await serverAddresses(deps.db).execute({ serverId: server.id });
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

// ── Operations: one at a time per server (server-operation.ts), ended by the task settler ─────────

type Power = Extract<PowerAction, 'start' | 'stop' | 'reboot'>;
const runningStatus: Record<Power, ServerRow['status']> = { start: 'starting', stop: 'stopping', reboot: 'restart' };

/**
 * Seconds since this power action last began on the server (null: never). Measured by the database's
 * clock, which also stamped the task, so several API instances with drifting clocks agree.
 */
async function secondsSinceAction(deps: ServerDeps, serverId: string, action: Power): Promise<number | null> {
  const [last] = await deps.db
    .select({ seconds: sql<number>`extract(epoch from (now() - ${serverTasks.startedAt}))`.mapWith(Number) })
    .from(serverTasks)
    .where(and(eq(serverTasks.serverId, serverId), eq(serverTasks.kind, action)))
    .orderBy(desc(serverTasks.startedAt))
    .limit(1);
  return last ? last.seconds : null;
}

/** Claims the server, starts the host task and records its UPID; task-settler.ts applies its end. */
async function startPower(deps: ServerDeps, server: ServerRow, node: string, action: Power) {
  const taskId = await claimServer(deps.db, server, { kind: action, status: runningStatus[action], set: { lastPowerActionAt: new Date() } });
  forgetLiveStatus(deps, vmOf(server, node));
  await startHostTask(deps, server, taskId, () => deps.hypervisor.power(vmOf(server, node), action));
  return runningStatus[action];
}

/** Start/Stop (spec: offline → start, otherwise stop; the client says which it means). */
export async function powerServer(deps: ServerDeps, user: RequestUser, id: string, action: 'start' | 'stop') {
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  return powerLocatedServer(deps, server, node, action);
}

/** Start/Stop of a server the caller may operate (the customer's own, or any for staff). */
export async function powerLocatedServer(deps: ServerDeps, server: ServerRow, node: string, action: 'start' | 'stop') {
  guardOperation(server, { family: 'power', sinceSameAction: await secondsSinceAction(deps, server.id, action) });
  const newStatus = await startPower(deps, server, node, action);
  return { newStatus, message: action === 'start' ? serverMessages.starting : serverMessages.stopping };
}

export async function restartServer(deps: ServerDeps, user: RequestUser, id: string) {
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  return restartLocatedServer(deps, server, node);
}

export async function restartLocatedServer(deps: ServerDeps, server: ServerRow, node: string) {
  guardOperation(server, { family: 'restart', sinceSameAction: await secondsSinceAction(deps, server.id, 'reboot'), skipBusy: true });
  if (server.status !== 'online') throw conflict('SERVER_OFFLINE', serverMessages.restartNeedsOnline);
  if (server.busyTaskId) throw conflict('SERVER_BUSY', serverMessages.busy);
  const newStatus = await startPower(deps, server, node, 'reboot');
  return { newStatus, message: serverMessages.restarting };
}

export async function getServerUsage(deps: ServerDeps, user: RequestUser, id: string): Promise<ServerUsage> {
  const found = await findAccessibleServer(deps.db, user, id);
  if (!found.server.busyTaskId) return usageOf(deps, found.server, found.node);
  // A running task may have just ended: settle it, then read the row it changed.
  await settleServerTask(deps, id);
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  if (!server.busyTaskId) forgetLiveStatus(deps, vmOf(server, node));
  return usageOf(deps, server, node);
}

/** How long a live reading of a VM is shared by everyone viewing it (with Proxmox each read is a remote call). */
export const LIVE_STATUS_MS = 2000;
const liveStatus = new WeakMap<ServerDeps['hypervisor'], Map<string, { at: number; value: ReturnType<ServerDeps['hypervisor']['currentStatus']> }>>();

/**
 * The hypervisor's live reading of a VM, shared for LIVE_STATUS_MS by all viewers of that server (one
 * remote call, however many tabs poll). A failed reading is not kept.
 */
function sharedCurrentStatus(deps: ServerDeps, vm: ReturnType<typeof vmOf>) {
  let readings = liveStatus.get(deps.hypervisor);
  if (!readings) liveStatus.set(deps.hypervisor, (readings = new Map()));
  const key = `${vm.node}/${vm.vmid}`;
  const now = Date.now();
  const kept = readings.get(key);
  if (kept && now - kept.at < LIVE_STATUS_MS) return kept.value;
  if (readings.size > 10_000) for (const [k, v] of readings) if (now - v.at >= LIVE_STATUS_MS) readings.delete(k);
  const value = deps.hypervisor.currentStatus(vm);
  const entry = { at: now, value };
  readings.set(key, entry);
  value.catch(() => {
    if (readings.get(key) === entry) readings.delete(key);
  });
  return value;
}

/** Forget the shared reading after an action that changes it (power, restore): the next view asks again. */
export function forgetLiveStatus(deps: ServerDeps, vm: ReturnType<typeof vmOf>) {
  liveStatus.get(deps.hypervisor)?.delete(`${vm.node}/${vm.vmid}`);
}

/** Live usage of a located server, with its current or just finished task. */
export async function usageOf(deps: ServerDeps, server: ServerRow, node: string): Promise<ServerUsage> {
  const [task] = await lastTask(deps.db).execute({ serverId: server.id });
  const base = {
    status: server.status,
    task: task && (task.status === 'running' || (task.finishedAt && Date.now() - task.finishedAt.getTime() < 60_000))
      ? { kind: task.kind, progress: task.progress, status: task.status, error: task.error } : null,
  };
  if (server.status === 'provisioning' || server.status === 'failed') {
    return { ...base, running: false, cpuUsage: 0, ramUsedMb: 0, ramTotalMb: server.ramGb * 1024, storageUsedGb: 0, storageTotalGb: server.storageGb, netInBytes: 0, netOutBytes: 0, uptimeSeconds: 0 };
  }
  try {
    const s = await sharedCurrentStatus(deps, vmOf(server, node));
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

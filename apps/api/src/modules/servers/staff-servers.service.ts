import { and, desc, eq, isNull } from 'drizzle-orm';
import { infrastructureMessages as m, type AdminPowerInput, type AdminServerDetail, type ServerUsage } from '@hp/contract';
import { alias } from 'drizzle-orm/pg-core';
import type { Deps } from '../../deps.ts';
import { ipAddresses, nodes, servers, serverTasks, users } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { findAudit, recordAudit } from '../audit/audit.service.ts';
import { powerLocatedServer, restartLocatedServer, usageOf } from './servers.service.ts';
import { settleServerTask } from './task-settler.ts';

type StaffDeps = Pick<Deps, 'db' | 'hypervisor'>;

const creator = alias(users, 'creator');

async function locate(db: Deps['db'], id: string) {
  const [row] = await db.select({ server: servers, node: nodes.name, nodeId: nodes.id, owner: users, creator: creator.username })
    .from(servers)
    .innerJoin(nodes, eq(nodes.id, servers.nodeId))
    .innerJoin(users, eq(users.id, servers.ownerId))
    .leftJoin(creator, eq(creator.id, servers.createdById))
    .where(and(eq(servers.id, id), isNull(servers.deletedAt)));
  if (!row) throw notFound(m.staffServerNotFound);
  return row;
}

/** Everything staff need to help with a server: owner, node, address, term, tasks and staff actions. */
export async function getStaffServer(deps: StaffDeps, id: string): Promise<AdminServerDetail> {
  let row = await locate(deps.db, id);
  if (row.server.busyTaskId) {
    await settleServerTask(deps, id);
    row = await locate(deps.db, id);
  }
  const { server } = row;
  const [ip] = await deps.db.select({ address: ipAddresses.address }).from(ipAddresses)
    .where(eq(ipAddresses.serverId, server.id)).orderBy(desc(eq(ipAddresses.version, 'IPv4')), ipAddresses.id).limit(1);
  const tasks = await deps.db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id)).orderBy(desc(serverTasks.startedAt)).limit(20);
  return {
    id: server.id, vmid: server.vmid, name: server.name, status: server.status, statusMessage: server.statusMessage,
    cpuCores: server.cpuCores, ramGb: server.ramGb, storageGb: server.storageGb, os: server.os,
    owner: { customerNumber: row.owner.customerNumber, username: row.owner.username, email: row.owner.email },
    node: { id: row.nodeId, name: row.node },
    ip: ip?.address ?? null,
    createdAt: server.createdAt.toISOString(),
    firewallEnabled: server.firewallEnabled,
    expiresAt: server.expiresAt?.toISOString() ?? null,
    suspendedAt: server.suspendedAt?.toISOString() ?? null,
    createdBy: row.creator ? { username: row.creator, reason: server.creationReason } : null,
    tasks: tasks.map((t) => ({ kind: t.kind, status: t.status, progress: t.progress, error: t.error, startedAt: t.startedAt.toISOString(), finishedAt: t.finishedAt?.toISOString() ?? null })),
    audit: await findAudit(deps.db, { type: 'server', id: server.id }),
  };
}

export async function getStaffServerUsage(deps: StaffDeps, id: string): Promise<ServerUsage> {
  const { server } = await locate(deps.db, id);
  if (server.busyTaskId) await settleServerTask(deps, id);
  const fresh = await locate(deps.db, id);
  return usageOf(deps, fresh.server, fresh.node);
}

/**
 * Start, stop or restart any server, with the customer's guards (maintenance, expired term, one
 * operation at a time, 5-s throttle). Each accepted action is logged with the staff member.
 */
export async function staffPowerServer(deps: StaffDeps, staff: RequestUser, id: string, input: AdminPowerInput) {
  const { server, node } = await locate(deps.db, id);
  const result = input.action === 'restart'
    ? await restartLocatedServer(deps, server, node)
    : await powerLocatedServer(deps, server, node, input.action);
  await recordAudit(deps.db, staff.id, `power.${input.action}`, { type: 'server', id: server.id }, { previousStatus: server.status });
  return result;
}

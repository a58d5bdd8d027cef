import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { ipAddresses, nodes, orders, servers } from '../../db/schema/index.ts';

/**
 * What a node has already sold: the servers on it plus what open payments hold (a new order holds its
 * whole size, an upgrade only its growth) until their hold runs out. Staff creation and checkout both
 * decide with these figures while holding the node's row lock, so nothing is sold twice.
 */
type Executor = Db | Tx;

export interface Resources { cpuCores: number; ramGb: number; storageGb: number }

export async function usedCapacity(tx: Executor, nodeId: number): Promise<Resources> {
  const [s] = await tx.select({
    cpuCores: sql<number>`coalesce(sum(${servers.cpuCores}), 0)::int`,
    ramGb: sql<number>`coalesce(sum(${servers.ramGb}), 0)::int`,
    storageGb: sql<number>`coalesce(sum(${servers.storageGb}), 0)::int`,
  }).from(servers).where(and(eq(servers.nodeId, nodeId), isNull(servers.deletedAt)));
  const [o] = await tx.select({
    cpuCores: sql<number>`coalesce(sum(${orders.holdCpuCores}), 0)::int`,
    ramGb: sql<number>`coalesce(sum(${orders.holdRamGb}), 0)::int`,
    storageGb: sql<number>`coalesce(sum(${orders.holdStorageGb}), 0)::int`,
  }).from(orders).where(and(eq(orders.nodeId, nodeId), eq(orders.status, 'pending'), gt(orders.holdUntil, sql`now()`)));
  return {
    cpuCores: Number(s!.cpuCores) + Number(o!.cpuCores),
    ramGb: Number(s!.ramGb) + Number(o!.ramGb),
    storageGb: Number(s!.storageGb) + Number(o!.storageGb),
  };
}

export function freeOf(node: Resources, used: Resources): Resources {
  return {
    cpuCores: Math.max(0, node.cpuCores - used.cpuCores),
    ramGb: Math.max(0, node.ramGb - used.ramGb),
    storageGb: Math.max(0, node.storageGb - used.storageGb),
  };
}

export const fits = (need: Resources, free: Resources) =>
  need.cpuCores <= free.cpuCores && need.ramGb <= free.ramGb && need.storageGb <= free.storageGb;

/** Locks the node row and returns its free capacity (null if the node does not exist). */
export async function lockNodeFree(tx: Tx, nodeId: number) {
  const [node] = await tx.select().from(nodes).where(eq(nodes.id, nodeId)).for('update');
  if (!node) return null;
  return { node, free: freeOf(node, await usedCapacity(tx, nodeId)) };
}

/**
 * Picks a node for a new server: candidates that look big enough are locked one by one in id order
 * (a fixed order, so parallel checkouts cannot deadlock) and checked again under the lock.
 * Offline nodes and nodes in maintenance are not sold.
 */
export async function placeOnNode(tx: Tx, need: Resources) {
  const candidates = await tx.select({ id: nodes.id }).from(nodes)
    .where(sql`${nodes.status} in ('online', 'unknown')`)
    .orderBy(nodes.id);
  for (const { id } of candidates) {
    const locked = await lockNodeFree(tx, id);
    if (locked && fits(need, locked.free)) return locked.node;
  }
  return null;
}

/** An IP counts as in use while a server has it or an open order's hold has not run out. */
export const ipIsFree = sql`${ipAddresses.serverId} is null and (${ipAddresses.reservedUntil} is null or ${ipAddresses.reservedUntil} <= now())`;

/** Takes a free IPv4 (SKIP LOCKED: parallel transactions take different ones). */
export async function takeFreeIpv4(tx: Tx) {
  const [ip] = await tx.select({ id: ipAddresses.id, address: ipAddresses.address }).from(ipAddresses)
    .where(and(eq(ipAddresses.version, 'IPv4'), ipIsFree))
    .orderBy(ipAddresses.id).limit(1)
    .for('update', { skipLocked: true });
  return ip ?? null;
}

/** The next VM id from our sequence (Proxmox's nextid does not reserve, ours does). */
export async function nextVmid(tx: Tx): Promise<number> {
  const result = await tx.execute<{ vmid: number }>(sql`select nextval('server_vmid_seq')::int as vmid`);
  return Number((result as unknown as { rows: { vmid: number }[] }).rows[0]!.vmid);
}

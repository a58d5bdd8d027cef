import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { ipAddresses, nodes, orders, servers, vdcs } from '../../db/schema/index.ts';

/**
 * What a node has already sold: the root servers on it, the virtual data centers' pools placed there
 * (each whole, never their VMs, decision 036), plus what open payments hold (a new order holds its
 * whole size, an upgrade only its growth) until their hold runs out. Staff creation and checkout both
 * decide with these figures while holding the node's row lock, so nothing is sold twice; the staff's
 * node list shows the same figures.
 */
type Executor = Db | Tx;

export interface Resources { cpuCores: number; ramGb: number; storageGb: number }

export async function usedCapacity(tx: Executor, nodeId: number): Promise<Resources> {
  return (await usedCapacityByNode(tx, [nodeId])).get(nodeId)!;
}

/** usedCapacity of several nodes at once (the staff's node list), one grouped query per source. */
export async function usedCapacityByNode(tx: Executor, nodeIds: number[]): Promise<Map<number, Resources>> {
  const byNode = new Map<number, Resources>(nodeIds.map((id) => [id, { cpuCores: 0, ramGb: 0, storageGb: 0 }]));
  if (!nodeIds.length) return byNode;
  // One after another: inside a transaction they share one connection anyway.
  const s = await tx.select({
    nodeId: servers.nodeId,
    cpuCores: sql<number>`coalesce(sum(${servers.cpuCores}), 0)::int`,
    ramGb: sql<number>`coalesce(sum(${servers.ramGb}), 0)::int`,
    storageGb: sql<number>`coalesce(sum(${servers.storageGb}), 0)::int`,
  }).from(servers).where(and(inArray(servers.nodeId, nodeIds), isNull(servers.deletedAt), isNull(servers.vdcId))).groupBy(servers.nodeId);
  // A pool whose delivery failed was refunded and holds nothing.
  const p = await tx.select({
    nodeId: vdcs.nodeId,
    cpuCores: sql<number>`coalesce(sum(${vdcs.cpuCores}), 0)::int`,
    ramGb: sql<number>`coalesce(sum(${vdcs.ramGb}), 0)::int`,
    storageGb: sql<number>`coalesce(sum(${vdcs.storageGb}), 0)::int`,
  }).from(vdcs).where(and(inArray(vdcs.nodeId, nodeIds), isNull(vdcs.deletedAt), ne(vdcs.status, 'failed'))).groupBy(vdcs.nodeId);
  const o = await tx.select({
    nodeId: orders.nodeId,
    cpuCores: sql<number>`coalesce(sum(${orders.holdCpuCores}), 0)::int`,
    ramGb: sql<number>`coalesce(sum(${orders.holdRamGb}), 0)::int`,
    storageGb: sql<number>`coalesce(sum(${orders.holdStorageGb}), 0)::int`,
  }).from(orders).where(and(inArray(orders.nodeId, nodeIds), eq(orders.status, 'pending'), gt(orders.holdUntil, sql`now()`))).groupBy(orders.nodeId);
  for (const row of [...s, ...p, ...o]) {
    const used = row.nodeId === null ? undefined : byNode.get(row.nodeId);
    if (!used) continue;
    used.cpuCores += Number(row.cpuCores);
    used.ramGb += Number(row.ramGb);
    used.storageGb += Number(row.storageGb);
  }
  return byNode;
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

/** An IP counts as in use while a server or a virtual data center has it, or an open order's hold has not run out. */
export const ipIsFree = sql`${ipAddresses.serverId} is null and ${ipAddresses.vdcId} is null and (${ipAddresses.reservedUntil} is null or ${ipAddresses.reservedUntil} <= now())`;

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

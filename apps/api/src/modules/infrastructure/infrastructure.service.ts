import { and, asc, count, desc, eq, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  infrastructureMessages as m,
  normalizeIpAddress,
  resolvePaging,
  type AdminServerListQuery,
  type AdminServerPage,
  type AdminServerRow,
  type CreateIpAddressInput,
  type CreateNodeInput,
  type CreateServerInput,
  type CustomerOptionList,
  type IpAddressListQuery,
  type IpAddressPage,
  type IpAddressRow,
  type NodeListQuery,
  type NodePage,
  type NodeRow,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { ipAddresses, nodes, servers, serverTasks, users } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { FOREIGN_KEY_VIOLATION, pgCode, UNIQUE_VIOLATION } from '../../http/db-errors.ts';
import { fits, freeOf, ipIsFree, lockNodeFree, nextVmid, takeFreeIpv4, usedCapacityByNode, type Resources } from '../servers/capacity.ts';
import { enqueue } from '../../db/jobs.ts';
import { provisionServerJob } from '../servers/provision-server.ts';
import { containsPattern } from '../../lib/like.ts';

type InfrastructureDeps = Pick<Deps, 'db'>;

const searchTerm = (q: string | undefined) => (q ? containsPattern(q) : undefined);

/**
 * ORDER BY of a list: the requested field ('-' for descending) or the list's default, then the key
 * as a tie-breaker so that pages never overlap.
 */
function orderBy<F extends string>(sort: string | undefined, fallback: NoInfer<F | `-${F}`>, columns: Record<F, SQLWrapper>, key: SQLWrapper): SQL[] {
  const value = sort ?? fallback;
  const descending = value.startsWith('-');
  const column = columns[(descending ? value.slice(1) : value) as F];
  return [descending ? desc(column) : asc(column), descending ? desc(key) : asc(key)];
}

/** An IP counts as in use exactly when it is not free to sell or delete (ipIsFree): a server, a VDC's pool or an open order's hold has it. */
const ipInUse = sql<boolean>`not (${ipIsFree})`;

// ---------------------------------------------------------------- nodes

/** Live virtual servers per node (root servers and VDC VMs alike), one grouped subquery. */
const serverCounts = (db: Deps['db']) => db
  .select({ nodeId: servers.nodeId, serverCount: sql<number>`count(*)::int`.as('server_count') })
  .from(servers)
  .where(isNull(servers.deletedAt))
  .groupBy(servers.nodeId)
  .as('server_counts');

/** `used` is what the node has sold, as staff creation and checkout count it (usedCapacity): a VDC's pool whole, not its VMs. */
const toNodeRow = (n: typeof nodes.$inferSelect, serverCount: number | null, used: Resources | undefined): NodeRow => {
  const u = used ?? { cpuCores: 0, ramGb: 0, storageGb: 0 };
  return {
    id: n.id, name: n.name, host: n.host, cpuCores: n.cpuCores, ramGb: n.ramGb, storageGb: n.storageGb, status: n.status,
    serverCount: serverCount ?? 0,
    used: u,
    free: freeOf(n, u),
  };
};

/** Spec §5: search by id or IP (host); the node name is searched too. */
export async function findNodes({ db }: InfrastructureDeps, query: NodeListQuery): Promise<NodePage> {
  const paging = resolvePaging(query);
  const term = searchTerm(paging.q);
  const where = and(
    term ? sql`(${nodes.id}::text ilike ${term} or ${nodes.name} ilike ${term} or ${nodes.host} ilike ${term})` : undefined,
    query.status ? eq(nodes.status, query.status) : undefined,
  );
  const order = orderBy(query.sort, 'id', { id: nodes.id, name: nodes.name, host: nodes.host, status: nodes.status }, nodes.id);
  const counts = serverCounts(db);
  const [rows, [total]] = await Promise.all([
    db.select({ node: nodes, serverCount: counts.serverCount })
      .from(nodes).leftJoin(counts, eq(counts.nodeId, nodes.id)).where(where).orderBy(...order).limit(paging.limit).offset(paging.offset),
    db.select({ total: count() }).from(nodes).where(where),
  ]);
  const used = await usedCapacityByNode(db, rows.map((r) => r.node.id));
  return { items: rows.map((r) => toNodeRow(r.node, r.serverCount, used.get(r.node.id))), total: total?.total ?? 0, page: paging.page, pageSize: paging.pageSize };
}

export async function createNode({ db }: InfrastructureDeps, input: CreateNodeInput): Promise<NodeRow> {
  try {
    const [created] = await db.insert(nodes).values({ ...input, status: 'unknown' }).returning();
    return toNodeRow(created!, 0, undefined);
  } catch (err) {
    if (pgCode(err) === UNIQUE_VIOLATION) throw conflict('NODE_NAME_TAKEN', m.nodeNameTaken);
    throw err;
  }
}

/** Refused while any server row points at the node (servers keep their node for the record). */
export async function deleteNode({ db }: InfrastructureDeps, id: number) {
  try {
    await db.transaction(async (tx) => {
      // The lock makes a concurrent server creation on this node wait for the outcome.
      const [node] = await tx.select({ id: nodes.id }).from(nodes).where(eq(nodes.id, id)).for('update');
      if (!node) throw notFound(m.nodeNotFound);
      const [onNode] = await tx.select({ n: count() }).from(servers).where(eq(servers.nodeId, id));
      if (onNode!.n > 0) throw conflict('NODE_HAS_SERVERS', m.nodeHasServers);
      await tx.delete(nodes).where(eq(nodes.id, id));
    });
  } catch (err) {
    if (pgCode(err) === FOREIGN_KEY_VIOLATION) throw conflict('NODE_HAS_SERVERS', m.nodeHasServers);
    throw err;
  }
}

// ---------------------------------------------------------------- IP addresses

const ipColumns = {
  id: ipAddresses.id, version: ipAddresses.version, address: ipAddresses.address, subnet: ipAddresses.subnet, gateway: ipAddresses.gateway,
  inUse: ipInUse, serverVmid: servers.vmid,
};

/** Spec §5: search by address or id (as shown: 'IP' plus 3 digits). */
export async function findIpAddresses({ db }: InfrastructureDeps, query: IpAddressListQuery): Promise<IpAddressPage> {
  const paging = resolvePaging(query);
  const term = searchTerm(paging.q);
  const where = and(
    term ? sql`(${ipAddresses.address} ilike ${term} or ('IP' || lpad(${ipAddresses.id}::text, 3, '0')) ilike ${term})` : undefined,
    query.version ? eq(ipAddresses.version, query.version) : undefined,
    query.inUse === undefined ? undefined : query.inUse === 'true' ? ipInUse : sql`not ${ipInUse}`,
  );
  // Addresses sort as addresses (10.0.0.2 before 10.0.0.10), IPv4 before IPv6.
  const order = orderBy(query.sort, 'id', { id: ipAddresses.id, address: sql`${ipAddresses.address}::inet`, version: ipAddresses.version }, ipAddresses.id);
  const [rows, [total]] = await Promise.all([
    db.select(ipColumns).from(ipAddresses).leftJoin(servers, eq(servers.id, ipAddresses.serverId))
      .where(where).orderBy(...order).limit(paging.limit).offset(paging.offset),
    db.select({ total: count() }).from(ipAddresses).where(where),
  ]);
  return {
    items: rows.map((r) => ({ ...r, inUse: Boolean(r.inUse), serverVmid: r.serverVmid ?? null })),
    total: total?.total ?? 0, page: paging.page, pageSize: paging.pageSize,
  };
}

export async function createIpAddress({ db }: InfrastructureDeps, input: CreateIpAddressInput): Promise<IpAddressRow> {
  const address = normalizeIpAddress(input.address);
  try {
    const [created] = await db.insert(ipAddresses).values({
      version: input.version, address, subnet: input.subnet, gateway: normalizeIpAddress(input.gateway),
    }).returning();
    return { id: created!.id, version: created!.version, address: created!.address, subnet: created!.subnet, gateway: created!.gateway, inUse: false, serverVmid: null };
  } catch (err) {
    if (pgCode(err) === UNIQUE_VIOLATION) throw conflict('IP_TAKEN', m.ipTaken);
    throw err;
  }
}

/** Spec §4: an address in use cannot be deleted; the check and the delete are one statement. */
export async function deleteIpAddress({ db }: InfrastructureDeps, id: number) {
  const deleted = await db.delete(ipAddresses).where(and(eq(ipAddresses.id, id), ipIsFree)).returning({ id: ipAddresses.id });
  if (deleted.length) return;
  const [exists] = await db.select({ id: ipAddresses.id }).from(ipAddresses).where(eq(ipAddresses.id, id));
  if (!exists) throw notFound(m.ipNotFound);
  throw conflict('IP_IN_USE', m.ipInUse);
}

// ---------------------------------------------------------------- virtual servers

const serverColumns = {
  id: servers.id, vmid: servers.vmid, name: servers.name, status: servers.status, statusMessage: servers.statusMessage,
  cpuCores: servers.cpuCores, ramGb: servers.ramGb, storageGb: servers.storageGb, os: servers.os, createdAt: servers.createdAt,
  ownerNumber: users.customerNumber, ownerName: users.username, nodeId: nodes.id, nodeName: nodes.name,
  // A server has at most one IPv4 from our pool; the first one is shown.
  ip: sql<string | null>`(select ${ipAddresses.address} from ${ipAddresses} where ${ipAddresses.serverId} = ${servers.id} order by (${ipAddresses.version} = 'IPv4') desc, ${ipAddresses.id} limit 1)`,
};
type ServerSelection = Awaited<ReturnType<typeof serverQuery>>[number];

const toServerRow = (r: ServerSelection): AdminServerRow => ({
  id: r.id, vmid: r.vmid, name: r.name, status: r.status, statusMessage: r.statusMessage,
  cpuCores: r.cpuCores, ramGb: r.ramGb, storageGb: r.storageGb, os: r.os,
  owner: { customerNumber: r.ownerNumber, username: r.ownerName },
  node: { id: r.nodeId, name: r.nodeName },
  ip: r.ip, createdAt: r.createdAt.toISOString(),
});

const serverQuery = (db: Deps['db'], where: SQL | undefined) =>
  db.select(serverColumns).from(servers)
    .innerJoin(users, eq(users.id, servers.ownerId))
    .innerJoin(nodes, eq(nodes.id, servers.nodeId))
    .where(and(isNull(servers.deletedAt), where));

/** Spec §5: search by id (the 3-digit VM id), OS or owner (customer number or username). Newest first. */
export async function findAdminServers({ db }: InfrastructureDeps, query: AdminServerListQuery): Promise<AdminServerPage> {
  const paging = resolvePaging(query);
  const term = searchTerm(paging.q);
  const where = and(
    term
      ? sql`(lpad(${servers.vmid}::text, 3, '0') ilike ${term} or ${servers.os} ilike ${term} or ${users.username} ilike ${term} or ${users.customerNumber}::text ilike ${term})`
      : undefined,
    query.status ? eq(servers.status, query.status) : undefined,
  );
  const order = orderBy(query.sort, '-vmid', {
    vmid: servers.vmid, status: servers.status, os: servers.os, owner: users.customerNumber, node: nodes.name, createdAt: servers.createdAt,
  }, servers.vmid);
  const [rows, [total]] = await Promise.all([
    serverQuery(db, where).orderBy(...order).limit(paging.limit).offset(paging.offset),
    db.select({ total: count() }).from(servers).innerJoin(users, eq(users.id, servers.ownerId)).where(and(isNull(servers.deletedAt), where)),
  ]);
  return { items: rows.map((r) => toServerRow(r)), total: total?.total ?? 0, page: paging.page, pageSize: paging.pageSize };
}

export async function findAdminServer({ db }: InfrastructureDeps, id: string): Promise<AdminServerRow> {
  const [row] = await serverQuery(db, eq(servers.id, id));
  if (!row) throw notFound();
  return toServerRow(row);
}

/**
 * Creates the server record in one transaction so that nothing is sold twice: the node row is locked
 * while its free capacity is computed, a free IPv4 is taken with SKIP LOCKED (parallel creations on other
 * nodes take other addresses), and the VM id comes from our sequence. Provisioning runs afterwards.
 */
export async function createAdminServer({ db }: InfrastructureDeps, staff: { id: string }, input: CreateServerInput): Promise<AdminServerRow> {
  const serverId = await db.transaction(async (tx) => {
    // Servers belong to customers; staff accounts are not offered and not accepted as owners.
    const [owner] = await tx.select({ id: users.id }).from(users)
      .where(and(eq(users.customerNumber, input.owner), eq(users.role, 'customer'), isNull(users.disabledAt)));
    if (!owner) throw notFound(m.ownerNotFound);

    const locked = await lockNodeFree(tx, input.nodeId);
    if (!locked) throw notFound(m.clusterNotFound);
    const { node, free } = locked;
    if (!fits({ cpuCores: input.cpuCores, ramGb: input.ramGb, storageGb: input.storageGb }, free)) {
      throw conflict('NOT_ENOUGH_RESOURCES', m.notEnoughResources(free));
    }

    const ip = await takeFreeIpv4(tx);
    if (!ip) throw conflict('NO_FREE_IP', m.noFreeIp);

    const vmid = await nextVmid(tx);

    const [server] = await tx.insert(servers).values({
      vmid, name: `srv-${vmid}`, ownerId: owner.id, nodeId: node.id, os: input.os,
      cpuCores: input.cpuCores, ramGb: input.ramGb, storageGb: input.storageGb, status: 'provisioning',
      createdById: staff.id, creationReason: input.reason,
    }).returning({ id: servers.id });
    await tx.update(ipAddresses).set({ serverId: server!.id, reservedUntil: null }).where(eq(ipAddresses.id, ip.id));
    await tx.insert(serverTasks).values({ serverId: server!.id, kind: 'create', status: 'running', progress: 0, payload: { ipAddressId: ip.id } });
    // Built by a durable job: it exists exactly when the server row does, and survives a restart.
    await enqueue(tx, provisionServerJob, { serverId: server!.id }, { dedupeKey: `provision-server:${server!.id}` });
    return server!.id;
  });
  return findAdminServer({ db }, serverId);
}

/** Owner picker: customer number, username or e-mail, at most 20 matches. */
export async function findCustomerOptions({ db }: InfrastructureDeps, search: string | undefined): Promise<CustomerOptionList> {
  const term = search ? containsPattern(search) : undefined;
  const rows = await db
    .select({ customerNumber: users.customerNumber, username: users.username, email: users.email })
    .from(users)
    .where(and(
      isNull(users.disabledAt),
      eq(users.role, 'customer'),
      term ? sql`(${users.customerNumber}::text ilike ${term} or ${users.username} ilike ${term} or ${users.email} ilike ${term})` : undefined,
    ))
    .orderBy(asc(users.customerNumber))
    .limit(20);
  return { items: rows };
}

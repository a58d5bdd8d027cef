import { and, asc, count, desc, eq, inArray, isNull, ne, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  LINUX_DISTROS, resolvePaging, VDC_LIMITS,
  type AdminVdcListQuery, type AdminVdcPage, type VdcCard, type VdcDetail, type VdcIso, type VdcList, type VdcShopInfo, type VdcVm,
  type VdcVmCreateInput, type VdcVmResizeInput,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { ipAddresses, nodes, servers, serverTasks, users, vdcIsos, vdcs } from '../../db/schema/index.ts';
import { enqueue } from '../../db/jobs.ts';
import type { RequestUser } from '../../http/auth.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { containsPattern } from '../../lib/like.ts';
import { freeOf, ipIsFree, nextVmid, usedCapacity } from '../servers/capacity.ts';
import { releaseStaleTask } from '../servers/server-operation.ts';
import { ownVdc, vdcIso, vdcVm, type VdcRow } from './vdc-access.ts';
import { deleteVdcVmJob, provisionVdcVmJob, resizeVdcVmKind } from './vdc.jobs.ts';
import { networkMessages, nextFreeAddress, takenAddresses } from './vdc-network.service.ts';
import { poolUsage } from './vdc.product.ts';

type VdcDeps = Pick<Deps, 'db' | 'env'> & { jobs?: { kick(): void } };
type ServerRow = typeof servers.$inferSelect;

/** What a VM from the customer's own ISO is called in the server's OS column (the root server panel shows it). */
export const OWN_ISO_OS = 'Eigenes ISO';

export const vdcPoolMessages = {
  notActive: {
    provisioning: 'Das Virtual Data Center wird noch eingerichtet. Bitte versuchen Sie es gleich erneut.',
    suspended: 'Die Laufzeit dieses Virtual Data Centers ist abgelaufen. Bitte verlängern Sie es, um VMs zu verwalten.',
    failed: 'Die Einrichtung dieses Virtual Data Centers ist fehlgeschlagen. Bitte wenden Sie sich an den Support.',
  },
  cpu: (free: number, need: number) => `Im Pool sind nur noch ${free} vCPU frei; diese VM braucht ${need}.`,
  ram: (free: number, need: number) => `Im Pool sind nur noch ${free} GB RAM frei; diese VM braucht ${need} GB.`,
  storage: (free: number, need: number) => `Im Pool sind nur noch ${free} GB Speicher frei; diese VM braucht ${need} GB.`,
  vms: (max: number) => `Der Pool hat bereits ${max} von ${max} VMs; löschen Sie zuerst eine VM oder vergrößern Sie das Virtual Data Center per Anfrage.`,
  noIp: 'Im Pool ist keine öffentliche IPv4-Adresse mehr frei; erstellen Sie die VM ohne öffentliche Adresse oder geben Sie zuerst eine Adresse frei.',
  nameTaken: 'In diesem Virtual Data Center gibt es bereits eine VM mit diesem Namen.',
  osUnknown: 'Dieses Betriebssystem wird nicht angeboten. Bitte wählen Sie eine der Linux-Vorlagen oder ein eigenes ISO-Image.',
  isoNotReady: 'Dieses ISO-Image ist noch nicht vollständig hochgeladen.',
  diskShrink: 'Die Festplatte einer VM kann nur vergrößert werden.',
  vmNotReady: 'Die VM wird gerade eingerichtet. Bitte warten Sie, bis sie fertig ist.',
  vmFailed: 'Die Einrichtung dieser VM ist fehlgeschlagen. Bitte löschen Sie sie und erstellen Sie sie neu.',
  vmBusy: 'Auf der VM läuft gerade ein anderer Vorgang. Bitte versuchen Sie es gleich erneut.',
  ipNotFound: 'Diese IP-Adresse wurde nicht gefunden.',
  ipTaken: (vm: string) => `Diese IP-Adresse ist bereits der VM ${vm} zugewiesen. Nehmen Sie sie dort zuerst weg.`,
  vmHasIp: (vm: string, address: string) => `Die VM ${vm} hat bereits die öffentliche Adresse ${address}. Nehmen Sie sie dort zuerst weg.`,
  resizeStarted: 'Die VM wird angepasst.',
  deleteStarted: 'Die VM wird gelöscht; ihre Ressourcen sind wieder frei.',
} as const;

// ── Reading ────────────────────────────────────────────────────────────────────────────────────────

function cardOf(v: VdcRow, u: Awaited<ReturnType<typeof poolUsage>>): VdcCard {
  return {
    id: v.id, number: v.number, name: v.name, status: v.status, statusMessage: v.statusMessage, expiresAt: v.expiresAt?.toISOString() ?? null,
    cpu: { used: u.cpu, total: v.cpuCores }, ramGb: { used: u.ram, total: v.ramGb }, storageGb: { used: u.storage, total: v.storageGb },
    ipv4: { used: u.ipv4Used, total: u.ipv4Total }, vms: u.vms,
  };
}

/** The customer's live virtual data centers (owner only: a VDC is not shared with other logins). */
export async function listVdcs({ db }: Pick<Deps, 'db'>, user: RequestUser): Promise<VdcList> {
  const rows = await db.select().from(vdcs).where(and(eq(vdcs.ownerId, user.id), isNull(vdcs.deletedAt))).orderBy(desc(vdcs.createdAt));
  if (!rows.length) return { items: [] };
  // Two grouped queries for all of them (not two per pool), limited to this customer's pools.
  const ids = rows.map((v) => v.id);
  const [vms, ips] = await Promise.all([
    db.select({
      vdcId: servers.vdcId, n: count(), cpu: sql<number>`coalesce(sum(${servers.cpuCores}), 0)::int`,
      ram: sql<number>`coalesce(sum(${servers.ramGb}), 0)::int`, storage: sql<number>`coalesce(sum(${servers.storageGb}), 0)::int`,
    }).from(servers).where(and(inArray(servers.vdcId, ids), isNull(servers.deletedAt))).groupBy(servers.vdcId),
    db.select({ vdcId: ipAddresses.vdcId, total: count(), used: sql<number>`count(${ipAddresses.serverId})::int` })
      .from(ipAddresses).where(inArray(ipAddresses.vdcId, ids)).groupBy(ipAddresses.vdcId),
  ]);
  return {
    items: rows.map((v) => {
      const vm = vms.find((r) => r.vdcId === v.id);
      const ip = ips.find((r) => r.vdcId === v.id);
      return cardOf(v, {
        cpu: Number(vm?.cpu ?? 0), ram: Number(vm?.ram ?? 0), storage: Number(vm?.storage ?? 0), vms: Number(vm?.n ?? 0),
        ipv4Total: Number(ip?.total ?? 0), ipv4Used: Number(ip?.used ?? 0),
      });
    }),
  };

}

export async function listVdcIsos(db: Db, vdcId: string): Promise<VdcIso[]> {
  const rows = await db.select().from(vdcIsos).where(and(eq(vdcIsos.vdcId, vdcId), isNull(vdcIsos.deletedAt))).orderBy(asc(vdcIsos.createdAt));
  const attached = rows.length
    ? await db.select({ isoId: servers.isoId, id: servers.id }).from(servers).where(and(eq(servers.vdcId, vdcId), isNull(servers.deletedAt), inArray(servers.isoId, rows.map((r) => r.id))))
    : [];
  return rows.map((r) => ({
    id: r.id, name: r.name, sizeBytes: r.sizeBytes, receivedBytes: r.receivedBytes, status: r.status, statusMessage: r.statusMessage,
    attachedTo: attached.filter((a) => a.isoId === r.id).map((a) => a.id), createdAt: r.createdAt.toISOString(),
  }));
}

/** The pool page: used and total per resource from the live VMs and addresses, the VMs, images, network and addresses. */
export async function getVdcDetail(deps: Pick<Deps, 'db' | 'env'>, user: RequestUser, id: string): Promise<VdcDetail> {
  const { db } = deps;
  const vdc = await ownVdc(db, user.id, id);
  const usage = await poolUsage(db, vdc.id);
  const vms = await db.select().from(servers).where(and(eq(servers.vdcId, vdc.id), isNull(servers.deletedAt))).orderBy(asc(servers.createdAt), asc(servers.vmid));
  const ips = await db.select({ id: ipAddresses.id, address: ipAddresses.address, serverId: ipAddresses.serverId }).from(ipAddresses)
    .where(eq(ipAddresses.vdcId, vdc.id)).orderBy(asc(ipAddresses.id));
  const isos = await listVdcIsos(db, vdc.id);
  const isoBytes = isos.reduce((sum, iso) => sum + (iso.status === 'failed' ? 0 : iso.sizeBytes), 0);
  const vmList: VdcVm[] = vms.map((s) => ({
    id: s.id, name: s.name, status: s.status, cpuCores: s.cpuCores, ramGb: s.ramGb, diskGb: s.storageGb, os: s.os,
    publicIpv4: ips.find((ip) => ip.serverId === s.id)?.address ?? null, privateAddress: s.privateAddress, isoId: s.isoId,
  }));
  return {
    ...cardOf(vdc, usage),
    isoLibrary: { used: isoBytes, total: vdc.isoQuotaGb * 1024 ** 3, unit: 'bytes' },
    maxVms: vdc.maxVms,
    network: { cidr: vdc.networkCidr, status: vdc.networkStatus },
    vmList, isos, ipv4List: ips,
    renewPath: `/shop/vdc-request?renew=${vdc.id}`,
    graceDays: deps.env.billing.graceDays,
  };
}

// ── VMs: every decision under the pool's row lock ──────────────────────────────────────────────────

function assertActive(vdc: VdcRow) {
  if (vdc.status !== 'active') throw conflict('VDC_NOT_ACTIVE', vdcPoolMessages.notActive[vdc.status]);
}

/** What the pool cannot give for `need` (beyond what `exceptVm` holds now), as one German sentence per resource. */
async function missingInPool(tx: Tx, vdc: VdcRow, need: { cpuCores: number; ramGb: number; storageGb: number }, exceptVm?: ServerRow) {
  const used = await poolUsage(tx, vdc.id);
  const free = {
    cpu: vdc.cpuCores - used.cpu + (exceptVm?.cpuCores ?? 0),
    ram: vdc.ramGb - used.ram + (exceptVm?.ramGb ?? 0),
    storage: vdc.storageGb - used.storage + (exceptVm?.storageGb ?? 0),
  };
  const missing: string[] = [];
  if (need.cpuCores > free.cpu) missing.push(vdcPoolMessages.cpu(Math.max(0, free.cpu), need.cpuCores));
  if (need.ramGb > free.ram) missing.push(vdcPoolMessages.ram(Math.max(0, free.ram), need.ramGb));
  if (need.storageGb > free.storage) missing.push(vdcPoolMessages.storage(Math.max(0, free.storage), need.storageGb));
  return { missing, used };
}

const poolFull = (missing: string[]) => conflict('VDC_POOL_EXHAUSTED', missing.join(' '));

export async function createVm(deps: VdcDeps, user: RequestUser, vdcId: string, input: VdcVmCreateInput): Promise<VdcVm> {
  if (input.os && !(LINUX_DISTROS as readonly string[]).includes(input.os)) throw badRequest('OS_UNKNOWN', vdcPoolMessages.osUnknown);
  const vm = await deps.db.transaction(async (tx) => {
    const vdc = await ownVdc(tx, user.id, vdcId, { lock: true });
    assertActive(vdc);
    let iso: { id: string } | null = null;
    if (input.isoId) {
      const found = await vdcIso(tx, vdc.id, input.isoId);
      if (found.status !== 'ready') throw conflict('ISO_NOT_READY', vdcPoolMessages.isoNotReady);
      iso = found;
    }
    const [twin] = await tx.select({ id: servers.id }).from(servers).where(and(eq(servers.vdcId, vdc.id), isNull(servers.deletedAt), eq(servers.name, input.name))).limit(1);
    if (twin) throw conflict('VM_NAME_TAKEN', vdcPoolMessages.nameTaken);
    const need = { cpuCores: input.cpuCores, ramGb: input.ramGb, storageGb: input.diskGb };
    const { missing, used } = await missingInPool(tx, vdc, need);
    if (used.vms >= vdc.maxVms) missing.push(vdcPoolMessages.vms(vdc.maxVms));
    let ip: { id: number; address: string } | null = null;
    if (input.publicIpv4) {
      // The pool's row lock serialises this; the row lock on the address keeps staff tools out meanwhile.
      const [free] = await tx.select({ id: ipAddresses.id, address: ipAddresses.address }).from(ipAddresses)
        .where(and(eq(ipAddresses.vdcId, vdc.id), isNull(ipAddresses.serverId))).orderBy(asc(ipAddresses.id)).limit(1).for('update');
      ip = free ?? null;
      if (!ip) missing.push(vdcPoolMessages.noIp);
    }
    if (missing.length) throw poolFull(missing);
    // "Mit dem privaten Netz verbinden": the address is decided here, under the pool's lock like a join;
    // the provisioning job attaches the VM's second card to the VNet before the VM counts as online.
    let privateAddress: string | null = null;
    if (input.privateNetwork) {
      if (vdc.networkStatus === 'creating' || vdc.networkStatus === 'deleting') throw conflict('NETWORK_BUSY', networkMessages.busy);
      if (vdc.networkStatus !== 'active' || !vdc.networkCidr) throw conflict('NETWORK_NOT_READY', networkMessages.notSetUp);
      privateAddress = nextFreeAddress(vdc.networkCidr, await takenAddresses(tx, vdc.id));
      if (!privateAddress) throw conflict('NETWORK_FULL', networkMessages.full);
    }

    const vmid = await nextVmid(tx);
    const [server] = await tx.insert(servers).values({
      vmid, name: input.name, ownerId: vdc.ownerId, nodeId: vdc.nodeId, vdcId: vdc.id, os: input.os ?? OWN_ISO_OS, isoId: iso?.id ?? null,
      cpuCores: input.cpuCores, ramGb: input.ramGb, storageGb: input.diskGb, status: 'provisioning', privateAddress,
    }).returning();
    if (ip) await tx.update(ipAddresses).set({ serverId: server!.id }).where(eq(ipAddresses.id, ip.id));
    await tx.insert(serverTasks).values({ serverId: server!.id, kind: 'create', status: 'running', progress: 0, payload: { vdcId: vdc.id } });
    await enqueue(tx, provisionVdcVmJob, { serverId: server!.id }, { dedupeKey: `provision-vdc-vm:${server!.id}` });
    return { server: server!, ip: ip?.address ?? null };
  });
  deps.jobs?.kick();
  const s = vm.server;
  return { id: s.id, name: s.name, status: s.status, cpuCores: s.cpuCores, ramGb: s.ramGb, diskGb: s.storageGb, os: s.os, publicIpv4: vm.ip, privateAddress: s.privateAddress, isoId: s.isoId };
}

/** Resize within the pool: the new figures count at once (under the lock), the host follows by job; the disk only grows. */
export async function resizeVm(deps: VdcDeps, user: RequestUser, vdcId: string, vmId: string, input: VdcVmResizeInput) {
  const taskId = await deps.db.transaction(async (tx) => {
    const vdc = await ownVdc(tx, user.id, vdcId, { lock: true });
    assertActive(vdc);
    const vm = await vdcVm(tx, vdc.id, vmId);
    if (vm.status === 'provisioning') throw conflict('VM_NOT_READY', vdcPoolMessages.vmNotReady);
    if (vm.status === 'failed') throw conflict('VM_FAILED', vdcPoolMessages.vmFailed);
    if (vm.busyTaskId) throw conflict('SERVER_BUSY', vdcPoolMessages.vmBusy);
    if (input.diskGb < vm.storageGb) throw badRequest('DISK_SHRINK', vdcPoolMessages.diskShrink);
    const { missing } = await missingInPool(tx, vdc, { cpuCores: input.cpuCores, ramGb: input.ramGb, storageGb: input.diskGb }, vm);
    if (missing.length) throw poolFull(missing);
    const previous = { cpuCores: vm.cpuCores, ramGb: vm.ramGb, storageGb: vm.storageGb };
    const [task] = await tx.insert(serverTasks).values({ serverId: vm.id, kind: 'resize', payload: { previous, previousStatus: vm.status } }).returning({ id: serverTasks.id });
    const claimed = await tx.update(servers).set({ busyTaskId: task!.id, cpuCores: input.cpuCores, ramGb: input.ramGb, storageGb: input.diskGb })
      .where(and(eq(servers.id, vm.id), isNull(servers.busyTaskId))).returning({ id: servers.id });
    // Another operation (a power action of the VM's panel, which does not take the pool's lock) was quicker.
    if (!claimed.length) throw conflict('SERVER_BUSY', vdcPoolMessages.vmBusy);
    await enqueue(tx, resizeVdcVmKind, { serverId: vm.id, taskId: task!.id, previous }, { dedupeKey: `resize-vdc-vm:${task!.id}` });
    return task!.id;
  });
  deps.jobs?.kick();
  return { taskId, message: vdcPoolMessages.resizeStarted };
}

/**
 * Deleting frees the VM's resources at once; its public addresses stay with the pool, unassigned; the host
 * deletes it by job, which then frees its private address (until then no other VM can get it).
 */
export async function deleteVm(deps: VdcDeps, user: RequestUser, vdcId: string, vmId: string) {
  // A claim a crash left behind (e.g. a network change) does not block the delete for ever.
  await releaseStaleTask(deps, await vdcVm(deps.db, (await ownVdc(deps.db, user.id, vdcId)).id, vmId));
  await deps.db.transaction(async (tx) => {
    const vdc = await ownVdc(tx, user.id, vdcId, { lock: true });
    const vm = await vdcVm(tx, vdc.id, vmId);
    // Its creation is still running on the host: deleting now could leave the VM the job is building.
    if (vm.status === 'provisioning') throw conflict('VM_NOT_READY', vdcPoolMessages.vmNotReady);
    // Likewise a reinstall (delete and create on the host) or another operation still holding it.
    if (vm.busyTaskId) throw conflict('SERVER_BUSY', vdcPoolMessages.vmBusy);
    await tx.update(servers).set({ deletedAt: new Date(), isoId: null }).where(eq(servers.id, vm.id));
    await tx.update(ipAddresses).set({ serverId: null }).where(and(eq(ipAddresses.serverId, vm.id), eq(ipAddresses.vdcId, vdc.id)));
    await enqueue(tx, deleteVdcVmJob, { serverId: vm.id }, { dedupeKey: `delete-vdc-vm:${vm.id}` });
  });
  deps.jobs?.kick();
  return { message: vdcPoolMessages.deleteStarted };
}

/** Gives one of the pool's public IPv4 addresses to one of its VMs (`serverId`), or takes it back (null). */
export async function assignIp(deps: VdcDeps, user: RequestUser, vdcId: string, ipId: number, serverId: string | null) {
  return deps.db.transaction(async (tx) => {
    const vdc = await ownVdc(tx, user.id, vdcId, { lock: true });
    const [ip] = await tx.select().from(ipAddresses).where(and(eq(ipAddresses.id, ipId), eq(ipAddresses.vdcId, vdc.id))).for('update');
    if (!ip) throw notFound(vdcPoolMessages.ipNotFound);
    if (serverId === null) {
      await tx.update(ipAddresses).set({ serverId: null }).where(eq(ipAddresses.id, ip.id));
      return { id: ip.id, address: ip.address, serverId: null };
    }
    const vm = await vdcVm(tx, vdc.id, serverId);
    if (ip.serverId && ip.serverId !== vm.id) {
      const [holder] = await tx.select({ name: servers.name }).from(servers).where(eq(servers.id, ip.serverId));
      throw conflict('IP_ASSIGNED', vdcPoolMessages.ipTaken(holder?.name ?? ''));
    }
    // One public IPv4 per VM: the host configures exactly one (its first card), and the list shows one.
    const [other] = await tx.select({ address: ipAddresses.address }).from(ipAddresses)
      .where(and(eq(ipAddresses.serverId, vm.id), ne(ipAddresses.id, ip.id))).limit(1);
    if (other) throw conflict('VM_HAS_IP', vdcPoolMessages.vmHasIp(vm.name, other.address));
    await tx.update(ipAddresses).set({ serverId: vm.id }).where(eq(ipAddresses.id, ip.id));
    return { id: ip.id, address: ip.address, serverId: vm.id };
  });
}

// ── Shop ───────────────────────────────────────────────────────────────────────────────────────────

/** The configurator: whether the smallest pool fits anywhere now, and the prefill of a renewal of one's own VDC. */
export async function getVdcShopInfo({ db }: Pick<Deps, 'db'>, user: RequestUser | null, renewId?: string): Promise<VdcShopInfo> {
  const live = await db.select().from(nodes).where(sql`${nodes.status} in ('online', 'unknown')`).orderBy(nodes.id);
  const largest = { cpu: 0, ram: 0, storage: 0 };
  let fitsMinimum = false;
  for (const node of live) {
    const free = freeOf(node, await usedCapacity(db, node.id));
    largest.cpu = Math.max(largest.cpu, free.cpuCores);
    largest.ram = Math.max(largest.ram, free.ramGb);
    largest.storage = Math.max(largest.storage, free.storageGb);
    if (free.cpuCores >= VDC_LIMITS.cpu.min && free.ramGb >= VDC_LIMITS.ram.min && free.storageGb >= VDC_LIMITS.storage.min) fitsMinimum = true;
  }
  const [ips] = await db.select({ n: count() }).from(ipAddresses).where(and(eq(ipAddresses.version, 'IPv4'), ipIsFree));
  const freeIpv4 = Number(ips?.n ?? 0);
  let renewal: VdcShopInfo['renewal'] = null;
  if (user && renewId) {
    const vdc = await ownVdc(db, user.id, renewId);
    const used = await poolUsage(db, vdc.id);
    renewal = {
      vdcId: vdc.id, number: vdc.number, name: vdc.name, cpu: vdc.cpuCores, ram: vdc.ramGb, storage: vdc.storageGb, ipv4: vdc.ipv4Count,
      expiresAt: vdc.expiresAt?.toISOString() ?? null, used: { cpu: used.cpu, ram: used.ram, storage: used.storage, ipv4: used.ipv4Used },
    };
  }
  return { available: fitsMinimum && freeIpv4 >= VDC_LIMITS.ipv4.min, largestFree: largest, freeIpv4, renewal };
}

// ── Staff ──────────────────────────────────────────────────────────────────────────────────────────

function orderBy<F extends string>(sort: string | undefined, fallback: NoInfer<F | `-${F}`>, columns: Record<F, SQLWrapper>, key: SQLWrapper): SQL[] {
  const value = sort ?? fallback;
  const descending = value.startsWith('-');
  const column = columns[(descending ? value.slice(1) : value) as F];
  return [descending ? desc(column) : asc(column), descending ? desc(key) : asc(key)];
}

/** Staff's list of live virtual data centers with owner, node, use of each resource and status; paged and searched on the server. */
export async function findAdminVdcs({ db }: Pick<Deps, 'db'>, query: AdminVdcListQuery): Promise<AdminVdcPage> {
  const paging = resolvePaging(query);
  const term = paging.q ? containsPattern(paging.q) : undefined;
  const where = and(
    isNull(vdcs.deletedAt),
    term ? sql`(${vdcs.number}::text ilike ${term} or ${vdcs.name} ilike ${term} or ${users.username} ilike ${term} or ${users.customerNumber}::text ilike ${term})` : undefined,
    query.status ? eq(vdcs.status, query.status) : undefined,
  );
  const vmUse = db.select({
    vdcId: servers.vdcId,
    n: sql<number>`count(*)::int`.as('vm_count'),
    cpu: sql<number>`coalesce(sum(${servers.cpuCores}), 0)::int`.as('vm_cpu'),
    ram: sql<number>`coalesce(sum(${servers.ramGb}), 0)::int`.as('vm_ram'),
    storage: sql<number>`coalesce(sum(${servers.storageGb}), 0)::int`.as('vm_storage'),
  }).from(servers).where(and(isNull(servers.deletedAt), sql`${servers.vdcId} is not null`)).groupBy(servers.vdcId).as('vm_use');
  const ipUse = db.select({
    vdcId: ipAddresses.vdcId,
    total: sql<number>`count(*)::int`.as('ip_total'),
    used: sql<number>`count(${ipAddresses.serverId})::int`.as('ip_used'),
  }).from(ipAddresses).where(sql`${ipAddresses.vdcId} is not null`).groupBy(ipAddresses.vdcId).as('ip_use');
  const order = orderBy(query.sort, '-number', {
    number: vdcs.number, name: vdcs.name, status: vdcs.status, owner: users.customerNumber, node: nodes.name, expiresAt: vdcs.expiresAt, createdAt: vdcs.createdAt,
  }, vdcs.number);
  const [rows, [total]] = await Promise.all([
    db.select({ vdc: vdcs, ownerNumber: users.customerNumber, ownerName: users.username, nodeName: nodes.name, vm: { n: vmUse.n, cpu: vmUse.cpu, ram: vmUse.ram, storage: vmUse.storage }, ip: { total: ipUse.total, used: ipUse.used } })
      .from(vdcs).innerJoin(users, eq(users.id, vdcs.ownerId)).innerJoin(nodes, eq(nodes.id, vdcs.nodeId))
      .leftJoin(vmUse, eq(vmUse.vdcId, vdcs.id)).leftJoin(ipUse, eq(ipUse.vdcId, vdcs.id))
      .where(where).orderBy(...order).limit(paging.limit).offset(paging.offset),
    db.select({ total: count() }).from(vdcs).innerJoin(users, eq(users.id, vdcs.ownerId)).where(where),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.vdc.id, number: r.vdc.number, name: r.vdc.name, status: r.vdc.status, statusMessage: r.vdc.statusMessage,
      owner: { id: r.vdc.ownerId, customerNumber: r.ownerNumber, username: r.ownerName },
      node: { id: r.vdc.nodeId, name: r.nodeName },
      cpu: { used: Number(r.vm?.cpu ?? 0), total: r.vdc.cpuCores }, ramGb: { used: Number(r.vm?.ram ?? 0), total: r.vdc.ramGb },
      storageGb: { used: Number(r.vm?.storage ?? 0), total: r.vdc.storageGb }, ipv4: { used: Number(r.ip?.used ?? 0), total: Number(r.ip?.total ?? 0) },
      vms: Number(r.vm?.n ?? 0), expiresAt: r.vdc.expiresAt?.toISOString() ?? null, createdAt: r.vdc.createdAt.toISOString(),
    })),
    total: total?.total ?? 0, page: paging.page, pageSize: paging.pageSize,
  };
}

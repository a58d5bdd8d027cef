import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { ipv4ToInt, serverMessages, type VdcNetwork, type VdcVmNetworkState } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { nodes, servers, serverTasks, vdcs } from '../../db/schema/index.ts';
import { HypervisorError } from '../../drivers/hypervisor/hypervisor.ts';
import { conflict } from '../../http/errors.ts';
import { defineJob } from '../../jobs/define.ts';
import { finishTask, guardOperation, releaseStaleTask } from '../servers/server-operation.ts';
import { toAppError, vmOf } from '../servers/server-access.ts';
import { ownVdc, vdcVm, type VdcRow } from './vdc-access.ts';
import { assertVdcActive } from './vdc-isos.service.ts';

/**
 * The VDC's private network (issue 25, decision 036): one SDN VNet with the RFC 1918 range the customer
 * picked. The first host of the range is the gateway; VMs get the next free address after it, decided
 * under the VDC's row lock so two joins never get the same one. The range can change only while no VM
 * is in the network.
 */

type NetworkDeps = Pick<Deps, 'db' | 'hypervisor'>;

export const networkMessages = {
  inUse: 'Der Adressbereich kann nicht geändert werden, solange VMs im privaten Netz sind. Bitte nehmen Sie zuerst alle VMs aus dem Netz.',
  busy: 'Das private Netz wird gerade eingerichtet. Bitte versuchen Sie es gleich erneut.',
  notSetUp: 'Bitte richten Sie zuerst das private Netz ein (Adressbereich wählen).',
  failed: 'Das private Netz konnte nicht eingerichtet werden. Bitte versuchen Sie es erneut oder wenden Sie sich an den Support.',
  full: 'Im privaten Netz ist keine Adresse mehr frei. Bitte wählen Sie einen größeren Adressbereich oder nehmen Sie eine andere VM aus dem Netz.',
} as const;

const intToIpv4 = (n: number) => [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.');

/** Network, gateway (first host) and broadcast of a range such as 10.20.0.0/24, as numbers. */
export function rangeOf(cidr: string) {
  const [ip, bits] = cidr.split('/');
  const network = ipv4ToInt(ip ?? '');
  const prefix = Number(bits);
  if (network === null || !Number.isInteger(prefix) || prefix < 1 || prefix > 30) return null;
  const size = 2 ** (32 - prefix);
  return { network, gateway: network + 1, broadcast: network + size - 1 };
}

export const gatewayOf = (cidr: string) => {
  const range = rangeOf(cidr);
  return range ? intToIpv4(range.gateway) : null;
};

/** The lowest address after the gateway that nobody has, or null when the range is full. */
export function nextFreeAddress(cidr: string, taken: Iterable<string>): string | null {
  const range = rangeOf(cidr);
  if (!range) return null;
  const used = new Set([...taken].map((a) => ipv4ToInt(a)));
  for (let n = range.gateway + 1; n < range.broadcast; n++) if (!used.has(n)) return intToIpv4(n);
  return null;
}

/** The VNet's VLAN tag (VXLAN: its VNI): derived from the VDC number, 1..4094, so it needs no column. */
export const vnetTag = (vdcNumber: number) => 1 + ((vdcNumber - 1) % 4094);

async function membersOf(db: Db | Tx, vdcId: string) {
  return db.select({ vmId: servers.id, name: servers.name, privateAddress: servers.privateAddress }).from(servers)
    .where(and(eq(servers.vdcId, vdcId), isNull(servers.deletedAt), isNotNull(servers.privateAddress))).orderBy(asc(servers.name));
}

/**
 * Addresses in use on the VNet: the members', and those of VMs deleted by the customer whose deletion on
 * the host has not finished yet (the delete job frees the address only after the host removed the VM, so
 * the next VM to join never meets the old one on the same address).
 */
export async function takenAddresses(db: Db | Tx, vdcId: string) {
  const rows = await db.select({ privateAddress: servers.privateAddress }).from(servers)
    .where(and(eq(servers.vdcId, vdcId), isNotNull(servers.privateAddress)));
  return rows.map((r) => r.privateAddress!);
}

/** The network block of the VDC page. */
export async function networkOf(db: Db | Tx, vdc: Pick<VdcRow, 'id' | 'networkCidr' | 'networkStatus'>): Promise<VdcNetwork> {
  const members = (await membersOf(db, vdc.id)).map((m) => ({ vmId: m.vmId, name: m.name, privateAddress: m.privateAddress! }));
  const range = vdc.networkCidr ? rangeOf(vdc.networkCidr) : null;
  return {
    cidr: vdc.networkCidr,
    status: vdc.networkStatus,
    message: vdc.networkStatus === 'failed' ? networkMessages.failed : null,
    gateway: range ? intToIpv4(range.gateway) : null,
    freeAddresses: range ? Math.max(0, range.broadcast - range.gateway - 1 - members.length) : 0,
    members,
  };
}

export async function getNetwork(deps: NetworkDeps, ownerId: string, vdcId: string): Promise<VdcNetwork> {
  return networkOf(deps.db, await ownVdc(deps.db, ownerId, vdcId));
}

export const applyNetworkKind = jobKind('vdc-network-apply', z.object({ vdcId: z.uuid(), cidr: z.string() }));
const APPLY_ATTEMPTS = 5;

/**
 * Chooses the range. Changing it is refused while any VM is joined; the VNet is created (or replaced)
 * by a job, since applying SDN takes a reload on every node.
 */
export async function setNetwork(deps: NetworkDeps, ownerId: string, vdcId: string, cidr: string): Promise<VdcNetwork> {
  const vdc = await deps.db.transaction(async (tx) => {
    const vdc = await ownVdc(tx, ownerId, vdcId, { lock: true });
    assertVdcActive(vdc);
    if (vdc.networkStatus === 'creating' || vdc.networkStatus === 'deleting') throw conflict('NETWORK_BUSY', networkMessages.busy);
    if (vdc.networkCidr === cidr && vdc.networkStatus === 'active') return vdc;
    if ((await membersOf(tx, vdc.id)).length) throw conflict('NETWORK_IN_USE', networkMessages.inUse);
    const [updated] = await tx.update(vdcs).set({ networkCidr: cidr, networkStatus: 'creating' }).where(eq(vdcs.id, vdc.id)).returning();
    await enqueue(tx, applyNetworkKind, { vdcId: vdc.id, cidr }, { maxAttempts: APPLY_ATTEMPTS });
    return updated!;
  });
  return networkOf(deps.db, vdc);
}

/** Creates the VNet with the chosen subnet (replacing one with another range) and marks the network active. */
export const applyNetworkJob = defineJob(applyNetworkKind, async (deps, { vdcId, cidr }, run) => {
  const [vdc] = await deps.db.select().from(vdcs).where(eq(vdcs.id, vdcId));
  if (!vdc || vdc.deletedAt || vdc.networkCidr !== cidr || vdc.networkStatus !== 'creating') return;
  const stillThis = and(eq(vdcs.id, vdcId), eq(vdcs.networkCidr, cidr), eq(vdcs.networkStatus, 'creating'));
  try {
    const existing = await deps.hypervisor.getPrivateNetwork(vdc.vnet);
    if (existing && existing.subnet !== cidr) await deps.hypervisor.deletePrivateNetwork(vdc.vnet);
    await deps.hypervisor.createPrivateNetwork({ vnet: vdc.vnet, tag: vnetTag(vdc.number), subnet: cidr, gateway: gatewayOf(cidr)!, alias: `VDC ${vdc.number}` });
  } catch (err) {
    const permanent = err instanceof HypervisorError && err.code === 'INVALID';
    if (!permanent && run.attempt < APPLY_ATTEMPTS) throw err;
    deps.log.warn({ vdcId, err: { message: (err as Error).message, detail: (err as HypervisorError).detail } }, 'private network setup failed');
    await deps.db.update(vdcs).set({ networkStatus: 'failed' }).where(stillThis);
    return;
  }
  await deps.db.update(vdcs).set({ networkStatus: 'active' }).where(stillThis);
});

/**
 * A VM joins (the next free address, then its second NIC on the VNet) or leaves (NIC removed, then the
 * address freed). The address is decided and stored under the VDC's lock before the host is asked, and
 * released again if the host refuses. A change claims the VM (a `network-join` or `network-leave` task)
 * until the host is done, so a second click or tab meets "busy" instead of an answer the first change
 * then makes untrue; a join or leave that would change nothing answers at once.
 */
export async function setVmNetwork(deps: NetworkDeps, ownerId: string, vdcId: string, vmId: string, join: boolean): Promise<VdcVmNetworkState> {
  // A claim left behind by a crash between claim and finish is given back after a while.
  await releaseStaleTask(deps, await vdcVm(deps.db, (await ownVdc(deps.db, ownerId, vdcId)).id, vmId));
  const step = await deps.db.transaction(async (tx) => {
    const vdc = await ownVdc(tx, ownerId, vdcId, { lock: true });
    const vm = await vdcVm(tx, vdc.id, vmId);
    assertVdcActive(vdc);
    if (vm.busyTaskId) throw conflict('SERVER_BUSY', serverMessages.busy);
    if (join === Boolean(vm.privateAddress)) return { vm, action: 'none' as const, address: vm.privateAddress };
    guardOperation(vm, { family: 'manage', refuseFailed: join });
    const [place] = await tx.select({ name: nodes.name }).from(nodes).where(eq(nodes.id, vdc.nodeId));
    let address = vm.privateAddress;
    if (join) {
      if (vdc.networkStatus === 'creating') throw conflict('NETWORK_BUSY', networkMessages.busy);
      if (vdc.networkStatus !== 'active' || !vdc.networkCidr) throw conflict('NETWORK_NOT_READY', networkMessages.notSetUp);
      address = nextFreeAddress(vdc.networkCidr, await takenAddresses(tx, vdc.id));
      if (!address) throw conflict('NETWORK_FULL', networkMessages.full);
    }
    const kind = join ? 'network-join' : 'network-leave';
    const [task] = await tx.insert(serverTasks).values({ serverId: vm.id, kind, payload: { address, previousStatus: vm.status } }).returning({ id: serverTasks.id });
    // The VDC's lock keeps other joins and leaves out; the conditional claim keeps out the VM panel's
    // own operations (power, backup), which do not take that lock.
    const claimed = await tx.update(servers).set({ busyTaskId: task!.id, ...(join ? { privateAddress: address } : {}) })
      .where(and(eq(servers.id, vm.id), isNull(servers.busyTaskId))).returning({ id: servers.id });
    if (!claimed.length) throw conflict('SERVER_BUSY', serverMessages.busy);
    return { vm, action: join ? 'join' as const : 'leave' as const, address: address!, taskId: task!.id, vnet: vdc.vnet, node: place!.name };
  });
  if (step.action === 'none') return { vmId: step.vm.id, privateAddress: step.address };
  const ref = vmOf(step.vm, step.node);
  try {
    if (step.action === 'join') await deps.hypervisor.attachPrivateNetwork(ref, step.vnet);
    // The address stays taken until the NIC is gone, so nobody else gets it while the VM still uses it.
    else await deps.hypervisor.detachPrivateNetwork(ref);
  } catch (err) {
    const failure = toAppError(err);
    await finishTask(deps.db, step.vm.id, step.taskId, { ok: false, error: failure.message, server: step.action === 'join' ? { privateAddress: null } : {} });
    throw failure;
  }
  await finishTask(deps.db, step.vm.id, step.taskId, { ok: true, server: step.action === 'leave' ? { privateAddress: null } : {} });
  return { vmId: step.vm.id, privateAddress: step.action === 'join' ? step.address : null };
}

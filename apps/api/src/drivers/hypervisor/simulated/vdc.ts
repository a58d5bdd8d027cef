/**
 * What a virtual data center needs, simulated like Proxmox does it (docs/integrations/proxmox-vdc.md):
 * pools (`sim_pools`; members are the VMs whose state names the pool), VNets with one subnet
 * (`sim_vnets`, one VLAN tag per zone, applied by a `reloadnetworkall` task) and ISO images
 * (`sim_isos`, listed once their `imgcopy` task ended). A VM's second NIC, CD-ROM drive and boot order
 * live in its state.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { simIsos, simPools, simVms, simVnets } from '../../../db/schema/infrastructure.ts';
import {
  HypervisorError, hypervisorMessages,
  type Hypervisor, type IsoImage, type PoolInfo, type PrivateNetworkInfo, type PrivateNetworkSpec, type VmDevices, type VmRef,
} from '../hypervisor.ts';
import { assertUnlocked, DURATION, progressReporter, type Tasks } from './tasks.ts';
import type { SimVmState, VmStore } from './vm-state.ts';

export interface SimVdcOptions {
  /** The SDN zone the VNets go into (a VLAN zone). */
  zone: string;
  /** The storage holding ISO images, e.g. `local` (volids `local:iso/…`). */
  isoStorage: string;
  /** The node that runs cluster-wide tasks (the SDN reload). */
  clusterNode: string;
}

const invalid = (message: string, detail: string) => new HypervisorError('INVALID', message, detail);

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const ipv4Number = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);

function parseCidr(cidr: string) {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(cidr);
  if (!m || !IPV4.test(m[1]!) || Number(m[2]) > 32) return null;
  const bits = Number(m[2]);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { network: (ipv4Number(m[1]!) & mask) >>> 0, mask };
}

/** pve-storage normalize_content_filename. */
const normalize = (filename: string) => filename.replace(/\n$/, '').replace(/^.*[/\\]/, '').replace(/[^a-zA-Z0-9_.-]/g, '_');

export function createVdc(db: Db, store: VmStore, tasks: Tasks, now: () => number, opts: SimVdcOptions) {
  const { withVm, readVm } = store;
  const { failCall, failureFor, insertTask, waitForTask, elapse } = tasks;
  const isoVolid = new RegExp(`^${opts.isoStorage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:iso/[A-Za-z0-9_.-]+\\.(iso|img)$`, 'i');

  function guardIso(volid: string) {
    if (!isoVolid.test(volid)) throw invalid('Das ist kein ISO-Abbild aus der ISO-Bibliothek.', `not an ISO image in ${opts.isoStorage}: ${volid}`);
  }

  /** PUT /cluster/sdn: pending VNet changes take effect once the reload task ends (an injected text fails the task). */
  async function reloadSdn(exitStatus: string | undefined) {
    const task = await insertTask(db, { node: opts.clusterNode, vmid: null, type: 'reloadnetworkall', baseMs: DURATION.reloadnetworkall, effects: { ok: { kind: 'none' } }, exitStatus });
    await waitForTask(task);
  }

  /** A config change on the VM (Proxmox: POST …/config, refused while a task holds the VM). */
  async function configure(vm: VmRef, change: (state: SimVmState) => void) {
    failCall('config', vm);
    await withVm(vm, ({ state, pending }) => {
      assertUnlocked(pending);
      change(state);
      return { state, result: undefined };
    });
    await elapse(DURATION.qmconfig);
  }

  async function getPool(poolid: string): Promise<PoolInfo | null> {
    failCall('pool');
    const [pool] = await db.select().from(simPools).where(eq(simPools.poolid, poolid));
    if (!pool) return null;
    const members = await db.select({ vmid: simVms.vmid }).from(simVms).where(sql`${simVms.state}->>'pool' = ${poolid}`).orderBy(asc(simVms.vmid));
    return { poolid, ...(pool.comment ? { comment: pool.comment } : {}), vmids: members.map((m) => m.vmid) };
  }

  async function getPrivateNetwork(vnet: string): Promise<PrivateNetworkInfo | null> {
    failCall('sdn');
    const [row] = await db.select().from(simVnets).where(eq(simVnets.vnet, vnet));
    if (!row) return null;
    return { vnet, zone: row.zone, tag: row.tag, subnet: row.subnet, gateway: row.gateway, ...(row.alias ? { alias: row.alias } : {}) };
  }

  async function createPrivateNetwork(spec: PrivateNetworkSpec) {
    const exitStatus = failureFor('sdn');
    // The checks Proxmox makes: pve-network VnetPlugin.pm (id), Zones/VlanPlugin.pm (tag), SubnetPlugin.pm (gateway).
    if (!/^[a-zA-Z][a-zA-Z0-9]*[a-zA-Z0-9]$/.test(spec.vnet) || spec.vnet.length > 8) throw invalid(hypervisorMessages.INVALID, `vnet: invalid SDN vnet id '${spec.vnet}'`);
    if (!Number.isInteger(spec.tag) || spec.tag < 1 || spec.tag > 4096) throw invalid(hypervisorMessages.INVALID, `tag: vlan tag must be 1..4096, got ${spec.tag}`);
    const cidr = parseCidr(spec.subnet);
    if (!cidr) throw invalid(hypervisorMessages.INVALID, `subnet: value does not look like a valid CIDR network: ${spec.subnet}`);
    if (!IPV4.test(spec.gateway) || ((ipv4Number(spec.gateway) & cidr.mask) >>> 0) !== cidr.network) {
      throw invalid('Das Gateway liegt nicht im gewählten Adressbereich.', `gateway: ${spec.gateway} is not in subnet ${spec.subnet}`);
    }
    const row = { vnet: spec.vnet, zone: opts.zone, tag: spec.tag, subnet: spec.subnet, gateway: spec.gateway, alias: spec.alias ?? null };
    await db.transaction(async (tx) => {
      const inserted = await tx.insert(simVnets).values(row).onConflictDoNothing().returning({ vnet: simVnets.vnet });
      if (inserted.length) return;
      const [same] = await tx.select().from(simVnets).where(eq(simVnets.vnet, spec.vnet));
      if (same) {
        if (same.zone === row.zone && same.tag === row.tag && same.subnet === row.subnet && same.gateway === row.gateway) return;
        throw invalid('Das private Netz existiert bereits mit anderen Einstellungen.', `vnet ${spec.vnet} exists with tag ${same.tag}, subnet ${same.subnet}`);
      }
      const [other] = await tx.select({ vnet: simVnets.vnet }).from(simVnets).where(and(eq(simVnets.zone, opts.zone), eq(simVnets.tag, spec.tag)));
      throw invalid(hypervisorMessages.INVALID, `tag: tag ${spec.tag} already exist in vnet ${other?.vnet ?? '?'}`);
    });
    await elapse(DURATION.pool);
    // Like Proxmox: the VNet stays configured when the reload fails; a retry applies it.
    await reloadSdn(exitStatus);
  }

  async function deletePrivateNetwork(vnet: string) {
    const exitStatus = failureFor('sdn');
    const deleted = await db.delete(simVnets).where(eq(simVnets.vnet, vnet)).returning({ vnet: simVnets.vnet });
    if (deleted.length) await reloadSdn(exitStatus);
  }

  async function uploadIso(...[upload, onProgress]: Parameters<Hypervisor['uploadIso']>): Promise<IsoImage> {
    // A code throws now; a text (e.g. "checksum mismatch: …") fails the copy task.
    const exitStatus = failureFor('upload');
    const progress = progressReporter(onProgress);
    progress.report(0);
    const filename = normalize(upload.filename);
    // pve-storage API2/Storage/Status.pm upload: raise_param_exc({ filename => "wrong file extension" }).
    if (!/[^/]+\.(?:iso|img)$/i.test(filename)) throw invalid('Nur ISO-Abbilder (.iso oder .img) können hochgeladen werden.', 'filename: wrong file extension');
    const hash = createHash('sha256');
    let received = 0;
    for await (const chunk of upload.data) {
      received += chunk.byteLength;
      if (received > upload.size) break;
      hash.update(chunk);
      progress.report(upload.size > 0 ? (90 * received) / upload.size : 90);
    }
    if (received !== upload.size) {
      throw invalid('Die Datei ist nicht so groß wie angegeben; der Upload wurde verworfen.', `upload: expected ${upload.size} bytes, got ${received}${received > upload.size ? ' or more' : ''}`);
    }
    const volid = `${opts.isoStorage}:iso/${filename}`;
    const copy = await insertTask(db, {
      node: upload.node, vmid: null, type: 'imgcopy', baseMs: DURATION.imgcopy + upload.size / 500_000, effects: { ok: { kind: 'none' } },
      exitStatus,
    });
    await waitForTask(copy, { onProgress: progress.step(90, 100) });
    // Only a finished copy is listed; Proxmox overwrites an image with the same name.
    const at = new Date(now());
    const values = { node: upload.node, volid, size: upload.size, sha256: hash.digest('hex'), availableAt: at, createdAt: at };
    await db.insert(simIsos).values(values).onConflictDoUpdate({ target: [simIsos.node, simIsos.volid], set: { size: values.size, sha256: values.sha256, availableAt: at, createdAt: at } });
    progress.report(100);
    return { volid, size: upload.size, ctime: Math.floor(at.getTime() / 1000) };
  }

  const operations: Pick<Hypervisor,
    'createPool' | 'getPool' | 'deletePool' | 'createPrivateNetwork' | 'getPrivateNetwork' | 'deletePrivateNetwork' | 'attachPrivateNetwork'
    | 'detachPrivateNetwork' | 'uploadIso' | 'listIsos' | 'deleteIso' | 'attachIso' | 'detachIso' | 'vmDevices'> = {
    async createPool(pool) {
      failCall('pool');
      // pve-access-control verify_poolname and pve-manager API2/Pool.pm create_pool.
      if (!/^[A-Za-z][A-Za-z0-9.\-_]*$/.test(pool.poolid)) throw invalid(hypervisorMessages.INVALID, `poolid: pool name '${pool.poolid}' is invalid`);
      await db.insert(simPools).values({ poolid: pool.poolid, comment: pool.comment ?? null }).onConflictDoNothing();
      await elapse(DURATION.pool);
    },
    getPool,
    async deletePool(poolid) {
      failCall('pool');
      await db.transaction(async (tx) => {
        const [pool] = await tx.select().from(simPools).where(eq(simPools.poolid, poolid)).for('update');
        if (!pool) return;
        const [member] = await tx.select({ vmid: simVms.vmid }).from(simVms).where(sql`${simVms.state}->>'pool' = ${poolid}`).orderBy(asc(simVms.vmid)).limit(1);
        if (member) throw invalid('Der Ressourcen-Pool enthält noch Server und kann nicht gelöscht werden.', `delete pool failed: pool '${poolid}' is not empty (contains VM ${member.vmid})`);
        await tx.delete(simPools).where(eq(simPools.poolid, poolid));
      });
      await elapse(DURATION.pool);
    },

    createPrivateNetwork,
    getPrivateNetwork,
    deletePrivateNetwork,
    async attachPrivateNetwork(vm, vnet) {
      const [row] = await db.select({ vnet: simVnets.vnet }).from(simVnets).where(eq(simVnets.vnet, vnet));
      if (!row) throw invalid('Das private Netz existiert nicht.', `bridge '${vnet}' does not exist`);
      await configure(vm, (state) => {
        state.net1 = vnet;
      });
    },
    async detachPrivateNetwork(vm) {
      await configure(vm, (state) => {
        delete state.net1;
      });
    },

    uploadIso,
    async listIsos(node) {
      failCall('iso');
      const rows = await db.select().from(simIsos).where(and(eq(simIsos.node, node), lte(simIsos.availableAt, new Date(now())))).orderBy(asc(simIsos.volid));
      return rows.map((r) => ({ volid: r.volid, size: r.size, ctime: Math.floor(r.availableAt.getTime() / 1000) }));
    },
    async deleteIso(node, volid) {
      failCall('iso');
      guardIso(volid);
      await db.delete(simIsos).where(and(eq(simIsos.node, node), eq(simIsos.volid, volid)));
      await elapse(DURATION.imgdel);
    },
    async attachIso(vm, volid) {
      guardIso(volid);
      const [iso] = await db.select({ volid: simIsos.volid }).from(simIsos).where(and(eq(simIsos.node, vm.node), eq(simIsos.volid, volid), lte(simIsos.availableAt, new Date(now()))));
      if (!iso) throw invalid('Das ISO-Abbild ist auf diesem Host nicht vorhanden.', `volume '${volid}' does not exist`);
      await configure(vm, (state) => {
        state.iso = volid;
        state.bootFromIso = true;
      });
    },
    async detachIso(vm) {
      await configure(vm, (state) => {
        delete state.iso;
        delete state.bootFromIso;
      });
    },
    async vmDevices(vm): Promise<VmDevices> {
      failCall('status', vm);
      const { state } = await readVm(vm);
      return { privateNetwork: state.net1 ?? null, iso: state.iso ?? null, bootFromIso: Boolean(state.iso && state.bootFromIso) };
    },
  };
  return operations;
}

/**
 * What a virtual data center needs from Proxmox (docs/integrations/proxmox-vdc.md): a pool per VDC
 * (`/pools?poolid=`, PVE 8.1+), its private network as an SDN VNet with one subnet (applied with
 * `PUT /cluster/sdn`), the VMs' second NIC on it, and ISO images uploaded to an ISO storage and put into
 * a VM's CD-ROM drive.
 */
import {
  HypervisorError,
  type Hypervisor,
  type IsoImage,
  type PoolInfo,
  type PrivateNetworkInfo,
  type PrivateNetworkSpec,
  type VmDevices,
  type VmRef,
} from '../hypervisor.ts';
import { num, vmPath, type ProxmoxClient } from './proxmox-client.ts';
import type { ProxmoxTasks } from './proxmox-tasks.ts';
import type { VmLookups } from './proxmox-vms.ts';

type Config = Record<string, string | number | undefined> & { digest?: string };

/** pve-storage PVE/Storage.pm normalize_content_filename: the name Proxmox stores an upload under. */
export function normalizeIsoFilename(filename: string) {
  return filename.replace(/\n$/, '').replace(/^.*[/\\]/, '').replace(/[^a-zA-Z0-9_.-]/g, '_');
}

const ISO_VOLID = /^[a-z][a-z0-9\-_.]*[a-z0-9]:iso\/[A-Za-z0-9_.-]+\.(iso|img)$/i;
const CDROM_SLOTS = ['ide2', 'ide0', 'ide1', 'ide3'] as const;
/** pve-network VnetPlugin.pm, standard option 'pve-sdn-vnet-id'. */
const VNET_ID = /^[a-zA-Z][a-zA-Z0-9]{0,6}[a-zA-Z0-9]$/;

const isCdrom = (value: unknown) => typeof value === 'string' && /(?:^|,)media=cdrom(?:,|$)/.test(value);
const volumeOf = (value: unknown) => (typeof value === 'string' ? (value.split(',')[0] ?? '').replace(/^file=/, '') : '');
const holdsIso = (value: unknown) => isCdrom(value) && ISO_VOLID.test(volumeOf(value));

/** The CD-ROM drive holding an ISO, else ide2 unless the cloud-init drive sits there (pve-docs qm-cloud-init.adoc puts it on ide2). */
function cdromSlot(cfg: Config) {
  const holding = CDROM_SLOTS.find((slot) => holdsIso(cfg[slot]));
  if (holding) return holding;
  return CDROM_SLOTS.find((slot) => cfg[slot] === undefined || (isCdrom(cfg[slot]) && volumeOf(cfg[slot]) === 'none')) ?? 'ide2';
}

function bootOrder(cfg: Config) {
  const m = /(?:^|,)order=([^,]*)/.exec(typeof cfg.boot === 'string' ? cfg.boot : '');
  return m ? m[1]!.split(';').filter(Boolean) : [];
}

export function createProxmoxVdc(client: ProxmoxClient, tasks: ProxmoxTasks, lookups: VmLookups) {
  const { api, upload, fail, config } = client;
  const { taskRef, waitIfTask, waitForTask } = tasks;
  const { readConfig, guardTemplate } = lookups;

  const missing = (err: unknown) => err instanceof HypervisorError && err.code === 'NOT_FOUND';
  const vnetPath = (vnet: string) => `/cluster/sdn/vnets/${encodeURIComponent(vnet)}`;
  const isoStoragePath = (node: string) => `/nodes/${encodeURIComponent(node)}/storage/${encodeURIComponent(config.isoStorage)}`;

  function guardIso(volid: string) {
    if (!ISO_VOLID.test(volid) || !volid.startsWith(`${config.isoStorage}:`)) throw fail('INVALID', `not an ISO image in ${config.isoStorage}: ${volid}`, 'Das ist kein ISO-Abbild aus der ISO-Bibliothek.');
  }

  /** Pending SDN changes take effect only after this reload (a `reloadnetworkall` task on every node). */
  async function applySdn() {
    const upid = await api('PUT', '/cluster/sdn');
    if (typeof upid === 'string' && upid.startsWith('UPID:')) await waitForTask(taskRef(upid.split(':')[1] ?? '', upid));
  }

  async function subnetsOf(vnet: string) {
    return api<{ subnet: string; cidr?: string; gateway?: string }[]>('GET', `${vnetPath(vnet)}/subnets`);
  }

  async function setConfig(vm: VmRef, params: Record<string, string>) {
    guardTemplate(vm);
    const cfg = await readConfig(vm);
    await waitIfTask(vm.node, await api('POST', `${vmPath(vm)}/config`, { ...params, digest: cfg.digest }));
  }

  async function getPool(poolid: string): Promise<PoolInfo | null> {
    try {
      const [pool] = await api<{ poolid: string; comment?: string; members?: { vmid?: number; type?: string }[] }[]>('GET', '/pools', { poolid });
      if (!pool) return null;
      const vmids = (pool.members ?? []).filter((m) => m.type === 'qemu' && m.vmid !== undefined).map((m) => num(m.vmid)).sort((a, b) => a - b);
      return { poolid: pool.poolid, ...(pool.comment ? { comment: pool.comment } : {}), vmids };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async function getPrivateNetwork(vnet: string): Promise<PrivateNetworkInfo | null> {
    let raw: { vnet: string; zone: string; tag?: number; alias?: string };
    try {
      raw = await api('GET', vnetPath(vnet));
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
    const [subnet] = await subnetsOf(vnet);
    return {
      vnet: raw.vnet, zone: raw.zone, tag: num(raw.tag),
      subnet: subnet?.cidr ?? '', gateway: subnet?.gateway ?? '',
      ...(raw.alias ? { alias: raw.alias } : {}),
    };
  }

  async function createPrivateNetwork(spec: PrivateNetworkSpec) {
    const existing = await getPrivateNetwork(spec.vnet);
    const differs = (a: PrivateNetworkInfo) => a.zone !== config.sdnZone || a.tag !== spec.tag || (a.subnet !== '' && (a.subnet !== spec.subnet || a.gateway !== spec.gateway));
    if (existing && differs(existing)) {
      throw fail('INVALID', `vnet ${spec.vnet} exists in zone ${existing.zone} with tag ${existing.tag}, subnet ${existing.subnet}`, 'Das private Netz existiert bereits mit anderen Einstellungen.');
    }
    if (!existing) {
      await api('POST', '/cluster/sdn/vnets', { vnet: spec.vnet, zone: config.sdnZone, tag: spec.tag, alias: spec.alias });
    }
    if (!existing?.subnet) {
      try {
        await api('POST', `${vnetPath(spec.vnet)}/subnets`, { subnet: spec.subnet, type: 'subnet', gateway: spec.gateway });
      } catch (err) {
        // e.g. "gateway: 10.99.0.1 is not in subnet 10.20.0.0/24": leave no half network behind.
        if (!existing) await api('DELETE', vnetPath(spec.vnet)).catch(() => undefined);
        throw err;
      }
    }
    await applySdn();
  }

  async function deletePrivateNetwork(vnet: string) {
    let subnets;
    try {
      subnets = await subnetsOf(vnet);
    } catch (err) {
      if (missing(err)) return;
      throw err;
    }
    // pve-network VnetPlugin.pm on_delete_hook: "Can't delete vnet if subnets exists".
    for (const s of subnets) await api('DELETE', `${vnetPath(vnet)}/subnets/${encodeURIComponent(s.subnet)}`);
    try {
      await api('DELETE', vnetPath(vnet));
    } catch (err) {
      if (!missing(err)) throw err;
    }
    await applySdn();
  }

  async function uploadIso(...[spec, onProgress]: Parameters<Hypervisor['uploadIso']>): Promise<IsoImage> {
    const filename = normalizeIsoFilename(spec.filename);
    const volid = `${config.isoStorage}:iso/${filename}`;
    let reported = -1;
    const report = (p: number) => {
      const value = Math.min(100, Math.round(p));
      if (value > reported) onProgress?.((reported = value));
    };
    report(0);
    const upid = await upload(
      `${isoStoragePath(spec.node)}/upload`,
      [['content', 'iso']],
      { field: 'filename', filename, size: spec.size, data: spec.data },
      (sent) => report(spec.size > 0 ? (90 * sent) / spec.size : 90),
    );
    // The `imgcopy` task copies the temporary file into the storage; it fails e.g. for a disk image with a backing file.
    if (typeof upid === 'string' && upid.startsWith('UPID:')) await waitForTask(taskRef(spec.node, upid), { onProgress: (p) => report(90 + p / 10) });
    const image = (await listIsos(spec.node)).find((i) => i.volid === volid);
    if (!image) throw fail('TASK_FAILED', `${volid} is not listed after the upload`);
    report(100);
    return image;
  }

  async function listIsos(node: string): Promise<IsoImage[]> {
    const rows = await api<{ volid: string; size?: number; ctime?: number; content?: string }[]>('GET', `${isoStoragePath(node)}/content`, { content: 'iso' });
    return rows.filter((r) => r.content === undefined || r.content === 'iso').map((r) => ({ volid: r.volid, size: num(r.size), ctime: num(r.ctime) })).sort((a, b) => a.volid.localeCompare(b.volid));
  }

  const operations: Pick<Hypervisor,
    'createPool' | 'getPool' | 'deletePool' | 'createPrivateNetwork' | 'getPrivateNetwork' | 'deletePrivateNetwork' | 'attachPrivateNetwork'
    | 'detachPrivateNetwork' | 'uploadIso' | 'listIsos' | 'deleteIso' | 'attachIso' | 'detachIso' | 'vmDevices'> = {
    async createPool(pool) {
      try {
        await api('POST', '/pools', { poolid: pool.poolid, comment: pool.comment });
      } catch (err) {
        // pve-manager PVE/API2/Pool.pm create_pool: "pool '…' already exists".
        if (err instanceof HypervisorError && /already exists/.test(err.detail ?? '')) return;
        throw err;
      }
    },
    getPool,
    async deletePool(poolid) {
      try {
        await api('DELETE', '/pools', { poolid });
      } catch (err) {
        if (missing(err)) return;
        // PVE/API2/Pool.pm delete_pool: "pool '…' is not empty (contains VM 123)".
        if (err instanceof HypervisorError && /is not empty/.test(err.detail ?? '')) throw fail('INVALID', err.detail, 'Der Ressourcen-Pool enthält noch Server und kann nicht gelöscht werden.');
        throw err;
      }
    },

    createPrivateNetwork,
    getPrivateNetwork,
    deletePrivateNetwork,
    async attachPrivateNetwork(vm, vnet) {
      // The id goes into a property string: nothing but a valid VNet id (no `,key=value` smuggled in).
      if (!VNET_ID.test(vnet)) throw fail('INVALID', `not a VNet id: ${vnet}`, 'Das private Netz existiert nicht.');
      const cfg = await readConfig(vm);
      // Keep the model and MAC address a NIC already has; bridge and firewall are ours.
      const first = (typeof cfg.net1 === 'string' ? cfg.net1 : '').split(',')[0] ?? '';
      const model = /^(virtio|e1000|rtl8139|vmxnet3)(=[0-9A-Fa-f:]{17})?$/.test(first) ? first : 'virtio';
      guardTemplate(vm);
      await waitIfTask(vm.node, await api('POST', `${vmPath(vm)}/config`, { net1: `${model},bridge=${vnet},firewall=1`, digest: cfg.digest }));
    },
    async detachPrivateNetwork(vm) {
      const cfg = await readConfig(vm);
      if (cfg.net1 === undefined) return;
      guardTemplate(vm);
      await waitIfTask(vm.node, await api('POST', `${vmPath(vm)}/config`, { delete: 'net1', digest: cfg.digest }));
    },

    uploadIso,
    listIsos,
    async deleteIso(node, volid) {
      guardIso(volid);
      try {
        await waitIfTask(node, await api('DELETE', `${isoStoragePath(node)}/content/${encodeURIComponent(volid)}`));
      } catch (err) {
        if (!missing(err)) throw err;
      }
    },
    async attachIso(vm, volid) {
      guardIso(volid);
      const cfg = await readConfig(vm);
      const slot = cdromSlot(cfg);
      await setConfig(vm, { [slot]: `${volid},media=cdrom`, boot: `order=${slot};scsi0` });
    },
    async detachIso(vm) {
      const cfg = await readConfig(vm);
      const slot = CDROM_SLOTS.find((s) => holdsIso(cfg[s]));
      const order = bootOrder(cfg);
      if (!slot && !CDROM_SLOTS.some((s) => order[0] === s)) return;
      await setConfig(vm, { ...(slot ? { [slot]: 'none,media=cdrom' } : {}), boot: 'order=scsi0' });
    },
    async vmDevices(vm): Promise<VmDevices> {
      const cfg = await readConfig(vm);
      const bridge = /(?:^|,)bridge=([^,]+)/.exec(typeof cfg.net1 === 'string' ? cfg.net1 : '');
      const slot = CDROM_SLOTS.find((s) => holdsIso(cfg[s]));
      return { privateNetwork: bridge?.[1] ?? null, iso: slot ? volumeOf(cfg[slot]) : null, bootFromIso: slot !== undefined && bootOrder(cfg)[0] === slot };
    },
  };
  return operations;
}

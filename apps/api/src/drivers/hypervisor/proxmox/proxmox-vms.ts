/**
 * VM operations against Proxmox: provisioning from a template (clone, cloud-init, resize, firewall,
 * start), deletion, power, resources, status and the guest agent. Provisioning steps re-read the VM
 * before they act, so they can be retried after a lost answer without cloning twice.
 */
import type { ProxmoxConfig } from '../../../env.ts';
import {
  HypervisorError,
  type CreateServerSpec,
  type Hypervisor,
  type PowerAction,
  type TaskRef,
  type UsagePoint,
  type VmRef,
  type VmStatus,
} from '../hypervisor.ts';
import { num, sleep, vmPath, type ProxmoxClient } from './proxmox-client.ts';
import { configureAntiSpoofing } from './proxmox-firewall.ts';
import type { ProxmoxTasks } from './proxmox-tasks.ts';

const GiB = 1024 ** 3;

interface RawStatus {
  status?: string;
  name?: string;
  cpu?: number;
  cpus?: number;
  mem?: number;
  maxmem?: number;
  disk?: number;
  maxdisk?: number;
  netin?: number;
  netout?: number;
  uptime?: number;
  lock?: string;
  template?: number | string;
}

function parseSize(raw: string | undefined): number {
  const m = /(?:^|,)size=(\d+(?:\.\d+)?)([KMGT]?)/.exec(raw ?? '');
  if (!m) return 0;
  const unit = { '': 1, K: 1024, M: 1024 ** 2, G: GiB, T: 1024 ** 4 }[m[2] as '' | 'K' | 'M' | 'G' | 'T'];
  return Number(m[1]) * unit;
}

function netConfig(config: ProxmoxConfig, existing: string | undefined) {
  // Keep the model and MAC address the clone got; only bridge and firewall are ours.
  const first = (existing ?? '').split(',')[0] ?? '';
  const model = /^(virtio|e1000|rtl8139|vmxnet3)(=[0-9A-Fa-f:]{17})?$/.test(first) ? first : 'virtio';
  return `${model},bridge=${config.bridge},firewall=1`;
}

function ipConfig(spec: CreateServerSpec) {
  const parts: string[] = [];
  if (spec.ipv4) parts.push(`ip=${spec.ipv4.address}/${spec.ipv4.prefix}`, `gw=${spec.ipv4.gateway}`);
  if (spec.ipv6) parts.push(`ip6=${spec.ipv6.address}/${spec.ipv6.prefix}`, `gw6=${spec.ipv6.gateway}`);
  return parts.length ? parts.join(',') : undefined;
}

export type VmLookups = ReturnType<typeof createVmLookups>;

/** Shared with the backup operations, which must not touch templates either and stop a VM before a restore. */
export function createVmLookups({ api, fail, config }: ProxmoxClient) {
  const templateIds = new Set(Object.values(config.templates));

  async function findVm(vm: VmRef): Promise<RawStatus | null> {
    try {
      return await api<RawStatus>('GET', `${vmPath(vm)}/status/current`);
    } catch (err) {
      if (err instanceof HypervisorError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  async function readConfig(vm: VmRef) {
    return api<Record<string, string | number | undefined> & { digest?: string }>('GET', `${vmPath(vm)}/config`);
  }

  function guardTemplate(vm: VmRef) {
    if (templateIds.has(vm.vmid)) throw fail('INVALID', `VM ${vm.vmid} is an OS template`, 'Eine Betriebssystem-Vorlage kann nicht verändert werden.');
  }

  return { findVm, readConfig, guardTemplate };
}

export function createProxmoxVms(client: ProxmoxClient, tasks: ProxmoxTasks, lookups: VmLookups) {
  const { api, fail, config, attempts, backoff, pollIntervalMs, taskTimeoutMs } = client;
  const { taskRef, noopTask, waitIfTask, waitForTask } = tasks;
  const { findVm, readConfig, guardTemplate } = lookups;

  /** createServer's steps re-read the state before they act, so transient failures may be retried. */
  async function step<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        const transient = err instanceof HypervisorError && (err.code === 'UNAVAILABLE' || err.code === 'TIMEOUT');
        if (transient && attempt < attempts) {
          await sleep(backoff(attempt));
          continue;
        }
        throw err;
      }
    }
  }

  /** e.g. after a lost clone answer the clone keeps running and holds `lock: clone`. */
  async function waitForUnlock(vm: VmRef) {
    const started = Date.now();
    for (;;) {
      const state = await findVm(vm);
      if (!state) throw fail('NOT_FOUND', `VM ${vm.vmid} vanished while waiting for its lock`);
      if (!state.lock) return state;
      if (Date.now() - started > taskTimeoutMs) throw fail('LOCKED', `VM ${vm.vmid} still locked (${state.lock})`);
      await sleep(pollIntervalMs);
    }
  }

  async function createServer(spec: CreateServerSpec, onProgress?: (percent: number) => void) {
    const template = config.templates[spec.os];
    if (template === undefined) throw fail('INVALID', `no template for ${spec.os}`, `Für das Betriebssystem „${spec.os}“ ist auf dem Host keine Vorlage eingerichtet.`);
    guardTemplate(spec);
    const vm: VmRef = { node: spec.node, vmid: spec.vmid };
    let last = -1;
    const progress = (p: number) => {
      const value = Math.round(p);
      if (value > last) {
        last = value;
        onProgress?.(value);
      }
    };
    const within = (from: number, to: number) => (p: number) => progress(from + ((to - from) * p) / 100);
    progress(0);

    await step(async () => {
      const existing = await findVm(vm);
      if (existing) {
        // A retry after a lost answer: the clone was already created; never clone twice.
        const cfg = await readConfig(vm);
        if (Number(cfg.template ?? existing.template ?? 0) === 1 || (cfg.name !== undefined && cfg.name !== spec.name)) {
          throw fail('INVALID', `VM id ${vm.vmid} is already used by "${String(cfg.name)}"`, 'Die Server-ID ist auf dem Host bereits vergeben.');
        }
        if (existing.lock) await waitForUnlock(vm);
        return;
      }
      let upid: unknown;
      try {
        upid = await api('POST', `${vmPath({ node: vm.node, vmid: template })}/clone`, { newid: vm.vmid, name: spec.name, full: true, storage: config.storage, pool: spec.pool });
      } catch (err) {
        if (err instanceof HypervisorError && /already exists/i.test(err.detail ?? '')) throw fail('UNAVAILABLE', err.detail); // re-read and continue
        throw err;
      }
      await waitForTask(taskRef(vm.node, upid), { onProgress: within(0, 50) });
    });
    progress(50);

    await step(async () => {
      const cfg = await readConfig(vm);
      const result = await api('POST', `${vmPath(vm)}/config`, {
        cores: spec.cores,
        memory: spec.memoryMb,
        ciuser: 'root',
        cipassword: spec.rootPassword,
        // Proxmox expects the keys percent-encoded inside the (again encoded) form body.
        sshkeys: spec.sshKeys ? encodeURIComponent(spec.sshKeys) : undefined,
        ipconfig0: ipConfig(spec),
        net0: netConfig(config, typeof cfg.net0 === 'string' ? cfg.net0 : undefined),
        digest: cfg.digest,
      });
      await waitIfTask(vm.node, result);
    });
    progress(60);

    await step(async () => {
      const cfg = await readConfig(vm);
      if (spec.diskGb * GiB > parseSize(typeof cfg.scsi0 === 'string' ? cfg.scsi0 : undefined)) {
        await waitIfTask(vm.node, await api('PUT', `${vmPath(vm)}/resize`, { disk: 'scsi0', size: `${spec.diskGb}G` }));
      }
    });
    progress(70);

    await step(() => configureAntiSpoofing(client, vm, spec));
    progress(80);

    await step(async () => {
      const state = await findVm(vm);
      if (state?.status === 'running') return;
      const upid = await api('POST', `${vmPath(vm)}/status/start`, {});
      await waitForTask(taskRef(vm.node, upid), { onProgress: within(80, 100) });
    });
    progress(100);
  }

  async function deleteServer(vm: VmRef, onProgress?: (p: number) => void) {
    guardTemplate(vm);
    const state = await findVm(vm);
    if (!state) return;
    if (state.lock) await waitForUnlock(vm);
    if (state.status === 'running') {
      await waitForTask(taskRef(vm.node, await api('POST', `${vmPath(vm)}/status/stop`, {})), { onProgress: (p) => onProgress?.(p / 2) });
    }
    let upid: unknown;
    try {
      upid = await api('DELETE', vmPath(vm), { purge: true, 'destroy-unreferenced-disks': true });
    } catch (err) {
      if (err instanceof HypervisorError && err.code === 'NOT_FOUND') return;
      throw err;
    }
    await waitForTask(taskRef(vm.node, upid), { onProgress: (p) => onProgress?.(50 + p / 2) });
  }

  async function power(vm: VmRef, action: PowerAction): Promise<TaskRef> {
    const state = await findVm(vm);
    if (!state) throw fail('NOT_FOUND', `VM ${vm.vmid} does not exist on ${vm.node}`);
    const running = state.status === 'running';
    // Proxmox fails "start" on a running VM; for us it is a harmless no-op (same for stopping a stopped one).
    if (action === 'start' && running) return noopTask(vm, 'qmstart');
    if ((action === 'stop' || action === 'shutdown') && !running) return noopTask(vm, action === 'stop' ? 'qmstop' : 'qmshutdown');
    const effective = action === 'reboot' && !running ? 'start' : action;
    return taskRef(vm.node, await api('POST', `${vmPath(vm)}/status/${effective}`, {}));
  }

  const operations: Pick<Hypervisor, 'createServer' | 'deleteServer' | 'reinstallServer' | 'resizeServer' | 'power' | 'currentStatus' | 'usageHistory' | 'exec' | 'setRootPassword' | 'setSshKeys'> = {
    createServer,
    deleteServer: (vm) => deleteServer(vm),

    async reinstallServer(spec, onProgress) {
      await deleteServer(spec, (p) => onProgress?.(Math.round(p * 0.2)));
      await createServer(spec, (p) => onProgress?.(Math.round(20 + p * 0.8)));
    },

    async resizeServer(vm, resources) {
      guardTemplate(vm);
      const cfg = await readConfig(vm);
      const current = parseSize(typeof cfg.scsi0 === 'string' ? cfg.scsi0 : undefined);
      const wanted = resources.diskGb * GiB;
      if (wanted < current) throw fail('INVALID', `disk ${resources.diskGb}G < current ${current / GiB}G`, 'Die Festplatte kann nicht verkleinert werden.');
      await waitIfTask(vm.node, await api('POST', `${vmPath(vm)}/config`, { cores: resources.cores, memory: resources.memoryMb, digest: cfg.digest }));
      if (wanted > current) await waitIfTask(vm.node, await api('PUT', `${vmPath(vm)}/resize`, { disk: 'scsi0', size: `${resources.diskGb}G` }));
    },

    power,

    async currentStatus(vm): Promise<VmStatus> {
      const s = await api<RawStatus>('GET', `${vmPath(vm)}/status/current`);
      return {
        status: s.status === 'running' ? 'running' : 'stopped',
        cpu: num(s.cpu),
        cpus: num(s.cpus),
        mem: num(s.mem),
        maxmem: num(s.maxmem),
        // qemu always reports 0 here unless the guest agent fills it in.
        disk: num(s.disk),
        maxdisk: num(s.maxdisk),
        netin: num(s.netin),
        netout: num(s.netout),
        uptime: num(s.uptime),
        ...(s.lock ? { lock: s.lock } : {}),
      };
    },

    async usageHistory(vm, timeframe): Promise<UsagePoint[]> {
      const rows = await api<Record<string, unknown>[]>('GET', `${vmPath(vm)}/rrddata`, { timeframe, cf: 'AVERAGE' });
      return rows
        .filter((r) => typeof r.time === 'number')
        .map((r) => ({
          time: num(r.time),
          cpu: num(r.cpu),
          mem: num(r.mem),
          maxmem: num(r.maxmem),
          netin: num(r.netin),
          netout: num(r.netout),
          diskread: num(r.diskread),
          diskwrite: num(r.diskwrite),
        }));
    },

    async exec(vm, command) {
      const { pid } = await api<{ pid: number }>('POST', `${vmPath(vm)}/agent/exec`, { command });
      const started = Date.now();
      for (;;) {
        const s = await api<{ exited?: number | boolean; exitcode?: number; 'out-data'?: string }>('GET', `${vmPath(vm)}/agent/exec-status`, { pid });
        if (s.exited === 1 || s.exited === true) return { exitCode: num(s.exitcode), stdout: s['out-data'] ?? '' };
        if (Date.now() - started > taskTimeoutMs) throw fail('TIMEOUT', `exec pid ${pid} still running`);
        await sleep(pollIntervalMs);
      }
    },

    async setRootPassword(vm, password) {
      const state = await findVm(vm);
      if (!state) throw fail('NOT_FOUND', `VM ${vm.vmid} does not exist on ${vm.node}`);
      if (state.status === 'running') {
        await api('POST', `${vmPath(vm)}/agent/set-user-password`, { username: 'root', password });
        return;
      }
      // Stopped: cloud-init applies the new password on the next boot.
      const cfg = await readConfig(vm);
      await waitIfTask(vm.node, await api('POST', `${vmPath(vm)}/config`, { cipassword: password, digest: cfg.digest }));
    },

    async setSshKeys(vm, keys) {
      const cfg = await readConfig(vm);
      await waitIfTask(vm.node, await api('POST', `${vmPath(vm)}/config`, { sshkeys: encodeURIComponent(keys), digest: cfg.digest }));
    },
  };
  return operations;
}

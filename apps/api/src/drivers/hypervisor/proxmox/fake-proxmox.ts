/**
 * A fake Proxmox VE API for tests, written from ../shared/integrations/proxmox-ve.md: same paths, same
 * `{data}` envelope, same error shapes (400 `{errors}`, 500 `{message}`, 401, 403, 501, 595/596), tasks
 * with UPIDs that run for a while, plus fault injection. Plain node:http on 127.0.0.1 with a random port.
 *
 * Every request passes Proxmox's own checks first, in Proxmox's order (pve-manager PVE/HTTPServer.pm):
 * authentication, the method + path must exist in the vendor schema (pve-api-schema.json, else 501), an
 * API token on an `allowtoken: 0` path is refused (403), and the parameters are checked against the
 * schema (400 with `{errors}`: unknown parameter, missing, wrong type, enum, pattern, format). Only then
 * does a handler run. Firewall digests are per section (options, rules list, ipset list, one ipset) and
 * computed like pve-firewall's copy_opject_with_digest / copy_list_with_digest.
 */
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ProxmoxConfig } from '../../../env.ts';
import { formatUpid, type OsTemplate } from '../hypervisor.ts';
import { loadWs } from './proxmox.ts';
import { createPveSchemaChecker } from './pve-api-schema.ts';

export type FaultKind = 'locked' | 'lockTimeout' | 'status596' | 'hang' | 'reset' | 'dropAfterClone' | 'taskError';

export interface Fault {
  /** Matched against `${METHOD} ${path}` (path below /api2/json, without query). */
  path?: RegExp;
  /** Named operation, e.g. 'clone', 'config', 'resize', 'start', 'stop', 'status', 'delete', 'vzdump', 'restore', 'rules'. */
  op?: string;
  kind: FaultKind;
  /** How many matching requests are affected (default: all). */
  times?: number;
  /** Error text for 'taskError'. */
  text?: string;
}

interface FakeTask {
  upid: string;
  node: string;
  status: 'running' | 'stopped';
  exitstatus?: string;
  log: string[];
}

interface FakeRule {
  type: 'in' | 'out';
  action: string;
  proto?: string;
  dport?: string;
  comment?: string;
  enable?: number;
}

export interface FakeVm {
  vmid: number;
  node: string;
  status: 'running' | 'stopped';
  lock?: string;
  config: Record<string, string | number>;
  startedAt?: number;
  firewall: { options: Record<string, string | number>; rules: FakeRule[]; ipsets: Map<string, { cidr: string; comment?: string }[]> };
  /** Set through the guest agent. */
  rootPassword?: string;
}

interface FakeBackup {
  volid: string;
  vmid: number;
  size: number;
  ctime: number;
  config: Record<string, string | number>;
}

class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly errors?: Record<string, string>) {
    super(message);
  }
}

const TEMPLATE_OS: OsTemplate[] = ['debian-12', 'debian-11', 'ubuntu-25.04', 'ubuntu-24.10', 'ubuntu-24.04', 'ubuntu-22.04', 'ubuntu-20.04', 'centos-8', 'windows-2025', 'windows-2022'];

export interface FakeProxmoxOptions {
  /** How long a task runs (default 20 ms). */
  taskMs?: number;
  nodes?: string[];
  /** The SDN zone (type VLAN) the operator set up (default 'vdc'). */
  sdnZone?: string;
}

export async function startFakeProxmox(options: FakeProxmoxOptions = {}) {
  const nodes = options.nodes ?? ['pve1'];
  let taskMs = options.taskMs ?? 20;
  const tokenId = 'portal@pve!api';
  const tokenSecret = randomBytes(16).toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
  const consoleUser = 'console@pve';
  const consolePassword = `console-${randomBytes(6).toString('hex')}`;
  const vms = new Map<number, FakeVm>();
  const tasks = new Map<string, FakeTask>();
  const backups: FakeBackup[] = [];
  /** pve-manager PVE/API2/Pool.pm: pools live in user.cfg with their member VMs. */
  const pools = new Map<string, { comment?: string; vms: Set<number> }>();
  /** SDN (pve-network): zones are the operator's; vnets and subnets are pending until PUT /cluster/sdn. */
  const zones = new Map<string, { type: 'vlan' | 'vxlan' }>([[options.sdnZone ?? 'vdc', { type: 'vlan' }]]);
  const vnets = new Map<string, { zone: string; tag?: number; alias?: string }>();
  const subnets = new Map<string, { vnet: string; cidr: string; gateway?: string; zone: string }>();
  /** The applied ("running") VNets: what bridges exist on the nodes. */
  let runningVnets = new Set<string>();
  let sdnApplies = 0;
  /** ISO images per storage (`local:iso/x.iso`). */
  const isos: { volid: string; size: number; ctime: number; sha256: string }[] = [];
  /** Upload bodies, keyed by the temporary file name the HTTP server gives them (/var/tmp/pveupload-…). */
  const uploads = new Map<string, Buffer>();
  /** Storages and the content types they allow (pve-storage storage.cfg). */
  const storages: Record<string, string[]> = { local: ['iso', 'vztmpl', 'backup'], 'local-lvm': ['images', 'rootdir'] };
  const tickets = new Map<string, string>(); // PVEAuthCookie → user
  const termTickets = new Map<string, { vmid: number; port: number; user: string }>();
  const faults: (Fault & { left: number })[] = [];
  /**
   * auth: how the request authenticated itself ('token' = PVEAPIToken header, 'ticket' = PVEAuthCookie);
   * endpoint: the schema's method and path template it matched, e.g. 'GET /nodes/{node}/qemu/{vmid}/config'.
   */
  const calls: { method: string; path: string; op: string; auth: 'token' | 'ticket' | 'none'; endpoint?: string }[] = [];
  const schema = createPveSchemaChecker();
  const hanging = new Set<http.ServerResponse>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let pid = 0x1000;
  let macCounter = 1;
  let clones = 0;
  let backupClock = 0;
  let termPort = 0;

  const templates: Record<string, number> = {};
  TEMPLATE_OS.forEach((os, i) => {
    const vmid = 9000 + i;
    templates[os] = vmid;
    vms.set(vmid, {
      vmid,
      node: nodes[0]!,
      status: 'stopped',
      config: {
        name: `tpl-${os.replace('.', '-')}`,
        template: 1,
        cores: 1,
        memory: 1024,
        scsi0: `local-lvm:base-${vmid}-disk-0,size=2G`,
        net0: `virtio=BC:24:11:00:00:${i.toString(16).padStart(2, '0').toUpperCase()},bridge=vmbr0`,
        ide2: 'local-lvm:vm-cloudinit,media=cdrom',
        agent: '1',
      },
      firewall: { options: {}, rules: [], ipsets: new Map() },
    });
  });

  const digestOf = (value: unknown) => createHash('sha1').update(JSON.stringify(value, (_k, v: unknown) => (v instanceof Map ? [...v.entries()] : v))).digest('hex');

  function later(fn: () => void, ms: number) {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  }

  function startTask(node: string, type: string, id: string, user: string, run: () => string | void, opts: { error?: string; ms?: number } = {}) {
    const upid = formatUpid({ node, pid: pid++, pstart: 0x01b2c3d4, starttime: Math.floor(Date.now() / 1000), type, id, user });
    const task: FakeTask = { upid, node, status: 'running', log: [`starting task ${type} ${id}`] };
    tasks.set(upid, task);
    later(() => {
      let exit = 'OK';
      if (opts.error) exit = opts.error;
      else {
        try {
          exit = run() ?? 'OK';
        } catch (err) {
          exit = (err as Error).message;
        }
      }
      task.status = 'stopped';
      task.exitstatus = exit;
      task.log.push(exit === 'OK' ? 'TASK OK' : `TASK ERROR: ${exit}`);
    }, opts.ms ?? taskMs);
    return upid;
  }

  function takeFault(method: string, path: string, op: string, kinds: FaultKind[]) {
    const f = faults.find((x) => x.left > 0 && kinds.includes(x.kind) && (x.op ? x.op === op : true) && (x.path ? x.path.test(`${method} ${path}`) : true));
    if (f) f.left--;
    return f;
  }

  function vmOf(node: string, vmid: number) {
    const vm = vms.get(vmid);
    if (!vm || vm.node !== node) throw new HttpError(500, `Configuration file 'nodes/${node}/qemu-server/${vmid}.conf' does not exist`);
    return vm;
  }

  function checkLock(vm: FakeVm) {
    if (vm.lock) throw new HttpError(500, `VM is locked (${vm.lock})`);
  }

  /** pve-common PVE/Tools.pm assert_if_modified: only compared when both are set. */
  function checkDigest(expected: string, given: unknown) {
    if (expected && given !== undefined && given !== '' && given !== expected) throw new HttpError(500, 'detected modified configuration - file changed by other user? Try again.');
  }

  function configView(vm: FakeVm) {
    return { ...vm.config, digest: digestOf(vm.config) };
  }

  function sizeOf(disk: string | number | undefined) {
    const m = /size=(\d+)([KMGT]?)/.exec(String(disk ?? ''));
    if (!m) return 0;
    return Number(m[1]) * { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 }[m[2] as '' | 'K' | 'M' | 'G' | 'T'];
  }

  /** The digest of the firewall options, like pve-firewall PVE/Firewall.pm copy_opject_with_digest. */
  function optionsDigest(vm: FakeVm) {
    const sha = createHash('sha1');
    for (const k of Object.keys(vm.firewall.options).sort()) sha.update(`${k}:${vm.firewall.options[k]}\n`);
    return sha.digest('hex');
  }
  /** The digest of a list (rules, ipsets, ipset entries), like PVE/Firewall.pm copy_list_with_digest. */
  function listDigest(list: readonly object[]) {
    const sha = createHash('sha1');
    for (const entry of list) {
      for (const [k, v] of Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (v !== undefined && v !== null) sha.update(`${k}:${String(v)}\n`, 'utf8');
    }
    return sha.digest('hex');
  }
  const rulesDigest = (vm: FakeVm) => listDigest(vm.firewall.rules);
  const ipsetListDigest = (vm: FakeVm) => listDigest([...vm.firewall.ipsets.keys()].map((name) => ({ name })));

  function required(params: Record<string, unknown>, ...names: string[]) {
    const errors: Record<string, string> = {};
    for (const n of names) if (params[n] === undefined || params[n] === '') errors[n] = 'property is missing and it is not optional';
    if (Object.keys(errors).length) throw new HttpError(400, 'Parameter verification failed.', errors);
  }

  type Params = Record<string, string | string[]>;
  type Handler = (m: RegExpExecArray, params: Params, user: string) => unknown;
  const routes: { method: string; pattern: RegExp; op: string; handler: Handler }[] = [];
  const route = (method: string, pattern: RegExp, op: string, handler: Handler) => routes.push({ method, pattern, op, handler });
  const str = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const N = '([^/]+)';

  route('POST', /^\/access\/ticket$/, 'ticket', (_m, p) => {
    if (str(p.username) !== consoleUser || str(p.password) !== consolePassword) throw new HttpError(401, 'authentication failure');
    const ticket = `PVE:${consoleUser}:${randomBytes(8).toString('hex').toUpperCase()}::${randomBytes(24).toString('base64')}`;
    tickets.set(ticket, consoleUser);
    return { ticket, CSRFPreventionToken: `CSRF:${randomBytes(8).toString('hex')}`, username: consoleUser };
  });

  route('GET', /^\/nodes$/, 'nodes', () =>
    nodes.map((node) => ({ node, status: 'online', cpu: 0.12, maxcpu: 32, mem: 34_359_738_368, maxmem: 137_438_953_472, disk: 21_474_836_480, maxdisk: 1_099_511_627_776, uptime: 864_000 })),
  );

  route('GET', new RegExp(`^/nodes/${N}/tasks/${N}/status$`), 'task', (m) => {
    const task = tasks.get(decodeURIComponent(m[2]!));
    if (!task) throw new HttpError(500, 'no such task');
    return { upid: task.upid, node: task.node, status: task.status, ...(task.exitstatus !== undefined ? { exitstatus: task.exitstatus } : {}) };
  });

  route('POST', new RegExp(`^/nodes/${N}/qemu/(\\d+)/clone$`), 'clone', (m, p, user) => {
    const [node, source] = [m[1]!, Number(m[2])];
    const tpl = vmOf(node, source);
    const newid = Number(str(p.newid));
    if (vms.has(newid)) throw new HttpError(500, `unable to create VM ${newid}: config file already exists`);
    // qemu-server clone_vm: PVE::Pool::assert_pool_exists before anything is created.
    const pool = str(p.pool);
    if (pool !== undefined && !pools.has(pool)) throw new HttpError(500, `pool '${pool}' does not exist`);
    if (!tpl.config.template) checkLock(tpl);
    clones++;
    const config: Record<string, string | number> = { ...tpl.config, name: str(p.name) ?? `Copy-of-VM-${tpl.config.name}` };
    delete config.template;
    config.scsi0 = String(config.scsi0).replace(/^[^:]+:[^,]+/, `${str(p.storage) ?? 'local-lvm'}:vm-${newid}-disk-0`);
    config.net0 = String(config.net0).replace(/=([0-9A-F:]{17})/, `=BC:24:11:${hex2(macCounter >> 16)}:${hex2(macCounter >> 8)}:${hex2(macCounter++)}`);
    // Like Proxmox: the new config exists at once, locked until the clone task ends.
    const vm: FakeVm = { vmid: newid, node, status: 'stopped', lock: 'clone', config, firewall: { options: {}, rules: [], ipsets: new Map() } };
    vms.set(newid, vm);
    if (pool !== undefined) pools.get(pool)!.vms.add(newid);
    return startTask(node, 'qmclone', String(source), user, () => {
      delete vm.lock;
    }, taskFaultFor('clone', newid));
  });

  route('GET', new RegExp(`^/nodes/${N}/qemu/(\\d+)/config$`), 'getconfig', (m) => configView(vmOf(m[1]!, Number(m[2]))));

  // POST is the asynchronous variant (answers with a task); types and formats were checked by the schema.
  route('POST', new RegExp(`^/nodes/${N}/qemu/(\\d+)/config$`), 'config', (m, p, user) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    checkLock(vm);
    checkDigest(digestOf(vm.config), str(p.digest));
    // Hot-plugging a NIC into a running VM needs the bridge on the node (PVE::Network tap_plug):
    // a VNet exists there only once the SDN configuration was applied.
    for (const [k, raw] of Object.entries(p)) {
      const bridge = /^net\d+$/.test(k) ? /(?:^|,)bridge=([^,]+)/.exec(str(raw)!)?.[1] : undefined;
      if (bridge && vm.status === 'running' && bridge !== 'vmbr0' && !runningVnets.has(bridge)) throw new HttpError(500, `bridge '${bridge}' does not exist`);
    }
    for (const key of (str(p.delete) ?? '').split(/[,;\s]+/).filter(Boolean)) delete vm.config[key];
    for (const [k, raw] of Object.entries(p)) {
      if (k === 'digest' || k === 'delete') continue;
      const v = str(raw)!;
      vm.config[k] = /^\d+$/.test(v) && (k === 'cores' || k === 'memory') ? Number(v) : v;
    }
    return startTask(m[1]!, 'qmconfig', m[2]!, user, () => undefined, { ms: 1 });
  });

  route('PUT', new RegExp(`^/nodes/${N}/qemu/(\\d+)/resize$`), 'resize', (m, p, user) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    checkLock(vm);
    const disk = str(p.disk)!;
    if (!vm.config[disk]) throw new HttpError(500, `disk '${disk}' does not exist`);
    const size = /^(\+?)(\d+(?:\.\d+)?)([KMGT]?)$/.exec(str(p.size)!)!; // the schema's pattern
    const bytes = Number(size[2]) * { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 }[size[3] as '' | 'K' | 'M' | 'G' | 'T'];
    const current = sizeOf(vm.config[disk]);
    const wanted = size[1] ? current + bytes : bytes;
    if (wanted < current) throw new HttpError(500, "shrinking disks is not supported");
    vm.config[disk] = String(vm.config[disk]).replace(/size=[^,]+/, `size=${wanted / 1024 ** 3}G`);
    return startTask(m[1]!, 'resize', m[2]!, user, () => undefined, { ms: 1 });
  });

  route('GET', new RegExp(`^/nodes/${N}/qemu/(\\d+)/status/current$`), 'status', (m) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    const running = vm.status === 'running';
    const uptime = running && vm.startedAt ? Math.floor((Date.now() - vm.startedAt) / 1000) : 0;
    return {
      vmid: vm.vmid,
      name: vm.config.name,
      status: vm.status,
      qmpstatus: vm.status,
      cpu: running ? 0.05 : 0,
      cpus: Number(vm.config.cores ?? 1),
      mem: running ? Math.floor(Number(vm.config.memory ?? 1024) * 1024 * 1024 * 0.3) : 0,
      maxmem: Number(vm.config.memory ?? 1024) * 1024 * 1024,
      maxdisk: sizeOf(vm.config.scsi0),
      disk: 0,
      netin: running ? 1000 : 0,
      netout: running ? 2000 : 0,
      diskread: 0,
      diskwrite: 0,
      uptime,
      ...(vm.config.template ? { template: 1 } : {}),
      ...(vm.lock ? { lock: vm.lock } : {}),
    };
  });

  route('POST', new RegExp(`^/nodes/${N}/qemu/(\\d+)/status/(start|stop|shutdown|reboot)$`), 'power', (m, _p, user) => {
    const [node, vmid, action] = [m[1]!, Number(m[2]), m[3]!];
    const vm = vmOf(node, vmid);
    if (vm.config.template) throw new HttpError(500, 'you can\'t start a vm if it\'s a template');
    checkLock(vm);
    return startTask(node, `qm${action}`, String(vmid), user, () => {
      if (action === 'start') {
        if (vm.status === 'running') return `VM ${vmid} already running`;
        vm.status = 'running';
        vm.startedAt = Date.now();
      } else if (action === 'stop' || action === 'shutdown') {
        vm.status = 'stopped';
        delete vm.startedAt;
      } else if (vm.status !== 'running') return `VM ${vmid} not running`;
      else vm.startedAt = Date.now();
    }, taskFaultFor(action, vmid));
  });

  route('DELETE', new RegExp(`^/nodes/${N}/qemu/(\\d+)$`), 'delete', (m, p, user) => {
    const [node, vmid] = [m[1]!, Number(m[2])];
    const vm = vmOf(node, vmid);
    checkLock(vm);
    if (vm.status === 'running') throw new HttpError(500, `VM ${vmid} is running - destroy failed`);
    vm.lock = 'destroyed';
    const purge = str(p.purge) === '1';
    return startTask(node, 'qmdestroy', String(vmid), user, () => {
      vms.delete(vmid);
      // qemu-server destroy_vm with purge: PVE::AccessControl::remove_vm_access takes it out of its pool.
      if (purge) for (const pool of pools.values()) pool.vms.delete(vmid);
    }, taskFaultFor('delete', vmid));
  });

  route('GET', new RegExp(`^/nodes/${N}/qemu/(\\d+)/rrddata$`), 'rrddata', (m, p) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    const step = { hour: 60, day: 1800, week: 10_800, month: 43_200, year: 604_800 }[str(p.timeframe) as 'hour'] ?? 60;
    const now = Math.floor(Date.now() / 1000 / step) * step;
    const maxmem = Number(vm.config.memory ?? 1024) * 1024 * 1024;
    return Array.from({ length: 70 }, (_v, i) => {
      const time = now - (69 - i) * step;
      return i % 17 === 5
        ? { time } // Proxmox leaves gaps where no data was recorded
        : { time, cpu: 0.05 + 0.04 * Math.sin(i / 5), mem: maxmem * 0.3, maxmem, netin: 1000 + i, netout: 2000 + i, diskread: 10 * i, diskwrite: 20 * i };
    });
  });

  route('POST', new RegExp(`^/nodes/${N}/vzdump$`), 'vzdump', (m, p, user) => {
    required(p, 'vmid');
    const node = m[1]!;
    const vmid = Number(str(p.vmid));
    const vm = vmOf(node, vmid);
    checkLock(vm);
    const storage = str(p.storage) ?? 'local';
    vm.lock = 'backup';
    return startTask(node, 'vzdump', String(vmid), user, () => {
      delete vm.lock;
      // Unique per second like Proxmox's file names; never in the past of the last backup.
      const ctime = (backupClock = Math.max(backupClock + 1, Math.floor(Date.now() / 1000)));
      const d = new Date(ctime * 1000);
      const stamp = `${d.getUTCFullYear()}_${pad(d.getUTCMonth() + 1)}_${pad(d.getUTCDate())}-${pad(d.getUTCHours())}_${pad(d.getUTCMinutes())}_${pad(d.getUTCSeconds())}`;
      backups.push({ volid: `${storage}:backup/vzdump-qemu-${vmid}-${stamp}.vma.zst`, vmid, size: 1_234_567_890, ctime, config: { ...vm.config } });
    }, taskFaultFor('vzdump', vmid));
  });

  route('GET', new RegExp(`^/nodes/${N}/storage/${N}/content$`), 'content', (m, p) => {
    const storage = m[2]!;
    const vmid = str(p.vmid);
    const content = str(p.content);
    const backupRows = backups
      .filter((b) => b.volid.startsWith(`${storage}:`) && (vmid === undefined || String(b.vmid) === vmid))
      .map((b) => ({ volid: b.volid, size: b.size, ctime: b.ctime, vmid: b.vmid, format: 'vma.zst', content: 'backup', notes: '', protected: 0 }));
    // An ISO belongs to no VM: a vmid filter leaves it out.
    const isoRows = isos.filter((i) => i.volid.startsWith(`${storage}:`) && vmid === undefined).map((i) => ({ volid: i.volid, size: i.size, ctime: i.ctime, format: 'iso', content: 'iso' }));
    return [...(content === undefined || content === 'backup' ? backupRows : []), ...(content === undefined || content === 'iso' ? isoRows : [])];
  });

  route('DELETE', new RegExp(`^/nodes/${N}/storage/${N}/content/(.+)$`), 'deletevolume', (m, _p, user) => {
    const volid = decodeURIComponent(m[3]!);
    const index = backups.findIndex((b) => b.volid === volid);
    const iso = isos.findIndex((i) => i.volid === volid);
    if (index < 0 && iso < 0) throw new HttpError(500, `volume '${volid}' does not exist`);
    if (index >= 0) backups.splice(index, 1);
    else isos.splice(iso, 1);
    return startTask(m[1]!, 'imgdel', volid.replace(/:/g, '\\x3A'), user, () => undefined, { ms: 1 });
  });

  route('POST', new RegExp(`^/nodes/${N}/qemu$`), 'restore', (m, p, user) => {
    required(p, 'vmid', 'archive');
    const node = m[1]!;
    const vmid = Number(str(p.vmid));
    const backup = backups.find((b) => b.volid === str(p.archive));
    if (!backup) throw new HttpError(500, `volume '${str(p.archive)}' does not exist`);
    const existing = vms.get(vmid);
    if (existing && str(p.force) !== '1') throw new HttpError(500, `unable to restore VM ${vmid} - VM ${vmid} already exists on node '${node}'`);
    if (existing?.status === 'running') throw new HttpError(500, `unable to restore VM ${vmid} - VM ${vmid} is running`);
    if (existing) checkLock(existing);
    const vm: FakeVm = existing ?? { vmid, node, status: 'stopped', config: {}, firewall: { options: {}, rules: [], ipsets: new Map() } };
    vms.set(vmid, vm);
    vm.lock = 'create';
    return startTask(node, 'qmrestore', String(vmid), user, () => {
      vm.config = { ...backup.config };
      delete vm.lock;
      if (str(p.start) === '1') {
        vm.status = 'running';
        vm.startedAt = Date.now();
      }
    }, taskFaultFor('restore', vmid));
  });

  // Firewall: pve-firewall src/PVE/API2/Firewall/VM.pm (options), Rules.pm (rules), IPSet.pm (ipsets).
  route('GET', new RegExp(`^/nodes/${N}/qemu/(\\d+)/firewall/options$`), 'fwoptions', (m) => {
    // Only what is set in the VM's .fw file, plus the digest of exactly that.
    const vm = vmOf(m[1]!, Number(m[2]));
    return { ...vm.firewall.options, digest: optionsDigest(vm) };
  });

  route('PUT', new RegExp(`^/nodes/${N}/qemu/(\\d+)/firewall/options$`), 'fwoptions', (m, p) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    checkDigest(optionsDigest(vm), str(p.digest));
    for (const key of (str(p.delete) ?? '').split(/[,;\s]+/).filter(Boolean)) delete vm.firewall.options[key];
    for (const [k, v] of Object.entries(p)) if (k !== 'digest' && k !== 'delete') vm.firewall.options[k] = /^\d+$/.test(str(v)!) ? Number(str(v)) : str(v)!;
    return null;
  });

  route('GET', new RegExp(`^/nodes/${N}/qemu/(\\d+)/firewall/rules$`), 'rules', (m) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    // Every entry carries the digest of the whole list (copy_list_with_digest), not of the options.
    const digest = rulesDigest(vm);
    return vm.firewall.rules.map((r, pos) => ({ ...r, pos, digest }));
  });

  route('POST', new RegExp(`^/nodes/${N}/qemu/(\\d+)/firewall/rules$`), 'rules', (m, p) => {
    // create_rule accepts `digest` but never compares it, and always inserts at position 0 (unshift).
    const vm = vmOf(m[1]!, Number(m[2]));
    const type = str(p.type)!;
    const action = str(p.action)!;
    const proto = str(p.proto) || undefined;
    const dport = str(p.dport) || undefined;
    const errors: Record<string, string> = {};
    if (type !== 'in' && type !== 'out') errors.type = type === 'group' ? 'security groups not allowed' : `invalid rule type '${type}' for rule_env 'vm'`;
    else if (!['ACCEPT', 'DROP', 'REJECT'].includes(action)) errors.action = `unknown action '${action}'`;
    if (dport && !proto) errors.proto = "missing property - 'dport' requires this property";
    else if (dport && proto && !['tcp', 'udp', 'udplite', 'sctp', 'dccp', 'icmp', 'icmpv6', 'ipv6-icmp'].includes(proto)) errors.dport = `protocol '${proto}' does not support ports`;
    if (Object.keys(errors).length) throw new HttpError(400, 'Parameter verification failed.', errors);
    const rule: FakeRule = { type: type as FakeRule['type'], action, ...(proto ? { proto } : {}), ...(dport ? { dport } : {}), ...(str(p.comment) ? { comment: str(p.comment)! } : {}), enable: str(p.enable) === undefined ? 0 : Number(str(p.enable)) };
    vm.firewall.rules.unshift(rule);
    return null;
  });

  route('DELETE', new RegExp(`^/nodes/${N}/qemu/(\\d+)/firewall/rules/(\\d+)$`), 'rules', (m, p) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    checkDigest(rulesDigest(vm), str(p.digest));
    const pos = Number(m[3]);
    if (pos >= vm.firewall.rules.length) throw new HttpError(500, `no rule at position ${pos}`);
    vm.firewall.rules.splice(pos, 1);
    return null;
  });

  route('GET', new RegExp(`^/nodes/${N}/qemu/(\\d+)/firewall/ipset$`), 'ipset', (m) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    const digest = ipsetListDigest(vm);
    return [...vm.firewall.ipsets.keys()].map((name) => ({ name, digest }));
  });
  route('POST', new RegExp(`^/nodes/${N}/qemu/(\\d+)/firewall/ipset$`), 'ipset', (m, p) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    checkDigest(ipsetListDigest(vm), str(p.digest));
    if (vm.firewall.ipsets.has(str(p.name)!)) throw new HttpError(500, `IPSet '${str(p.name)}' already exists`);
    vm.firewall.ipsets.set(str(p.name)!, []);
    return null;
  });
  route('GET', new RegExp(`^/nodes/${N}/qemu/(\\d+)/firewall/ipset/${N}$`), 'ipset', (m) => {
    const set = vmOf(m[1]!, Number(m[2])).firewall.ipsets.get(decodeURIComponent(m[3]!));
    if (!set) throw new HttpError(500, `no such IPSet '${m[3]}'`);
    const digest = listDigest(set);
    return set.map((e) => ({ ...e, digest }));
  });
  route('POST', new RegExp(`^/nodes/${N}/qemu/(\\d+)/firewall/ipset/${N}$`), 'ipset', (m, p) => {
    const set = vmOf(m[1]!, Number(m[2])).firewall.ipsets.get(decodeURIComponent(m[3]!));
    if (!set) throw new HttpError(500, `no such IPSet '${m[3]}'`);
    if (set.some((e) => e.cidr === str(p.cidr))) throw new HttpError(500, `address '${str(p.cidr)}' already exists`);
    set.push({ cidr: str(p.cidr)! });
    return null;
  });

  const execs = new Map<number, { vmid: number; done: boolean; exitcode: number; out: string }>();
  const needAgent = (vm: FakeVm) => {
    if (vm.status !== 'running') throw new HttpError(500, `VM ${vm.vmid} is not running`);
  };
  route('POST', new RegExp(`^/nodes/${N}/qemu/(\\d+)/agent/exec$`), 'exec', (m, p) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    needAgent(vm);
    const command = Array.isArray(p.command) ? p.command : [p.command!];
    const id = pid++;
    const run = { vmid: vm.vmid, done: false, exitcode: 0, out: '' };
    execs.set(id, run);
    later(() => {
      run.done = true;
      if (command[0] === 'echo') run.out = `${command.slice(1).join(' ')}\n`;
      else if (command[0] === 'false') run.exitcode = 1;
      else if (command[0] === 'hostname') run.out = `${vm.config.name}\n`;
    }, taskMs);
    return { pid: id };
  });
  route('GET', new RegExp(`^/nodes/${N}/qemu/(\\d+)/agent/exec-status$`), 'exec', (m, p) => {
    const run = execs.get(Number(str(p.pid)));
    if (!run || run.vmid !== Number(m[2])) throw new HttpError(500, `Agent error: Invalid parameter 'pid'`);
    return run.done ? { exited: 1, exitcode: run.exitcode, ...(run.out ? { 'out-data': run.out } : {}) } : { exited: 0 };
  });
  route('POST', new RegExp(`^/nodes/${N}/qemu/(\\d+)/agent/set-user-password$`), 'password', (m, p) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    needAgent(vm);
    vm.rootPassword = str(p.password);
    return { 'result': {} };
  });

  route('POST', new RegExp(`^/nodes/${N}/qemu/(\\d+)/termproxy$`), 'termproxy', (m, _p, user) => {
    const vm = vmOf(m[1]!, Number(m[2]));
    if (vm.status !== 'running') throw new HttpError(500, `VM ${vm.vmid} not running`);
    const port = 5900 + (termPort++ % 100); // vncwebsocket accepts 5900–5999 only
    const ticket = `PVEVNC:${randomBytes(4).toString('hex').toUpperCase()}::${randomBytes(24).toString('base64')}`;
    termTickets.set(ticket, { vmid: vm.vmid, port, user });
    later(() => termTickets.delete(ticket), 10_000); // must be used within 10 s
    return { port: String(port), ticket, user, upid: formatUpid({ node: m[1]!, pid: pid++, pstart: 1, starttime: Math.floor(Date.now() / 1000), type: 'vncproxy', id: m[2]!, user }) };
  });

  // Pools: pve-manager PVE/API2/Pool.pm (create_pool, delete_pool, index with ?poolid=). Errors inside
  // lock_user_config come back prefixed with its message ("create pool failed: …").
  route('GET', /^\/pools$/, 'pools', (_m, p) => {
    const poolid = str(p.poolid);
    if (poolid === undefined) return [...pools.entries()].map(([id, pool]) => ({ poolid: id, ...(pool.comment ? { comment: pool.comment } : {}) }));
    const pool = pools.get(poolid);
    if (!pool) throw new HttpError(500, `pool '${poolid}' does not exist`);
    const members = [...pool.vms].sort((a, b) => a - b).filter((vmid) => vms.has(vmid)).map((vmid) => {
      const vm = vms.get(vmid)!;
      return { id: `qemu/${vmid}`, vmid, node: vm.node, type: 'qemu', name: vm.config.name, status: vm.status };
    });
    return [{ poolid, ...(pool.comment ? { comment: pool.comment } : {}), members }];
  });
  route('POST', /^\/pools$/, 'pools', (_m, p) => {
    const poolid = str(p.poolid)!;
    if (pools.has(poolid)) throw new HttpError(500, `create pool failed: pool '${poolid}' already exists`);
    const nested = /^(.*)\/([^/]+)$/.exec(poolid);
    if (nested && !pools.has(nested[1]!)) throw new HttpError(500, `create pool failed: parent '${nested[1]}' of pool '${poolid}' does not exist`);
    if (!/^[A-Za-z]/.test(nested ? nested[2]! : poolid)) throw new HttpError(500, 'create pool failed: pool name must start with a letter');
    pools.set(poolid, { ...(str(p.comment) ? { comment: str(p.comment) } : {}), vms: new Set() });
    return null;
  });
  route('DELETE', /^\/pools$/, 'pools', (_m, p) => {
    const poolid = str(p.poolid)!;
    const pool = pools.get(poolid);
    if (!pool) throw new HttpError(500, `delete pool failed: pool '${poolid}' does not exist`);
    const sub = [...pools.keys()].find((id) => id.startsWith(`${poolid}/`));
    if (sub) throw new HttpError(500, `delete pool failed: pool '${poolid}' is not empty (contains pool '${sub}')`);
    // Destroyed guests are ignored.
    const member = [...pool.vms].sort((a, b) => a - b).find((vmid) => vms.has(vmid));
    if (member !== undefined) throw new HttpError(500, `delete pool failed: pool '${poolid}' is not empty (contains VM ${member})`);
    pools.delete(poolid);
    return null;
  });

  // SDN: pve-network src/PVE/API2/Network/SDN/{Vnets,Subnets}.pm and SDN.pm (reload). Errors inside
  // lock_sdn_config are prefixed with its message; parameter exceptions there arrive as text (500).
  const vnetOf = (id: string) => {
    const vnet = vnets.get(id);
    if (!vnet) throw new HttpError(500, `sdn vnet '${id}' does not exist`);
    return vnet;
  };
  route('GET', new RegExp(`^/cluster/sdn/vnets/${N}$`), 'sdn', (m) => {
    const id = decodeURIComponent(m[1]!);
    const vnet = vnetOf(id);
    return { vnet: id, type: 'vnet', zone: vnet.zone, ...(vnet.tag !== undefined ? { tag: vnet.tag } : {}), ...(vnet.alias ? { alias: vnet.alias } : {}), digest: digestOf(vnet) };
  });
  route('POST', /^\/cluster\/sdn\/vnets$/, 'sdn', (_m, p) => {
    const id = str(p.vnet)!;
    const zone = str(p.zone)!;
    const failed = (msg: string) => new HttpError(500, `create sdn vnet object failed: ${msg}`);
    if (vnets.has(id)) throw failed(`sdn vnet object ID '${id}' already defined`);
    const zoneCfg = zones.get(zone);
    if (!zoneCfg) throw failed(`zone '${zone}' does not exist`);
    const tag = str(p.tag) === undefined ? undefined : Number(str(p.tag));
    // Zones/VlanPlugin.pm vnet_update_hook.
    if (zoneCfg.type === 'vlan') {
      if (tag === undefined) throw failed('400 Parameter verification failed.\ntag: missing vlan tag');
      if (tag > 4096) throw failed('400 Parameter verification failed.\ntag: vlan tag max value is 4096');
      const other = [...vnets.entries()].find(([, v]) => v.zone === zone && v.tag === tag);
      if (other) throw failed(`400 Parameter verification failed.\ntag: tag ${tag} already exist in vnet ${other[0]}`);
    }
    vnets.set(id, { zone, ...(tag !== undefined ? { tag } : {}), ...(str(p.alias) ? { alias: str(p.alias) } : {}) });
    return null;
  });
  route('DELETE', new RegExp(`^/cluster/sdn/vnets/${N}$`), 'sdn', (m) => {
    const id = decodeURIComponent(m[1]!);
    if (!vnets.has(id)) throw new HttpError(500, `delete sdn vnet object failed: sdn vnet '${id}' does not exist`);
    // VnetPlugin.pm on_delete_hook.
    if ([...subnets.values()].some((sn) => sn.vnet === id)) throw new HttpError(500, "delete sdn vnet object failed: 400 Parameter verification failed.\nvnet: Can't delete vnet if subnets exists");
    vnets.delete(id);
    return null;
  });
  route('GET', new RegExp(`^/cluster/sdn/vnets/${N}/subnets$`), 'sdn', (m) => {
    const id = decodeURIComponent(m[1]!);
    vnetOf(id);
    return [...subnets.entries()].filter(([, sn]) => sn.vnet === id).map(([subnet, sn]) => {
      const [network, mask] = sn.cidr.split('/');
      return { subnet, id: subnet, type: 'subnet', vnet: id, zone: sn.zone, cidr: sn.cidr, network, mask: Number(mask), ...(sn.gateway ? { gateway: sn.gateway } : {}), digest: digestOf(sn) };
    });
  });
  route('POST', new RegExp(`^/cluster/sdn/vnets/${N}/subnets$`), 'sdn', (m, p) => {
    const id = decodeURIComponent(m[1]!);
    const vnet = vnetOf(id);
    const cidr = str(p.subnet)!;
    if (!cidr.includes('/')) throw new HttpError(400, 'Parameter verification failed.', { subnet: 'value does not look like a valid CIDR network' });
    const subnetId = `${vnet.zone}-${cidr.replace('/', '-')}`;
    if (subnets.has(subnetId)) throw new HttpError(500, `create sdn subnet object failed: sdn subnet object ID '${subnetId}' already defined`);
    const gateway = str(p.gateway);
    // SubnetPlugin.pm on_update_hook: the gateway must lie inside the subnet (except IPv4 /32).
    if (gateway && !inCidr(gateway, cidr)) throw new HttpError(500, `create sdn subnet object failed: 400 Parameter verification failed.\ngateway: ${gateway} is not in subnet ${cidr}`);
    subnets.set(subnetId, { vnet: id, cidr, zone: vnet.zone, ...(gateway ? { gateway } : {}) });
    return null;
  });
  route('DELETE', new RegExp(`^/cluster/sdn/vnets/${N}/subnets/${N}$`), 'sdn', (m) => {
    const id = decodeURIComponent(m[2]!);
    if (!subnets.has(id)) throw new HttpError(500, `delete sdn subnet object failed: sdn subnet '${id}' does not exist`);
    subnets.delete(id);
    return null;
  });
  route('PUT', /^\/cluster\/sdn$/, 'sdnapply', (_m, _p, user) => {
    sdnApplies++;
    const next = new Set(vnets.keys());
    return startTask(nodes[0]!, 'reloadnetworkall', '', user, () => {
      runningVnets = next;
    });
  });

  // ISO upload: pve-storage src/PVE/API2/Storage/Status.pm upload. The HTTP server (pve-http-server
  // AnyEvent.pm) already wrote the file part to /var/tmp/pveupload-… and passes its name as tmpfilename.
  route('POST', new RegExp(`^/nodes/${N}/storage/${N}/upload$`), 'upload', (m, p, user) => {
    const [node, storage] = [m[1]!, m[2]!];
    const tmp = str(p.tmpfilename);
    const data = tmp === undefined ? undefined : uploads.get(tmp);
    if (tmp !== undefined) uploads.delete(tmp);
    if (!storages[storage]) throw new HttpError(500, `storage '${storage}' does not exist`);
    if (!data) throw new HttpError(500, 'missing temporary file name');
    const content = str(p.content)!;
    // normalize_content_filename, then the extension check per content type.
    const filename = str(p.filename)!.replace(/\n$/, '').replace(/^.*[/\\]/, '').replace(/[^a-zA-Z0-9_.-]/g, '_');
    if (content === 'iso' && !/[^/]+\.(?:iso|img)$/i.test(filename)) throw new HttpError(400, 'Parameter verification failed.', { filename: 'wrong file extension' });
    if (content !== 'iso') throw new HttpError(400, 'Parameter verification failed.', { content: `upload content type '${content}' not allowed` });
    if (!storages[storage]!.includes(content)) throw new HttpError(500, `storage '${storage}' does not support '${content}' content`);
    const volid = `${storage}:${content}/${filename}`;
    const sha256 = createHash('sha256').update(data).digest('hex');
    const expected = str(p.checksum);
    const algorithm = str(p['checksum-algorithm']);
    return startTask(node, 'imgcopy', '', user, () => {
      if (expected && algorithm) {
        const got = createHash(algorithm).update(data).digest('hex');
        if (got.toLowerCase() !== expected.toLowerCase()) return `checksum mismatch: got '${got}' != expect '${expected}'`;
      }
      // "we simply overwrite the destination file if it already exists"
      const index = isos.findIndex((i) => i.volid === volid);
      if (index >= 0) isos.splice(index, 1);
      isos.push({ volid, size: data.length, ctime: Math.floor(Date.now() / 1000), sha256 });
    }, taskFaultFor('upload', 0));
  });

  function taskFaultFor(op: string, vmid: number): { error?: string } {
    const f = faults.find((x) => x.left > 0 && (x.kind === 'lockTimeout' || x.kind === 'taskError') && (!x.op || x.op === op));
    if (!f) return {};
    f.left--;
    return { error: f.kind === 'lockTimeout' ? `can't lock file '/var/lock/qemu-server/lock-${vmid}.conf' - got timeout` : (f.text ?? 'command failed') };
  }

  /** How the request authenticates itself: an API token header wins over a ticket cookie, as in Proxmox. */
  function credentials(req: http.IncomingMessage): 'token' | 'ticket' | 'none' {
    if (/^PVEAPIToken=/.test(req.headers.authorization ?? '')) return 'token';
    if (/(?:^|;\s*)PVEAuthCookie=/.test(req.headers.cookie ?? '')) return 'ticket';
    return 'none';
  }

  function authenticate(req: http.IncomingMessage): string | null {
    const kind = credentials(req);
    if (kind === 'token') return req.headers.authorization === `PVEAPIToken=${tokenId}=${tokenSecret}` ? tokenId : null;
    const cookie = /(?:^|;\s*)PVEAuthCookie=([^;]+)/.exec(req.headers.cookie ?? '');
    if (cookie) return tickets.get(decodeURIComponent(cookie[1]!)) ?? null;
    return null;
  }

  function send(res: http.ServerResponse, status: number, body: unknown, reason?: string) {
    const text = JSON.stringify(body);
    res.writeHead(status, (reason ?? http.STATUS_CODES[status] ?? 'Error').replace(/[\r\n]+/g, ' ').trim(), { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }

  async function readBody(req: http.IncomingMessage): Promise<Params> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    if (!raw) return {};
    if ((req.headers['content-type'] ?? '').includes('json')) {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : typeof v === 'boolean' ? (v ? '1' : '0') : String(v)]));
    }
    return paramsOf(new URLSearchParams(raw));
  }

  /**
   * An upload as pve-http-server's AnyEvent.pm file_upload_multipart reads it: multipart/form-data with a
   * Content-Length; from the start only the fields `content`, `checksum-algorithm`, `checksum` (in that
   * order) are taken, then the file part, which must be named `filename`; everything up to the closing
   * boundary is the file. The file goes to a temporary file whose name becomes `tmpfilename`.
   */
  async function readUpload(req: http.IncomingMessage, query: Params): Promise<Params> {
    const ctype = req.headers['content-type'] ?? '';
    const [ct, ...rest] = ctype.split(/\s*[;,]\s*/);
    const boundary = rest.map((v) => /^\s*boundary\s*=\s*(\S+?)\s*$/.exec(v)?.[1]).find(Boolean);
    if (!(boundary && ct === 'multipart/form-data')) throw new HttpError(500, `upload 'Content-Type '${ctype}' not implemented`);
    if (!req.headers['content-length']) throw new HttpError(500, 'upload without content length header not supported');
    if ('tmpfilename' in query) throw new HttpError(500, "'tmpfilename' query parameter is not allowed for file uploads");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body = Buffer.concat(chunks).toString('latin1');
    const delim = `--${boundary}\r\n`;
    const start = body.indexOf(delim);
    if (start < 0) throw new HttpError(500, 'upload failed');
    body = body.slice(start);
    const params: Params = {};
    for (const name of ['content', 'checksum-algorithm', 'checksum']) {
      const field = new RegExp(`^${escapeRe(delim)}.*?Content-Disposition: (.*?); name="${name}"(.*?)\r?\n\r?\n(.*?)\r?\n(?=${escapeRe(delim)})`, 's').exec(body);
      if (!field) continue;
      if (field[1] !== 'form-data') throw new HttpError(500, `wrong Content-Disposition '${field[1]}' in multipart, expected 'form-data'`);
      params[name] = field[3]!.trim();
      body = body.slice(field[0].length);
    }
    const file = new RegExp(`^${escapeRe(delim)}Content-Disposition: (.*?); name="(.*?)"; filename="([^"]+)".*?\r?\n\r?\n`, 's').exec(body);
    if (!file) throw new HttpError(500, 'upload failed');
    if (file[1] !== 'form-data') throw new HttpError(500, `wrong Content-Disposition '${file[1]}' in multipart, expected 'form-data'`);
    if (file[2] !== 'filename') throw new HttpError(500, `wrong field name '${file[2]}' for file upload, expected 'filename'`);
    const data = body.slice(file[0].length);
    const end = new RegExp(`\r?\n?--${escapeRe(boundary)}--[\\s\\S]*$`).exec(data);
    if (!end) throw new HttpError(500, 'upload failed');
    const tmpfilename = `/var/tmp/pveupload-${createHash('md5').update(`${pid++}${Date.now()}`).digest('hex')}`;
    uploads.set(tmpfilename, Buffer.from(data.slice(0, end.index), 'latin1'));
    return { ...params, filename: file[3]!.trim(), tmpfilename };
  }

  function paramsOf(search: URLSearchParams): Params {
    const out: Params = {};
    for (const key of new Set(search.keys())) {
      const all = search.getAll(key);
      out[key] = all.length > 1 ? all : all[0]!;
    }
    return out;
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    if (!url.pathname.startsWith('/api2/json/')) return send(res, 404, { data: null });
    const path = url.pathname.slice('/api2/json'.length);
    const matched = routes.map((r) => ({ r, m: r.method === method ? r.pattern.exec(path) : null })).find((x) => x.m);
    const op = matched ? opName(matched.r.op, path) : 'unknown';
    const auth = credentials(req);
    const known = schema.find(method, path);
    calls.push({ method, path, op, auth, ...(known ? { endpoint: `${method} ${known.endpoint.path}` } : {}) });

    // pve-manager PVE/HTTPServer.pm auth_handler: the login itself needs no authentication.
    const open = path === '/access/ticket' && (method === 'GET' || method === 'POST');
    const user = open ? '' : authenticate(req);
    if (user === null) {
      req.resume();
      return send(res, 401, { data: null }, auth === 'none' ? 'No ticket' : 'Authentication failed!');
    }
    if (!open && auth === 'ticket' && method !== 'GET' && !req.headers.csrfpreventiontoken) {
      req.resume();
      return send(res, 401, { data: null }, 'Permission denied - invalid csrf token');
    }

    const fault = takeFault(method, path, op, ['locked', 'status596', 'hang', 'reset', 'dropAfterClone']);
    if (fault?.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (fault?.kind === 'reset') return req.socket.destroy();
    if (fault?.kind === 'status596') {
      req.resume();
      return send(res, 596, { data: null }, 'Errors during connection establishment, proxy handler failed');
    }
    if (fault?.kind === 'locked') {
      req.resume();
      return send(res, 500, { data: null, message: 'VM is locked (backup)\n' }, 'VM is locked (backup)');
    }

    try {
      const query = paramsOf(url.searchParams);
      // pve-manager HTTPServer.pm: a POST to …/storage/{storage}/upload is an upload (multipart, streamed to a file).
      const isUpload = method === 'POST' && /^\/nodes\/[^/]+\/storage\/[^/]+\/upload$/.test(path);
      const given = { ...query, ...(isUpload ? await readUpload(req, query) : method === 'POST' || method === 'PUT' ? await readBody(req) : {}) };
      // The vendor schema decides what exists and what is allowed, before any handler runs.
      if (!known) return send(res, 501, { data: null }, `Method '${method} ${path}' not implemented`);
      if (auth === 'token' && !known.endpoint.allowtoken) {
        throw new HttpError(403, `Permission check failed (URI '${path}' not available with API token, need proper ticket.\n)`);
      }
      const checked = schema.check(known, given);
      if (Object.keys(checked.errors).length) return send(res, 400, { errors: checked.errors, data: null }, 'Parameter verification failed.');
      if (!matched) return send(res, 501, { data: null }, `Method '${method} ${path}' not implemented`);
      // Handlers read the path's parts from the match; the body/query parameters come normalised.
      const params = Object.fromEntries(Object.entries(checked.params).filter(([k]) => !(k in known.uriParams)));
      const data = matched.r.handler(matched.m!, params, user);
      // The work is done, but the answer never arrives (e.g. connection lost after the clone was created).
      if (fault?.kind === 'dropAfterClone') return req.socket.destroy();
      send(res, 200, { data: data ?? null });
    } catch (err) {
      if (err instanceof HttpError) {
        if (err.status === 400) return send(res, 400, { errors: err.errors ?? {}, data: null }, err.message);
        return send(res, err.status, { data: null, message: `${err.message}\n` }, err.message);
      }
      send(res, 500, { data: null, message: `${(err as Error).message}\n` }, (err as Error).message);
    }
  });

  function opName(op: string, path: string) {
    if (op === 'power') return /\/status\/(\w+)$/.exec(path)?.[1] ?? op;
    return op;
  }

  const ws = loadWs();
  const wss = ws ? (new ws.WebSocketServer({ noServer: true }) as WsServer) : null;
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const m = /^\/api2\/json\/nodes\/([^/]+)\/qemu\/(\d+)\/vncwebsocket$/.exec(url.pathname);
    const known = schema.find('GET', url.pathname.slice('/api2/json'.length));
    calls.push({ method: 'GET', path: url.pathname.slice('/api2/json'.length), op: 'vncwebsocket', auth: credentials(req), ...(known ? { endpoint: `GET ${known.endpoint.path}` } : {}) });
    if (!known || Object.keys(schema.check(known, paramsOf(url.searchParams)).errors).length) {
      socket.end('HTTP/1.1 400 Parameter verification failed.\r\nConnection: close\r\n\r\n');
      return;
    }
    const user = authenticate(req);
    const ticket = url.searchParams.get('vncticket') ?? '';
    const grant = termTickets.get(ticket);
    if (!wss || !m || !user || !grant || grant.vmid !== Number(m[2]) || String(grant.port) !== url.searchParams.get('port')) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (client) => runShell(client, grant.user, ticket, vms.get(grant.vmid)));
  });

  function runShell(client: WsClient, user: string, ticket: string, vm: FakeVm | undefined) {
    let authed = false;
    let line = '';
    const host = String(vm?.config.name ?? 'server');
    const prompt = `root@${host}:~# `;
    client.on('message', (raw: Buffer) => {
      let msg = raw.toString('utf8');
      if (!authed) {
        if (msg !== `${user}:${ticket}\n`) return client.close();
        authed = true;
        termTickets.delete(ticket);
        client.send('OK');
        client.send(`Debian GNU/Linux 12 ${host} ttyS0\r\n\r\n${prompt}`);
        return;
      }
      while (msg.length) {
        if (msg[0] === '2') {
          msg = msg.slice(1);
          continue;
        }
        const resize = /^1:(\d+):(\d+):/.exec(msg);
        if (resize) {
          msg = msg.slice(resize[0].length);
          continue;
        }
        const data = /^0:(\d+):/.exec(msg);
        if (!data) return client.close();
        const bytes = Buffer.from(msg.slice(data[0].length), 'utf8');
        const chunk = bytes.subarray(0, Number(data[1])).toString('utf8');
        msg = bytes.subarray(Number(data[1])).toString('utf8');
        for (const ch of chunk) {
          if (ch === '\r' || ch === '\n') {
            const cmd = line.trim();
            line = '';
            if (cmd === 'exit') {
              client.send('\r\nlogout\r\n');
              return client.close();
            }
            client.send(`\r\n${shellOutput(cmd, host)}${prompt}`);
          } else {
            line += ch;
            client.send(ch);
          }
        }
      }
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  const config: ProxmoxConfig = {
    url,
    tokenId,
    tokenSecret,
    fingerprint: '',
    storage: 'local-lvm',
    backupStorage: 'local',
    bridge: 'vmbr0',
    sdnZone: options.sdnZone ?? 'vdc',
    isoStorage: 'local',
    templates,
    consoleUser,
    consolePassword,
  };

  return {
    url,
    node: nodes[0]!,
    /** A ProxmoxConfig pointing at this fake (copy before changing it). */
    config,
    vms,
    tasks,
    backups,
    pools,
    vnets,
    subnets,
    isos,
    /** The VNets that exist on the nodes (applied with PUT /cluster/sdn). */
    get runningVnets() {
      return runningVnets;
    },
    get sdnApplies() {
      return sdnApplies;
    },
    calls,
    hasWebSocket: Boolean(wss),
    get cloneCount() {
      return clones;
    },
    setTaskDuration(ms: number) {
      taskMs = ms;
    },
    inject(fault: Fault) {
      const op = fault.op ?? (fault.kind === 'dropAfterClone' && !fault.path ? 'clone' : undefined);
      faults.push({ ...fault, op, left: fault.times ?? Number.POSITIVE_INFINITY });
    },
    clearFaults() {
      faults.length = 0;
    },
    /** User VMs (templates excluded). */
    servers() {
      return [...vms.values()].filter((vm) => !vm.config.template);
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeProxmox = Awaited<ReturnType<typeof startFakeProxmox>>;

interface WsClient {
  on(event: 'message', listener: (data: Buffer) => void): void;
  send(data: string): void;
  close(): void;
}
interface WsServer {
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, cb: (client: WsClient) => void): void;
}

/** A tiny shell: enough for the console tests. */
function shellOutput(cmd: string, host: string) {
  if (!cmd) return '';
  const [name, ...args] = cmd.split(/\s+/);
  if (name === 'echo') return `${args.join(' ')}\r\n`;
  if (name === 'hostname') return `${host}\r\n`;
  if (name === 'whoami') return 'root\r\n';
  return `-bash: ${name}: command not found\r\n`;
}

function hex2(n: number) {
  return (n & 0xff).toString(16).padStart(2, '0').toUpperCase();
}
function pad(n: number) {
  return String(n).padStart(2, '0');
}

function ipv4ToNumber(ip: string) {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}
/** IPv4 only, which is what the VDC uses; an IPv6 gateway is accepted unchecked. */
function inCidr(ip: string, cidr: string) {
  const [network = '', bits = '32'] = cidr.split('/');
  if (!ip.includes('.') || !network.includes('.')) return true;
  const mask = Number(bits) === 0 ? 0 : (0xffffffff << (32 - Number(bits))) >>> 0;
  return ((ipv4ToNumber(ip) & mask) >>> 0) === ((ipv4ToNumber(network) & mask) >>> 0) || Number(bits) === 32;
}
function escapeRe(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

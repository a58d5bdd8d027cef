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
    if (!tpl.config.template) checkLock(tpl);
    clones++;
    const config: Record<string, string | number> = { ...tpl.config, name: str(p.name) ?? `Copy-of-VM-${tpl.config.name}` };
    delete config.template;
    config.scsi0 = String(config.scsi0).replace(/^[^:]+:[^,]+/, `${str(p.storage) ?? 'local-lvm'}:vm-${newid}-disk-0`);
    config.net0 = String(config.net0).replace(/=([0-9A-F:]{17})/, `=BC:24:11:${hex2(macCounter >> 16)}:${hex2(macCounter >> 8)}:${hex2(macCounter++)}`);
    // Like Proxmox: the new config exists at once, locked until the clone task ends.
    const vm: FakeVm = { vmid: newid, node, status: 'stopped', lock: 'clone', config, firewall: { options: {}, rules: [], ipsets: new Map() } };
    vms.set(newid, vm);
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

  route('DELETE', new RegExp(`^/nodes/${N}/qemu/(\\d+)$`), 'delete', (m, _p, user) => {
    const [node, vmid] = [m[1]!, Number(m[2])];
    const vm = vmOf(node, vmid);
    checkLock(vm);
    if (vm.status === 'running') throw new HttpError(500, `VM ${vmid} is running - destroy failed`);
    vm.lock = 'destroyed';
    return startTask(node, 'qmdestroy', String(vmid), user, () => {
      vms.delete(vmid);
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

  route('GET', new RegExp(`^/nodes/${N}/storage/${N}/content$`), 'backups', (m, p) => {
    const storage = m[2]!;
    const vmid = str(p.vmid);
    return backups
      .filter((b) => b.volid.startsWith(`${storage}:`) && (vmid === undefined || String(b.vmid) === vmid))
      .map((b) => ({ volid: b.volid, size: b.size, ctime: b.ctime, vmid: b.vmid, format: 'vma.zst', content: 'backup', notes: '', protected: 0 }));
  });

  route('DELETE', new RegExp(`^/nodes/${N}/storage/${N}/content/(.+)$`), 'deletebackup', (m, _p, user) => {
    const volid = decodeURIComponent(m[3]!);
    const index = backups.findIndex((b) => b.volid === volid);
    if (index < 0) throw new HttpError(500, `volume '${volid}' does not exist`);
    backups.splice(index, 1);
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
      const given = { ...paramsOf(url.searchParams), ...(method === 'POST' || method === 'PUT' ? await readBody(req) : {}) };
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

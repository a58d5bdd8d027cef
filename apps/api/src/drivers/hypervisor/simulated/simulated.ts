/**
 * The simulated hypervisor: the embedded default, so that a demo without a Proxmox cluster feels real.
 *
 * All state lives in the database (`sim_vms`: one jsonb state per VM; `sim_tasks`: Proxmox-like tasks with
 * a UPID, a duration and an effect). No timers: a task's effect is applied lazily, exactly once, by the
 * first read that sees the task finished (VM row locked `FOR UPDATE`, then a conditional
 * `UPDATE sim_tasks SET applied_at … WHERE applied_at IS NULL`). That survives restarts and works the
 * same for several API instances on one database.
 *
 * Lock order, to stay free of deadlocks on PostgreSQL: the VM row first, then its task rows.
 */
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import crypto from 'node:crypto';
import type { Db, Tx } from '../../../db/client.ts';
import { simTasks, simVms } from '../../../db/schema/infrastructure.ts';
import { hashPassword } from '../../../lib/passwords.ts';
import {
  formatUpid, HypervisorError, hypervisorMessages,
  type BackupInfo, type ConsoleConnection, type CreateServerSpec, type ExecResult, type FirewallRule, type FirewallRuleSpec,
  type Hypervisor, type HypervisorErrorCode, type NodeInfo, type OsTemplate, type PowerAction, type TaskRef, type TaskState,
  type UsagePoint, type VmRef, type VmStatus,
} from '../hypervisor.ts';

// ---------------------------------------------------------------------------------------------------
// Public types

/** Operations that failures can be injected into. Task operations use the Proxmox task type's short name. */
export type SimOp =
  | 'clone' | 'config' | 'resize' | 'start' | 'stop' | 'shutdown' | 'reboot' | 'vzdump' | 'restore' | 'destroy'
  | 'status' | 'backup-delete' | 'firewall' | 'exec' | 'password' | 'sshkeys' | 'console' | 'nodes';

/**
 * One injected failure. `error` is either a HypervisorErrorCode (the call itself throws that code, e.g.
 * 'LOCKED', 'UNAVAILABLE', 'TIMEOUT') or any other text: task operations then start a task that ends with
 * that exit status (e.g. "can't lock file '/var/lock/qemu-server/lock-101.conf' - got timeout"); calls
 * without a task throw HypervisorError('TASK_FAILED') with the text as detail.
 */
export interface InjectedFailure {
  op: SimOp;
  error: string;
  /** How many calls fail (default 1). */
  times?: number;
  /** Only calls on this VM fail. */
  vmid?: number;
}

/** Decides per call whether it fails: return the `error` as in InjectedFailure, or undefined. */
export type FailureInjector = (op: SimOp, vm: VmRef | undefined) => string | undefined;

export interface SimulatedHypervisorOptions {
  /** Divides every duration (tests use 50). Default 1. */
  speed?: number;
  failures?: FailureInjector;
  /** Nodes reported by listNodes (names or full infos). Default a single generous node 'sim1'. */
  nodes?: (string | NodeInfo)[];
  /** Clock in ms (tests). */
  now?: () => number;
}

export type SimulatedHypervisor = Hypervisor & {
  readonly kind: 'simulated';
  injectFailure(next: InjectedFailure): void;
  /** Forgets all injected failures. */
  reset(): void;
};

// ---------------------------------------------------------------------------------------------------
// State

interface SimBackup extends BackupInfo {
  snapshot: Snapshot;
}

interface Snapshot {
  os: OsTemplate;
  cores: number;
  memoryMb: number;
  diskGb: number;
  packages: string[];
  rootPasswordHash?: string;
  sshKeys: string;
  firewall: SimVmState['firewall'];
}

interface SimVmState {
  name: string;
  os: OsTemplate;
  status: 'running' | 'stopped';
  cores: number;
  memoryMb: number;
  diskGb: number;
  ipv4?: CreateServerSpec['ipv4'];
  ipv6?: CreateServerSpec['ipv6'];
  firewall: { enabled: boolean; rules: FirewallRule[] };
  backups: SimBackup[];
  packages: string[];
  rootPasswordHash?: string;
  sshKeys: string;
  /** ms; set while running */
  startedAt?: number;
  createdAt: number;
  /** Power history (ms), newest last, for usageHistory. */
  runs: { from: number; to?: number }[];
}

type Effect =
  | { kind: 'none' }
  | { kind: 'power'; status: 'running' | 'stopped'; restart?: boolean }
  | { kind: 'resize'; diskGb: number }
  | { kind: 'backup'; backup: SimBackup }
  | { kind: 'restore'; volid: string }
  | { kind: 'reinstall'; os: OsTemplate; diskGb: number }
  | { kind: 'destroy' };

interface TaskEffects {
  ok: Effect;
  failed?: Effect;
}

type TaskRow = typeof simTasks.$inferSelect;
type Conn = Db | Tx;

// ---------------------------------------------------------------------------------------------------
// Constants

const USER = 'portal@pve!api';
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** Durations at speed 1 (ms). */
const DURATION = {
  qmclone: 20_000,
  qmstart: 3_000,
  qmstop: 3_000,
  qmshutdown: 5_000,
  qmreboot: 9_000,
  vzdump: 15_000,
  qmrestore: 20_000,
  qmresize: 1_000,
  qmdestroy: 2_000,
  noop: 1_000,
  install: 4_000,
  remove: 2_000,
  command: 300,
} as const;

/** Tasks that hold the VM (Proxmox `lock`), and the lock name they show. */
const LOCKS: Record<string, string> = { qmclone: 'clone', vzdump: 'backup', qmrestore: 'create', qmdestroy: 'destroyed' };

const CODES: HypervisorErrorCode[] = ['LOCKED', 'TIMEOUT', 'UNAVAILABLE', 'TASK_FAILED', 'NOT_FOUND', 'INVALID'];

interface OsInfo {
  family: 'debian' | 'ubuntu' | 'centos' | 'windows';
  /** /etc/issue style line before the host name */
  issue: string;
  pretty: string;
  kernel: string;
  kernelBuild: string;
  templateId: number;
  templateDiskGb: number;
  mirror: string;
}

const OS: Record<OsTemplate, OsInfo> = {
  'debian-12': { family: 'debian', issue: 'Debian GNU/Linux 12', pretty: 'Debian GNU/Linux 12 (bookworm)', kernel: '6.1.0-25-amd64', kernelBuild: '#1 SMP PREEMPT_DYNAMIC Debian 6.1.106-3 (2024-08-26)', templateId: 9000, templateDiskGb: 3, mirror: 'http://deb.debian.org/debian bookworm/main' },
  'debian-11': { family: 'debian', issue: 'Debian GNU/Linux 11', pretty: 'Debian GNU/Linux 11 (bullseye)', kernel: '5.10.0-32-amd64', kernelBuild: '#1 SMP Debian 5.10.223-1 (2024-08-10)', templateId: 9001, templateDiskGb: 3, mirror: 'http://deb.debian.org/debian bullseye/main' },
  'ubuntu-25.04': { family: 'ubuntu', issue: 'Ubuntu 25.04', pretty: 'Ubuntu 25.04', kernel: '6.14.0-15-generic', kernelBuild: '#15-Ubuntu SMP PREEMPT_DYNAMIC Sun Apr  6 15:05:05 UTC 2025', templateId: 9010, templateDiskGb: 4, mirror: 'http://archive.ubuntu.com/ubuntu plucky/main' },
  'ubuntu-24.10': { family: 'ubuntu', issue: 'Ubuntu 24.10', pretty: 'Ubuntu 24.10', kernel: '6.11.0-8-generic', kernelBuild: '#8-Ubuntu SMP PREEMPT_DYNAMIC Mon Sep 16 13:41:20 UTC 2024', templateId: 9011, templateDiskGb: 4, mirror: 'http://archive.ubuntu.com/ubuntu oracular/main' },
  'ubuntu-24.04': { family: 'ubuntu', issue: 'Ubuntu 24.04.1 LTS', pretty: 'Ubuntu 24.04.1 LTS', kernel: '6.8.0-45-generic', kernelBuild: '#45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024', templateId: 9012, templateDiskGb: 4, mirror: 'http://archive.ubuntu.com/ubuntu noble/main' },
  'ubuntu-22.04': { family: 'ubuntu', issue: 'Ubuntu 22.04.5 LTS', pretty: 'Ubuntu 22.04.5 LTS', kernel: '5.15.0-122-generic', kernelBuild: '#132-Ubuntu SMP Thu Aug 29 13:45:52 UTC 2024', templateId: 9013, templateDiskGb: 3, mirror: 'http://archive.ubuntu.com/ubuntu jammy/main' },
  'ubuntu-20.04': { family: 'ubuntu', issue: 'Ubuntu 20.04.6 LTS', pretty: 'Ubuntu 20.04.6 LTS', kernel: '5.4.0-196-generic', kernelBuild: '#216-Ubuntu SMP Thu Aug 29 13:26:53 UTC 2024', templateId: 9014, templateDiskGb: 3, mirror: 'http://archive.ubuntu.com/ubuntu focal/main' },
  'centos-8': { family: 'centos', issue: 'CentOS Stream 8', pretty: 'CentOS Stream 8', kernel: '4.18.0-552.el8.x86_64', kernelBuild: '#1 SMP Sun Apr 7 00:00:00 UTC 2024', templateId: 9020, templateDiskGb: 8, mirror: 'appstream' },
  'windows-2025': { family: 'windows', issue: 'Windows Server 2025', pretty: 'Windows Server 2025 Datacenter', kernel: '10.0.26100', kernelBuild: '', templateId: 9030, templateDiskGb: 32, mirror: '' },
  'windows-2022': { family: 'windows', issue: 'Windows Server 2022', pretty: 'Windows Server 2022 Datacenter', kernel: '10.0.20348', kernelBuild: '', templateId: 9031, templateDiskGb: 32, mirror: '' },
};

interface Package {
  name: string;
  version: string;
  /** extra packages apt pulls in */
  deps: string[];
  sizeKb: number;
  service?: string;
  /** resident memory in MiB when running (status realism) */
  memMb: number;
}

/** The portal's software catalogue (spec §3), under their Debian package names. */
const PACKAGES: Package[] = [
  { name: 'nginx', version: '1.24.0-2', deps: ['nginx-common'], sizeKb: 1696, service: 'nginx', memMb: 12 },
  { name: 'apache2', version: '2.4.57-2', deps: ['apache2-bin', 'apache2-data', 'apache2-utils', 'libapr1', 'libaprutil1'], sizeKb: 8302, service: 'apache2', memMb: 40 },
  { name: 'mysql-server', version: '8.0.32-1', deps: ['mysql-client', 'mysql-common', 'libaio1', 'libmecab2'], sizeKb: 248_320, service: 'mysql', memMb: 380 },
  { name: 'mongodb', version: '6.0.5', deps: ['mongodb-org-server', 'mongodb-org-shell', 'mongodb-org-tools'], sizeKb: 301_460, service: 'mongod', memMb: 160 },
  { name: 'nodejs', version: '18.16.0-1nodesource1', deps: [], sizeKb: 190_204, memMb: 0 },
  { name: 'python3', version: '3.11.3-1', deps: ['python3-minimal', 'libpython3.11-stdlib'], sizeKb: 27_456, memMb: 0 },
  { name: 'php', version: '8.2.5-1', deps: ['php8.2', 'php8.2-cli', 'php8.2-common', 'php8.2-fpm'], sizeKb: 19_872, service: 'php8.2-fpm', memMb: 30 },
  { name: 'fail2ban', version: '1.0.2-2', deps: ['python3-pyinotify', 'whois'], sizeKb: 2_208, service: 'fail2ban', memMb: 25 },
  { name: 'docker', version: '23.0.5-1', deps: ['containerd', 'runc', 'docker-ce-cli'], sizeKb: 412_880, service: 'docker', memMb: 90 },
];
const PACKAGE_ALIASES: Record<string, string> = {
  apache: 'apache2', httpd: 'apache2', mysql: 'mysql-server', 'mysql-server-8.0': 'mysql-server', 'mongodb-org': 'mongodb', mongo: 'mongodb',
  node: 'nodejs', python: 'python3', 'php8.2': 'php', 'php-fpm': 'php', 'docker.io': 'docker', 'docker-ce': 'docker',
};
const findPackage = (name: string) => {
  const canonical = PACKAGE_ALIASES[name] ?? name;
  return PACKAGES.find((p) => p.name === canonical);
};

// ---------------------------------------------------------------------------------------------------
// Deterministic usage: smooth functions of time and a per-VM seed

const TAU = Math.PI * 2;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function seedOf(vmid: number) {
  let h = Math.imul(vmid ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 0x100000000;
}

/** 0..1 of all cores, 0.02..0.6 */
function cpuAt(vmid: number, t: number) {
  const s = seedOf(vmid);
  const base = 0.05 + 0.1 * s;
  const slow = 0.05 * Math.sin(TAU * t / (1800 + 900 * s) + 10 * s);
  const fast = 0.025 * Math.sin(TAU * t / (61 + 40 * s) + 3 * s);
  const burst = 0.38 * Math.pow(Math.max(0, Math.sin(TAU * t / (5400 + 1800 * s) + 7 * s)), 10);
  return clamp(base + slow + fast + burst, 0.02, 0.6);
}

function memAt(vmid: number, t: number, state: SimVmState) {
  const s = seedOf(vmid);
  const maxmem = state.memoryMb * MiB;
  const baseMb = OS[state.os].family === 'windows' ? 1400 : 160;
  const pkgMb = state.packages.reduce((sum, name) => sum + (findPackage(name)?.memMb ?? 0), 0);
  const cache = maxmem * (0.12 + 0.08 * s + 0.05 * Math.sin(TAU * t / (2400 + 900 * s) + 5 * s));
  return Math.round(clamp((baseMb + pkgMb) * MiB + cache, 0.05 * maxmem, 0.93 * maxmem));
}

function diskUsed(vmid: number, t: number, state: SimVmState) {
  const s = seedOf(vmid);
  const base = OS[state.os].templateDiskGb * 0.55 * GiB;
  const pkgs = state.packages.reduce((sum, name) => sum + (findPackage(name)?.sizeKb ?? 0) * 1024, 0);
  const ageDays = Math.max(0, t - state.createdAt / 1000) / 86400;
  const growth = (0.05 + 0.1 * s) * GiB * Math.min(ageDays, 60) + 40 * MiB * Math.sin(TAU * t / 86400 + 2 * s);
  return Math.round(clamp(base + pkgs + Math.max(0, growth), 0, 0.95 * state.diskGb * GiB));
}

/** A rate a + b·sin(ωt + φ) in bytes/s, and its integral (a counter). */
function rateParams(vmid: number, channel: number) {
  const s = seedOf(vmid * 7 + channel);
  const a = channel === 0 ? 6_000 + 20_000 * s : channel === 1 ? 9_000 + 40_000 * s : 2_000 + 30_000 * s;
  return { a, b: a * 0.6, w: TAU / (900 + 1200 * s), phi: 10 * s };
}
function rateAt(vmid: number, channel: number, t: number) {
  const { a, b, w, phi } = rateParams(vmid, channel);
  return a + b * Math.sin(w * t + phi);
}
function counter(vmid: number, channel: number, t0: number, t1: number) {
  if (t1 <= t0) return 0;
  const { a, b, w, phi } = rateParams(vmid, channel);
  return Math.round(a * (t1 - t0) - (b / w) * (Math.cos(w * t1 + phi) - Math.cos(w * t0 + phi)));
}

function runningAt(state: SimVmState, tMs: number) {
  return state.runs.some((r) => r.from <= tMs && (r.to === undefined || tMs < r.to));
}

// ---------------------------------------------------------------------------------------------------
// Small helpers

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const err = (code: HypervisorErrorCode, detail?: string) => new HypervisorError(code, hypervisorMessages[code], detail);
const notFound = (vm: VmRef) => err('NOT_FOUND', `Configuration file 'nodes/${vm.node}/qemu-server/${vm.vmid}.conf' does not exist`);
const taskOk = (exit: string) => exit === 'OK' || exit.startsWith('WARNINGS');
const pad2 = (n: number) => String(n).padStart(2, '0');
const fmtStamp = (ms: number, sep = '_', mid = '-', tsep = '_') => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${sep}${pad2(d.getUTCMonth() + 1)}${sep}${pad2(d.getUTCDate())}${mid}${pad2(d.getUTCHours())}${tsep}${pad2(d.getUTCMinutes())}${tsep}${pad2(d.getUTCSeconds())}`;
};
const asState = (v: unknown) => v as SimVmState;
const snapshotOf = (s: SimVmState): Snapshot => ({
  os: s.os, cores: s.cores, memoryMb: s.memoryMb, diskGb: s.diskGb, packages: [...s.packages],
  rootPasswordHash: s.rootPasswordHash, sshKeys: s.sshKeys, firewall: structuredClone(s.firewall),
});
const publicBackup = (b: SimBackup): BackupInfo => ({ volid: b.volid, size: b.size, ctime: b.ctime });

function startRun(state: SimVmState, at: number) {
  state.status = 'running';
  state.startedAt = at;
  state.runs.push({ from: at });
  if (state.runs.length > 50) state.runs.splice(0, state.runs.length - 50);
}
function stopRun(state: SimVmState, at: number) {
  state.status = 'stopped';
  state.startedAt = undefined;
  const last = state.runs[state.runs.length - 1];
  if (last && last.to === undefined) last.to = at;
}

/** Applies a finished task's effect; returns null when the VM is gone. */
function applyEffect(state: SimVmState, effect: Effect, endMs: number): SimVmState | null {
  switch (effect.kind) {
    case 'none':
      return state;
    case 'power':
      if (effect.status === 'running') {
        if (state.status !== 'running') startRun(state, endMs);
        else if (effect.restart) {
          stopRun(state, endMs);
          startRun(state, endMs);
        }
      } else if (state.status === 'running') stopRun(state, endMs);
      return state;
    case 'resize':
      state.diskGb = Math.max(state.diskGb, effect.diskGb);
      return state;
    case 'backup': {
      const exists = new Set(state.backups.map((b) => b.volid));
      if (!exists.has(effect.backup.volid)) state.backups.push(effect.backup);
      return state;
    }
    case 'restore': {
      const backup = state.backups.find((b) => b.volid === effect.volid);
      if (!backup) return state;
      const snap = backup.snapshot;
      Object.assign(state, { os: snap.os, cores: snap.cores, memoryMb: snap.memoryMb, diskGb: Math.max(snap.diskGb, 1), packages: [...snap.packages], rootPasswordHash: snap.rootPasswordHash, sshKeys: snap.sshKeys, firewall: structuredClone(snap.firewall) });
      // A restored guest boots fresh if it was running.
      if (state.status === 'running') {
        stopRun(state, endMs);
        startRun(state, endMs);
      }
      return state;
    }
    case 'reinstall':
      if (state.status === 'running') stopRun(state, endMs);
      Object.assign(state, { os: effect.os, diskGb: effect.diskGb, packages: [], rootPasswordHash: undefined, sshKeys: '' });
      return state;
    case 'destroy':
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------
// The driver

export function createSimulatedHypervisor(db: Db, opts: SimulatedHypervisorOptions = {}): SimulatedHypervisor {
  const speed = opts.speed && opts.speed > 0 ? opts.speed : 1;
  const now = opts.now ?? Date.now;
  const scaled = (ms: number) => Math.max(1, Math.round(ms / speed));
  const injected: (InjectedFailure & { left: number })[] = [];

  // UPID parts: a pseudo process per driver instance.
  const pstart = crypto.randomInt(0x100000, 0x0fffffff);
  let pid = crypto.randomInt(0x1000, 0x3fffff);

  /** The failure planned for this call, if any: throws codes, returns task error texts. */
  function failureFor(op: SimOp, vm?: VmRef): string | undefined {
    let error: string | undefined;
    const i = injected.findIndex((f) => f.op === op && (f.vmid === undefined || f.vmid === vm?.vmid));
    if (i >= 0) {
      const f = injected[i]!;
      error = f.error;
      if (--f.left <= 0) injected.splice(i, 1);
    } else error = opts.failures?.(op, vm);
    if (error !== undefined && (CODES as string[]).includes(error)) {
      const code = error as HypervisorErrorCode;
      throw err(code, code === 'LOCKED' && vm ? `can't lock file '/var/lock/qemu-server/lock-${vm.vmid}.conf' - got timeout` : `injected ${code}`);
    }
    return error;
  }
  /** For calls without a task: an injected text fails the call. */
  function failCall(op: SimOp, vm?: VmRef) {
    const error = failureFor(op, vm);
    if (error !== undefined) throw err('TASK_FAILED', error);
  }

  // --- database access -------------------------------------------------------------------------

  async function insertTask(conn: Conn, p: { node: string; vmid: number; type: string; baseMs: number; effects: TaskEffects; exitStatus?: string; id?: string; sizeBytes?: number }): Promise<TaskRef> {
    const started = now();
    const upid = formatUpid({ node: p.node, pid: pid++ & 0x3fffff, pstart, starttime: Math.floor(started / 1000), type: p.type, id: p.id ?? String(p.vmid), user: USER });
    await conn.insert(simTasks).values({
      upid, node: p.node, vmid: p.vmid, type: p.type, startedAt: new Date(started), durationMs: scaled(p.baseMs),
      exitStatus: p.exitStatus ?? 'OK', effect: p.effects as unknown as Record<string, unknown>, sizeBytes: p.sizeBytes ?? null,
    });
    return { node: p.node, upid };
  }

  const endOf = (t: TaskRow) => t.startedAt.getTime() + t.durationMs;

  /** Applies the effects of finished tasks (oldest end first) to a locked VM state. */
  async function settleLocked(tx: Tx, vmid: number, state: SimVmState | null, at: number): Promise<{ state: SimVmState | null; pending: TaskRow[] }> {
    const open = await tx.select().from(simTasks).where(and(eq(simTasks.vmid, vmid), isNull(simTasks.appliedAt)));
    const finished = open.filter((t) => endOf(t) <= at).sort((a, b) => endOf(a) - endOf(b));
    if (finished.length) {
      const claimed = await tx.update(simTasks).set({ appliedAt: new Date(at) })
        .where(and(inArray(simTasks.upid, finished.map((t) => t.upid)), isNull(simTasks.appliedAt))).returning({ upid: simTasks.upid });
      const mine = new Set(claimed.map((c) => c.upid));
      for (const t of finished) {
        if (!mine.has(t.upid) || !state) continue;
        const effects = t.effect as unknown as TaskEffects;
        const effect = taskOk(t.exitStatus) ? effects.ok : effects.failed;
        if (effect) state = applyEffect(state, effect, endOf(t));
      }
    }
    return { state, pending: open.filter((t) => endOf(t) > at) };
  }

  /**
   * Locks the VM, settles finished tasks, runs `fn` on the state and writes the result back
   * (`state: null` deletes the VM). Throws NOT_FOUND when the VM does not exist on that node.
   */
  async function withVm<T>(vm: VmRef, fn: (ctx: { tx: Tx; state: SimVmState; pending: TaskRow[]; at: number }) => Promise<{ state?: SimVmState | null; result: T }> | { state?: SimVmState | null; result: T }): Promise<T> {
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(simVms).where(eq(simVms.vmid, vm.vmid)).for('update');
      if (!row || row.node !== vm.node) throw notFound(vm);
      const at = now();
      const settled = await settleLocked(tx, vm.vmid, structuredClone(asState(row.state)), at);
      if (!settled.state) {
        // A finished task removed the VM: commit that, then report it missing.
        await tx.delete(simVms).where(eq(simVms.vmid, vm.vmid));
        return { gone: true as const };
      }
      const out = await fn({ tx, state: settled.state, pending: settled.pending, at });
      const next = out.state === undefined ? settled.state : out.state;
      if (next === null) await tx.delete(simVms).where(eq(simVms.vmid, vm.vmid));
      else await tx.update(simVms).set({ state: next as unknown as Record<string, unknown>, updatedAt: new Date(at) }).where(eq(simVms.vmid, vm.vmid));
      return { gone: false as const, result: out.result };
    });
    if (outcome.gone) throw notFound(vm);
    return outcome.result;
  }

  /** Reads a VM; settles first (in a transaction) only when a finished task waits for its effect. */
  async function readVm(vm: VmRef): Promise<{ state: SimVmState; pending: TaskRow[]; at: number }> {
    const [row] = await db.select().from(simVms).where(eq(simVms.vmid, vm.vmid));
    if (!row || row.node !== vm.node) throw notFound(vm);
    const open = await db.select().from(simTasks).where(and(eq(simTasks.vmid, vm.vmid), isNull(simTasks.appliedAt)));
    const at = now();
    if (open.every((t) => endOf(t) > at)) return { state: asState(row.state), pending: open, at };
    return withVm(vm, ({ state, pending, at: at2 }) => ({ result: { state, pending, at: at2 } }));
  }

  const lockOf = (pending: TaskRow[]) => {
    const t = pending.find((p) => LOCKS[p.type]);
    return t ? LOCKS[t.type] : undefined;
  };
  function assertUnlocked(pending: TaskRow[]) {
    const lock = lockOf(pending);
    if (lock) throw err('LOCKED', `VM is locked (${lock})`);
  }
  /** The power state once all pending power tasks have ended. */
  function futureStatus(state: SimVmState, pending: TaskRow[]) {
    let status = state.status;
    for (const t of [...pending].sort((a, b) => endOf(a) - endOf(b))) {
      const effect = (t.effect as unknown as TaskEffects).ok;
      if (taskOk(t.exitStatus) && effect.kind === 'power') status = effect.status;
    }
    return status;
  }

  // --- tasks -------------------------------------------------------------------------------------

  async function taskStatus(task: TaskRef): Promise<TaskState> {
    const [row] = await db.select().from(simTasks).where(eq(simTasks.upid, task.upid));
    if (!row) throw err('NOT_FOUND', `no such task '${task.upid}'`);
    const at = now();
    if (at < endOf(row)) return { status: 'running', progress: Math.max(0, Math.min(99, Math.floor(((at - row.startedAt.getTime()) / row.durationMs) * 100))) };
    if (row.appliedAt === null && row.vmid !== null) {
      try {
        await withVm({ node: row.node, vmid: row.vmid }, () => ({ result: undefined }));
      } catch (e) {
        if (!(e instanceof HypervisorError && e.code === 'NOT_FOUND')) throw e;
        // The VM is gone: nothing to apply any more.
        await db.update(simTasks).set({ appliedAt: new Date(at) }).where(and(eq(simTasks.upid, row.upid), isNull(simTasks.appliedAt)));
      }
    }
    return taskOk(row.exitStatus) ? { status: 'ok' } : { status: 'failed', error: row.exitStatus };
  }

  async function waitForTask(task: TaskRef, o: { timeoutMs?: number; onProgress?: (percent: number) => void } = {}) {
    const timeoutMs = o.timeoutMs ?? 15 * 60_000;
    const deadline = now() + timeoutMs;
    const interval = Math.max(5, Math.round(500 / speed));
    for (;;) {
      const state = await taskStatus(task);
      if (state.status === 'ok') {
        o.onProgress?.(100);
        return;
      }
      if (state.status === 'failed') throw new HypervisorError('TASK_FAILED', hypervisorMessages.TASK_FAILED, state.error);
      o.onProgress?.(state.progress ?? 0);
      if (now() >= deadline) throw err('TIMEOUT', `task ${task.upid} still running after ${timeoutMs} ms`);
      await sleep(Math.min(interval, Math.max(1, deadline - now())));
    }
  }

  /** A task on an existing VM, created under its lock. */
  async function vmTask(vm: VmRef, op: SimOp, build: (ctx: { state: SimVmState; pending: TaskRow[]; at: number }) => { type: string; baseMs: number; effects: TaskEffects; id?: string; sizeBytes?: number; state?: SimVmState }): Promise<TaskRef> {
    const exitStatus = failureFor(op, vm);
    return withVm(vm, async ({ tx, state, pending, at }) => {
      const spec = build({ state, pending, at });
      assertUnlocked(pending);
      const ref = await insertTask(tx, { node: vm.node, vmid: vm.vmid, exitStatus, ...spec });
      return { state: spec.state ?? state, result: ref };
    });
  }

  function power(vm: VmRef, action: PowerAction): Promise<TaskRef> {
    return vmTask(vm, action, ({ state, pending }) => {
      const future = futureStatus(state, pending);
      const type = `qm${action}`;
      if (action === 'reboot' && future !== 'running') throw err('INVALID', `VM ${vm.vmid} not running`);
      if ((action === 'start' && future === 'running') || ((action === 'stop' || action === 'shutdown') && future === 'stopped')) {
        return { type, baseMs: DURATION.noop, effects: { ok: { kind: 'none' } } };
      }
      const status = action === 'start' || action === 'reboot' ? 'running' : 'stopped';
      return { type, baseMs: DURATION[type as keyof typeof DURATION], effects: { ok: { kind: 'power', status, restart: action === 'reboot' } } };
    });
  }

  // --- provisioning ------------------------------------------------------------------------------

  function freshState(spec: CreateServerSpec, at: number): SimVmState {
    return {
      name: spec.name, os: spec.os, status: 'stopped', cores: spec.cores, memoryMb: spec.memoryMb, diskGb: OS[spec.os].templateDiskGb,
      firewall: { enabled: false, rules: [] }, backups: [], packages: [], sshKeys: '', createdAt: at, runs: [],
    };
  }

  /** Progress of a multi-step operation: each step maps 0..100 onto its share. */
  function progressReporter(onProgress: ((p: number) => void) | undefined) {
    let last = -1;
    const report = (p: number) => {
      const v = Math.max(last, Math.min(100, Math.round(p)));
      if (v !== last) {
        last = v;
        onProgress?.(v);
      }
    };
    return { report, step: (from: number, to: number) => (p: number) => report(from + ((to - from) * p) / 100) };
  }

  async function pendingOfType(vmid: number, type: string) {
    const rows = await db.select().from(simTasks).where(and(eq(simTasks.vmid, vmid), eq(simTasks.type, type), isNull(simTasks.appliedAt))).orderBy(desc(simTasks.startedAt));
    return rows[0];
  }

  /** After the clone: cloud-init config, disk resize, start. Each step re-reads the VM (idempotent). */
  async function finishProvisioning(spec: CreateServerSpec, progress: ReturnType<typeof progressReporter>) {
    const vm = { node: spec.node, vmid: spec.vmid };
    failCall('config', vm);
    const passwordHash = spec.rootPassword ? await hashPassword(spec.rootPassword) : undefined;
    const resize = await withVm(vm, async ({ tx, state, pending }) => {
      assertUnlocked(pending);
      Object.assign(state, { cores: spec.cores, memoryMb: spec.memoryMb, ipv4: spec.ipv4, ipv6: spec.ipv6 });
      if (passwordHash) state.rootPasswordHash = passwordHash;
      if (spec.sshKeys !== undefined) state.sshKeys = spec.sshKeys;
      let task: TaskRef | undefined;
      if (spec.diskGb > state.diskGb) {
        const running = pending.find((t) => t.type === 'qmresize');
        task = running ? { node: vm.node, upid: running.upid } : await insertTask(tx, { node: vm.node, vmid: vm.vmid, type: 'qmresize', baseMs: DURATION.qmresize, effects: { ok: { kind: 'resize', diskGb: spec.diskGb } }, exitStatus: failureFor('resize', vm) });
      }
      return { state, result: task };
    });
    progress.report(78);
    if (resize) await waitForTask(resize, { onProgress: progress.step(78, 82) });
    progress.report(82);
    const start = await pendingOfType(vm.vmid, 'qmstart');
    const task = start ? { node: vm.node, upid: start.upid } : await power(vm, 'start');
    await waitForTask(task, { onProgress: progress.step(82, 100) });
    progress.report(100);
  }

  async function createServer(spec: CreateServerSpec, onProgress?: (percent: number) => void) {
    const vm = { node: spec.node, vmid: spec.vmid };
    const progress = progressReporter(onProgress);
    progress.report(0);
    const exitStatus = failureFor('clone', vm);
    const at = now();
    const clone = await db.transaction(async (tx) => {
      const inserted = await tx.insert(simVms).values({ vmid: spec.vmid, node: spec.node, state: freshState(spec, at) as unknown as Record<string, unknown>, updatedAt: new Date(at) })
        .onConflictDoNothing().returning({ vmid: simVms.vmid });
      if (!inserted.length) return undefined;
      return insertTask(tx, {
        node: spec.node, vmid: spec.vmid, type: 'qmclone', id: String(OS[spec.os].templateId), baseMs: DURATION.qmclone, exitStatus,
        effects: { ok: { kind: 'none' }, failed: { kind: 'destroy' } },
      });
    });
    if (clone) await waitForTask(clone, { onProgress: progress.step(0, 75) });
    else {
      // A retry: the VM exists. Continue if it is ours, else the id is taken.
      const [row] = await db.select().from(simVms).where(eq(simVms.vmid, spec.vmid));
      if (!row) return createServer(spec, onProgress);
      if (row.node !== spec.node || asState(row.state).name !== spec.name) {
        throw err('INVALID', `unable to create VM ${spec.vmid} - config file already exists`);
      }
      const running = await pendingOfType(spec.vmid, 'qmclone');
      if (running) await waitForTask({ node: spec.node, upid: running.upid }, { onProgress: progress.step(0, 75) });
    }
    progress.report(75);
    await finishProvisioning(spec, progress);
  }

  async function reinstallServer(spec: CreateServerSpec, onProgress?: (percent: number) => void) {
    const vm = { node: spec.node, vmid: spec.vmid };
    const progress = progressReporter(onProgress);
    progress.report(0);
    const { state, pending } = await readVm(vm);
    if (futureStatus(state, pending) === 'running') {
      const stop = await power(vm, 'stop');
      await waitForTask(stop, { onProgress: progress.step(0, 10) });
    }
    progress.report(10);
    const clone = await vmTask(vm, 'clone', ({ state: s }) => ({
      type: 'qmclone', id: String(OS[spec.os].templateId), baseMs: DURATION.qmclone,
      effects: { ok: { kind: 'reinstall', os: spec.os, diskGb: OS[spec.os].templateDiskGb } },
      state: { ...s, name: spec.name },
    }));
    await waitForTask(clone, { onProgress: progress.step(10, 75) });
    progress.report(75);
    await finishProvisioning(spec, progress);
  }

  async function resizeServer(vm: VmRef, resources: { cores: number; memoryMb: number; diskGb: number }) {
    failCall('config', vm);
    const task = await withVm(vm, async ({ tx, state, pending }) => {
      assertUnlocked(pending);
      if (resources.diskGb < state.diskGb) throw err('INVALID', `disk size may not shrink (${state.diskGb}G → ${resources.diskGb}G): shrinking disks is not supported`);
      if (resources.cores < 1 || resources.memoryMb < 16) throw err('INVALID', 'cores and memory must be positive');
      state.cores = resources.cores;
      state.memoryMb = resources.memoryMb;
      const t = resources.diskGb > state.diskGb
        ? await insertTask(tx, { node: vm.node, vmid: vm.vmid, type: 'qmresize', baseMs: DURATION.qmresize, effects: { ok: { kind: 'resize', diskGb: resources.diskGb } }, exitStatus: failureFor('resize', vm) })
        : undefined;
      return { state, result: t };
    });
    if (task) await waitForTask(task);
  }

  async function deleteServer(vm: VmRef) {
    let current;
    try {
      current = await readVm(vm);
    } catch (e) {
      if (e instanceof HypervisorError && e.code === 'NOT_FOUND') return;
      throw e;
    }
    assertUnlocked(current.pending);
    if (futureStatus(current.state, current.pending) === 'running') await waitForTask(await power(vm, 'stop'));
    const destroy = await vmTask(vm, 'destroy', () => ({ type: 'qmdestroy', baseMs: DURATION.qmdestroy, effects: { ok: { kind: 'destroy' } } }));
    await waitForTask(destroy);
  }

  // --- status ------------------------------------------------------------------------------------

  async function currentStatus(vm: VmRef): Promise<VmStatus> {
    failCall('status', vm);
    const { state, pending, at } = await readVm(vm);
    const t = at / 1000;
    const running = state.status === 'running';
    const start = (state.startedAt ?? at) / 1000;
    const lock = lockOf(pending);
    return {
      status: state.status,
      cpu: running ? Number(cpuAt(vm.vmid, t).toFixed(4)) : 0,
      cpus: state.cores,
      mem: running ? memAt(vm.vmid, t, state) : 0,
      maxmem: state.memoryMb * MiB,
      disk: diskUsed(vm.vmid, t, state),
      maxdisk: state.diskGb * GiB,
      netin: running ? counter(vm.vmid, 0, start, t) : 0,
      netout: running ? counter(vm.vmid, 1, start, t) : 0,
      uptime: running ? Math.max(0, Math.floor(t - start)) : 0,
      ...(lock ? { lock } : {}),
    };
  }

  async function usageHistory(vm: VmRef, timeframe: 'hour' | 'day' | 'week'): Promise<UsagePoint[]> {
    failCall('status', vm);
    const { state, at } = await readVm(vm);
    const step = timeframe === 'hour' ? 60 : timeframe === 'day' ? 1440 : 10080;
    const points = 60;
    const last = Math.floor(at / 1000 / step) * step;
    const maxmem = state.memoryMb * MiB;
    const out: UsagePoint[] = [];
    for (let i = points - 1; i >= 0; i--) {
      const time = last - i * step;
      const on = runningAt(state, time * 1000) || (i === 0 && state.status === 'running');
      out.push({
        time,
        cpu: on ? Number(cpuAt(vm.vmid, time).toFixed(4)) : 0,
        mem: on ? memAt(vm.vmid, time, state) : 0,
        maxmem,
        netin: on ? Math.round(rateAt(vm.vmid, 0, time)) : 0,
        netout: on ? Math.round(rateAt(vm.vmid, 1, time)) : 0,
        diskread: on ? Math.round(rateAt(vm.vmid, 2, time) * 2) : 0,
        diskwrite: on ? Math.round(rateAt(vm.vmid, 3, time)) : 0,
      });
    }
    return out;
  }

  async function listNodes(): Promise<NodeInfo[]> {
    failCall('nodes');
    const vms = await db.select({ node: simVms.node, state: simVms.state }).from(simVms);
    const at = now();
    const configured = opts.nodes?.length ? opts.nodes : ['sim1'];
    const names = new Set<string>(configured.map((n) => (typeof n === 'string' ? n : n.node)));
    for (const v of vms) names.add(v.node);
    return [...names].sort().map((name) => {
      const given = configured.find((n): n is NodeInfo => typeof n !== 'string' && n.node === name);
      if (given) return given;
      const mine = vms.filter((v) => v.node === name).map((v) => asState(v.state));
      const running = mine.filter((s) => s.status === 'running');
      const maxcpu = 64;
      return {
        node: name, status: 'online' as const,
        cpu: Number(clamp(0.01 + running.reduce((sum, s) => sum + s.cores * 0.15, 0) / maxcpu, 0, 1).toFixed(4)),
        maxcpu,
        mem: 4 * GiB + running.reduce((sum, s) => sum + s.memoryMb * MiB * 0.6, 0),
        maxmem: 512 * GiB,
        disk: 12 * GiB + mine.reduce((sum, s) => sum + s.diskGb * GiB * 0.3, 0),
        maxdisk: 8 * 1024 * GiB,
        uptime: Math.floor(at / 1000) % (86400 * 97),
      };
    });
  }

  // --- backups -----------------------------------------------------------------------------------

  function createBackup(vm: VmRef): Promise<TaskRef> {
    return vmTask(vm, 'vzdump', ({ state, at }) => {
      let ctime = Math.floor(at / 1000);
      const volid = (c: number) => `local:backup/vzdump-qemu-${vm.vmid}-${fmtStamp(c * 1000)}.vma.zst`;
      while (state.backups.some((b) => b.volid === volid(ctime))) ctime++;
      const size = Math.round(diskUsed(vm.vmid, at / 1000, state) * 0.42);
      const backup: SimBackup = { volid: volid(ctime), size, ctime, snapshot: snapshotOf(state) };
      return { type: 'vzdump', baseMs: DURATION.vzdump, effects: { ok: { kind: 'backup', backup } }, sizeBytes: size };
    });
  }

  async function listBackups(vm: VmRef): Promise<BackupInfo[]> {
    failCall('status', vm);
    const { state } = await readVm(vm);
    return [...state.backups].sort((a, b) => b.ctime - a.ctime).map(publicBackup);
  }

  function restoreBackup(vm: VmRef, volid: string): Promise<TaskRef> {
    return vmTask(vm, 'restore', ({ state }) => {
      if (!state.backups.some((b) => b.volid === volid)) throw err('NOT_FOUND', `volume '${volid}' does not exist`);
      return { type: 'qmrestore', baseMs: DURATION.qmrestore, effects: { ok: { kind: 'restore', volid } } };
    });
  }

  async function deleteBackup(vm: VmRef, volid: string) {
    failCall('backup-delete', vm);
    await withVm(vm, ({ state, pending }) => {
      if (pending.some((t) => t.type === 'qmrestore')) throw err('LOCKED', 'VM is locked (create)');
      state.backups = state.backups.filter((b) => b.volid !== volid);
      return { state, result: undefined };
    });
  }

  // --- firewall ----------------------------------------------------------------------------------

  async function setFirewall(vm: VmRef, enabled: boolean) {
    failCall('firewall', vm);
    await withVm(vm, ({ state }) => {
      state.firewall.enabled = enabled;
      return { state, result: undefined };
    });
  }

  async function listFirewallRules(vm: VmRef): Promise<FirewallRule[]> {
    failCall('firewall', vm);
    const { state } = await readVm(vm);
    return state.firewall.rules.map((r, pos) => ({ ...r, pos }));
  }

  async function addFirewallRule(vm: VmRef, rule: FirewallRuleSpec) {
    failCall('firewall', vm);
    if (rule.dport !== undefined && !/^\d{1,5}([-:]\d{1,5})?(,\d{1,5}([-:]\d{1,5})?)*$/.test(rule.dport)) {
      throw err('INVALID', `dport: invalid port '${rule.dport}'`);
    }
    await withVm(vm, ({ state }) => {
      const next: FirewallRule = { pos: 0, type: 'in', action: 'ACCEPT', enable: true, proto: rule.proto, comment: rule.comment, ...(rule.dport !== undefined ? { dport: rule.dport } : {}) };
      state.firewall.rules = [next, ...state.firewall.rules].map((r, pos) => ({ ...r, pos }));
      return { state, result: undefined };
    });
  }

  async function deleteFirewallRule(vm: VmRef, pos: number) {
    failCall('firewall', vm);
    await withVm(vm, ({ state }) => {
      if (!Number.isInteger(pos) || pos < 0 || pos >= state.firewall.rules.length) throw err('NOT_FOUND', `no rule at position ${pos}`);
      state.firewall.rules = state.firewall.rules.filter((_, i) => i !== pos).map((r, i) => ({ ...r, pos: i }));
      return { state, result: undefined };
    });
  }

  // --- guest agent -------------------------------------------------------------------------------

  async function exec(vm: VmRef, command: string[]): Promise<ExecResult> {
    failCall('exec', vm);
    const { state } = await readVm(vm);
    if (state.status !== 'running') throw err('INVALID', `VM ${vm.vmid} is not running`);
    const run = runScript(command, { state, vmid: vm.vmid, at: now() });
    await sleep(scaled(run.durationMs));
    if (run.install.length || run.remove.length) {
      await withVm(vm, ({ state: s }) => {
        const set = new Set(s.packages);
        for (const p of run.install) set.add(p);
        for (const p of run.remove) set.delete(p);
        s.packages = PACKAGES.map((p) => p.name).filter((n) => set.has(n));
        return { state: s, result: undefined };
      });
    }
    return { exitCode: run.exitCode, stdout: run.stdout };
  }

  async function setRootPassword(vm: VmRef, password: string) {
    failCall('password', vm);
    const hash = await hashPassword(password);
    await withVm(vm, ({ state }) => {
      state.rootPasswordHash = hash;
      return { state, result: undefined };
    });
  }

  async function setSshKeys(vm: VmRef, keys: string) {
    failCall('sshkeys', vm);
    await withVm(vm, ({ state }) => {
      state.sshKeys = keys;
      return { state, result: undefined };
    });
  }

  async function openConsole(vm: VmRef): Promise<ConsoleConnection> {
    failCall('console', vm);
    const { state } = await readVm(vm);
    if (state.status !== 'running') throw err('INVALID', `VM ${vm.vmid} not running`);
    return new SimConsole(vm, state, now, async (argv) => {
      const result = await exec(vm, argv);
      return { result, state: (await readVm(vm)).state };
    });
  }

  return {
    kind: 'simulated',
    listNodes, createServer, deleteServer, reinstallServer, resizeServer,
    power, taskStatus, waitForTask, currentStatus, usageHistory,
    createBackup, listBackups, restoreBackup, deleteBackup,
    setFirewall, listFirewallRules, addFirewallRule, deleteFirewallRule,
    exec, setRootPassword, setSshKeys, openConsole,
    injectFailure(next: InjectedFailure) {
      injected.push({ ...next, left: next.times ?? 1 });
    },
    reset() {
      injected.length = 0;
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Commands (guest agent exec and the console's shell)

interface ShellEnv {
  state: SimVmState;
  vmid: number;
  at: number;
}

interface RunResult {
  exitCode: number;
  stdout: string;
  install: string[];
  remove: string[];
  durationMs: number;
}

/** Splits a shell line into words (quotes, no expansion). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** Runs argv; `sh -c` / `bash -c` scripts are split on `&&`, `;` and new lines. */
function runScript(argv: string[], env: ShellEnv): RunResult {
  const result: RunResult = { exitCode: 0, stdout: '', install: [], remove: [], durationMs: 0 };
  const scripts = (argv[0] === 'sh' || argv[0] === 'bash' || argv[0] === '/bin/sh' || argv[0] === '/bin/bash') && argv[1] === '-c'
    ? (argv[2] ?? '').split(/&&|;|\n/).map((s) => words(s)).filter((w) => w.length)
    : [argv];
  for (const cmd of scripts) {
    const r = runCommand(cmd, { ...env, state: { ...env.state, packages: [...new Set([...env.state.packages, ...result.install])].filter((p) => !result.remove.includes(p)) } });
    result.stdout += r.stdout;
    result.exitCode = r.exitCode;
    result.install.push(...r.install);
    result.remove.push(...r.remove);
    result.durationMs += r.durationMs;
    if (r.exitCode !== 0) break;
  }
  return result;
}

function aptOutput(env: ShellEnv, action: 'install' | 'remove', names: string[], tool: 'apt' | 'dnf'): RunResult {
  const info = OS[env.state.os];
  const res: RunResult = { exitCode: 0, stdout: '', install: [], remove: [], durationMs: DURATION.command };
  const unknown = names.filter((n) => !findPackage(n));
  if (tool === 'dnf') {
    if (unknown.length) return { ...res, exitCode: 1, stdout: `Last metadata expiration check: 0:12:04 ago.\nNo match for argument: ${unknown[0]}\nError: Unable to find a match: ${unknown.join(' ')}\n` };
  } else {
    res.stdout = 'Reading package lists... Done\nBuilding dependency tree... Done\nReading state information... Done\n';
    if (unknown.length) return { ...res, exitCode: 100, stdout: `${res.stdout}E: Unable to locate package ${unknown[0]}\n` };
  }
  const pkgs = names.map((n) => findPackage(n)!);
  const installed = new Set(env.state.packages);
  if (action === 'install') {
    const todo = pkgs.filter((p) => !installed.has(p.name));
    for (const p of pkgs.filter((x) => installed.has(x.name))) {
      res.stdout += tool === 'apt' ? `${p.name} is already the newest version (${p.version}).\n` : `Package ${p.name}-${p.version}.x86_64 is already installed.\n`;
    }
    if (!todo.length) {
      res.stdout += tool === 'apt' ? '0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.\n' : 'Dependencies resolved.\nNothing to do.\nComplete!\n';
      return res;
    }
    const all = todo.flatMap((p) => [...p.deps, p.name]);
    const kb = todo.reduce((s, p) => s + p.sizeKb, 0);
    if (tool === 'apt') {
      res.stdout += `The following NEW packages will be installed:\n  ${all.join(' ')}\n0 upgraded, ${all.length} newly installed, 0 to remove and 0 not upgraded.\n`;
      res.stdout += `Need to get ${Math.round(kb / 3).toLocaleString('en-US')} kB of archives.\nAfter this operation, ${kb.toLocaleString('en-US')} kB of additional disk space will be used.\n`;
      all.forEach((name, i) => {
        const p = findPackage(name);
        res.stdout += `Get:${i + 1} ${info.mirror} amd64 ${name} amd64 ${p?.version ?? todo[0]!.version} [${Math.round(kb / 3 / all.length)} kB]\n`;
      });
      res.stdout += `Fetched ${Math.round(kb / 3).toLocaleString('en-US')} kB in 1s (${Math.round(kb / 2.5).toLocaleString('en-US')} kB/s)\n`;
      for (const name of all) res.stdout += `Selecting previously unselected package ${name}.\nUnpacking ${name} ...\n`;
      for (const name of all) res.stdout += `Setting up ${name} (${findPackage(name)?.version ?? todo[0]!.version}) ...\n`;
      for (const p of todo) if (p.service) res.stdout += `Created symlink /etc/systemd/system/multi-user.target.wants/${p.service}.service → /lib/systemd/system/${p.service}.service.\n`;
      res.stdout += 'Processing triggers for man-db (2.11.2-2) ...\n';
    } else {
      res.stdout += `Dependencies resolved.\nInstalling:\n${all.map((n) => ` ${n}   x86_64   ${appVersion(n, todo)}   appstream`).join('\n')}\n\nTransaction Summary\nInstall  ${all.length} Packages\n\nTotal download size: ${Math.round(kb / 3000)} M\nRunning transaction\n${all.map((n) => `  Installing       : ${n}`).join('\n')}\n\nComplete!\n`;
    }
    res.install = todo.map((p) => p.name);
    res.durationMs = DURATION.install * todo.length;
    return res;
  }
  const todo = pkgs.filter((p) => installed.has(p.name));
  for (const p of pkgs.filter((x) => !installed.has(x.name))) res.stdout += tool === 'apt' ? `Package '${p.name}' is not installed, so not removed\n` : `No match for argument: ${p.name}\n`;
  if (!todo.length) {
    res.stdout += tool === 'apt' ? '0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.\n' : 'Dependencies resolved.\nNothing to do.\nComplete!\n';
    return res;
  }
  if (tool === 'apt') {
    res.stdout += `The following packages will be REMOVED:\n  ${todo.map((p) => p.name).join(' ')}\n0 upgraded, 0 newly installed, ${todo.length} to remove and 0 not upgraded.\n`;
    res.stdout += `After this operation, ${todo.reduce((s, p) => s + p.sizeKb, 0).toLocaleString('en-US')} kB disk space will be freed.\n`;
    for (const p of todo) res.stdout += `Removing ${p.name} (${p.version}) ...\n`;
    res.stdout += 'Processing triggers for man-db (2.11.2-2) ...\n';
  } else {
    res.stdout += `Dependencies resolved.\nRemoving:\n${todo.map((p) => ` ${p.name}   x86_64   ${p.version}`).join('\n')}\n\nComplete!\n`;
  }
  res.remove = todo.map((p) => p.name);
  res.durationMs = DURATION.remove * todo.length;
  return res;
}
const appVersion = (name: string, todo: Package[]) => findPackage(name)?.version ?? todo[0]!.version;

function fmtUptime(seconds: number) {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const parts = d ? `${d} day${d === 1 ? '' : 's'}, ` : '';
  return h ? `${parts}${String(h).padStart(2, ' ')}:${pad2(m)}` : `${parts}${m} min`;
}

/** One command; no pipes or redirections. */
function runCommand(argvIn: string[], env: ShellEnv): RunResult {
  const ok = (stdout: string, durationMs: number = DURATION.command): RunResult => ({ exitCode: 0, stdout, install: [], remove: [], durationMs });
  const fail = (exitCode: number, stdout: string): RunResult => ({ exitCode, stdout, install: [], remove: [], durationMs: DURATION.command });
  // Leading VAR=value assignments (DEBIAN_FRONTEND=noninteractive apt-get …) and sudo.
  let argv = argvIn;
  while (argv.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0]!) || argv[0] === 'sudo' || argv[0] === 'env')) argv = argv.slice(1);
  const [cmd = '', ...args] = argv;
  const s = env.state;
  const info = OS[s.os];
  const t = env.at / 1000;
  const running = s.status === 'running';
  const upSeconds = running && s.startedAt ? Math.max(0, Math.floor(t - s.startedAt / 1000)) : 0;
  const host = s.name;
  const has = (name: string) => s.packages.includes(name);
  switch (cmd) {
    case '':
      return ok('');
    case 'true':
    case ':':
      return ok('');
    case 'false':
      return fail(1, '');
    case 'echo':
      return ok(`${args.join(' ')}\n`);
    case 'hostname':
      return ok(`${host}\n`);
    case 'whoami':
      return ok('root\n');
    case 'id':
      return ok('uid=0(root) gid=0(root) groups=0(root)\n');
    case 'pwd':
      return ok('/root\n');
    case 'date':
      return ok(`${new Date(env.at).toUTCString().replace('GMT', 'UTC')}\n`);
    case 'uname':
      if (args.includes('-a')) return ok(`Linux ${host} ${info.kernel} ${info.kernelBuild} x86_64 GNU/Linux\n`);
      if (args.includes('-r')) return ok(`${info.kernel}\n`);
      return ok('Linux\n');
    case 'uptime': {
      const load = (k: number) => (cpuAt(env.vmid, t - k * 60) * s.cores).toFixed(2);
      return ok(` ${new Date(env.at).toISOString().slice(11, 19)} up ${fmtUptime(upSeconds)},  1 user,  load average: ${load(1)}, ${load(5)}, ${load(15)}\n`);
    }
    case 'df': {
      const size = s.diskGb * GiB;
      const used = diskUsed(env.vmid, t, s);
      const human = (b: number) => (b >= GiB ? `${(b / GiB).toFixed(1)}G` : `${Math.round(b / MiB)}M`);
      const memMb = s.memoryMb;
      return ok([
        'Filesystem      Size  Used Avail Use% Mounted on',
        `udev            ${human(memMb * MiB * 0.48).padEnd(5)}    0  ${human(memMb * MiB * 0.48).padEnd(5)}   0% /dev`,
        `tmpfs           ${human(memMb * MiB * 0.1).padEnd(5)} 528K  ${human(memMb * MiB * 0.1).padEnd(5)}   1% /run`,
        `/dev/sda1       ${human(size).padEnd(5)} ${human(used).padEnd(5)} ${human(size - used).padEnd(5)} ${String(Math.round((used / size) * 100)).padStart(3)}% /`,
        `tmpfs           ${human(memMb * MiB * 0.5).padEnd(5)}    0  ${human(memMb * MiB * 0.5).padEnd(5)}   0% /dev/shm`,
        '/dev/sda15      124M   12M  113M  10% /boot/efi',
      ].join('\n') + '\n');
    }
    case 'free': {
      const total = s.memoryMb;
      const used = Math.round(memAt(env.vmid, t, s) / MiB);
      const cache = Math.round((total - used) * 0.35);
      const free = total - used - cache;
      return ok(`               total        used        free      shared  buff/cache   available\nMem:    ${String(total).padStart(12)}${String(used).padStart(12)}${String(free).padStart(12)}${String(2).padStart(12)}${String(cache).padStart(12)}${String(free + cache).padStart(12)}\nSwap:              0           0           0\n`);
    }
    case 'ip': {
      if (!['a', 'addr', 'address'].includes(args[0] ?? '')) return fail(1, 'Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\n');
      const hex = (n: number) => (n & 0xff).toString(16).padStart(2, '0');
      const mac = `bc:24:11:${hex(env.vmid >> 8)}:${hex(env.vmid)}:${hex(Math.floor(seedOf(env.vmid) * 255))}`;
      const v4 = s.ipv4 ? `    inet ${s.ipv4.address}/${s.ipv4.prefix} brd + scope global eth0\n       valid_lft forever preferred_lft forever\n` : '';
      const v6 = s.ipv6 ? `    inet6 ${s.ipv6.address}/${s.ipv6.prefix} scope global\n       valid_lft forever preferred_lft forever\n` : '';
      return ok(`1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP group default qlen 1000\n    link/ether ${mac} brd ff:ff:ff:ff:ff:ff\n    altname enp0s18\n${v4}${v6}`);
    }
    case 'ls': {
      const all = args.some((a) => a.startsWith('-') && a.includes('a'));
      const entries = [...(all ? ['.', '..', '.bashrc', '.profile', '.ssh'] : []), ...(has('docker') ? ['docker-compose.yml'] : [])];
      return ok(entries.length ? `${entries.join('  ')}\n` : '');
    }
    case 'cat':
      if (args[0] === '/etc/os-release') return ok(`PRETTY_NAME="${info.pretty}"\nNAME="${info.issue.replace(/ \d.*$/, '')}"\nID=${info.family}\n`);
      if (args[0] === '/etc/hostname') return ok(`${host}\n`);
      return fail(1, `cat: ${args[0] ?? ''}: No such file or directory\n`);
    case 'apt':
    case 'apt-get': {
      const sub = args.find((a) => !a.startsWith('-'));
      const names = args.filter((a) => !a.startsWith('-') && a !== sub);
      if (sub === 'update') return ok(`Hit:1 ${info.mirror.split(' ')[0]} ${info.mirror.split(' ')[1]?.split('/')[0] ?? ''} InRelease\nReading package lists... Done\n`, 1500);
      if (sub === 'install' || sub === 'remove' || sub === 'purge') {
        if (!names.length) return ok('Reading package lists... Done\nBuilding dependency tree... Done\n0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.\n');
        return aptOutput(env, sub === 'install' ? 'install' : 'remove', names, 'apt');
      }
      return fail(100, `E: Invalid operation ${sub ?? ''}\n`);
    }
    case 'dnf':
    case 'yum': {
      const sub = args.find((a) => !a.startsWith('-'));
      const names = args.filter((a) => !a.startsWith('-') && a !== sub);
      if (sub === 'install' || sub === 'remove' || sub === 'erase') return aptOutput(env, sub === 'install' ? 'install' : 'remove', names, 'dnf');
      return fail(1, `No such command: ${sub ?? ''}.\n`);
    }
    case 'dpkg': {
      const name = args.find((a) => !a.startsWith('-')) ?? '';
      const p = findPackage(name);
      if (p && has(p.name)) return ok(`Package: ${p.name}\nStatus: install ok installed\nVersion: ${p.version}\n`);
      return fail(1, `dpkg-query: package '${name}' is not installed and no information is available\n`);
    }
    case 'systemctl': {
      const unit = (args[1] ?? '').replace(/\.service$/, '');
      const p = PACKAGES.find((x) => x.service === unit || x.name === unit);
      if (!p || !has(p.name)) return fail(args[0] === 'is-active' ? 4 : 5, args[0] === 'is-active' ? 'inactive\n' : `Failed to ${args[0] ?? 'run'} ${unit}.service: Unit ${unit}.service not found.\n`);
      return ok(args[0] === 'is-active' ? 'active\n' : args[0] === 'status' ? `● ${unit}.service\n     Loaded: loaded (/lib/systemd/system/${unit}.service; enabled)\n     Active: active (running)\n` : '');
    }
    case 'debconf-set-selections':
    case 'chpasswd':
    case 'export':
      return ok('');
    case 'mysql':
      return has('mysql-server') ? ok('') : fail(127, 'bash: mysql: command not found\n');
    case 'mongosh':
    case 'mongo':
      return has('mongodb') ? ok('') : fail(127, `bash: ${cmd}: command not found\n`);
    case 'nginx':
      return has('nginx') ? ok(`nginx version: nginx/${findPackage('nginx')!.version.split('-')[0]}\n`) : fail(127, 'bash: nginx: command not found\n');
    case 'node':
      return has('nodejs') ? ok(`v${findPackage('nodejs')!.version.split('-')[0]}\n`) : fail(127, 'bash: node: command not found\n');
    case 'python3':
      return ok(`Python ${findPackage('python3')!.version.split('-')[0]}\n`);
    case 'php':
      return has('php') ? ok(`PHP ${findPackage('php')!.version.split('-')[0]} (cli)\n`) : fail(127, 'bash: php: command not found\n');
    case 'docker':
      return has('docker') ? ok(`Docker version ${findPackage('docker')!.version.split('-')[0]}, build bc4487a\n`) : fail(127, 'bash: docker: command not found\n');
    default:
      return fail(127, `bash: ${cmd}: command not found\n`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Console: a tiny simulated serial terminal (xterm.js on the portal side)

const HELP = [
  'GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)',
  'Simulated console. Available commands:',
  '  help, uname -a, uptime, df -h, free -m, ip a, hostname, whoami, id, pwd, ls, date,',
  '  echo, cat /etc/os-release, apt-get install|remove <package>, systemctl status <unit>, clear, exit',
].join('\r\n');

class SimConsole implements ConsoleConnection {
  private dataListeners: ((data: string) => void)[] = [];
  private closeListeners: (() => void)[] = [];
  private pending: string[] = [];
  private line = '';
  private lastCr = false;
  private escape: 0 | 1 | 2 = 0;
  private closed = false;
  private queue: Promise<void> = Promise.resolve();
  private cols = 80;
  private rows = 24;
  private readonly windows: boolean;

  constructor(private vm: VmRef, private state: SimVmState, private now: () => number, private execute: (argv: string[]) => Promise<{ result: ExecResult; state: SimVmState }>) {
    this.windows = OS[state.os].family === 'windows';
    this.emit(this.banner());
  }

  private get prompt() {
    return this.windows ? 'SAC>' : `root@${this.state.name}:~# `;
  }

  private banner() {
    const info = OS[this.state.os];
    const name = this.state.name;
    if (this.windows) {
      return `\r\nComputer is booting, SAC started and initialized.\r\n\r\nUse the "ch -?" command for information about using channels.\r\nUse the "?" command for general help.\r\n\r\n${this.prompt}`;
    }
    const issue = info.family === 'centos' ? `${info.issue}\r\nKernel ${info.kernel} on an x86_64\r\n` : `${info.issue} ${name} ttyS0\r\n`;
    const motd = info.family === 'ubuntu'
      ? `Welcome to ${info.issue} (GNU/Linux ${info.kernel} x86_64)\r\n\r\n * Documentation:  https://help.ubuntu.com\r\n * Support:        https://ubuntu.com/pro\r\n`
      : info.family === 'debian'
        ? `Linux ${name} ${info.kernel} ${info.kernelBuild} x86_64\r\n\r\nThe programs included with the Debian GNU/Linux system are free software;\r\nthe exact distribution terms for each program are described in the\r\nindividual files in /usr/share/doc/*/copyright.\r\n\r\nDebian GNU/Linux comes with ABSOLUTELY NO WARRANTY, to the extent\r\npermitted by applicable law.\r\n`
        : '';
    const last = new Date(this.now() - 3_600_000).toUTCString().replace(/ GMT$/, '').replace(',', '');
    return `\r\n${issue}\r\n${name} login: root (automatic login)\r\n\r\n${motd}Last login: ${last} on ttyS0\r\n${this.prompt}`;
  }

  private emit(data: string) {
    if (this.closed && data) return;
    if (!this.dataListeners.length) this.pending.push(data);
    else for (const l of this.dataListeners) l(data);
  }

  onData(listener: (data: string) => void) {
    this.dataListeners.push(listener);
    if (this.pending.length) {
      const buffered = this.pending.join('');
      this.pending = [];
      queueMicrotask(() => listener(buffered));
    }
  }

  onClose(listener: () => void) {
    if (this.closed) queueMicrotask(listener);
    else this.closeListeners.push(listener);
  }

  resize(cols: number, rows: number) {
    this.cols = cols;
    this.rows = rows;
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    const listeners = this.closeListeners;
    this.closeListeners = [];
    setImmediate(() => listeners.forEach((l) => l()));
  }

  write(data: string) {
    if (this.closed) return;
    for (const ch of data) {
      if (this.escape === 1) {
        this.escape = ch === '[' || ch === 'O' ? 2 : 0;
        continue;
      }
      if (this.escape === 2) {
        if (ch >= '@' && ch <= '~') this.escape = 0;
        continue;
      }
      if (ch === '\n' && this.lastCr) {
        this.lastCr = false;
        continue;
      }
      this.lastCr = ch === '\r';
      if (ch === '\r' || ch === '\n') {
        this.emit('\r\n');
        const line = this.line;
        this.line = '';
        this.enqueue(line);
      } else if (ch === '\x7f' || ch === '\b') {
        if (this.line.length) {
          this.line = [...this.line].slice(0, -1).join('');
          this.emit('\b \b');
        }
      } else if (ch === '\x03') {
        this.line = '';
        this.emit(`^C\r\n${this.prompt}`);
      } else if (ch === '\x04') {
        if (!this.line) this.enqueue('exit');
      } else if (ch === '\x0c') {
        this.emit(`\x1b[H\x1b[2J${this.prompt}${this.line}`);
      } else if (ch === '\x1b') {
        this.escape = 1;
      } else if (ch >= ' ') {
        this.line += ch;
        this.emit(ch);
      }
    }
  }

  private enqueue(line: string) {
    this.queue = this.queue.then(() => this.run(line)).catch(() => {
      this.emit(`bash: internal error\r\n${this.prompt}`);
    });
  }

  private async run(line: string) {
    if (this.closed) return;
    const argv = words(line.trim());
    const cmd = argv[0] ?? '';
    if (this.windows) {
      if (cmd === 'exit') return this.exit();
      const out = cmd === '?' || cmd === 'help'
        ? 'ch                   Channel management commands.\r\ncmd                  Create a Command Prompt channel.\r\nd                    Dump the current kernel log.\r\nexit                 Exit SAC.\r\nid                   Display the computer identification information.\r\n'
        : cmd === 'id'
          ? `Computer Name: ${this.state.name.toUpperCase()}\r\nOS: ${OS[this.state.os].pretty}\r\n`
          : cmd ? 'The specified command was not recognized.\r\n' : '';
      this.emit(`${out}${this.prompt}`);
      return;
    }
    if (cmd === 'exit' || cmd === 'logout') return this.exit();
    if (cmd === 'clear') {
      this.emit(`\x1b[H\x1b[2J${this.prompt}`);
      return;
    }
    if (cmd === 'help') {
      this.emit(`${HELP}\r\n${this.prompt}`);
      return;
    }
    if (cmd === 'stty' && argv[1] === 'size') {
      this.emit(`${this.rows} ${this.cols}\r\n${this.prompt}`);
      return;
    }
    let out: string;
    if (cmd === 'apt' || cmd === 'apt-get' || cmd === 'dnf' || cmd === 'yum') {
      // Package changes go through the driver, so the portal sees them.
      try {
        const { result, state } = await this.execute(argv);
        out = result.stdout;
        this.state = state;
      } catch (e) {
        out = `E: ${e instanceof Error ? e.message : String(e)}\n`;
      }
    } else {
      out = runCommand(argv, { state: this.state, vmid: this.vm.vmid, at: this.now() }).stdout;
    }
    this.emit(`${out.replace(/\r?\n/g, '\r\n')}${this.prompt}`);
  }

  private exit() {
    this.emit('logout\r\n');
    this.close();
  }
}

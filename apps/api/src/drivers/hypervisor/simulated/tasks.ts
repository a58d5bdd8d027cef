/**
 * Proxmox-like tasks in `sim_tasks`: a UPID, a duration and an effect, plus the failures tests inject.
 *
 * No timers: a task's effect is applied lazily, exactly once, by the first read that sees the task
 * finished (VM row locked `FOR UPDATE` by the store, then a conditional
 * `UPDATE sim_tasks SET applied_at … WHERE applied_at IS NULL`). That survives restarts and works the
 * same for several API instances on one database.
 */
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import crypto from 'node:crypto';
import type { Db, Tx } from '../../../db/client.ts';
import { simTasks } from '../../../db/schema/infrastructure.ts';
import {
  formatUpid, HypervisorError, hypervisorMessages,
  type HypervisorErrorCode, type OsTemplate, type TaskRef, type TaskState, type VmRef,
} from '../hypervisor.ts';
import { endOf, err, startRun, stopRun, type SimBackup, type SimVmState, type TaskRow, type VmStore } from './vm-state.ts';

/** Operations that failures can be injected into. Task operations use the Proxmox task type's short name. */
export type SimOp =
  | 'clone' | 'config' | 'resize' | 'start' | 'stop' | 'shutdown' | 'reboot' | 'vzdump' | 'restore' | 'destroy'
  | 'status' | 'backup-delete' | 'firewall' | 'exec' | 'password' | 'sshkeys' | 'console' | 'nodes'
  | 'pool' | 'sdn' | 'upload' | 'iso';

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

export type Effect =
  | { kind: 'none' }
  | { kind: 'power'; status: 'running' | 'stopped'; restart?: boolean }
  | { kind: 'resize'; diskGb: number }
  | { kind: 'backup'; backup: SimBackup }
  | { kind: 'restore'; volid: string }
  | { kind: 'reinstall'; os: OsTemplate; diskGb: number }
  | { kind: 'destroy' };

export interface TaskEffects {
  ok: Effect;
  failed?: Effect;
}

type Conn = Db | Tx;

const USER = 'portal@pve!api';

/** Durations at speed 1 (ms). */
export const DURATION = {
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
  /** Pools and VM config changes are synchronous in Proxmox: a short pause, no task. */
  pool: 300,
  qmconfig: 500,
  /** PUT /cluster/sdn: the network reload on every node. */
  reloadnetworkall: 6_000,
  /** Copying an uploaded image into the storage: this plus the size at 500 MB/s. */
  imgcopy: 2_000,
  imgdel: 300,
} as const;

/** Tasks that hold the VM (Proxmox `lock`), and the lock name they show. */
const LOCKS: Record<string, string> = { qmclone: 'clone', vzdump: 'backup', qmrestore: 'create', qmdestroy: 'destroyed' };

const CODES: HypervisorErrorCode[] = ['LOCKED', 'TIMEOUT', 'UNAVAILABLE', 'TASK_FAILED', 'NOT_FOUND', 'INVALID'];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const taskOk = (exit: string) => exit === 'OK' || exit.startsWith('WARNINGS');

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
      // A reinstall is a new VM from the template: no second NIC, empty CD-ROM drive.
      Object.assign(state, { os: effect.os, diskGb: effect.diskGb, packages: [], rootPasswordHash: undefined, sshKeys: '', net1: undefined, iso: undefined, bootFromIso: undefined });
      return state;
    case 'destroy':
      return null;
  }
}

/** Applies the effects of finished tasks (oldest end first) to a locked VM state: the store's `Settle`. */
export async function settleFinishedTasks(tx: Tx, vmid: number, state: SimVmState | null, at: number): Promise<{ state: SimVmState | null; pending: TaskRow[] }> {
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

export const lockOf = (pending: TaskRow[]) => {
  const t = pending.find((p) => LOCKS[p.type]);
  return t ? LOCKS[t.type] : undefined;
};
export function assertUnlocked(pending: TaskRow[]) {
  const lock = lockOf(pending);
  if (lock) throw err('LOCKED', `VM is locked (${lock})`);
}
/** The power state once all pending power tasks have ended. */
export function futureStatus(state: SimVmState, pending: TaskRow[]) {
  let status = state.status;
  for (const t of [...pending].sort((a, b) => endOf(a) - endOf(b))) {
    const effect = (t.effect as unknown as TaskEffects).ok;
    if (taskOk(t.exitStatus) && effect.kind === 'power') status = effect.status;
  }
  return status;
}

/** Progress of a multi-step operation: each step maps 0..100 onto its share. */
export function progressReporter(onProgress: ((p: number) => void) | undefined) {
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

export interface TaskBuild {
  type: string;
  baseMs: number;
  effects: TaskEffects;
  id?: string;
  sizeBytes?: number;
  /** The VM state to store along with the new task (default: unchanged). */
  state?: SimVmState;
}

export type Tasks = ReturnType<typeof createTasks>;

export function createTasks(db: Db, store: VmStore, opts: { speed: number; now: () => number; failures?: FailureInjector }) {
  const { speed, now } = opts;
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

  async function insertTask(conn: Conn, p: { node: string; vmid: number | null; type: string; baseMs: number; effects: TaskEffects; exitStatus?: string; id?: string; sizeBytes?: number }): Promise<TaskRef> {
    const started = now();
    const upid = formatUpid({ node: p.node, pid: pid++ & 0x3fffff, pstart, starttime: Math.floor(started / 1000), type: p.type, id: p.id ?? (p.vmid === null ? '' : String(p.vmid)), user: USER });
    await conn.insert(simTasks).values({
      upid, node: p.node, vmid: p.vmid, type: p.type, startedAt: new Date(started), durationMs: scaled(p.baseMs),
      exitStatus: p.exitStatus ?? 'OK', effect: p.effects as unknown as Record<string, unknown>, sizeBytes: p.sizeBytes ?? null,
    });
    return { node: p.node, upid };
  }

  async function taskStatus(task: TaskRef): Promise<TaskState> {
    const [row] = await db.select().from(simTasks).where(eq(simTasks.upid, task.upid));
    if (!row) throw err('NOT_FOUND', `no such task '${task.upid}'`);
    const at = now();
    if (at < endOf(row)) return { status: 'running', progress: Math.max(0, Math.min(99, Math.floor(((at - row.startedAt.getTime()) / row.durationMs) * 100))) };
    if (row.appliedAt === null && row.vmid !== null) {
      try {
        await store.withVm({ node: row.node, vmid: row.vmid }, () => ({ result: undefined }));
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
  async function vmTask(vm: VmRef, op: SimOp, build: (ctx: { state: SimVmState; pending: TaskRow[]; at: number }) => TaskBuild): Promise<TaskRef> {
    const exitStatus = failureFor(op, vm);
    return store.withVm(vm, async ({ tx, state, pending, at }) => {
      const spec = build({ state, pending, at });
      assertUnlocked(pending);
      const ref = await insertTask(tx, { node: vm.node, vmid: vm.vmid, exitStatus, ...spec });
      return { state: spec.state ?? state, result: ref };
    });
  }

  async function pendingOfType(vmid: number, type: string) {
    const rows = await db.select().from(simTasks).where(and(eq(simTasks.vmid, vmid), eq(simTasks.type, type), isNull(simTasks.appliedAt))).orderBy(desc(simTasks.startedAt));
    return rows[0];
  }

  /** Lets a duration given at speed 1 pass, for work that has no task (guest commands). */
  const elapse = (baseMs: number) => sleep(scaled(baseMs));

  return {
    failureFor, failCall, insertTask, taskStatus, waitForTask, vmTask, pendingOfType, elapse,
    injectFailure(next: InjectedFailure) {
      injected.push({ ...next, left: next.times ?? 1 });
    },
    resetFailures() {
      injected.length = 0;
    },
  };
}

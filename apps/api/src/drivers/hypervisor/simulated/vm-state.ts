/**
 * The simulated VM's state: one jsonb document per VM in `sim_vms`.
 *
 * Every read and write goes through `createVmStore`, which first lets finished tasks apply their effects
 * (the `settle` hook, supplied by tasks.ts so that this module needs no task semantics and imports no
 * task code). Lock order, to stay free of deadlocks on PostgreSQL: the VM row first, then its task rows.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { simTasks, simVms } from '../../../db/schema/infrastructure.ts';
import {
  HypervisorError, hypervisorMessages,
  type BackupInfo, type CreateServerSpec, type FirewallRule, type HypervisorErrorCode, type OsTemplate, type VmRef,
} from '../hypervisor.ts';
import { OS } from './guest-catalog.ts';

export interface SimBackup extends BackupInfo {
  snapshot: Snapshot;
}

export interface Snapshot {
  os: OsTemplate;
  cores: number;
  memoryMb: number;
  diskGb: number;
  packages: string[];
  rootPasswordHash?: string;
  sshKeys: string;
  firewall: SimVmState['firewall'];
}

export interface SimVmState {
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
  /** The pool (virtual data center) the VM belongs to. */
  pool?: string;
  /** The VNet the second NIC is bridged to. */
  net1?: string;
  /** The ISO image in the CD-ROM drive, and whether the VM boots from it first. */
  iso?: string;
  bootFromIso?: boolean;
}

export type TaskRow = typeof simTasks.$inferSelect;

/** The store must know when a task's effect is due, to decide whether a read has to settle first. */
export const endOf = (t: TaskRow) => t.startedAt.getTime() + t.durationMs;

export const err = (code: HypervisorErrorCode, detail?: string) => new HypervisorError(code, hypervisorMessages[code], detail);
export const notFound = (vm: VmRef) => err('NOT_FOUND', `Configuration file 'nodes/${vm.node}/qemu-server/${vm.vmid}.conf' does not exist`);

export const asState = (v: unknown) => v as SimVmState;
export const snapshotOf = (s: SimVmState): Snapshot => ({
  os: s.os, cores: s.cores, memoryMb: s.memoryMb, diskGb: s.diskGb, packages: [...s.packages],
  rootPasswordHash: s.rootPasswordHash, sshKeys: s.sshKeys, firewall: structuredClone(s.firewall),
});
export const publicBackup = (b: SimBackup): BackupInfo => ({ volid: b.volid, size: b.size, ctime: b.ctime });

export function freshState(spec: CreateServerSpec, at: number): SimVmState {
  return {
    name: spec.name, os: spec.os, status: 'stopped', cores: spec.cores, memoryMb: spec.memoryMb, diskGb: OS[spec.os].templateDiskGb,
    firewall: { enabled: false, rules: [] }, backups: [], packages: [], sshKeys: '', createdAt: at, runs: [],
    ...(spec.pool ? { pool: spec.pool } : {}),
  };
}

export function startRun(state: SimVmState, at: number) {
  state.status = 'running';
  state.startedAt = at;
  state.runs.push({ from: at });
  if (state.runs.length > 50) state.runs.splice(0, state.runs.length - 50);
}
export function stopRun(state: SimVmState, at: number) {
  state.status = 'stopped';
  state.startedAt = undefined;
  const last = state.runs[state.runs.length - 1];
  if (last && last.to === undefined) last.to = at;
}

/** Applies the effects of finished tasks to a locked VM state; `state: null` means a task removed the VM. */
export type Settle = (tx: Tx, vmid: number, state: SimVmState | null, at: number) => Promise<{ state: SimVmState | null; pending: TaskRow[] }>;

export interface VmContext {
  tx: Tx;
  state: SimVmState;
  pending: TaskRow[];
  at: number;
}

export type VmStore = ReturnType<typeof createVmStore>;

export function createVmStore(db: Db, now: () => number, settle: Settle) {
  /**
   * Locks the VM, settles finished tasks, runs `fn` on the state and writes the result back
   * (`state: null` deletes the VM). Throws NOT_FOUND when the VM does not exist on that node.
   */
  async function withVm<T>(vm: VmRef, fn: (ctx: VmContext) => Promise<{ state?: SimVmState | null; result: T }> | { state?: SimVmState | null; result: T }): Promise<T> {
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(simVms).where(eq(simVms.vmid, vm.vmid)).for('update');
      if (!row || row.node !== vm.node) throw notFound(vm);
      const at = now();
      const settled = await settle(tx, vm.vmid, structuredClone(asState(row.state)), at);
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

  return { withVm, readVm };
}

/**
 * A simulated VM's life: clone and cloud-init provisioning, power, resize, reinstall and deletion.
 * Provisioning steps re-read the VM, so a caller's retry after a lost answer continues where the
 * first attempt stopped instead of cloning twice.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { simPools, simVms } from '../../../db/schema/infrastructure.ts';
import { hashPassword } from '../../../lib/passwords.ts';
import { HypervisorError, type CreateServerSpec, type PowerAction, type TaskRef, type VmRef } from '../hypervisor.ts';
import { OS } from './guest-catalog.ts';
import { assertUnlocked, DURATION, futureStatus, progressReporter, type Tasks } from './tasks.ts';
import { asState, err, freshState, type VmStore } from './vm-state.ts';

export function createLifecycle(db: Db, store: VmStore, tasks: Tasks, now: () => number) {
  const { withVm, readVm } = store;
  const { failureFor, failCall, insertTask, waitForTask, vmTask, pendingOfType } = tasks;

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
      // Like qemu-server's clone (assert_pool_exists); the row lock orders this against deletePool.
      if (spec.pool && !(await tx.select({ poolid: simPools.poolid }).from(simPools).where(eq(simPools.poolid, spec.pool)).for('update')).length) {
        throw err('INVALID', `pool '${spec.pool}' does not exist`);
      }
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
      state: { ...s, name: spec.name, ...(spec.pool ? { pool: spec.pool } : {}) },
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

  return { power, createServer, reinstallServer, resizeServer, deleteServer };
}

/** Backups live inside the VM's state with a snapshot of what a restore brings back. */
import type { BackupInfo, TaskRef, VmRef } from '../hypervisor.ts';
import { DURATION, type Tasks } from './tasks.ts';
import { diskUsed } from './usage-model.ts';
import { err, publicBackup, snapshotOf, type SimBackup, type VmStore } from './vm-state.ts';

const pad2 = (n: number) => String(n).padStart(2, '0');
const fmtStamp = (ms: number, sep = '_', mid = '-', tsep = '_') => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${sep}${pad2(d.getUTCMonth() + 1)}${sep}${pad2(d.getUTCDate())}${mid}${pad2(d.getUTCHours())}${tsep}${pad2(d.getUTCMinutes())}${tsep}${pad2(d.getUTCSeconds())}`;
};

export function createBackups(store: VmStore, tasks: Tasks) {
  const { withVm, readVm } = store;
  const { failCall, vmTask } = tasks;

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

  return { createBackup, listBackups, restoreBackup, deleteBackup };
}

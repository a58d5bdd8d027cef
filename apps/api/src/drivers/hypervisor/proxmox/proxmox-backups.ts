/** vzdump backups in the configured backup storage, and restores over the existing VM. */
import type { BackupInfo, Hypervisor } from '../hypervisor.ts';
import { num, vmPath, type ProxmoxClient } from './proxmox-client.ts';
import type { ProxmoxTasks } from './proxmox-tasks.ts';
import type { VmLookups } from './proxmox-vms.ts';

export function createProxmoxBackups({ api, config }: ProxmoxClient, tasks: ProxmoxTasks, lookups: VmLookups) {
  const { taskRef, waitIfTask, waitForTask } = tasks;
  const { findVm, guardTemplate } = lookups;

  const operations: Pick<Hypervisor, 'createBackup' | 'listBackups' | 'restoreBackup' | 'deleteBackup'> = {
    async createBackup(vm) {
      const upid = await api('POST', `/nodes/${encodeURIComponent(vm.node)}/vzdump`, {
        vmid: vm.vmid,
        storage: config.backupStorage,
        mode: 'snapshot',
        compress: 'zstd',
        remove: false,
      });
      return taskRef(vm.node, upid);
    },

    async listBackups(vm): Promise<BackupInfo[]> {
      const rows = await api<{ volid: string; size?: number; ctime?: number; vmid?: number | string }[]>(
        'GET',
        `/nodes/${encodeURIComponent(vm.node)}/storage/${encodeURIComponent(config.backupStorage)}/content`,
        { content: 'backup', vmid: vm.vmid },
      );
      return rows
        .filter((r) => r.vmid === undefined || Number(r.vmid) === vm.vmid)
        .map((r) => ({ volid: r.volid, size: num(r.size), ctime: num(r.ctime) }))
        .sort((a, b) => b.ctime - a.ctime);
    },

    async restoreBackup(vm, volid) {
      guardTemplate(vm);
      const state = await findVm(vm);
      const wasRunning = state?.status === 'running';
      // A restore overwrites the VM and refuses to run while it is running.
      if (wasRunning) await waitForTask(taskRef(vm.node, await api('POST', `${vmPath(vm)}/status/stop`, {})));
      const upid = await api('POST', `/nodes/${encodeURIComponent(vm.node)}/qemu`, {
        vmid: vm.vmid,
        archive: volid,
        force: true,
        storage: config.storage,
        start: wasRunning || undefined,
      });
      return taskRef(vm.node, upid);
    },

    async deleteBackup(vm, volid) {
      const result = await api('DELETE', `/nodes/${encodeURIComponent(vm.node)}/storage/${encodeURIComponent(config.backupStorage)}/content/${encodeURIComponent(volid)}`);
      await waitIfTask(vm.node, result);
    },
  };
  return operations;
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BACKUP_POLL_MS, type BackupList, type BackupTask } from '@hp/contract';
import { api } from '../../lib/api-client.ts';

type TaskResult = { task: BackupTask; message: string };
const key = (serverId: string) => ['servers', serverId, 'backups'] as const;

/** Polls every 5 s (spec) while a backup or restore runs, only while the browser tab is visible. */
export function useBackups(serverId: string) {
  return useQuery({
    queryKey: key(serverId),
    queryFn: () => api<BackupList>(`/servers/${serverId}/backups`),
    refetchInterval: (q) => (q.state.data?.task?.status === 'running' ? BACKUP_POLL_MS : false),
    refetchIntervalInBackground: false,
  });
}

function useBackupMutation<T>(serverId: string, fn: (arg: T) => Promise<TaskResult | { message: string }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (result) => {
      if ('task' in result) {
        client.setQueryData<BackupList>(key(serverId), (old) => (old ? { ...old, task: result.task } : old));
      }
      void client.invalidateQueries({ queryKey: key(serverId) });
      // The server's status changes during a restore.
      void client.invalidateQueries({ queryKey: ['servers', serverId], exact: true });
    },
  });
}

export const useCreateBackup = (serverId: string) =>
  useBackupMutation<void>(serverId, () => api<TaskResult>(`/servers/${serverId}/backups`, { method: 'POST' }));

export const useRestoreBackup = (serverId: string) =>
  useBackupMutation<string>(serverId, (backupId) => api<TaskResult>(`/servers/${serverId}/backups/${encodeURIComponent(backupId)}/restore`, { method: 'POST' }));

export const useDeleteBackup = (serverId: string) =>
  useBackupMutation<string>(serverId, (backupId) => api<{ message: string }>(`/servers/${serverId}/backups/${encodeURIComponent(backupId)}`, { method: 'DELETE' }));

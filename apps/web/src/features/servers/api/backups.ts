import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BACKUP_POLL_MS, type BackupDeleteResult, type BackupList, type BackupTaskResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

const key = (serverId: string) => ['servers', serverId, 'backups'] as const;

/** Polls every 5 s (spec) while a backup or restore runs, only while the browser tab is visible. */
// GET /api/servers/:id/backups
export const getBackups = (serverId: string) => api<BackupList>(`/servers/${serverId}/backups`);
export const backupsQueryOptions = (serverId: string) =>
  queryOptions({
    queryKey: key(serverId),
    queryFn: () => getBackups(serverId),
    refetchInterval: (q) => (q.state.data?.task?.status === 'running' ? BACKUP_POLL_MS : false),
    refetchIntervalInBackground: false,
  });
export const useBackups = (serverId: string) => useQuery(backupsQueryOptions(serverId));

// POST /api/servers/:id/backups, POST …/backups/:backupId/restore, DELETE …/backups/:backupId

function useBackupMutation<T>(serverId: string, fn: (arg: T) => Promise<BackupTaskResult | BackupDeleteResult>) {
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
  useBackupMutation<void>(serverId, () => api<BackupTaskResult>(`/servers/${serverId}/backups`, { method: 'POST' }));

export const useRestoreBackup = (serverId: string) =>
  useBackupMutation<string>(serverId, (backupId) => api<BackupTaskResult>(`/servers/${serverId}/backups/${encodeURIComponent(backupId)}/restore`, { method: 'POST' }));

export const useDeleteBackup = (serverId: string) =>
  useBackupMutation<string>(serverId, (backupId) => api<BackupDeleteResult>(`/servers/${serverId}/backups/${encodeURIComponent(backupId)}`, { method: 'DELETE' }));

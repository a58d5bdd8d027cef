import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BackupDownloadResult, BackupScheduleInput, HostingBackups } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { HOSTING_POLL_MS, type HostingMessage, useHostingMutation } from './hosting.ts';

export type HostingBackupDownload = ReturnType<typeof BackupDownloadResult.parse>;
const key = (id: string) => ['hosting', id, 'backups'] as const;

// GET /api/hosting/:id/backups — polled while a restore is queued (visible tab only)
export const getHostingBackups = (id: string) => api<HostingBackups>(`/hosting/${id}/backups`);
export const hostingBackupsQueryOptions = (id: string) => queryOptions({
  queryKey: key(id),
  queryFn: () => getHostingBackups(id),
  retry: false,
  refetchInterval: (q) => (q.state.data?.restorePending ? HOSTING_POLL_MS : false),
  refetchIntervalInBackground: false,
});
export const useHostingBackups = (id: string, enabled = true) => useQuery({ ...hostingBackupsQueryOptions(id), enabled });

// POST /api/hosting/:id/backups/:itemId/restore — queued; a second restore is refused while one is pending
export const useRestoreHostingBackup = (id: string) =>
  useHostingMutation(id, (itemId: string) => api<HostingMessage>(`/hosting/${id}/backups/${encodeURIComponent(itemId)}/restore`, { method: 'POST' }), [key(id)]);

// POST /api/hosting/:id/backups/:itemId/download — 'ftp': copied into the FTP account; 'url': a link
export const useDownloadHostingBackup = (id: string) =>
  useHostingMutation(id, (itemId: string) => api<HostingBackupDownload>(`/hosting/${id}/backups/${encodeURIComponent(itemId)}/download`, { method: 'POST' }), [key(id)]);

// PUT /api/hosting/:id/backup-schedule
export const useSetBackupSchedule = (id: string) =>
  useHostingMutation(id, (input: BackupScheduleInput) => api<HostingMessage>(`/hosting/${id}/backup-schedule`, { method: 'PUT', body: input }), [key(id)]);

// POST /api/hosting/:id/backups — only offered where capabilities.backupNow (the driver's backupNow);
// ISPConfig has no such call, so the button is not shown there.
export const useCreateHostingBackup = (id: string) =>
  useHostingMutation(id, () => api<HostingMessage>(`/hosting/${id}/backups`, { method: 'POST' }), [key(id)]);

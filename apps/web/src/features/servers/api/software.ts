import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SoftwareInstallInput, SoftwareList, TaskAccepted } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

const key = (id: string) => ['servers', id, 'software'] as const;

/**
 * The catalogue with the installed state. Polls every 2 s only while an install/uninstall runs, and
 * TanStack Query pauses the interval while the browser tab is hidden (refetchIntervalInBackground: false).
 */
// GET /api/servers/:id/software
export const getSoftware = (id: string) => api<SoftwareList>(`/servers/${id}/software`);
export const softwareQueryOptions = (id: string) =>
  queryOptions({
    queryKey: key(id),
    queryFn: () => getSoftware(id),
    // Poll while something changes (a task, or the server passing through a transitional state).
    refetchInterval: (q) => (q.state.data?.task?.status === 'running' || !['online', 'offline', 'maintenance', 'failed'].includes(q.state.data?.serverStatus ?? 'online') ? 2000 : false),
    refetchIntervalInBackground: false,
  });
export const useSoftware = (id: string) => useQuery(softwareQueryOptions(id));

// POST /api/servers/:id/software/:appId/install|uninstall

export function useSoftwareAction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ appId, action, input }: { appId: string; action: 'install' | 'uninstall'; input?: SoftwareInstallInput }) =>
      api<TaskAccepted>(`/servers/${id}/software/${appId}/${action}`, { method: 'POST', body: action === 'install' ? (input ?? {}) : undefined }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: key(id) });
      void client.invalidateQueries({ queryKey: ['servers', id, 'status'] });
    },
  });
}

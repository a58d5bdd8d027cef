import { useQuery } from '@tanstack/react-query';
import type { ServerCard, ServerDetail, ServerUsage } from '@hp/contract';
import { api } from '../../lib/api-client.ts';

const TRANSITIONAL = new Set(['provisioning', 'starting', 'stopping', 'restart', 'reinstall', 'install']);
export const isTransitional = (status: string) => TRANSITIONAL.has(status);

/** The list refreshes every 3 s while a server changes state; TanStack Query pauses in hidden tabs. */
export function useServers() {
  return useQuery({
    queryKey: ['servers'],
    queryFn: () => api<{ servers: ServerCard[] }>('/servers'),
    refetchInterval: (q) => (q.state.data?.servers.some((s) => isTransitional(s.status)) ? 3000 : false),
  });
}

export function useServer(id: string) {
  return useQuery({ queryKey: ['servers', id], queryFn: () => api<ServerDetail>(`/servers/${id}`), retry: false });
}

/** Live status every 2 s (spec), only while the tab is visible (refetchIntervalInBackground: false). */
export function useServerStatus(id: string, enabled = true) {
  return useQuery({
    queryKey: ['servers', id, 'status'],
    queryFn: () => api<ServerUsage>(`/servers/${id}/status`),
    refetchInterval: 2000,
    refetchIntervalInBackground: false,
    enabled,
  });
}

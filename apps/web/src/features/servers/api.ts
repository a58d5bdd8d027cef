import { useQuery } from '@tanstack/react-query';
import type { ServerCard, ServerDetail, ServerUsage } from '@hp/contract';
import { api } from '../../lib/api-client.ts';

const TRANSITIONAL = new Set(['provisioning', 'starting', 'stopping', 'restart', 'reinstall', 'install']);
export const isTransitional = (status: string) => TRANSITIONAL.has(status);

/** Changes arrive as live events (lib/live-events.ts); the 30-s poll only covers a broken stream. */
export function useServers() {
  return useQuery({
    queryKey: ['servers'],
    queryFn: () => api<{ servers: ServerCard[] }>('/servers'),
    refetchInterval: 30_000,
  });
}

export function useServer(id: string) {
  return useQuery({ queryKey: ['servers', id], queryFn: () => api<ServerDetail>(`/servers/${id}`), retry: false });
}

/** Status changes arrive as live events; the 15-s poll keeps CPU/RAM figures fresh (visible tab only). */
export function useServerStatus(id: string, enabled = true) {
  return useQuery({
    queryKey: ['servers', id, 'status'],
    queryFn: () => api<ServerUsage>(`/servers/${id}/status`),
    refetchInterval: 15_000,
    refetchIntervalInBackground: false,
    enabled,
  });
}

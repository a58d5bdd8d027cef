import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ServerDetail, ServerList, ServerUsage } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

const TRANSITIONAL = new Set(['provisioning', 'starting', 'stopping', 'restart', 'reinstall', 'install']);
export const isTransitional = (status: string) => TRANSITIONAL.has(status);

// GET /api/servers — changes arrive as live events (lib/live-events.ts); the 30-s poll only covers a
// broken stream.
export const getServers = () => api<ServerList>('/servers');
export const serversQuery = () => queryOptions({ queryKey: ['servers'], queryFn: getServers, refetchInterval: 30_000 });
export const useServers = () => useQuery(serversQuery());

// GET /api/servers/:id
export const getServer = (id: string) => api<ServerDetail>(`/servers/${id}`);
export const serverQuery = (id: string) => queryOptions({ queryKey: ['servers', id], queryFn: () => getServer(id), retry: false });
export const useServer = (id: string) => useQuery(serverQuery(id));

// GET /api/servers/:id/status — status changes arrive as live events; the 15-s poll keeps the CPU/RAM
// figures fresh (visible tab only).
export const getServerStatus = (id: string) => api<ServerUsage>(`/servers/${id}/status`);
export const serverStatusQuery = (id: string) => queryOptions({
  queryKey: ['servers', id, 'status'], queryFn: () => getServerStatus(id), refetchInterval: 15_000, refetchIntervalInBackground: false,
});
export const useServerStatus = (id: string, enabled = true) => useQuery({ ...serverStatusQuery(id), enabled });

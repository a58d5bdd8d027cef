import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminPowerInput, AdminServerDetail, AdminServerPage, AdminServerRow, CreateServerInput, PowerResult, ServerUsage } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import type { ListRequest } from '../../../components/list-page/list-page.tsx';
import { infrastructureKeys, listSearch, useInfrastructureMutation } from './keys.ts';

/**
 * Status changes arrive as live events (lib/live-events.ts); while a server is being set up the list
 * also refreshes itself this often, in case the event stream is broken.
 */
export const PROVISIONING_REFRESH_MS = 30_000;

// GET /api/admin/servers — every customer's servers, paged on the server.
export const getAdminServers = (request: ListRequest, signal?: AbortSignal) => api<AdminServerPage>(`/admin/servers?${listSearch(request)}`, { signal });
export const adminServersQueryOptions = (request: ListRequest) =>
  queryOptions({
    queryKey: infrastructureKeys.servers(request),
    queryFn: ({ signal }) => getAdminServers(request, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((s) => s.status === 'provisioning') ? PROVISIONING_REFRESH_MS : false),
  });
export const useAdminServers = (request: ListRequest) => useQuery(adminServersQueryOptions(request));

// POST /api/admin/servers
export const createServer = (input: CreateServerInput) => api<AdminServerRow>('/admin/servers', { method: 'POST', body: input });
export const useCreateServer = () => useInfrastructureMutation(createServer);

const settled = new Set(['online', 'offline', 'failed', 'maintenance']);

// GET /api/admin/servers/:id — staff view of one server; changes arrive as live events, the 30-s poll
// while an operation runs only covers a broken stream.
export const getAdminServer = (id: string, signal?: AbortSignal) => api<AdminServerDetail>(`/admin/servers/${encodeURIComponent(id)}`, { signal });
export const adminServerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: infrastructureKeys.server(id),
    queryFn: ({ signal }) => getAdminServer(id, signal),
    refetchInterval: (query) => (query.state.data && !settled.has(query.state.data.status) ? 30_000 : false),
  });
export const useAdminServer = (id: string) => useQuery(adminServerQueryOptions(id));

// GET /api/admin/servers/:id/usage — live usage while the page is visible (every 10 s).
export const getAdminServerUsage = (id: string, signal?: AbortSignal) => api<ServerUsage>(`/admin/servers/${encodeURIComponent(id)}/usage`, { signal });
export const adminServerUsageQueryOptions = (id: string) =>
  queryOptions({ queryKey: infrastructureKeys.serverUsage(id), queryFn: ({ signal }) => getAdminServerUsage(id, signal), refetchInterval: 10_000, retry: false });
export const useAdminServerUsage = (id: string, enabled: boolean) => useQuery({ ...adminServerUsageQueryOptions(id), enabled });

// POST /api/admin/servers/:id/power
export const powerAdminServer = (id: string, input: AdminPowerInput) => api<PowerResult>(`/admin/servers/${encodeURIComponent(id)}/power`, { method: 'POST', body: input });
export const useAdminPower = (id: string) => useInfrastructureMutation((input: AdminPowerInput) => powerAdminServer(id, input));

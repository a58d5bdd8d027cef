import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminPowerInput,
  AdminServerDetail,
  AdminServerPage,
  AdminServerRow,
  CreateIpAddressInput,
  CreateNodeInput,
  CreateServerInput,
  CustomerOptionList,
  IpAddressPage,
  IpAddressRow,
  NodePage,
  NodeRow,
  ServerUsage,
} from '@hp/contract';
import { api } from '../../lib/api-client.ts';

export interface ListParams { search: string; limit: number; offset: number }

export const infrastructureKeys = {
  all: ['infrastructure'] as const,
  nodes: (p: ListParams) => ['infrastructure', 'nodes', p] as const,
  ipAddresses: (p: ListParams) => ['infrastructure', 'ip-addresses', p] as const,
  servers: (p: ListParams) => ['infrastructure', 'servers', p] as const,
  customers: (search: string) => ['infrastructure', 'customers', search] as const,
  server: (id: string) => ['infrastructure', 'server', id] as const,
  serverUsage: (id: string) => ['infrastructure', 'server', id, 'usage'] as const,
};

const listQuery = ({ search, limit, offset }: ListParams) => {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (search.trim()) params.set('search', search.trim());
  return params.toString();
};

/** While a server is being set up the list refreshes itself, so its status changes without a reload. */
export const PROVISIONING_REFRESH_MS = 3000;

export function useNodes(params: ListParams) {
  return useQuery({
    queryKey: infrastructureKeys.nodes(params),
    queryFn: ({ signal }) => api<NodePage>(`/admin/nodes?${listQuery(params)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useIpAddresses(params: ListParams) {
  return useQuery({
    queryKey: infrastructureKeys.ipAddresses(params),
    queryFn: ({ signal }) => api<IpAddressPage>(`/admin/ip-addresses?${listQuery(params)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminServers(params: ListParams) {
  return useQuery({
    queryKey: infrastructureKeys.servers(params),
    queryFn: ({ signal }) => api<AdminServerPage>(`/admin/servers?${listQuery(params)}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((s) => s.status === 'provisioning') ? PROVISIONING_REFRESH_MS : false),
  });
}

/** Owner picker: up to 20 customers matching number, username or e-mail. */
export function useCustomerOptions(search: string, enabled = true) {
  return useQuery({
    queryKey: infrastructureKeys.customers(search.trim()),
    queryFn: ({ signal }) => api<CustomerOptionList>(`/admin/customers${search.trim() ? `?search=${encodeURIComponent(search.trim())}` : ''}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Every change reloads all lists: a new server changes node capacity and IP use as well. */
function useInfrastructureMutation<TVariables, TResult>(mutationFn: (vars: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: infrastructureKeys.all }) });
}

export const useCreateNode = () => useInfrastructureMutation((input: CreateNodeInput) => api<NodeRow>('/admin/nodes', { method: 'POST', body: input }));
export const useDeleteNode = () => useInfrastructureMutation((id: number) => api<void>(`/admin/nodes/${id}`, { method: 'DELETE' }));
export const useCreateIpAddress = () => useInfrastructureMutation((input: CreateIpAddressInput) => api<IpAddressRow>('/admin/ip-addresses', { method: 'POST', body: input }));
export const useDeleteIpAddress = () => useInfrastructureMutation((id: number) => api<void>(`/admin/ip-addresses/${id}`, { method: 'DELETE' }));
export const useCreateServer = () => useInfrastructureMutation((input: CreateServerInput) => api<AdminServerRow>('/admin/servers', { method: 'POST', body: input }));

const settled = new Set(['online', 'offline', 'failed', 'maintenance']);

/** Staff view of one server; refreshes itself while an operation runs. */
export function useAdminServer(id: string) {
  return useQuery({
    queryKey: infrastructureKeys.server(id),
    queryFn: ({ signal }) => api<AdminServerDetail>(`/admin/servers/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) => (query.state.data && !settled.has(query.state.data.status) ? 2000 : false),
  });
}

/** Live usage while the page is visible (every 10 s). */
export function useAdminServerUsage(id: string, enabled: boolean) {
  return useQuery({
    queryKey: infrastructureKeys.serverUsage(id),
    queryFn: ({ signal }) => api<ServerUsage>(`/admin/servers/${encodeURIComponent(id)}/usage`, { signal }),
    enabled,
    refetchInterval: 10_000,
    retry: false,
  });
}

export const useAdminPower = (id: string) =>
  useInfrastructureMutation((input: AdminPowerInput) => api<{ newStatus: string; message: string }>(`/admin/servers/${encodeURIComponent(id)}/power`, { method: 'POST', body: input }));

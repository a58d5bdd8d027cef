import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HostingServerInput, HostingServerList, HostingServerView } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

const key = ['infrastructure', 'hosting-servers'] as const;

// GET /api/admin/hosting-servers — panel servers with their package slots.
export const useHostingServers = () => useQuery({ queryKey: key, queryFn: () => api<HostingServerList>('/admin/hosting-servers') });

// POST /api/admin/hosting-servers
export function useCreateHostingServer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: HostingServerInput) => api<HostingServerView>('/admin/hosting-servers', { body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
}

// DELETE /api/admin/hosting-servers/:id (only an empty server)
export function useDeleteHostingServer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<null>(`/admin/hosting-servers/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StorageServerInput, StorageServerList, StorageServerView } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

const key = ['infrastructure', 'storage-servers'] as const;

// GET /api/admin/storage-servers — Nextcloud servers with capacity, sellable and allocated space.
export const useStorageServers = () => useQuery({ queryKey: key, queryFn: () => api<StorageServerList>('/admin/storage-servers') });

// POST /api/admin/storage-servers
export function useCreateStorageServer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: StorageServerInput) => api<StorageServerView>('/admin/storage-servers', { body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
}

// DELETE /api/admin/storage-servers/:id (409 while accounts live on it)
export function useDeleteStorageServer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<null>(`/admin/storage-servers/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
}

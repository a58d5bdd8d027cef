import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StorageDetail, StorageList, StoragePasswordResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

export const STORAGE_POLL_MS = 3_000;
const listKey = ['storage', 'list'] as const;
export const storageKey = (id: string) => ['storage', id] as const;

// GET /api/storage — the customer's cloud storage accounts. Polls while one is being set up.
export const useStorageList = () => useQuery({
  queryKey: listKey,
  queryFn: () => api<StorageList>('/storage'),
  refetchInterval: (q) => (q.state.data?.items.some((s) => s.status === 'provisioning') ? STORAGE_POLL_MS : false),
});

// GET /api/storage/:id — the account page; polled while the account is being set up.
export const useStorage = (id: string) => useQuery({
  queryKey: storageKey(id),
  queryFn: () => api<StorageDetail>(`/storage/${encodeURIComponent(id)}`),
  retry: false,
  refetchInterval: (q) => (q.state.data?.status === 'provisioning' ? STORAGE_POLL_MS : false),
  refetchIntervalInBackground: false,
});

// POST /api/storage/:id/password — a new generated password, answered once and never mailed.
export function useResetStoragePassword(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<StoragePasswordResult>(`/storage/${encodeURIComponent(id)}/password`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: storageKey(id), exact: true }),
  });
}

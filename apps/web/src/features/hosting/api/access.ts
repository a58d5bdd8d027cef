import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShareResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

const key = (id: string) => ['hosting', id, 'access'] as const;

// GET /api/hosting/:id/access — who else may operate the package (owner only).
export const useHostingShares = (id: string, enabled: boolean) =>
  useQuery({ queryKey: key(id), queryFn: () => api<{ items: ShareResult[] }>(`/hosting/${id}/access`), enabled });

// POST /api/hosting/:id/access
export function useShareHosting(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => api<ShareResult>(`/hosting/${id}/access`, { method: 'POST', body: { username } }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(id) }),
  });
}

// DELETE /api/hosting/:id/access/:username
export function useUnshareHosting(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => api<null>(`/hosting/${id}/access/${encodeURIComponent(username)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(id) }),
  });
}

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReinstallInput, RootPasswordInput, RootPasswordResult, ServerSettings, ShareResult, SshKeysResult, TaskAccepted } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

const key = (id: string) => ['servers', id, 'settings'] as const;

// GET /api/servers/:id/settings
export const getServerSettings = (id: string) => api<ServerSettings>(`/servers/${id}/settings`);
export const serverSettingsQueryOptions = (id: string) => queryOptions({ queryKey: key(id), queryFn: () => getServerSettings(id) });
export const useServerSettings = (id: string) => useQuery(serverSettingsQueryOptions(id));

// PUT ssh-keys, PUT root-password, POST/DELETE access, POST reinstall

export function useSaveSshKeys(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keys: string) => api<SshKeysResult>(`/servers/${id}/ssh-keys`, { method: 'PUT', body: { keys } }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(id) }),
  });
}

export function useChangeRootPassword(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RootPasswordInput) => api<RootPasswordResult>(`/servers/${id}/root-password`, { method: 'PUT', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(id) }),
  });
}

export function useShareServer(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => api<ShareResult>(`/servers/${id}/access`, { method: 'POST', body: { username } }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(id) }),
  });
}

export function useUnshareServer(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => api<null>(`/servers/${id}/access/${encodeURIComponent(username)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(id) }),
  });
}

export function useReinstall(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReinstallInput) => api<TaskAccepted>(`/servers/${id}/reinstall`, { method: 'POST', body: input }),
    onSettled: () => client.invalidateQueries({ queryKey: ['servers', id] }),
  });
}

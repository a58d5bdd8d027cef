import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReinstallInput, RootPasswordInput, ServerSettings, TaskAccepted } from '@hp/contract';
import { api } from '../../lib/api-client.ts';

const key = (id: string) => ['servers', id, 'settings'] as const;

export function useServerSettings(id: string) {
  return useQuery({ queryKey: key(id), queryFn: () => api<ServerSettings>(`/servers/${id}/settings`) });
}

export function useSaveSshKeys(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keys: string) => api<{ sshKeys: string; message: string }>(`/servers/${id}/ssh-keys`, { method: 'PUT', body: { keys } }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(id) }),
  });
}

export function useChangeRootPassword(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RootPasswordInput) => api<{ message: string; rootPasswordSetAt: string }>(`/servers/${id}/root-password`, { method: 'PUT', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(id) }),
  });
}

export function useShareServer(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => api<{ username: string; since: string }>(`/servers/${id}/access`, { method: 'POST', body: { username } }),
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

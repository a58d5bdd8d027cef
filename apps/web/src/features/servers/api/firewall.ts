import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FirewallMutationResult, FirewallRule, FirewallState, FirewallToggleResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

const key = (serverId: string) => ['servers', serverId, 'firewall'] as const;

// GET /api/servers/:id/firewall
export const getFirewall = (serverId: string) => api<FirewallState>(`/servers/${serverId}/firewall`);
export const firewallQueryOptions = (serverId: string) => queryOptions({ queryKey: key(serverId), queryFn: () => getFirewall(serverId) });
export const useFirewall = (serverId: string) => useQuery(firewallQueryOptions(serverId));

// PUT /api/servers/:id/firewall, POST …/firewall/rules, DELETE …/firewall/rules/:pos

export function useToggleFirewall(serverId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => api<FirewallToggleResult>(`/servers/${serverId}/firewall`, { method: 'PUT', body: { enabled } }),
    onSuccess: ({ enabled, rules }) => {
      client.setQueryData<FirewallState>(key(serverId), { enabled, rules });
      void client.invalidateQueries({ queryKey: ['servers', serverId], exact: true });
    },
  });
}

export function useAddFirewallRule(serverId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rule: { protocol: string; port: string; description: string }) => api<FirewallMutationResult>(`/servers/${serverId}/firewall/rules`, { body: rule }),
    onSuccess: ({ enabled, rules }) => client.setQueryData<FirewallState>(key(serverId), { enabled, rules }),
  });
}

/** Optimistic: the rule leaves the list at once (spec) and comes back if the server refuses. */
export function useDeleteFirewallRule(serverId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rule: FirewallRule) => api<FirewallMutationResult>(`/servers/${serverId}/firewall/rules/${rule.pos}?fingerprint=${encodeURIComponent(rule.fingerprint)}`, { method: 'DELETE' }),
    onMutate: async (rule) => {
      await client.cancelQueries({ queryKey: key(serverId) });
      const previous = client.getQueryData<FirewallState>(key(serverId));
      if (previous) client.setQueryData<FirewallState>(key(serverId), { ...previous, rules: previous.rules.filter((r) => r.id !== rule.id) });
      return { previous };
    },
    onError: (_err, _rule, context) => {
      if (context?.previous) client.setQueryData(key(serverId), context.previous);
    },
    onSuccess: ({ enabled, rules }) => client.setQueryData<FirewallState>(key(serverId), { enabled, rules }),
    // A refused delete (stale list) reloads the current rules.
    onSettled: (_data, error) => {
      if (error) void client.invalidateQueries({ queryKey: key(serverId) });
    },
  });
}

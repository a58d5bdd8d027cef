import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DomainAuthCode, DomainDetail, DomainList } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

export const myDomainKeys = {
  list: ['domains', 'mine'] as const,
  detail: (id: string) => ['domains', 'mine', id] as const,
};

const pending = (status: string) => status === 'registering' || status === 'transferring';

// GET /api/domains — the customer's domains. Polls while one is being registered or transferred.
export const useMyDomains = () => useQuery({
  queryKey: myDomainKeys.list,
  queryFn: () => api<DomainList>('/domains'),
  refetchInterval: (q) => (q.state.data?.items.some((d) => pending(d.status)) ? 3000 : false),
});

// GET /api/domains/:id — one own domain (404 for anyone else's). Polls while pending.
export const useMyDomain = (id: string | null) => useQuery({
  queryKey: myDomainKeys.detail(id ?? ''),
  queryFn: () => api<DomainDetail>(`/domains/${encodeURIComponent(id!)}`),
  enabled: id !== null,
  retry: false,
  refetchInterval: (q) => (q.state.data && pending(q.state.data.status) ? 3000 : false),
});

/** PUT /api/domains/:id/{nameservers|transfer-lock|auto-renew}: the answer is the new detail. */
function useDomainChange<I>(id: string, suffix: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => api<DomainDetail>(`/domains/${encodeURIComponent(id)}/${suffix}`, { method: 'PUT', body: input }),
    onSuccess: (detail) => {
      client.setQueryData(myDomainKeys.detail(id), detail);
      void client.invalidateQueries({ queryKey: myDomainKeys.list, exact: true });
    },
  });
}

export const useSetNameservers = (id: string) => useDomainChange<{ nameservers: 'provider' | string[] }>(id, 'nameservers');
export const useSetTransferLock = (id: string) => useDomainChange<{ locked: boolean }>(id, 'transfer-lock');
export const useSetAutoRenew = (id: string) => useDomainChange<{ autoRenew: boolean }>(id, 'auto-renew');

// POST /api/domains/:id/auth-code — the auth code after the password (logged on the server).
export const useRevealAuthCode = (id: string) => useMutation({
  mutationFn: (password: string) => api<DomainAuthCode>(`/domains/${encodeURIComponent(id)}/auth-code`, { body: { password } }),
});

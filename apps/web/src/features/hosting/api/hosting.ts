import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HostingDetail, InstallAppInput, PhpSettingsInput } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

/** What the hosting routes answer for a change that the panel applies later. */
export interface HostingMessage { message?: string }

export const HOSTING_POLL_MS = 3_000;
export const hostingKey = (id: string) => ['hosting', id] as const;

/** Something on the page is still changing: set-up, a queued panel change, an SSL order, an app job. */
export function isHostingBusy(detail: HostingDetail | undefined): boolean {
  if (!detail) return false;
  if (detail.status === 'provisioning') return true;
  const site = detail.site;
  if (!site) return false;
  return site.pendingChanges
    || site.domains.some((d) => d.ssl === 'pending')
    || site.app?.state === 'installing' || site.app?.state === 'updating' || Boolean(site.app?.job);
}

// GET /api/hosting/:id — polled every 3 s while something is pending, only while the tab is visible.
export const getHosting = (id: string) => api<HostingDetail>(`/hosting/${id}`);
export const hostingQueryOptions = (id: string) => queryOptions({
  queryKey: hostingKey(id),
  queryFn: () => getHosting(id),
  retry: false,
  refetchInterval: (q) => (isHostingBusy(q.state.data) ? HOSTING_POLL_MS : false),
  refetchIntervalInBackground: false,
});
export const useHosting = (id: string) => useQuery(hostingQueryOptions(id));

/** A change of the package: afterwards the page reloads the package (and polls while it is pending). */
export function useHostingMutation<TInput, TResult = HostingMessage>(id: string, fn: (input: TInput) => Promise<TResult>, extraKeys: readonly (readonly string[])[] = []) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: hostingKey(id), exact: true }),
        ...extraKeys.map((queryKey) => client.invalidateQueries({ queryKey })),
      ]);
    },
  });
}

// PUT /api/hosting/:id/php — any subset of version, memory limit and execution time
export const useSavePhpSettings = (id: string) =>
  useHostingMutation(id, (input: PhpSettingsInput) => api<HostingMessage>(`/hosting/${id}/php`, { method: 'PUT', body: input }));

// POST /api/hosting/:id/app — one-click install (only where capabilities.apps)
export const useInstallApp = (id: string) =>
  useHostingMutation(id, (input: InstallAppInput) => api<HostingMessage>(`/hosting/${id}/app`, { method: 'POST', body: input }));

// POST /api/hosting/:id/app/update
export const useUpdateApp = (id: string) =>
  useHostingMutation(id, () => api<HostingMessage>(`/hosting/${id}/app/update`, { method: 'POST' }));

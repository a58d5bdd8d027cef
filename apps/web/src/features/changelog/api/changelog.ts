import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangelogDetail, ChangelogEntry, ChangelogInput, ChangelogList } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

export const changelogKeys = {
  all: ['changelog'] as const,
  list: ['changelog', 'list'] as const,
  entry: (id: string) => ['changelog', 'entry', id] as const,
};

// GET /api/changelog — public, newest first.
export const getChangelog = (signal?: AbortSignal) => api<ChangelogList>('/changelog', { signal, anonymous: true });
export const useChangelog = () => useQuery(queryOptions({ queryKey: changelogKeys.list, queryFn: ({ signal }) => getChangelog(signal) }));

// GET /api/changelog/:id — with the older and newer neighbour; unknown ids are 404. A 404 the server
// rendered the page with (decision 016) is kept on mount instead of being fetched again behind a spinner.
export const getChangelogEntry = (id: string, signal?: AbortSignal) => api<ChangelogDetail>(`/changelog/${encodeURIComponent(id)}`, { signal, anonymous: true });
export const useChangelogEntry = (id: string, enabled = true) =>
  useQuery({ queryKey: changelogKeys.entry(id), queryFn: ({ signal }) => getChangelogEntry(id, signal), retry: false, retryOnMount: false, enabled });

function useChangelogMutation<TVariables, TResult>(mutationFn: (vars: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: changelogKeys.all }) });
}

// POST /api/staff/changelog, PUT and DELETE /api/staff/changelog/:id — employee and owner.
export const createChangelogEntry = (input: ChangelogInput) => api<ChangelogEntry>('/staff/changelog', { method: 'POST', body: input });
export const useCreateChangelogEntry = () => useChangelogMutation(createChangelogEntry);
export const updateChangelogEntry = (id: string, input: ChangelogInput) => api<ChangelogEntry>(`/staff/changelog/${encodeURIComponent(id)}`, { method: 'PUT', body: input });
export const useUpdateChangelogEntry = (id: string) => useChangelogMutation((input: ChangelogInput) => updateChangelogEntry(id, input));
export const deleteChangelogEntry = (id: string) => api<void>(`/staff/changelog/${encodeURIComponent(id)}`, { method: 'DELETE' });
export const useDeleteChangelogEntry = () => useChangelogMutation(deleteChangelogEntry);

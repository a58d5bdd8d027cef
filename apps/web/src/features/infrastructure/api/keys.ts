import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListRequest } from '../../../components/list-page/list-page.tsx';

export const infrastructureKeys = {
  all: ['infrastructure'] as const,
  nodes: (p: ListRequest) => ['infrastructure', 'nodes', p] as const,
  ipAddresses: (p: ListRequest) => ['infrastructure', 'ip-addresses', p] as const,
  servers: (p: ListRequest) => ['infrastructure', 'servers', p] as const,
  customers: (search: string) => ['infrastructure', 'customers', search] as const,
  server: (id: string) => ['infrastructure', 'server', id] as const,
  serverUsage: (id: string) => ['infrastructure', 'server', id, 'usage'] as const,
};

/** The query string of a list request: page, pageSize, q, sort and the set filters. */
export function listSearch({ q, page, pageSize, sort, filters }: ListRequest): string {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (q) params.set('q', q);
  if (sort) params.set('sort', sort);
  for (const [key, value] of Object.entries(filters)) params.set(key, value);
  return params.toString();
}

/** A first page of `pageSize` rows matching `q` (pickers). */
export const firstPage = (q: string, pageSize: number): ListRequest => ({ q: q.trim(), page: 1, pageSize, sort: undefined, filters: {} });

/** Every change reloads all lists: a new server changes node capacity and IP use as well. */
export function useInfrastructureMutation<TVariables, TResult>(mutationFn: (vars: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: infrastructureKeys.all }) });
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminVdcPage } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import type { ListRequest } from '../../../components/list-page/list-page.tsx';

/** While a pool is being set up the staff list refreshes itself this often. */
export const ADMIN_VDC_REFRESH_MS = 30_000;

function listSearch({ q, page, pageSize, sort, filters }: ListRequest): string {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (q) params.set('q', q);
  if (sort) params.set('sort', sort);
  for (const [key, value] of Object.entries(filters)) params.set(key, value);
  return params.toString();
}

// GET /api/admin/vdcs — every customer's virtual data centers, paged, searched and sorted on the server.
export const useAdminVdcs = (request: ListRequest) => useQuery({
  queryKey: ['vdc', 'admin', request],
  queryFn: ({ signal }) => api<AdminVdcPage>(`/admin/vdcs?${listSearch(request)}`, { signal }),
  placeholderData: keepPreviousData,
  refetchInterval: (query) => (query.state.data?.items.some((v) => v.status === 'provisioning') ? ADMIN_VDC_REFRESH_MS : false),
});

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { customerMessages, type CustomerPage } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/files.ts';
import type { ListRequest } from '../../../components/list-page/list-page.tsx';

const search = ({ q, page, pageSize, sort }: ListRequest) => {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (q) params.set('q', q);
  if (sort) params.set('sort', sort);
  return params.toString();
};

// GET /api/staff/customers — employee and owner.
export const getCustomers = (request: ListRequest, signal?: AbortSignal) => api<CustomerPage>(`/staff/customers?${search(request)}`, { signal });
export const useCustomers = (request: ListRequest) =>
  useQuery({ queryKey: ['customers', 'list', request], queryFn: ({ signal }) => getCustomers(request, signal), placeholderData: keepPreviousData });

// GET /api/staff/customers/export.csv — the current search and sort, all pages.
export function exportCustomers({ q, sort }: { q: string; sort: string }) {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (sort) params.set('sort', sort);
  return downloadFile(`/staff/customers/export.csv?${params.toString()}`, 'kunden.csv', customerMessages.exportFailed);
}

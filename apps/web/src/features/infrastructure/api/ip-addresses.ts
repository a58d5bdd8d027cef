import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CreateIpAddressInput, IpAddressPage, IpAddressRow } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import type { ListRequest } from '../../../components/list-page/list-page.tsx';
import { infrastructureKeys, listSearch, useInfrastructureMutation } from './keys.ts';

// GET /api/admin/ip-addresses — the address pool with its use, paged on the server.
export const getIpAddresses = (request: ListRequest, signal?: AbortSignal) => api<IpAddressPage>(`/admin/ip-addresses?${listSearch(request)}`, { signal });
export const ipAddressesQueryOptions = (request: ListRequest) =>
  queryOptions({ queryKey: infrastructureKeys.ipAddresses(request), queryFn: ({ signal }) => getIpAddresses(request, signal), placeholderData: keepPreviousData });
export const useIpAddresses = (request: ListRequest) => useQuery(ipAddressesQueryOptions(request));

// POST /api/admin/ip-addresses
export const createIpAddress = (input: CreateIpAddressInput) => api<IpAddressRow>('/admin/ip-addresses', { method: 'POST', body: input });
export const useCreateIpAddress = () => useInfrastructureMutation(createIpAddress);

// DELETE /api/admin/ip-addresses/:id
export const deleteIpAddress = (id: number) => api<void>(`/admin/ip-addresses/${id}`, { method: 'DELETE' });
export const useDeleteIpAddress = () => useInfrastructureMutation(deleteIpAddress);

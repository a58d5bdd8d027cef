import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CustomerOptionList } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { infrastructureKeys } from './keys.ts';

// GET /api/admin/customers — owner picker: up to 20 customers matching number, username or e-mail.
export const getCustomerOptions = (search: string, signal?: AbortSignal) =>
  api<CustomerOptionList>(`/admin/customers${search ? `?search=${encodeURIComponent(search)}` : ''}`, { signal });
export const customerOptionsQueryOptions = (search: string) =>
  queryOptions({ queryKey: infrastructureKeys.customers(search.trim()), queryFn: ({ signal }) => getCustomerOptions(search.trim(), signal), placeholderData: keepPreviousData });
export const useCustomerOptions = (search: string, enabled = true) => useQuery({ ...customerOptionsQueryOptions(search), enabled });

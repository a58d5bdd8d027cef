import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { InvoiceList, OrderDetail, OrderList } from '@hp/contract';
import { api } from '../../lib/api-client.ts';

export const BILLING_PAGE_SIZE = 20;

/** The caller's paid orders, newest first. */
export function useOrders(offset: number, limit = BILLING_PAGE_SIZE) {
  return useQuery({
    queryKey: ['orders', { offset, limit }],
    queryFn: () => api<OrderList>(`/orders?limit=${limit}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
}

export function useOrder(id: string) {
  return useQuery({ queryKey: ['orders', id], queryFn: () => api<OrderDetail>(`/orders/${encodeURIComponent(id)}`), retry: false });
}

export function useInvoices(offset: number, limit = BILLING_PAGE_SIZE) {
  return useQuery({
    queryKey: ['invoices', { offset, limit }],
    queryFn: () => api<InvoiceList>(`/invoices?limit=${limit}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
}

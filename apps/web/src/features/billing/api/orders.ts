import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderDetail, OrderList } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

export const BILLING_PAGE_SIZE = 20;

// GET /api/orders — the caller's paid orders, newest first.
export const getOrders = (offset: number, limit: number) => api<OrderList>(`/orders?limit=${limit}&offset=${offset}`);
export const ordersQueryOptions = (offset: number, limit = BILLING_PAGE_SIZE) =>
  queryOptions({ queryKey: ['orders', { offset, limit }], queryFn: () => getOrders(offset, limit), placeholderData: keepPreviousData });
export const useOrders = (offset: number, limit = BILLING_PAGE_SIZE) => useQuery(ordersQueryOptions(offset, limit));

// GET /api/orders/:id
export const getOrder = (id: string) => api<OrderDetail>(`/orders/${encodeURIComponent(id)}`);
export const orderQueryOptions = (id: string) => queryOptions({ queryKey: ['orders', id], queryFn: () => getOrder(id), retry: false });
export const useOrder = (id: string) => useQuery(orderQueryOptions(id));

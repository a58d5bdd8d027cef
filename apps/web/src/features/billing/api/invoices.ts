import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InvoiceList } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { BILLING_PAGE_SIZE } from './orders.ts';

// GET /api/invoices — the caller's invoices and credit notes, newest first.
export const getInvoices = (offset: number, limit: number) => api<InvoiceList>(`/invoices?limit=${limit}&offset=${offset}`);
export const invoicesQueryOptions = (offset: number, limit = BILLING_PAGE_SIZE) =>
  queryOptions({ queryKey: ['invoices', { offset, limit }], queryFn: () => getInvoices(offset, limit), placeholderData: keepPreviousData });
export const useInvoices = (offset: number, limit = BILLING_PAGE_SIZE) => useQuery(invoicesQueryOptions(offset, limit));

// GET /api/invoices/:id/pdf|xrechnung — file downloads: lib/invoice-file.ts.

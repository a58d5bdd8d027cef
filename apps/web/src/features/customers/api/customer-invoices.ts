import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvoiceCard, ManualInvoiceInput, RecordPaymentInput, StaffInvoiceCard, StaffInvoicePage } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { customerKeys } from './customers.ts';

export const CUSTOMER_INVOICE_PAGE_SIZE = 10;
const key = (customerId: string) => ['customers', 'invoices', customerId] as const;

// GET /api/staff/customers/:id/invoices — invoices and credit notes with payment state.
export const useCustomerInvoices = (customerId: string, offset: number) => useQuery({
  queryKey: [...key(customerId), offset],
  queryFn: ({ signal }) => api<StaffInvoicePage>(`/staff/customers/${encodeURIComponent(customerId)}/invoices?limit=${CUSTOMER_INVOICE_PAGE_SIZE}&offset=${offset}`, { signal }),
});

function useInvoiceMutation<TVariables, TResult>(customerId: string, mutationFn: (vars: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // Revenue and the open amount on the overview change with every invoice, payment and credit note.
    onSettled: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: key(customerId) }),
      queryClient.invalidateQueries({ queryKey: customerKeys.detail(customerId) }),
    ]),
  });
}

// POST /api/staff/customers/:id/invoices — "Rechnung erstellen".
export const useCreateInvoice = (customerId: string) => useInvoiceMutation(customerId, (input: ManualInvoiceInput) =>
  api<StaffInvoiceCard>(`/staff/customers/${encodeURIComponent(customerId)}/invoices`, { method: 'POST', body: input }));

// POST /api/staff/invoices/:id/payments — "Zahlung erfassen".
export const useRecordPayment = (customerId: string) => useInvoiceMutation(customerId, ({ invoiceId, input }: { invoiceId: string; input: RecordPaymentInput }) =>
  api<StaffInvoiceCard>(`/staff/invoices/${encodeURIComponent(invoiceId)}/payments`, { method: 'POST', body: input }));

// POST /api/admin/invoices/:id/credit-note — owner only.
export const useIssueCreditNote = (customerId: string) => useInvoiceMutation(customerId, ({ invoiceId, reason }: { invoiceId: string; reason: string }) =>
  api<InvoiceCard>(`/admin/invoices/${encodeURIComponent(invoiceId)}/credit-note`, { method: 'POST', body: { reason } }));

/** "1.234,56" or "49,9" or "49.90" → 1234.56 / 49.9 / 49.9; null when it is not a number. */
export function parseGermanNumber(raw: string): number | null {
  const text = raw.trim().replace(/\s+/g, '').replace(/€$/, '');
  if (!text) return null;
  const normalised = text.includes(',') ? text.replace(/\./g, '').replace(',', '.') : text;
  if (!/^-?\d+(\.\d+)?$/.test(normalised)) return null;
  return Number(normalised);
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { customerMessages, type Communication, type CreateCustomerNoteInput, type CustomerDetail, type CustomerNote, type CustomerPage, type MessageResult, type RecordCommunicationInput, type OrderLinkInput, type SendCustomerMailInput, type StaffEmailChangeInput, type UpdateCustomerInput } from '@hp/contract';
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

export const customerKeys = { detail: (id: string) => ['customers', 'detail', id] as const };

// GET /api/staff/customers/:id — refreshed by server and ticket events (lib/live-events.ts).
export const getCustomer = (id: string, signal?: AbortSignal) => api<CustomerDetail>(`/staff/customers/${encodeURIComponent(id)}`, { signal });
export const useCustomer = (id: string) => useQuery({ queryKey: customerKeys.detail(id), queryFn: ({ signal }) => getCustomer(id, signal), retry: false });

// POST /api/staff/customers/:id/notes
export const addCustomerNote = (id: string, input: CreateCustomerNoteInput) => api<CustomerNote>(`/staff/customers/${encodeURIComponent(id)}/notes`, { method: 'POST', body: input });
export function useAddCustomerNote(id: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (input: CreateCustomerNoteInput) => addCustomerNote(id, input), onSettled: () => queryClient.invalidateQueries({ queryKey: customerKeys.detail(id) }) });
}

function useCustomerMutation<TVariables>(id: string, mutationFn: (vars: TVariables) => Promise<CustomerDetail>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (detail) => queryClient.setQueryData(customerKeys.detail(id), detail),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['customers'] }),
  });
}

// PUT /api/staff/customers/:id — contact data, recorded in the change log.
export const updateCustomer = (id: string, input: UpdateCustomerInput) => api<CustomerDetail>(`/staff/customers/${encodeURIComponent(id)}`, { method: 'PUT', body: input });
export const useUpdateCustomer = (id: string) => useCustomerMutation(id, (input: UpdateCustomerInput) => updateCustomer(id, input));

// PUT /api/staff/customers/:id/lock — locking ends every session of the customer at once.
export const setCustomerLock = (id: string, locked: boolean) => api<CustomerDetail>(`/staff/customers/${encodeURIComponent(id)}/lock`, { method: 'PUT', body: { locked } });
export const useSetCustomerLock = (id: string) => useCustomerMutation(id, (locked: boolean) => setCustomerLock(id, locked));

// POST /api/staff/customers/:id/email — a link to the new address; the address applies once it is opened.
export const requestCustomerEmailChange = (id: string, input: StaffEmailChangeInput) => api<MessageResult>(`/staff/customers/${encodeURIComponent(id)}/email`, { method: 'POST', body: input });
export function useRequestCustomerEmailChange(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StaffEmailChangeInput) => requestCustomerEmailChange(id, input),
    // The pending change and the log entry are part of the detail.
    onSettled: () => queryClient.invalidateQueries({ queryKey: customerKeys.detail(id) }),
  });
}

// DELETE /api/staff/customers/:id/email — withdraws the pending change; its link stops working.
export const cancelCustomerEmailChange = (id: string) => api<MessageResult>(`/staff/customers/${encodeURIComponent(id)}/email`, { method: 'DELETE' });
export function useCancelCustomerEmailChange(id: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => cancelCustomerEmailChange(id), onSettled: () => queryClient.invalidateQueries({ queryKey: customerKeys.detail(id) }) });
}

// POST /api/staff/customers/:id/order-link — "Neue Bestellung": the configuration with a payment link by mail.
export const sendOrderLink = (id: string, input: OrderLinkInput) => api<MessageResult>(`/staff/customers/${encodeURIComponent(id)}/order-link`, { method: 'POST', body: input });
export function useSendOrderLink(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OrderLinkInput) => sendOrderLink(id, input),
    // The mail shows under Kommunikation once delivered by the job.
    onSuccess: () => setTimeout(() => void queryClient.invalidateQueries({ queryKey: customerKeys.detail(id) }), 1500),
  });
}

// POST /api/staff/customers/:id/mails — queued; the log shows it once delivered.
export const sendCustomerMail = (id: string, input: SendCustomerMailInput) => api<MessageResult>(`/staff/customers/${encodeURIComponent(id)}/mails`, { method: 'POST', body: input });
export function useSendCustomerMail(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendCustomerMailInput) => sendCustomerMail(id, input),
    // Delivery runs as a job: look again shortly for the logged mail.
    onSuccess: () => setTimeout(() => void queryClient.invalidateQueries({ queryKey: customerKeys.detail(id) }), 1500),
  });
}

// POST /api/staff/customers/:id/communications — a call, meeting or other contact.
export const recordCommunication = (id: string, input: RecordCommunicationInput) => api<Communication>(`/staff/customers/${encodeURIComponent(id)}/communications`, { method: 'POST', body: input });
export function useRecordCommunication(id: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (input: RecordCommunicationInput) => recordCommunication(id, input), onSettled: () => queryClient.invalidateQueries({ queryKey: customerKeys.detail(id) }) });
}

// DELETE /api/staff/customers/:id — owner only; 409 with a German reason while servers run or invoices are open.
export const deleteCustomer = (id: string) => api<MessageResult>(`/staff/customers/${encodeURIComponent(id)}`, { method: 'DELETE' });
export function useDeleteCustomer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => deleteCustomer(id), onSuccess: () => queryClient.removeQueries({ queryKey: customerKeys.detail(id) }), onSettled: () => queryClient.invalidateQueries({ queryKey: ['customers', 'list'] }) });
}

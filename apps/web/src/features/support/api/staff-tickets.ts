import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ticketMessages as m, type StaffTicketDetail, type StaffTicketMessageInput, type StaffTicketPage, type TicketAttachment, type TicketMessage, type TicketMessagePage, type TicketSecretList, type TicketSecretValue, type TicketStatusInput } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { uploadFile } from '../../../lib/files.ts';
import type { ListRequest } from '../../../components/list-page/list-page.tsx';
import { listSearch, staffTicketKeys, useTicketMutation } from './keys.ts';
import { CHAT_PAGE_SIZE } from './tickets.ts';

const ticketUrl = (id: string) => `/staff/tickets/${encodeURIComponent(id)}`;

// GET /api/staff/tickets — unassigned open tickets (overview); GET /api/staff/tickets/mine — mine.
export const getStaffTickets = (scope: 'unassigned' | 'mine', request: ListRequest, signal?: AbortSignal) =>
  api<StaffTicketPage>(`/staff/tickets${scope === 'mine' ? '/mine' : ''}?${listSearch(request)}`, { signal });
export const staffTicketsQueryOptions = (scope: 'unassigned' | 'mine', request: ListRequest) => queryOptions({
  queryKey: staffTicketKeys.list(scope, request),
  queryFn: ({ signal }) => getStaffTickets(scope, request, signal),
  placeholderData: keepPreviousData,
});
export const useUnassignedTickets = (request: ListRequest) => useQuery(staffTicketsQueryOptions('unassigned', request));
export const useMyTickets = (request: ListRequest) => useQuery(staffTicketsQueryOptions('mine', request));

// GET /api/staff/tickets/:id — with the customer and the affected server.
export const getStaffTicket = (id: string, signal?: AbortSignal) => api<StaffTicketDetail>(ticketUrl(id), { signal });
export const staffTicketQueryOptions = (id: string) => queryOptions({ queryKey: staffTicketKeys.ticket(id), queryFn: ({ signal }) => getStaffTicket(id, signal), retry: false });
export const useStaffTicket = (id: string) => useQuery(staffTicketQueryOptions(id));

// GET /api/staff/tickets/:id/messages — with internal notes, newest first.
export const getStaffTicketMessages = (id: string, before: string | undefined, signal?: AbortSignal) =>
  api<TicketMessagePage>(`${ticketUrl(id)}/messages?limit=${CHAT_PAGE_SIZE}${before ? `&before=${before}` : ''}`, { signal });
export const staffTicketMessagesQueryOptions = (id: string) => infiniteQueryOptions({
  queryKey: staffTicketKeys.messages(id),
  queryFn: ({ pageParam, signal }) => getStaffTicketMessages(id, pageParam, signal),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last) => last.nextCursor ?? undefined,
  retry: false,
});
export const useStaffTicketMessages = (id: string, enabled: boolean) => useInfiniteQuery({ ...staffTicketMessagesQueryOptions(id), enabled });

// POST /api/staff/tickets/:id/messages — an answer, or an internal note with `internal: true`.
export const sendStaffMessage = (id: string, input: StaffTicketMessageInput) => api<TicketMessage>(`${ticketUrl(id)}/messages`, { method: 'POST', body: input });
export const useSendStaffMessage = (id: string) => useTicketMutation((input: StaffTicketMessageInput) => sendStaffMessage(id, input));

// PUT /api/staff/tickets/:id/status
export const setTicketStatus = (id: string, input: TicketStatusInput) => api<StaffTicketDetail>(`${ticketUrl(id)}/status`, { method: 'PUT', body: input });
export const useSetTicketStatus = (id: string) => useTicketMutation((input: TicketStatusInput) => setTicketStatus(id, input));

// POST /api/staff/tickets/:id/assign — 409 when someone else was faster.
export const takeOverTicket = (id: string) => api<StaffTicketDetail>(`${ticketUrl(id)}/assign`, { method: 'POST' });
export const useTakeOverTicket = (id: string) => useTicketMutation(() => takeOverTicket(id));

// POST /api/staff/tickets/:id/close — 409 when it was closed already.
export const closeStaffTicket = (id: string) => api<StaffTicketDetail>(`${ticketUrl(id)}/close`, { method: 'POST' });
export const useCloseStaffTicket = (id: string) => useTicketMutation(() => closeStaffTicket(id));

// POST /api/staff/tickets/:id/attachments and GET …/attachments/:fileId
export const uploadStaffAttachment = (id: string, file: File) =>
  uploadFile<TicketAttachment>(`${ticketUrl(id)}/attachments?name=${encodeURIComponent(file.name)}`, file, m.uploadFailed);
export const staffAttachmentPath = (id: string, fileId: string) => `${ticketUrl(id)}/attachments/${encodeURIComponent(fileId)}`;

// GET /api/staff/tickets/:id/secrets — labels and the log of openings, never values.
export const getStaffSecrets = (id: string, signal?: AbortSignal) => api<TicketSecretList>(`${ticketUrl(id)}/secrets`, { signal });
export const useStaffSecrets = (id: string, enabled: boolean) => useQuery({ queryKey: staffTicketKeys.secrets(id), queryFn: ({ signal }) => getStaffSecrets(id, signal), enabled });
// POST /api/staff/tickets/:id/secrets/:secretId/open — the value; the server logs the opening.
export const openStaffSecret = (id: string, secretId: string) => api<TicketSecretValue>(`${ticketUrl(id)}/secrets/${encodeURIComponent(secretId)}/open`, { method: 'POST' });
export function useOpenStaffSecret(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (secretId: string) => openStaffSecret(id, secretId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffTicketKeys.secrets(id) }),
  });
}

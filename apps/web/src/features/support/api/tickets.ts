import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ticketMessages as m, type CreateTicketInput, type CreateTicketSecretInput, type PostTicketMessageInput, type ServerList, type Ticket, type TicketAttachment, type TicketList, type TicketMessage, type TicketMessagePage, type TicketSecret, type TicketSecretList } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { uploadFile } from '../../../lib/files.ts';
import { ticketKeys, useTicketMutation } from './keys.ts';

const ticketUrl = (id: string) => `/tickets/${encodeURIComponent(id)}`;
/** Messages per page of the chat; older ones load on demand. */
export const CHAT_PAGE_SIZE = 50;

// GET /api/tickets — the customer's tickets; changes arrive as live events.
export const getTickets = (signal?: AbortSignal) => api<TicketList>('/tickets', { signal });
export const ticketsQueryOptions = () => queryOptions({ queryKey: ticketKeys.list, queryFn: ({ signal }) => getTickets(signal) });
export const useTickets = () => useQuery(ticketsQueryOptions());

// POST /api/tickets
export const createTicket = (input: CreateTicketInput) => api<Ticket>('/tickets', { method: 'POST', body: input });
export const useCreateTicket = () => useTicketMutation(createTicket);

// GET /api/tickets/:id — another customer's ticket is 404 (the page sends the user to /404).
export const getTicket = (id: string, signal?: AbortSignal) => api<Ticket>(ticketUrl(id), { signal });
export const ticketQueryOptions = (id: string) => queryOptions({ queryKey: ticketKeys.ticket(id), queryFn: ({ signal }) => getTicket(id, signal), retry: false });
export const useTicket = (id: string) => useQuery(ticketQueryOptions(id));

// GET /api/tickets/:id/messages — newest first, `before` pages back.
export const getTicketMessages = (id: string, before: string | undefined, signal?: AbortSignal) =>
  api<TicketMessagePage>(`${ticketUrl(id)}/messages?limit=${CHAT_PAGE_SIZE}${before ? `&before=${before}` : ''}`, { signal });
export const ticketMessagesQueryOptions = (id: string) => infiniteQueryOptions({
  queryKey: ticketKeys.messages(id),
  queryFn: ({ pageParam, signal }) => getTicketMessages(id, pageParam, signal),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last) => last.nextCursor ?? undefined,
  retry: false,
});
export const useTicketMessages = (id: string, enabled: boolean) => useInfiniteQuery({ ...ticketMessagesQueryOptions(id), enabled });

// POST /api/tickets/:id/messages — text and/or files uploaded before.
export const sendTicketMessage = (id: string, input: PostTicketMessageInput) => api<TicketMessage>(`${ticketUrl(id)}/messages`, { method: 'POST', body: input });
export const useSendTicketMessage = (id: string) => useTicketMutation((input: PostTicketMessageInput) => sendTicketMessage(id, input));

// POST /api/tickets/:id/attachments (raw bytes) and GET …/attachments/:fileId (always a download).
export const uploadTicketAttachment = (id: string, file: File) =>
  uploadFile<TicketAttachment>(`${ticketUrl(id)}/attachments?name=${encodeURIComponent(file.name)}`, file, m.uploadFailed);
export const ticketAttachmentPath = (id: string, fileId: string) => `${ticketUrl(id)}/attachments/${encodeURIComponent(fileId)}`;

// GET/POST /api/tickets/:id/secrets — labels and state only; the value never comes back.
export const getOwnSecrets = (id: string, signal?: AbortSignal) => api<TicketSecretList>(`${ticketUrl(id)}/secrets`, { signal });
export const useOwnSecrets = (id: string, enabled: boolean) => useQuery({ queryKey: ticketKeys.secrets(id), queryFn: ({ signal }) => getOwnSecrets(id, signal), enabled });
export const addOwnSecret = (id: string, input: CreateTicketSecretInput) => api<TicketSecret>(`${ticketUrl(id)}/secrets`, { method: 'POST', body: input });
export const useAddOwnSecret = (id: string) => useTicketMutation((input: CreateTicketSecretInput) => addOwnSecret(id, input));

// POST /api/tickets/:id/close
export const closeTicket = (id: string) => api<Ticket>(`${ticketUrl(id)}/close`, { method: 'POST' });
export const useCloseTicket = (id: string) => useTicketMutation(() => closeTicket(id));

// GET /api/servers — the customer's own servers, offered as the affected server of a new ticket.
export const getOwnServers = (signal?: AbortSignal) => api<ServerList>('/servers', { signal });
export const useOwnServers = (enabled: boolean) => useQuery({ queryKey: ticketKeys.ownServers, queryFn: ({ signal }) => getOwnServers(signal), enabled });

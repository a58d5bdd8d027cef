import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { CreateTicketInput, ServerList, Ticket, TicketList, TicketMessage, TicketMessagePage } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
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

// POST /api/tickets/:id/messages
export const sendTicketMessage = (id: string, body: string) => api<TicketMessage>(`${ticketUrl(id)}/messages`, { method: 'POST', body: { body } });
export const useSendTicketMessage = (id: string) => useTicketMutation((body: string) => sendTicketMessage(id, body));

// POST /api/tickets/:id/close
export const closeTicket = (id: string) => api<Ticket>(`${ticketUrl(id)}/close`, { method: 'POST' });
export const useCloseTicket = (id: string) => useTicketMutation(() => closeTicket(id));

// GET /api/servers — the customer's own servers, offered as the affected server of a new ticket.
export const getOwnServers = (signal?: AbortSignal) => api<ServerList>('/servers', { signal });
export const useOwnServers = (enabled: boolean) => useQuery({ queryKey: ticketKeys.ownServers, queryFn: ({ signal }) => getOwnServers(signal), enabled });

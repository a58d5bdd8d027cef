import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListRequest } from '../../../components/list-page/list-page.tsx';

/** Query keys of the support desk; lib/live-events.ts invalidates them on `ticket.changed` / `ticket.noted`. */
export const ticketKeys = {
  list: ['tickets'] as const,
  ticket: (id: string) => ['tickets', 'ticket', id] as const,
  messages: (id: string) => ['tickets', 'messages', id] as const,
  secrets: (id: string) => ['tickets', 'secrets', id] as const,
  ownServers: ['tickets', 'own-servers'] as const,
};
/** The staff view of a ticket also shows the customer's servers, so server events refresh open views. */
export const staffTicketKeys = {
  all: ['staff-tickets'] as const,
  list: (scope: 'unassigned' | 'mine', request: ListRequest) => ['staff-tickets', 'list', scope, request] as const,
  ticket: (id: string) => ['staff-tickets', 'ticket', id] as const,
  messages: (id: string) => ['staff-tickets', 'messages', id] as const,
  presence: (id: string) => ['staff-tickets', 'presence', id] as const,
  secrets: (id: string) => ['staff-tickets', 'secrets', id] as const,
};

/** The query string of a list request: page, pageSize, q, sort and the set filters. */
export function listSearch({ q, page, pageSize, sort, filters }: ListRequest): string {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (q) params.set('q', q);
  if (sort) params.set('sort', sort);
  for (const [key, value] of Object.entries(filters)) params.set(key, value);
  return params.toString();
}

/** A ticket change refreshes both sides' ticket queries (the live event does the same for others). */
export function useTicketMutation<TVariables, TResult>(mutationFn: (vars: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ticketKeys.list }), queryClient.invalidateQueries({ queryKey: staffTicketKeys.all })]);
    },
  });
}

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TicketMailSetting } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

const key = ['staff-tickets', 'mail-setting'] as const;

// GET /api/staff/ticket-mails — does this staff member get mails about new tickets and replies?
export const getTicketMailSetting = (signal?: AbortSignal) => api<TicketMailSetting>('/staff/ticket-mails', { signal });
export const ticketMailSettingQueryOptions = () => queryOptions({ queryKey: key, queryFn: ({ signal }) => getTicketMailSetting(signal) });
export const useTicketMailSetting = () => useQuery(ticketMailSettingQueryOptions());

// PUT /api/staff/ticket-mails
export const saveTicketMailSetting = (input: TicketMailSetting) => api<TicketMailSetting>('/staff/ticket-mails', { method: 'PUT', body: input });
export function useSaveTicketMailSetting() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveTicketMailSetting, onSuccess: (data) => queryClient.setQueryData(key, data) });
}

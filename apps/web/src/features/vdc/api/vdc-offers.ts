import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CheckoutResponse, VdcOffer, VdcOfferCheckoutInput, VdcOfferInput } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

/**
 * Offers live in a ticket: their keys sit under the support desk's prefixes ('tickets' for the customer,
 * 'staff-tickets' for staff), so what refreshes a ticket's queries refreshes its offers too.
 */
export const vdcOfferKeys = {
  ofTicket: (viewer: 'customer' | 'staff', ticketId: string) => [viewer === 'staff' ? 'staff-tickets' : 'tickets', 'vdc-offers', ticketId] as const,
  offer: (id: string) => ['vdc-offers', id] as const,
};

// GET /api/tickets/:ticketId/vdc-offers — the offers of a "VDC-Anfrage" ticket (its customer or staff), newest first.
export const useTicketVdcOffers = (ticketId: string, viewer: 'customer' | 'staff') => useQuery({
  queryKey: vdcOfferKeys.ofTicket(viewer, ticketId),
  queryFn: () => api<VdcOffer[]>(`/tickets/${encodeURIComponent(ticketId)}/vdc-offers`),
});

// GET /api/vdc-offers/:id — one's own offer (404 for anyone else's).
export const useVdcOffer = (offerId: string, enabled: boolean) => useQuery({
  queryKey: vdcOfferKeys.offer(offerId),
  queryFn: () => api<VdcOffer>(`/vdc-offers/${encodeURIComponent(offerId)}`),
  enabled,
  retry: false,
});

/** After staff changed offers: the ticket's offers and its chat (the offer is posted as an answer). */
function useRefreshTickets() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: ['staff-tickets'] }), client.invalidateQueries({ queryKey: ['tickets'] })]);
}

// POST /api/admin/tickets/:ticketId/vdc-offers — staff's offer, posted into the ticket.
export const useCreateVdcOffer = (ticketId: string) => {
  const refresh = useRefreshTickets();
  return useMutation({
    mutationFn: (input: VdcOfferInput) => api<VdcOffer>(`/admin/tickets/${encodeURIComponent(ticketId)}/vdc-offers`, { body: input }),
    onSettled: refresh,
  });
};

// DELETE /api/admin/vdc-offers/:id — withdraw an open offer.
export const useWithdrawVdcOffer = () => {
  const refresh = useRefreshTickets();
  return useMutation({
    mutationFn: (offerId: string) => api<VdcOffer>(`/admin/vdc-offers/${encodeURIComponent(offerId)}`, { method: 'DELETE' }),
    onSettled: refresh,
  });
};

// POST /api/shop/vdc/offer-checkout — accept one's own open offer and open its payment (figures and price are the offer's).
export const useVdcOfferCheckout = () => useMutation({
  mutationFn: (input: VdcOfferCheckoutInput) => api<CheckoutResponse>('/shop/vdc/offer-checkout', { body: input }),
});

import { useMutation, useQuery } from '@tanstack/react-query';
import type { CheckoutResponse, VdcCheckoutInput, VdcRequestInput, VdcShopInfo } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// GET /api/shop/vdc — whether the smallest pool has room now (public).
export const useVdcShopInfo = () => useQuery({ queryKey: ['shop', 'vdc'], queryFn: () => api<VdcShopInfo>('/shop/vdc') });

// GET /api/shop/vdc/renewal/:id — the own pool to renew and enlarge, with what its VMs use.
export const useVdcRenewal = (vdcId: string | null) => useQuery({
  queryKey: ['shop', 'vdc', 'renewal', vdcId],
  queryFn: () => api<VdcShopInfo>(`/shop/vdc/renewal/${encodeURIComponent(vdcId!)}`),
  enabled: vdcId !== null,
  retry: false,
});

// POST /api/shop/vdc/checkout — a standard pool (or the renewal/upgrade of one's own): the order and its payment session.
export const useVdcCheckout = () => useMutation({
  mutationFn: (input: VdcCheckoutInput) => api<CheckoutResponse>('/shop/vdc/checkout', { body: input }),
});

/** The answer of an "Individuelle Anfrage": the support ticket it opened. */
export interface VdcRequestResult { ticketId: string }

// POST /api/vdc-requests — opens a ticket of type "VDC-Anfrage" (signed-in customers).
export const useVdcRequest = () => useMutation({
  mutationFn: (input: VdcRequestInput) => api<VdcRequestResult>('/vdc-requests', { body: input }),
});

import { useMutation, useQuery } from '@tanstack/react-query';
import type { CheckoutResponse, HostingCheckoutInput, HostingShopInfo } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// GET /api/shop/webhosting — subdomain base and whether a package slot is free (public).
export const useHostingShopInfo = () => useQuery({ queryKey: ['shop', 'webhosting'], queryFn: () => api<HostingShopInfo>('/shop/webhosting') });

// GET /api/shop/webhosting/renewal/:id — the package to renew (owner only).
export const useHostingRenewal = (packageId: string | null) => useQuery({
  queryKey: ['shop', 'webhosting', 'renewal', packageId],
  queryFn: () => api<HostingShopInfo>(`/shop/webhosting/renewal/${encodeURIComponent(packageId!)}`),
  enabled: packageId !== null,
  retry: false,
});

// POST /api/shop/webhosting/checkout — creates the order and the payment session.
export const useHostingCheckout = () => useMutation({ mutationFn: (input: HostingCheckoutInput) => api<CheckoutResponse>('/shop/webhosting/checkout', { body: input }) });

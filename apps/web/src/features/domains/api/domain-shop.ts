import { useMutation, useQuery } from '@tanstack/react-query';
import type { CheckoutResponse, DomainCheckoutInput, DomainQuote } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// GET /api/shop/domain?domain=&action= — availability, price, terms and missing profile fields (signed in).
export const useDomainQuote = (domain: string | null, action: 'register' | 'transfer') => useQuery({
  queryKey: ['shop', 'domain', domain, action],
  queryFn: () => api<DomainQuote>(`/shop/domain?domain=${encodeURIComponent(domain!)}&action=${action}`),
  enabled: domain !== null,
  retry: false,
  staleTime: 30_000,
});

// POST /api/shop/domain/checkout — the order and its payment session (register, transfer or renew).
export const useDomainCheckout = () => useMutation({
  mutationFn: (input: DomainCheckoutInput) => api<CheckoutResponse>('/shop/domain/checkout', { body: input }),
});

import { useMutation, useQuery } from '@tanstack/react-query';
import type { CheckoutResponse, StorageCheckoutInput, StorageNameCheck, StorageShopInfo } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// GET /api/shop/cloud-storage — the plans a storage server has room for now (public).
export const useStorageShopInfo = () => useQuery({ queryKey: ['shop', 'cloud-storage'], queryFn: () => api<StorageShopInfo>('/shop/cloud-storage') });

// GET /api/shop/cloud-storage/renewal/:id — the own account to renew, with the plans its use fits in.
export const useStorageRenewal = (storageId: string | null) => useQuery({
  queryKey: ['shop', 'cloud-storage', 'renewal', storageId],
  queryFn: () => api<StorageShopInfo>(`/shop/cloud-storage/renewal/${encodeURIComponent(storageId!)}`),
  enabled: storageId !== null,
  retry: false,
});

// GET /api/shop/cloud-storage/name/:name — whether an account name is free (signed in only).
export const useStorageNameCheck = (name: string | null) => useQuery({
  queryKey: ['shop', 'cloud-storage', 'name', name],
  queryFn: ({ signal }) => api<StorageNameCheck>(`/shop/cloud-storage/name/${encodeURIComponent(name!)}`, { signal }),
  enabled: name !== null,
  retry: false,
  staleTime: 10_000,
});

// POST /api/shop/cloud-storage/checkout — creates the order and the payment session.
export const useStorageCheckout = () => useMutation({
  mutationFn: (input: StorageCheckoutInput) => api<CheckoutResponse>('/shop/cloud-storage/checkout', { body: input }),
});

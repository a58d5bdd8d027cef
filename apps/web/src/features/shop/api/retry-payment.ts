import { useMutation } from '@tanstack/react-query';
import type { CheckoutResponse } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// POST /api/shop/orders/:id/payment — a new payment session for an open order whose last payment failed
// (while its hold lasts); the caller sends the browser to `url`.
export const retryPayment = (orderId: string) => api<CheckoutResponse>(`/shop/orders/${encodeURIComponent(orderId)}/payment`, { method: 'POST' });
export const useRetryPayment = () => useMutation({ mutationFn: retryPayment });

import { useMutation } from '@tanstack/react-query';
import type { CheckoutInput, CheckoutResponse } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// POST /api/shop/checkout — creates the order and the payment session; the caller sends the browser to `url`.
export const checkout = (input: CheckoutInput) => api<CheckoutResponse>('/shop/checkout', { body: input });
export const useCheckout = () => useMutation({ mutationFn: checkout });

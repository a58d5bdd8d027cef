import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CheckoutInput, CheckoutResponse, PaymentResult, UpgradeInfo } from '@hp/contract';
import { api } from '../../lib/api-client.ts';

/** Prefill of /upgrade/kvm-server/:serverId (404 unless the caller owns the server). */
export function useUpgradeInfo(serverId: string, enabled = true) {
  return useQuery({
    queryKey: ['shop', 'upgrade', serverId],
    queryFn: () => api<UpgradeInfo>(`/shop/upgrade/${encodeURIComponent(serverId)}`),
    retry: false,
    staleTime: 0,
    enabled,
  });
}

/** Creates the order and the payment session; the caller sends the browser to `url`. */
export function useCheckout() {
  return useMutation({
    mutationFn: (input: CheckoutInput) => api<CheckoutResponse>('/shop/checkout', { body: input }),
  });
}

export type PaymentLookup = { sessionId: string } | { orderId: string };

/** Polls while the provider has not confirmed yet: every 2 s, up to 15 times (~30 s). */
export const PAYMENT_POLL_MS = 2000;
export const PAYMENT_POLL_MAX = 15;

/**
 * The server asks the payment provider itself and starts fulfilment; the page only shows the answer.
 */
export function usePaymentResult(lookup: PaymentLookup | null) {
  const client = useQueryClient();
  const query = lookup === null ? '' : 'sessionId' in lookup ? `session_id=${encodeURIComponent(lookup.sessionId)}` : `order=${encodeURIComponent(lookup.orderId)}`;
  const queryKey = ['shop', 'payment-result', query];
  const result = useQuery({
    queryKey,
    queryFn: () => api<PaymentResult>(`/shop/payment-result?${query}`),
    enabled: lookup !== null,
    retry: false,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.paymentStatus === 'open' && q.state.dataUpdateCount < PAYMENT_POLL_MAX ? PAYMENT_POLL_MS : false),
  });
  /** Still inside the automatic re-check window (the page shows "Zahlung wird geprüft …"). */
  const polling = result.data?.paymentStatus === 'open' && (client.getQueryState(queryKey)?.dataUpdateCount ?? 0) < PAYMENT_POLL_MAX;
  return { ...result, polling };
}

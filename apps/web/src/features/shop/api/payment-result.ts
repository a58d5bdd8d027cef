import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaymentResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

export type PaymentLookup = { sessionId: string } | { orderId: string };

/** Polls while the provider has not confirmed yet: every 2 s, up to 15 times (~30 s). */
export const PAYMENT_POLL_MS = 2000;
export const PAYMENT_POLL_MAX = 15;

const lookupQuery = (lookup: PaymentLookup | null) =>
  lookup === null ? '' : 'sessionId' in lookup ? `session_id=${encodeURIComponent(lookup.sessionId)}` : `order=${encodeURIComponent(lookup.orderId)}`;

// GET /api/shop/payment-result — the server asks the payment provider itself and starts fulfilment;
// the page only shows the answer.
export const getPaymentResult = (query: string) => api<PaymentResult>(`/shop/payment-result?${query}`);
export const paymentResultQueryOptions = (lookup: PaymentLookup | null) => {
  const query = lookupQuery(lookup);
  return queryOptions({
    queryKey: ['shop', 'payment-result', query],
    queryFn: () => getPaymentResult(query),
    enabled: lookup !== null,
    retry: false,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.paymentStatus === 'open' && q.state.dataUpdateCount < PAYMENT_POLL_MAX ? PAYMENT_POLL_MS : false),
  });
};

export function usePaymentResult(lookup: PaymentLookup | null) {
  const client = useQueryClient();
  const options = paymentResultQueryOptions(lookup);
  const result = useQuery(options);
  /** Still inside the automatic re-check window (the page shows "Zahlung wird geprüft …"). */
  const polling = result.data?.paymentStatus === 'open' && (client.getQueryState(options.queryKey)?.dataUpdateCount ?? 0) < PAYMENT_POLL_MAX;
  return { ...result, polling };
}

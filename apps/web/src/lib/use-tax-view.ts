import { useQuery } from '@tanstack/react-query';
import { GERMAN_CONSUMER_VIEW, type TaxView } from '@hp/contract';
import { api } from './api-client.ts';
import { useSession } from './session.ts';

// GET /api/shop/tax — how the signed-in customer's prices are shown (issue 24). Shared by the shops of
// several features (server, web hosting, domains), hence in lib/.
export const getTaxView = () => api<TaxView>('/shop/tax');

export interface TaxViewState {
  /** The view to price with; null while a signed-in customer's view is loading. */
  view: TaxView | null;
  /** The customer's view could not be loaded: `view` is then the German consumer view. */
  failed: boolean;
}

/**
 * The prices' tax view: visitors get German consumer prices without a request; a signed-in customer's
 * comes from the server, which knows the profile, the checked VAT ID and the threshold. Never cached
 * for long: a change in the profile shows on the next shop page.
 */
export function useTaxView(): TaxViewState {
  const { token, claims } = useSession();
  const query = useQuery({
    queryKey: ['shop', 'tax', claims?.sub ?? null],
    queryFn: getTaxView,
    enabled: token !== null,
    staleTime: 0,
    retry: 1,
  });
  if (token === null) return { view: GERMAN_CONSUMER_VIEW, failed: false };
  if (query.data) return { view: query.data, failed: false };
  if (query.isError) return { view: GERMAN_CONSUMER_VIEW, failed: true };
  return { view: null, failed: false };
}

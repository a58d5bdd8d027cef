import { useMemo, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';

const noop = () => () => {};

/**
 * False in the prerendered HTML and during hydration, true once React owns the page. Prerendered
 * forms stay disabled until then, so an early click cannot submit the bare HTML form and lose input.
 * The switch renders the calling component again, synchronously: call it in a small component (see
 * components/hydrated-fieldset.tsx), not in a whole page.
 */
export function useHydrated() {
  return useSyncExternalStore(noop, () => true, () => false);
}

const NO_PARAMS = new URLSearchParams();

/**
 * The URL's query parameters once React owns the page: none in the prerendered HTML (it knows no query
 * string) and during hydration, so hydration meets the HTML it was rendered from. A page opened without a
 * query string is not rendered again after hydration (the snapshot stays the same), unlike with useHydrated.
 */
export function useHydratedSearchParams(): URLSearchParams {
  const [searchParams] = useSearchParams();
  const query = useSyncExternalStore(noop, () => searchParams.toString(), () => '');
  return useMemo(() => (query ? new URLSearchParams(query) : NO_PARAMS), [query]);
}

import { useSyncExternalStore } from 'react';

const noop = () => () => {};

/**
 * False in the prerendered HTML and during hydration, true once React owns the page. Prerendered
 * forms stay disabled until then, so an early click cannot submit the bare HTML form and lose input.
 */
export function useHydrated() {
  return useSyncExternalStore(noop, () => true, () => false);
}

import type { ComponentProps } from 'react';
import { useHydrated } from '../lib/use-hydrated.ts';

/**
 * A fieldset that stays disabled until React owns the page (a prerendered form: an early choice would be
 * reset by hydration, and a submit would send the bare HTML form). Only this component renders again when
 * hydration ends; the form inside it, passed as children, does not.
 */
export function HydratedFieldset({ disabled, ...props }: ComponentProps<'fieldset'>) {
  const hydrated = useHydrated();
  return <fieldset {...props} disabled={!hydrated || disabled} />;
}

import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { Check, LogIn } from 'lucide-react';
import { formatEuro, paymentLabel } from '@hp/contract';
import { Alert } from '../ui/card.tsx';
import { shownCents, TaxLabel, TaxNotes, taxSentence, taxTexts } from '../billing/tax-price.tsx';
import type { TaxViewState } from '../../lib/use-tax-view.ts';
import { paths } from '../../config/paths.ts';

/**
 * The parts of a shop's order summary that every product's checkout shows alike (web hosting, cloud
 * storage, virtual data center): the total with its tax, the consent to the terms, and the hint to sign in.
 */

/** The amount shown for a German gross list price, by the customer's tax view ('…' while it loads). */
export function shownMoney(listGrossCents: number, taxState: TaxViewState): string {
  return taxState.view ? formatEuro(shownCents(listGrossCents, taxState.view)) : '…';
}

/**
 * The total for the whole term, announced to screen readers as it changes, with its tax label, the
 * duration discount, the sentence on how it is taxed, and the notes of the tax view. `id` names the
 * product (element ids); `children` come after the tax label (e.g. a surcharge line); `perMonth` adds
 * what the total comes to per month for terms longer than one month.
 */
export function CheckoutTotal({ id, totalCents, months, taxState, discountPercent, perMonth = false, testId, children }: {
  id: string;
  totalCents: number;
  months: number;
  taxState: TaxViewState;
  discountPercent: number;
  perMonth?: boolean;
  testId?: string;
  children?: ReactNode;
}) {
  const tax = taxState.view;
  return (
    <div className="mt-5 rounded-lg bg-slate-50 p-4">
      <p id={`${id}-price-label`} className="text-sm font-medium text-slate-700">Gesamtpreis</p>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-2">
        <output aria-live="polite" aria-labelledby={`${id}-price-label`} aria-busy={tax ? undefined : true} data-testid={testId} className="text-3xl font-bold tabular-nums text-slate-900">{shownMoney(totalCents, taxState)}</output>
        <span className="text-sm text-slate-600">/ {paymentLabel(months)}</span>
      </p>
      {tax && <p className="mt-1"><TaxLabel tax={tax} className="text-sm font-medium text-slate-700" /></p>}
      {children}
      {discountPercent > 0 && <p className="mt-2 inline-flex items-center gap-1 rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-semibold text-green-800"><Check className="size-3.5" aria-hidden="true" /> inkl. {discountPercent} % Laufzeitrabatt</p>}
      {tax ? (
        <p className="mt-2 text-xs text-slate-600">
          {perMonth && months > 1 && <>entspricht {formatEuro(Math.round(shownCents(totalCents, tax) / months))} pro Monat · </>}{taxSentence(totalCents, tax)} Zahlbar im Voraus für die gesamte Laufzeit.
        </p>
      ) : <p className="mt-2 text-xs text-slate-600" role="status">{taxTexts.loading}</p>}
      {tax && <TaxNotes state={taxState} />}
    </div>
  );
}

/** "Ich akzeptiere die AGB und Datenschutzbestimmungen" (both open in a new tab), with the form's error under it. */
export function TermsConsent({ id, error, field }: { id: string; error: string | undefined; field: UseFormRegisterReturn }) {
  return (
    <div className="mt-5">
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input type="checkbox" className="mt-0.5 size-5 shrink-0 cursor-pointer rounded accent-brand-600" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-terms-error` : undefined} {...field} />
        <span>Ich akzeptiere die <Link to={paths.terms} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">AGB</Link> und <Link to={paths.privacy} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">Datenschutzbestimmungen</Link></span>
      </label>
      {error && <p id={`${id}-terms-error`} role="alert" className="mt-2 text-sm font-medium text-red-700">{error}</p>}
    </div>
  );
}

/** Why the order needs an account, with the way to log in or to register. */
export function LoginHint({ text, className, tone = 'error' }: { text: string; className?: string; tone?: 'error' | 'info' }) {
  return (
    <Alert tone={tone} className={className}>
      <p>{text}</p>
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
        <Link to={paths.login} className="inline-flex items-center gap-1 font-semibold underline"><LogIn className="size-4" aria-hidden="true" /> Zum Login</Link>
        <Link to={paths.register} className="font-semibold underline">Konto erstellen</Link>
      </p>
    </Alert>
  );
}

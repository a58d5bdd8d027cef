import { AlertTriangle, LoaderCircle } from 'lucide-react';
import { Link } from 'react-router';
import { DOMAIN_AVAILABILITY_LABEL, formatEuro, type DomainAvailabilityStatus, type DomainSearchItem } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { paths } from '../../../config/paths.ts';
import { useDomainSearch } from '../api/domains.ts';
import { useTaxView } from '../../../lib/use-tax-view.ts';
import { shownCents, TaxNotes, type PriceTax } from '../../../components/billing/tax-price.tsx';

const tone: Record<DomainAvailabilityStatus, BadgeTone> = { free: 'success', taken: 'neutral', premium: 'warning', invalid: 'danger' };

export function DomainSearchLoading() {
  return (
    <p className="flex items-center gap-2 text-sm text-slate-700">
      <LoaderCircle className="size-4 animate-spin text-brand-700" aria-hidden="true" /> Verfügbarkeit wird geprüft …
    </p>
  );
}

function Alert({ children }: { children: React.ReactNode }) {
  return (
    <div role="alert" className="flex items-start gap-2 rounded-lg bg-red-50 p-3 text-sm text-red-800 ring-1 ring-inset ring-red-600/20">
      <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </div>
  );
}

const actionClass = 'inline-flex min-h-9 items-center rounded-lg bg-brand-600 px-3 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

function ResultRow({ item, tax }: { item: DomainSearchItem; tax: PriceTax | null }) {
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
      <div className="min-w-0">
        <p className="break-all font-semibold text-slate-900" lang="de">{item.unicode}</p>
        {item.unicode !== item.domain && <p className="break-all text-xs text-slate-600">{item.domain}</p>}
        {item.reason && <p className="text-sm text-red-800">{item.reason}</p>}
      </div>
      <div className="flex shrink-0 items-center gap-3 sm:justify-end">
        <Badge tone={tone[item.status]}>{DOMAIN_AVAILABILITY_LABEL[item.status]}</Badge>
        {item.yearCents !== null && (
          <span className="whitespace-nowrap text-sm text-slate-900">
            <span className="font-semibold">{tax ? formatEuro(shownCents(item.yearCents, tax)) : '…'}</span> / Jahr{tax && <span className="text-slate-600"> {tax.priceLabel}</span>}
            {item.status === 'taken' && <span className="text-slate-600"> (Transfer)</span>}
          </span>
        )}
        {(item.status === 'free' || item.status === 'premium') && (
          <Link className={actionClass} to={paths.shop.domainOrder(item.domain, 'register')} aria-label={`Registrieren: ${item.unicode}`}>Registrieren</Link>
        )}
        {item.status === 'taken' && (
          <Link className={actionClass} to={paths.shop.domainOrder(item.domain, 'transfer')} aria-label={`Transfer: ${item.unicode}`}>Transfer</Link>
        )}
      </div>
    </li>
  );
}

/** The search result of the /domain page: loaded lazily, so the prerendered page stays light. */
export default function DomainSearchResults({ q }: { q: string }) {
  const search = useDomainSearch(q);
  const taxState = useTaxView();
  if (search.isPending) return <DomainSearchLoading />;
  if (search.isError) return <Alert>{search.error.message}</Alert>;
  const { items, invalid, error } = search.data;
  return (
    <div className="space-y-3">
      {error && <Alert>{error}</Alert>}
      <p className="text-sm font-medium text-slate-800">
        {items.length === 1 ? '1 Ergebnis' : `${items.length} Ergebnisse`} für „{q.trim()}“
      </p>
      {invalid.length > 0 && (
        <ul className="space-y-1 rounded-lg bg-red-50 p-3 text-sm text-red-800 ring-1 ring-inset ring-red-600/20" aria-label="Nicht prüfbare Namen">
          {invalid.map((n) => (
            <li key={n.input}><span className="break-all font-semibold">{n.input}</span>: {n.reason}</li>
          ))}
        </ul>
      )}
      {items.length > 0 && (
        <ul className="divide-y divide-slate-200" aria-label="Suchergebnis">
          {items.map((item) => <ResultRow key={item.domain} item={item} tax={taxState.view} />)}
        </ul>
      )}
      {items.some((item) => item.yearCents !== null) && taxState.view && <TaxNotes state={taxState} />}
    </div>
  );
}

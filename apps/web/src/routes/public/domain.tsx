import { lazy, Suspense, useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ArrowRight, Search } from 'lucide-react';
import { DOMAIN_TLDS, DOMAIN_TLD_INFO, domainMessages } from '@hp/contract/domain-tlds';
import { formatDecimalCents } from '@hp/contract';
import { PageMeta } from '../../components/page-meta.tsx';
import { ButtonLink, buttonClass } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { inputClass } from '../../components/ui/field.tsx';
import { FeatureCard } from '../../components/marketing/feature-card.tsx';
import { paths } from '../../config/paths.ts';
import { findProduct } from '../../config/products.ts';
import { useHydratedSearchParams } from '../../lib/use-hydrated.ts';

// The result list (react-query, badges) loads only once somebody searches: the prerendered page stays light.
// The public pages render without a query client; the search brings its own, lazily as well.
const DomainSearchResults = lazy(() => import('../../features/domains/components/domain-search-results.tsx'));
const QueryProvider = lazy(() => import('../../app/query-provider.tsx'));

// Indicative monthly prices from the contract (spec §9); the euro sign is set apart visually, not in the text.
const extensions = DOMAIN_TLDS.map((tld) => ({
  tld: `.${tld}`,
  price: formatDecimalCents(DOMAIN_TLD_INFO[tld].monthlyCents),
  popular: DOMAIN_TLD_INFO[tld].popular,
}));

const included = findProduct('domain').features;

export function DomainPage() {
  const inputId = useId();
  const hintId = useId();
  const [, setParams] = useSearchParams();
  // The prerendered HTML knows no query: the search from the URL starts once React owns the page.
  const q = (useHydratedSearchParams().get('q') ?? '').trim();
  const [text, setText] = useState('');
  const [note, setNote] = useState('');

  useEffect(() => {
    if (q) setText(q);
  }, [q]);

  // Without JavaScript the form is a plain GET to /domain?q=…; with it, the URL changes and the list loads.
  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) {
      setNote(domainMessages.empty);
      return;
    }
    setNote('');
    setParams({ q: value }, { preventScrollReset: true });
  };

  return (
    <>
      <PageMeta title="Domains" description="Registrieren Sie Ihre Wunschdomain unter .de, .com, .net, .org, .eu oder .info – .de ab 0,90 € im Monat, mit Musterhost-DNS, Transfersperre und Erinnerung vor Ablauf." />

      <section className="relative overflow-hidden bg-slate-950 text-white">
        <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(29,78,216,0.45),transparent_65%)]" aria-hidden="true" />
        <div className="relative mx-auto max-w-3xl px-4 py-16 text-center sm:px-6 sm:py-24">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-200">Domains</p>
          <h1 className="mt-2 text-4xl font-bold tracking-tight sm:text-5xl">Finden Sie Ihre Wunschdomain</h1>
          <p className="mt-6 text-lg leading-8 text-slate-300">Die wichtigsten Domainendungen für Ihr Projekt – mit Musterhost-DNS, Transfersperre und Erinnerung vor Ablauf.</p>

          <form role="search" aria-label="Domainsuche" method="get" action={paths.domain} onSubmit={onSearch} noValidate className="mt-10 rounded-2xl bg-white p-4 text-left shadow-xl sm:p-6">
            <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">Wunschdomain</label>
            <div className="mt-2 flex flex-col gap-3 sm:flex-row">
              <input
                id={inputId}
                name="q"
                type="text"
                value={text}
                onChange={(e) => setText(e.target.value)}
                aria-describedby={hintId}
                inputMode="url"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                placeholder="z. B. meine-firma oder meine-firma.de"
                className={inputClass}
              />
              <button type="submit" className={buttonClass('primary', 'lg', 'shrink-0')}>
                <Search className="size-5" aria-hidden="true" /> Domain suchen
              </button>
            </div>
            <p id={hintId} className="mt-2 text-xs text-slate-600">Ohne Endung prüfen wir alle sechs Endungen; mehrere Namen trennen Sie mit Leerzeichen oder Komma.</p>
            {/* The availability list is drawn by the page's script: without it the search must not stay silent. */}
            <noscript><p className="mt-3 text-sm font-medium text-red-800">Die Verfügbarkeit prüfen wir im Browser: Bitte schalten Sie JavaScript ein, um das Suchergebnis zu sehen.</p></noscript>
            <div aria-live="polite" className="mt-3 min-h-6 text-sm text-slate-700">
              {note && <p role="alert" className="text-red-800">{note}</p>}
              {q && !note && (
                <Suspense fallback={<p className="text-sm text-slate-700">Verfügbarkeit wird geprüft …</p>}>
                  <QueryProvider><DomainSearchResults q={q} /></QueryProvider>
                </Suspense>
              )}
            </div>
          </form>
        </div>
      </section>

      <section aria-labelledby="endungen-title" className="bg-slate-50 py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Domainendungen</p>
            <h2 id="endungen-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Beliebte Domainendungen</h2>
            <p className="mt-4 text-lg text-slate-600">Diese Endungen bestellen Sie direkt online.</p>
          </div>
          <ul className="mt-12 grid grid-cols-2 gap-4 sm:gap-6 md:grid-cols-3 lg:grid-cols-6">
            {extensions.map((ext) => (
              <li key={ext.tld}>
                <Card className={ext.popular ? 'relative h-full p-5 text-center ring-2 ring-brand-600' : 'relative h-full p-5 text-center'}>
                  {ext.popular && (
                    <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-0.5 text-xs font-semibold text-white">Beliebt</span>
                  )}
                  <h3 className="text-2xl font-bold text-slate-900">{ext.tld}</h3>
                  <p className="mt-3 text-slate-900">
                    <span className="text-2xl font-bold">{ext.price}</span><span className="ml-0.5 text-lg font-semibold">€</span>
                  </p>
                  <p className="text-sm text-slate-600">pro Monat</p>
                </Card>
              </li>
            ))}
          </ul>
          <p className="mt-6 text-center text-sm text-slate-600">Unverbindliche Richtpreise pro Monat.</p>
        </div>
      </section>

      <section aria-labelledby="inklusive-title" className="bg-white py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Inklusive</p>
            <h2 id="inklusive-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Bei jeder Domain inklusive</h2>
          </div>
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {included.map((item) => (
              <li key={item.title}>
                <FeatureCard {...item} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="domain-cta-title" className="bg-brand-700">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-14 sm:px-6 lg:flex-row lg:items-center lg:justify-between">
          <div>
            <h2 id="domain-cta-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">Sichern Sie sich Ihren Namen im Netz</h2>
            <p className="mt-2 text-lg text-brand-100">Erstellen Sie jetzt Ihr Kundenkonto – gute Domains sind schnell vergeben.</p>
          </div>
          <ButtonLink to={paths.register} variant="outline" size="lg">
            Domain registrieren <ArrowRight className="size-4" aria-hidden="true" />
          </ButtonLink>
        </div>
      </section>
    </>
  );
}

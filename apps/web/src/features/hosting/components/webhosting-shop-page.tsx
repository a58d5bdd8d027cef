import { memo, Suspense, useMemo, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { Link, Navigate } from 'react-router';
import { Check, Database, Globe, HardDrive, ShoppingCart, Tag, Zap } from 'lucide-react';
import {
  durationDiscountPercent, formatNumberDe, HOSTING_MONTHS, HOSTING_PLAN_IDS, HOSTING_PLANS, hostingPriceCents, shopMessages,
  type HostingCheckoutInput, type HostingPlanId,
} from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { useSession } from '../../../lib/session.ts';
import { useHydratedSearchParams } from '../../../lib/use-hydrated.ts';
import { HydratedFieldset } from '../../../components/hydrated-fieldset.tsx';
import { CheckoutTotal, LoginHint, shownMoney, TermsConsent } from '../../../components/shop/checkout-summary.tsx';
import { useCheckoutRedirect } from '../../../components/shop/use-checkout-redirect.ts';
import { useTaxView } from '../../../lib/use-tax-view.ts';
import { TaxExplanation, TaxLabel } from '../../../components/billing/tax-price.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { inputResolver, useSchemaForm } from '../../../lib/forms.ts';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../config/paths.ts';
import { useHostingCheckout, useHostingRenewal, useHostingShopInfo } from '../api/hosting-shop.ts';
import { ShopSection } from '../../../components/shop-section.tsx';

interface Values {
  plan: HostingPlanId;
  months: number;
  domainType: 'subdomain' | 'own';
  subdomain: string;
  domain: string;
  acceptTerms: boolean;
}

const mb = (n: number) => `${formatNumberDe(n)} MB`;

/** Exactly the contract's fields: only the chosen kind of domain is sent; a renewal sends the package. */
function toInput(v: Values, packageId: string | null) {
  return {
    plan: v.plan, months: v.months, domainType: v.domainType, acceptTerms: v.acceptTerms,
    ...(packageId ? { packageId } : v.domainType === 'subdomain' ? { subdomain: v.subdomain } : { domain: v.domain }),
  };
}
const loadSchema = () => import('../api/checkout-schema.ts').then((m) => m.HostingCheckoutInput);
const resolverFor = (packageId: string | null) => inputResolver(loadSchema, (v: Values) => toInput(v, packageId));

/** /shop/webhosting: plan, domain (own or a free subdomain), term, price, order; ?renew={id} renews a package. */
export default function WebhostingShopPage() {
  // The prerendered page knows no query string: the URL's parameters apply once React owns the page, so
  // hydration meets the HTML it was rendered from; the form then starts anew with them (its key).
  const params = useHydratedSearchParams();
  const renewId = params.get('renew');
  // "Mit Webhosting nutzen" on a domain's page: the package's own domain, prefilled.
  const ownDomain = params.get('domain')?.trim().slice(0, 253) || null;
  const prefill = useMemo(() => prefillFrom(params), [params]);
  const { token } = useSession();
  const info = useHostingShopInfo();
  const renewal = useHostingRenewal(renewId && token ? renewId : null);
  if (renewId && !token) return <Navigate to={paths.login} replace />;
  // A new order's form shows at once (it is in the prerendered page): until the offer has loaded, the
  // subdomain base is the configured one and the order counts as possible; the server decides at checkout.
  const loading = renewId !== null && (info.isPending || renewal.isPending);
  const renewing = renewal.data?.renewal ?? null;
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <PageMeta title={renewId ? 'Webhosting verlängern' : 'Webhosting bestellen'} description="Webhosting mit PHP, MySQL, SSL und Backups: Tarif wählen, eigene Domain oder kostenlose Subdomain, online bestellen." />
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Webhosting</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{renewId ? 'Webhosting verlängern' : 'Webhosting bestellen'}</h1>
      <p className="mt-3 max-w-2xl text-slate-600">
        {renewing
          ? <>Paket <span className="font-semibold text-slate-900">{renewing.name}</span> (Tarif {HOSTING_PLANS[renewing.plan].name}) um die gewählte Laufzeit verlängern; die Laufzeit schließt an das bisherige Ende an.</>
          : 'PHP, MySQL, FTP, kostenloses SSL-Zertifikat und automatische Backups. Nach der Zahlung wird Ihr Paket automatisch eingerichtet.'}
      </p>
      <div className="mt-8">
        {loading ? <Spinner label="Lade Angebot …" />
          : info.isError || (renewId && renewal.isError) ? <Alert tone="error">{renewal.error instanceof ApiRequestError ? renewal.error.message : 'Das Angebot konnte nicht geladen werden. Bitte laden Sie die Seite neu.'}</Alert>
            // Its own Suspense boundary, which React hydrates in a pass of its own (decision 040): react-hook-form
            // renders the form again synchronously when it mounts, and React first runs every pending effect of
            // the page; outside the boundary, the page's effects have already run in a task of their own.
            : <Suspense fallback={null}><OrderForm key={params.toString()} subdomainBase={info.data?.subdomainBase ?? __HOSTING_SUBDOMAIN_BASE__} available={info.data?.available !== false || renewing !== null} renewal={renewing} ownDomain={ownDomain} prefill={prefill} /></Suspense>}
      </div>
    </div>
  );
}

interface Prefill { plan?: HostingPlanId; months?: number; subdomain?: string }

/** "Neu konfigurieren" after a payment (?plan=&months=&subdomain=): anything not valid keeps its default. */
function prefillFrom(params: URLSearchParams): Prefill {
  const plan = params.get('plan');
  const months = Number(params.get('months'));
  const subdomain = params.get('subdomain')?.trim().slice(0, 63);
  return {
    ...((HOSTING_PLAN_IDS as readonly string[]).includes(plan ?? '') ? { plan: plan as HostingPlanId } : {}),
    ...(Number.isInteger(months) && months >= HOSTING_MONTHS.min && months <= HOSTING_MONTHS.max ? { months } : {}),
    ...(subdomain ? { subdomain } : {}),
  };
}

/**
 * Memoised: the offer's arrival renders the page again, and with the same base and availability (the usual
 * case) the form, the costliest part of the page, is left as it is.
 */
const OrderForm = memo(function OrderForm({ subdomainBase, available, renewal, ownDomain = null, prefill = {} }: { subdomainBase: string; available: boolean; renewal: { packageId: string; plan: HostingPlanId; primaryDomain: string } | null; ownDomain?: string | null; prefill?: Prefill }) {
  const checkout = useHostingCheckout();
  const { pay, invalid, loginNeeded, redirecting } = useCheckoutRedirect('Bitte melden Sie sich an, um Webhosting zu bestellen.');
  const packageId = renewal?.packageId ?? null;
  const { register, handleSubmit, control, setValue, formState } = useSchemaForm<Values, unknown, HostingCheckoutInput>({
    resolver: resolverFor(packageId),
    defaultValues: {
      plan: renewal?.plan ?? prefill.plan ?? 'professional', months: prefill.months ?? 1, domainType: ownDomain ? 'own' : 'subdomain',
      subdomain: prefill.subdomain ?? '', domain: ownDomain ?? '', acceptTerms: false,
    },
  });
  const v = useWatch({ control }) as Values;
  const total = hostingPriceCents({ plan: v.plan, months: v.months });
  const taxState = useTaxView();
  const tax = taxState.view;
  const money = (listGrossCents: number) => shownMoney(listGrossCents, taxState);
  const discount = durationDiscountPercent(v.months);
  const plan = HOSTING_PLANS[v.plan];
  const domainLabel = renewal ? renewal.primaryDomain : v.domainType === 'subdomain' ? `${v.subdomain || 'ihr-name'}.${subdomainBase}` : v.domain || '–';

  const order = handleSubmit((input) => pay(() => checkout.mutateAsync(input)), invalid);
  const busy = checkout.isPending || redirecting;
  const termsError = formState.errors.acceptTerms ? shopMessages.termsRequired : undefined;
  const domainError = formState.errors.domain?.message ?? formState.errors.subdomain?.message;

  return (
    <form onSubmit={order} noValidate>
      {/* The form is in the prerendered page: until React owns it, a choice would be reset by hydration and
          "Jetzt bestellen" would send the bare HTML form, so it stays disabled until then. */}
      <HydratedFieldset className="grid min-w-0 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_24rem]">
      <div className="min-w-0 space-y-6">
        {!available && <Alert tone="error">Derzeit ist auf unseren Hosting-Servern kein Platz frei. Bitte versuchen Sie es später erneut oder kontaktieren Sie den Support.</Alert>}
        <ShopSection title="Tarif" icon={Zap}>
          <fieldset disabled={renewal !== null}>
            <legend className="sr-only">Tarif wählen</legend>
            <div className="grid gap-3 md:grid-cols-3">
              {HOSTING_PLAN_IDS.map((id) => {
                const p = HOSTING_PLANS[id];
                const checked = v.plan === id;
                return (
                  <label key={id} className={cn('relative flex cursor-pointer flex-col rounded-xl border-2 p-4 transition focus-within:ring-2 focus-within:ring-brand-300', checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white hover:border-slate-300', renewal && !checked && 'opacity-50')}>
                    <input type="radio" value={id} className="sr-only" {...register('plan')} />
                    <span className="flex items-center justify-between">
                      <span className="text-lg font-semibold text-slate-900">{p.name}</span>
                      {checked && <Check className="size-5 text-brand-700" aria-hidden="true" />}
                    </span>
                    <span className="mt-1 text-2xl font-bold tabular-nums text-slate-900">{money(p.monthlyCents)}<span className="text-sm font-normal text-slate-600"> / Monat</span></span>
                    {tax && <TaxLabel tax={tax} className="text-xs text-slate-600" />}
                    <ul className="mt-3 space-y-1 text-sm text-slate-700">
                      <li>{mb(p.storageMb)} Speicher</li>
                      <li>{mb(p.trafficMb)} Traffic</li>
                      <li>{p.databases} {p.databases === 1 ? 'Datenbank' : 'Datenbanken'}</li>
                      <li>{p.domains} {p.domains === 1 ? 'Domain' : 'Domains'}</li>
                      <li>PHP {p.phpVersions[0]}–{p.phpVersions.at(-1)}</li>
                    </ul>
                  </label>
                );
              })}
            </div>
            {renewal && <p className="mt-3 text-sm text-slate-600">Bei einer Verlängerung bleibt der Tarif erhalten.</p>}
          </fieldset>
        </ShopSection>
        {!renewal && (
          <ShopSection title="Domain" icon={Globe}>
            <fieldset>
              <legend className="text-sm font-medium text-slate-800">Welche Domain soll Ihr Paket nutzen?</legend>
              <div className="mt-2 grid gap-3 sm:grid-cols-2">
                <Choice checked={v.domainType === 'subdomain'} title="Kostenlose Subdomain" text={`ihr-name.${subdomainBase}`}>
                  <input type="radio" value="subdomain" className="sr-only" {...register('domainType')} />
                </Choice>
                <Choice checked={v.domainType === 'own'} title="Eigene Domain" text="Sie richten den DNS-Eintrag auf unseren Server.">
                  <input type="radio" value="own" className="sr-only" {...register('domainType')} />
                </Choice>
              </div>
            </fieldset>
            <div className="mt-4">
              {v.domainType === 'subdomain' ? (
                <Field label="Subdomain" autoComplete="off" placeholder="meine-firma" hint={<>Ihre Website: <span className="break-all font-medium text-slate-800">{`${v.subdomain || 'ihr-name'}.${subdomainBase}`}</span></>} error={domainError} {...register('subdomain')} />
              ) : (
                <Field label="Ihre Domain" autoComplete="off" placeholder="meine-firma.de" hint={<>Umlaute sind erlaubt (z. B. müller.de). Noch keine Domain? <Link to={paths.domain} className="font-medium text-brand-700 underline">Domain bei uns registrieren</Link></>} error={domainError} {...register('domain')} />
              )}
            </div>
          </ShopSection>
        )}
        <ShopSection title="Laufzeit" icon={Tag}>
          <label htmlFor="hosting-months" className="flex items-center justify-between text-sm font-medium text-slate-800">
            <span>Laufzeit (Monate)</span><span className="tabular-nums text-slate-900">{v.months} {v.months === 1 ? 'Monat' : 'Monate'}</span>
          </label>
          <input id="hosting-months" type="range" min={HOSTING_MONTHS.min} max={HOSTING_MONTHS.max} step={1} className="mt-3 w-full accent-brand-600" aria-valuetext={`${v.months} ${v.months === 1 ? 'Monat' : 'Monate'}`} {...register('months', { valueAsNumber: true })} />
          <p className="mt-2 text-sm text-slate-600">Laufzeitrabatt: 5 % ab 3 Monaten, 10 % ab 6 Monaten, 15 % ab 9 Monaten.</p>
          <div className="mt-3 flex flex-wrap gap-2">
            {[1, 3, 6, 12].map((n) => (
              <button key={n} type="button" onClick={() => setValue('months', n)} className={cn('rounded-full border px-3 py-1 text-sm', v.months === n ? 'border-brand-600 bg-brand-50 text-brand-800' : 'border-slate-300 text-slate-700 hover:border-slate-400')}>{n} {n === 1 ? 'Monat' : 'Monate'}</button>
            ))}
          </div>
        </ShopSection>
      </div>
      <Card className="p-5 sm:p-6 lg:sticky lg:top-6">
        <h2 className="text-lg font-semibold text-slate-900">Zusammenfassung</h2>
        <dl className="mt-4 divide-y divide-slate-100 text-sm">
          <Row icon={Zap} label="Tarif" value={`Webhosting ${plan.name}`} />
          <Row icon={Globe} label="Domain" value={domainLabel} />
          <Row icon={HardDrive} label="Speicher / Traffic" value={`${mb(plan.storageMb)} / ${mb(plan.trafficMb)}`} />
          <Row icon={Database} label="Datenbanken" value={String(plan.databases)} />
          <Row icon={Tag} label="Laufzeit" value={`${v.months} ${v.months === 1 ? 'Monat' : 'Monate'}`} />
        </dl>
        <CheckoutTotal id="hosting" totalCents={total} months={v.months} taxState={taxState} discountPercent={discount} />
        <TermsConsent id="hosting" error={termsError} field={register('acceptTerms')} />
        {loginNeeded && <LoginHint text="Bitte melden Sie sich an, um Webhosting zu bestellen." className="mt-4" />}
        <TaxExplanation explanation={tax?.explanation} />
        <Button type="submit" size="lg" className="mt-5 w-full" loading={busy} disabled={!available}>
          {!busy && <ShoppingCart className="size-5" aria-hidden="true" />}
          {redirecting ? 'Weiter zur Zahlung …' : renewal ? 'Jetzt verlängern' : 'Jetzt bestellen'}
        </Button>
        <p className="mt-3 text-center text-xs text-slate-600">Sie werden zur sicheren Zahlungsseite unseres Zahlungsanbieters weitergeleitet.</p>
      </Card>
    </HydratedFieldset>
    </form>
  );
});


function Choice({ checked, title, text, children }: { checked: boolean; title: string; text: string; children: ReactNode }) {
  return (
    <label className={cn('flex cursor-pointer flex-col rounded-xl border-2 p-4 focus-within:ring-2 focus-within:ring-brand-300', checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white hover:border-slate-300')}>
      {children}
      <span className="font-semibold text-slate-900">{title}</span>
      <span className="mt-1 break-words text-sm text-slate-600">{text}</span>
    </label>
  );
}

function Row({ icon: Icon, label, value }: { icon: typeof Zap; label: string; value: string }) {
  return (
    <div className="flex items-start justify-between gap-3 py-2">
      <dt className="flex items-center gap-2 text-slate-600"><Icon className="size-4" aria-hidden="true" />{label}</dt>
      <dd className="min-w-0 break-all text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
}

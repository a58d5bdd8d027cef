import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { CalendarClock, Globe, KeyRound, LogIn, Server, ShoppingCart, Tag } from 'lucide-react';
import {
  DOMAIN_AVAILABILITY_LABEL, DomainCheckoutInput, PROVIDER_DNS_LABEL, PROVIDER_NAMESERVERS, formatEuro, shopMessages,
  type DomainDetail, type DomainQuote,
} from '@hp/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Field, inputClass } from '../../../components/ui/field.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { useSession } from '../../../lib/session.ts';
import { useTaxView, type TaxViewState } from '../../../lib/use-tax-view.ts';
import { shownCents, TaxExplanation, TaxLabel, TaxNotes, taxSentence, taxTexts } from '../../../components/billing/tax-price.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../config/paths.ts';
import { useDomainCheckout, useDomainQuote } from '../api/domain-shop.ts';
import { useMyDomain } from '../api/my-domains.ts';
import { Choice } from './domain-status.tsx';
import { NameserverInputs } from './nameserver-inputs.tsx';

const TOAST_MS = 7000;
const berlinDate = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' });
const yearsText = (n: number) => `${n} ${n === 1 ? 'Jahr' : 'Jahre'}`;
const errorText = (err: unknown) => (err instanceof ApiRequestError && (err.status < 500 || err.status === 503) ? err.message : shopMessages.genericError);

/**
 * /shop/domain (issue 13, decision 024): ?domain=&action=register|transfer orders a name found on
 * /domain; ?renew={id} renews one's own domain. The server checks the name with the registrar again,
 * computes the price and refuses in German; this page shows what it will do before the payment.
 */
export default function DomainShopPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const { token } = useSession();
  const renewId = params.get('renew');
  const domain = params.get('domain')?.trim() || null;
  const action = params.get('action') === 'transfer' ? 'transfer' : 'register';
  const title = renewId ? 'Domain verlängern' : action === 'transfer' ? 'Domain übertragen' : 'Domain registrieren';
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <PageMeta title={title} description="Domain registrieren oder zu uns übertragen: Verfügbarkeit, Preis pro Jahr und Nameserver vor der Zahlung." />
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Domains</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      <div className="mt-8">
        {!token ? <LoginFirst next={`${location.pathname}${location.search}`} />
          : renewId ? <RenewLoader id={renewId} />
            : domain ? <QuoteLoader domain={domain} action={action} />
              : <Alert tone="info">Bitte suchen Sie zuerst auf der <Link to={paths.domain} className="font-semibold underline">Domain-Seite</Link> nach Ihrem Wunschnamen.</Alert>}
      </div>
    </div>
  );
}

function LoginFirst({ next }: { next: string }) {
  return (
    <Card className="max-w-xl p-6">
      <h2 className="text-lg font-semibold text-slate-900">Bitte melden Sie sich an</h2>
      <p className="mt-2 text-slate-600">Domains bestellen Sie mit Ihrem Kundenkonto: Die Vergabestelle braucht Ihren Namen und Ihre Anschrift als Inhaber.</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to={`${paths.login}?next=${encodeURIComponent(next)}`} className={buttonClass('primary')}><LogIn className="size-4" aria-hidden="true" /> Zum Login</Link>
        <Link to={paths.register} className={buttonClass('outline')}>Konto erstellen</Link>
      </div>
    </Card>
  );
}

function QuoteLoader({ domain, action }: { domain: string; action: 'register' | 'transfer' }) {
  const quote = useDomainQuote(domain, action);
  if (quote.isPending) return <Spinner label="Die Domain wird bei der Vergabestelle geprüft …" />;
  if (quote.isError) {
    return (
      <Alert tone="error">
        {errorText(quote.error)} <Link to={paths.domain} className="font-semibold underline">Zur Domainsuche</Link>
      </Alert>
    );
  }
  return <OrderForm quote={quote.data} action={action} />;
}

function RenewLoader({ id }: { id: string }) {
  const detail = useMyDomain(id);
  if (detail.isPending) return <Spinner label="Lade Domain …" />;
  if (detail.isError) return <Alert tone="error">{errorText(detail.error)}</Alert>;
  return <RenewForm detail={detail.data} />;
}

/** Checkout, redirect to the payment page, German errors (shared by order and renewal). */
function useCheckout() {
  const checkout = useDomainCheckout();
  const [redirecting, setRedirecting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busyRef = useRef(false);
  const submit = async (input: DomainCheckoutInput) => {
    if (busyRef.current) return;
    busyRef.current = true;
    setError(null);
    try {
      const res = await checkout.mutateAsync(input);
      setRedirecting(true);
      window.location.assign(res.url);
    } catch (err) {
      busyRef.current = false;
      const message = errorText(err);
      setError(message);
      toast.error(message, { duration: TOAST_MS });
    }
  };
  return { submit, busy: checkout.isPending || redirecting, redirecting, error, setError };
}

function OrderForm({ quote, action }: { quote: DomainQuote; action: 'register' | 'transfer' }) {
  const ids = { years: useId(), auth: useId(), terms: useId(), ns: useId() };
  const [years, setYears] = useState(quote.years.min);
  const [authCode, setAuthCode] = useState('');
  const [dns, setDns] = useState<'provider' | 'own'>('provider');
  const [nameservers, setNameservers] = useState(['', '', '', '']);
  const [accept, setAccept] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const { submit, busy, redirecting, error } = useCheckout();
  const transfer = action === 'transfer';
  const missing = quote.missingProfile.length > 0;
  const orderable = !missing && !quote.blocked && quote.yearCents !== null;
  const paidYears = transfer ? 1 : years;
  const total = (quote.yearCents ?? 0) * paidYears;
  const taxState = useTaxView();
  const showName = quote.unicode !== quote.domain ? `${quote.unicode} (${quote.domain})` : quote.domain;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const ownList = nameservers.map((n) => n.trim()).filter(Boolean);
    const input = {
      domain: quote.domain, action, years: paidYears, acceptTerms: accept,
      ...(transfer && authCode.trim() ? { authCode: authCode.trim() } : {}),
      ...(dns === 'own' ? { nameservers: ownList } : {}),
    };
    const parsed = DomainCheckoutInput.safeParse(input);
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
      if (errors.acceptTerms) errors.acceptTerms = shopMessages.termsRequired;
      setFieldErrors(errors);
      toast.error(Object.values(errors)[0] ?? shopMessages.genericError, { duration: TOAST_MS });
      return;
    }
    setFieldErrors({});
    await submit(parsed.data);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="min-w-0 space-y-6">
        <Card className="p-5 sm:p-6">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Globe className="size-5 text-brand-700" aria-hidden="true" /> Domain</h2>
          <p className="mt-3 break-all text-2xl font-bold text-slate-900">{showName}</p>
          <p className="mt-1 text-sm text-slate-600">
            Status bei der Vergabestelle: <span className="font-medium text-slate-900">{DOMAIN_AVAILABILITY_LABEL[quote.status]}</span>
            {quote.premium && ' – eine Premium-Domain mit eigenem Jahrespreis der Vergabestelle'}
          </p>
          {quote.reason && <p className="mt-2 text-sm text-red-700">{quote.reason}</p>}
        </Card>

        {missing && (
          <Alert tone="warning">
            <p className="font-semibold">Für die Registrierung fehlen Angaben in Ihrem Profil:</p>
            <ul className="mt-1 list-disc pl-5">{quote.missingProfile.map((f) => <li key={f}>{f}</li>)}</ul>
            <p className="mt-2">Die Vergabestelle führt Sie mit diesen Angaben als Inhaber. <Link to={paths.dashboard.profile} className="font-semibold underline">Profil ergänzen</Link> und danach diese Seite neu laden.</p>
          </Alert>
        )}
        {quote.blocked && <Alert tone="error">{quote.blocked} <Link to={paths.domain} className="font-semibold underline">Andere Domain suchen</Link></Alert>}

        {orderable && (
          <>
            <Card className="p-5 sm:p-6">
              <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900"><CalendarClock className="size-5 text-brand-700" aria-hidden="true" /> Laufzeit</h2>
              {transfer ? (
                <p className="mt-3 text-sm text-slate-700">Ein Transfer verlängert die Domain um ein Jahr; die bisherige Laufzeit bleibt erhalten.</p>
              ) : (
                <div className="mt-3 max-w-xs">
                  <label htmlFor={ids.years} className="block text-sm font-medium text-slate-800">Laufzeit</label>
                  <select id={ids.years} value={years} onChange={(e) => setYears(Number(e.target.value))} className={cn(inputClass, 'mt-1')}>
                    {Array.from({ length: quote.years.max - quote.years.min + 1 }, (_, i) => quote.years.min + i).map((n) => <option key={n} value={n}>{yearsText(n)}</option>)}
                  </select>
                </div>
              )}
            </Card>

            {transfer && (
              <Card className="p-5 sm:p-6">
                <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900"><KeyRound className="size-5 text-brand-700" aria-hidden="true" /> Auth-Code</h2>
                <div className="mt-3">
                  <Field id={ids.auth} label="Auth-Code vom bisherigen Anbieter" autoComplete="off" spellCheck={false} value={authCode} onChange={(e) => { setAuthCode(e.target.value); setFieldErrors(({ authCode: _fixed, ...rest }) => rest); }}
                    hint="Den Code (auch AuthInfo oder Transfer-Code) erhalten Sie bei Ihrem bisherigen Anbieter. Die Transfersperre dort muss aus sein." error={fieldErrors.authCode} />
                </div>
              </Card>
            )}

            <Card className="p-5 sm:p-6">
              <fieldset>
                <legend className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Server className="size-5 text-brand-700" aria-hidden="true" /> Nameserver</legend>
                <div className="mt-3 grid gap-3 sm:grid-cols-2">
                  <Choice checked={dns === 'provider'} title={PROVIDER_DNS_LABEL} text={PROVIDER_NAMESERVERS.join(', ')}>
                    <input type="radio" name="dns" value="provider" checked={dns === 'provider'} onChange={() => setDns('provider')} className="sr-only" />
                  </Choice>
                  <Choice checked={dns === 'own'} title="Eigene Nameserver" text="Zwei bis vier Nameserver, z. B. Ihres DNS-Anbieters.">
                    <input type="radio" name="dns" value="own" checked={dns === 'own'} onChange={() => setDns('own')} className="sr-only" />
                  </Choice>
                </div>
                {dns === 'own' && <NameserverInputs idPrefix={ids.ns} values={nameservers} onChange={setNameservers} error={fieldErrors.nameservers} />}
              </fieldset>
            </Card>
          </>
        )}
      </div>

      <Card className="p-5 sm:p-6 lg:sticky lg:top-6">
        <h2 className="text-lg font-semibold text-slate-900">Zusammenfassung</h2>
        <dl className="mt-4 divide-y divide-slate-100 text-sm">
          <Row label="Domain" value={quote.unicode} />
          <Row label="Auftrag" value={transfer ? 'Transfer zu uns' : 'Registrierung'} />
          <Row label="Laufzeit" value={yearsText(paidYears)} />
          <Row label="Preis pro Jahr" value={quote.yearCents === null ? '–' : yearPrice(quote.yearCents, taxState)} />
        </dl>
        <Total cents={total} label={`für ${yearsText(paidYears)}`} taxState={taxState} />
        {orderable && <Terms id={ids.terms} checked={accept} error={fieldErrors.acceptTerms} onChange={(v) => {
          setAccept(v);
          if (v) setFieldErrors(({ acceptTerms: _done, ...rest }) => rest);
        }} />}
        {orderable && <TaxExplanation explanation={taxState.view?.explanation} />}
        {error && <Alert tone="error" className="mt-4">{error}</Alert>}
        <Button type="submit" size="lg" className="mt-5 w-full" loading={busy} disabled={!orderable}>
          {!busy && <ShoppingCart className="size-5" aria-hidden="true" />}
          {redirecting ? 'Weiter zur Zahlung …' : 'Jetzt bestellen'}
        </Button>
        <p className="mt-3 text-center text-xs text-slate-600">Sie werden zur sicheren Zahlungsseite unseres Zahlungsanbieters weitergeleitet. Lehnt die Vergabestelle den Auftrag ab, erstatten wir die Zahlung automatisch.</p>
      </Card>
    </form>
  );
}

function RenewForm({ detail }: { detail: DomainDetail }) {
  const ids = { years: useId(), terms: useId() };
  const [years, setYears] = useState(1);
  const [accept, setAccept] = useState(false);
  const [termsError, setTermsError] = useState<string | undefined>();
  const { submit, busy, redirecting, error } = useCheckout();
  const taxState = useTaxView();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!accept) {
      setTermsError(shopMessages.termsRequired);
      toast.error(shopMessages.termsRequired, { duration: TOAST_MS });
      return;
    }
    setTermsError(undefined);
    await submit({ domainId: detail.id, action: 'renew', years, acceptTerms: true });
  };
  return (
    <form onSubmit={onSubmit} noValidate className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Card className="min-w-0 p-5 sm:p-6">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Globe className="size-5 text-brand-700" aria-hidden="true" /> {detail.unicode}</h2>
        <p className="mt-2 text-sm text-slate-700">
          {detail.expiresAt ? <>Bezahlt bis <span className="font-semibold">{berlinDate.format(new Date(detail.expiresAt))}</span>. Die Verlängerung schließt daran an.</> : 'Noch ohne Ablaufdatum.'}
          {detail.renewableUntil && <> Die Domain ist abgelaufen und kann bis {berlinDate.format(new Date(detail.renewableUntil))} verlängert werden.</>}
        </p>
        {!detail.renewable && <Alert tone="warning" className="mt-4">Diese Domain kann derzeit nicht verlängert werden (Registrierung, Transfer oder eine Verlängerung läuft noch).</Alert>}
        <div className="mt-4 max-w-xs">
          <label htmlFor={ids.years} className="block text-sm font-medium text-slate-800">Verlängern um</label>
          <select id={ids.years} value={years} onChange={(e) => setYears(Number(e.target.value))} className={cn(inputClass, 'mt-1')}>
            {Array.from({ length: 10 }, (_, i) => i + 1).map((n) => <option key={n} value={n}>{yearsText(n)}</option>)}
          </select>
        </div>
      </Card>
      <Card className="p-5 sm:p-6 lg:sticky lg:top-6">
        <h2 className="text-lg font-semibold text-slate-900">Zusammenfassung</h2>
        <dl className="mt-4 divide-y divide-slate-100 text-sm">
          <Row label="Domain" value={detail.unicode} />
          <Row label="Auftrag" value="Verlängerung" />
          <Row label="Preis pro Jahr" value={yearPrice(detail.yearCents, taxState)} />
        </dl>
        <Total cents={detail.yearCents * years} label={`für ${yearsText(years)}`} taxState={taxState} />
        <Terms id={ids.terms} checked={accept} error={termsError} onChange={(v) => {
          setAccept(v);
          if (v) setTermsError(undefined);
        }} />
        <TaxExplanation explanation={taxState.view?.explanation} />
        {error && <Alert tone="error" className="mt-4">{error}</Alert>}
        <Button type="submit" size="lg" className="mt-5 w-full" loading={busy} disabled={!detail.renewable}>
          {!busy && <ShoppingCart className="size-5" aria-hidden="true" />}
          {redirecting ? 'Weiter zur Zahlung …' : 'Jetzt verlängern'}
        </Button>
      </Card>
    </form>
  );
}


/** A year's list price (German gross) as this customer sees it, with its tax label. */
const yearPrice = (listGrossCents: number, { view }: TaxViewState) => (view ? `${formatEuro(shownCents(listGrossCents, view))} ${view.priceLabel}` : '…');

/** `cents` is the German gross list price of the whole term; the server charges what the tax view makes of it. */
function Total({ cents, label, taxState }: { cents: number; label: string; taxState: TaxViewState }) {
  const id = useId();
  const tax = taxState.view;
  return (
    <div className="mt-5 rounded-lg bg-slate-50 p-4">
      <p id={id} className="text-sm font-medium text-slate-700">Gesamtpreis</p>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-2">
        <output aria-live="polite" aria-labelledby={id} aria-busy={tax ? undefined : true} className="text-3xl font-bold tabular-nums text-slate-900">{tax ? formatEuro(shownCents(cents, tax)) : '…'}</output>
        <span className="text-sm text-slate-600">{label}</span>
      </p>
      {tax && <p className="mt-1"><TaxLabel tax={tax} className="text-sm font-medium text-slate-700" /></p>}
      {tax ? <p className="mt-2 text-xs text-slate-600">{taxSentence(cents, tax)} Zahlbar im Voraus.</p> : <p className="mt-2 text-xs text-slate-600" role="status">{taxTexts.loading}</p>}
      {tax && <TaxNotes state={taxState} />}
    </div>
  );
}

function Terms({ id, checked, onChange, error }: { id: string; checked: boolean; onChange: (v: boolean) => void; error?: string }) {
  return (
    <div className="mt-5">
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} className="mt-0.5 size-5 shrink-0 cursor-pointer rounded accent-brand-600"
          aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
        <span>Ich akzeptiere die <Link to={paths.terms} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">AGB</Link> und <Link to={paths.privacy} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">Datenschutzbestimmungen</Link></span>
      </label>
      {error && <p id={`${id}-error`} role="alert" className="mt-2 text-sm font-medium text-red-700">{error}</p>}
    </div>
  );
}


function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-start justify-between gap-3 py-2">
      <dt className="flex items-center gap-2 text-slate-600"><Tag className="size-4" aria-hidden="true" />{label}</dt>
      <dd className="min-w-0 break-all text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
}

import { Suspense, useEffect, useId, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { Navigate } from 'react-router';
import { CalendarClock, Check, Cloud, HardDrive, ShoppingCart, Tag, User, Zap, type LucideIcon } from 'lucide-react';
import {
  durationDiscountPercent, GIB, shopMessages, STORAGE_MONTHS, STORAGE_PLAN_IDS, STORAGE_PLANS, StorageAccountName,
  StorageCheckoutInput, storagePriceCents, storageUpgradeCents, type StoragePlanId, type StorageShopInfo,
} from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { TaxExplanation, TaxLabel } from '../../../components/billing/tax-price.tsx';
import { useSession } from '../../../lib/session.ts';
import { useHydratedSearchParams } from '../../../lib/use-hydrated.ts';
import { HydratedFieldset } from '../../../components/hydrated-fieldset.tsx';
import { CheckoutTotal, LoginHint, shownMoney, TermsConsent } from '../../../components/shop/checkout-summary.tsx';
import { useCheckoutRedirect } from '../../../components/shop/use-checkout-redirect.ts';
import { useTaxView } from '../../../lib/use-tax-view.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { inputResolver, useSchemaForm } from '../../../lib/forms.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../config/paths.ts';
import { useStorageCheckout, useStorageNameCheck, useStorageRenewal, useStorageShopInfo } from '../api/storage-shop.ts';
import { formatBytes, formatDate, formatQuotaGb } from './format.ts';

type Renewal = NonNullable<StorageShopInfo['renewal']>;

interface Values {
  plan: StoragePlanId;
  months: number;
  accountName: string;
  acceptTerms: boolean;
}

export const NAME_CHECK_DELAY_MS = 400;
const monthsText = (n: number) => `${n} ${n === 1 ? 'Monat' : 'Monate'}`;
export const renewalNote = 'Der neue Tarif gilt ab Zahlungseingang; die Laufzeit verlängert sich ab dem aktuellen Ende. Ein größerer Tarif kostet für die restliche bisherige Laufzeit den Unterschied; ein kleinerer Tarif gilt ebenfalls sofort, ohne Gutschrift für die restliche Laufzeit.';

/** Exactly the contract's fields: a new account sends its name, a renewal the account's id. */
function toInput(v: Values, storageId: string | null) {
  return { plan: v.plan, months: v.months, acceptTerms: v.acceptTerms, ...(storageId ? { storageId } : { accountName: v.accountName }) };
}
const resolverFor = (storageId: string | null) => inputResolver(StorageCheckoutInput, (v: Values) => toInput(v, storageId));

/**
 * /shop/cloud-storage (issue 23): plan, term and account name for a new Nextcloud account, or with
 * ?renew={id} a renewal of one's own account that may change the plan among those its files fit in.
 */
export default function StorageShopPage() {
  // The prerendered page knows no query string: ?renew applies once React owns the page, so hydration
  // meets the HTML it was rendered from.
  const renewId = useHydratedSearchParams().get('renew');
  const { token } = useSession();
  const info = useStorageShopInfo();
  const renewal = useStorageRenewal(renewId && token ? renewId : null);
  if (renewId && !token) return <Navigate to={paths.login} replace />;
  // A new order's form shows at once (it is in the prerendered page): until the offer has loaded, every
  // plan counts as available; the server decides at checkout, and a plan found booked out is deselected.
  const loading = renewId !== null && (info.isPending || renewal.isPending);
  const renewing = renewal.data?.renewal ?? null;
  const title = renewId ? 'Cloud-Speicher verlängern' : 'Cloud-Speicher bestellen';
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <PageMeta title={title} description="Cloud-Speicher von 100 GB bis 10 TB mit Nextcloud: im Browser, mit den Desktop- und Mobil-Apps und als Netzlaufwerk über WebDAV. Tarif wählen und online bestellen." />
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Cloud-Speicher</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      <p className="mt-3 max-w-2xl text-slate-600">
        {renewing
          ? <>Konto <span className="font-semibold text-slate-900">{renewing.accountName}</span> (Tarif {STORAGE_PLANS[renewing.plan].name}) verlängern und auf Wunsch den Tarif wechseln.</>
          : renewId ? 'Verlängern Sie Ihren Cloud-Speicher und wechseln Sie auf Wunsch den Tarif.'
            : 'Ihr eigenes Nextcloud-Konto: Dateien im Browser, mit den Desktop- und Mobil-Apps synchronisieren oder als Netzlaufwerk einbinden. Nach der Zahlung wird Ihr Konto automatisch eingerichtet.'}
      </p>
      <div className="mt-8">
        {loading ? <Spinner label="Lade Angebot …" />
          : info.isError || (renewId && renewal.isError)
            ? <Alert tone="error">{renewal.error instanceof ApiRequestError ? renewal.error.message : 'Das Angebot konnte nicht geladen werden. Bitte laden Sie die Seite neu.'}</Alert>
            // Hydrated in a pass of its own, like the web hosting shop's form (decision 040).
            : <Suspense fallback={null}><OrderForm available={info.data?.available ?? STORAGE_PLAN_IDS} renewal={renewing} /></Suspense>}
      </div>
    </div>
  );
}

/** Which plans can be chosen, and why the others cannot. */
function planChoices(available: readonly StoragePlanId[], renewal: Renewal | null) {
  return STORAGE_PLAN_IDS.map((id) => {
    if (renewal) {
      if (renewal.allowedPlans.includes(id)) return { id, disabledReason: null };
      const tooSmall = renewal.usedBytes !== null && STORAGE_PLANS[id].quotaGb * GIB < renewal.usedBytes;
      return { id, disabledReason: tooSmall ? 'zu klein für Ihre Dateien' : 'derzeit ausgebucht' };
    }
    return { id, disabledReason: available.includes(id) ? null : 'derzeit ausgebucht' };
  });
}

function OrderForm({ available, renewal }: { available: readonly StoragePlanId[]; renewal: Renewal | null }) {
  const { token } = useSession();
  const checkout = useStorageCheckout();
  const { pay, invalid, loginNeeded, redirecting } = useCheckoutRedirect('Bitte melden Sie sich an, um Cloud-Speicher zu bestellen.');
  const storageId = renewal?.storageId ?? null;
  const choices = planChoices(available, renewal);
  const selectable = choices.filter((c) => c.disabledReason === null).map((c) => c.id);
  const defaultPlan = renewal && selectable.includes(renewal.plan) ? renewal.plan : selectable[0] ?? STORAGE_PLAN_IDS[0];
  const { register, handleSubmit, control, setValue, formState } = useSchemaForm<Values, unknown, StorageCheckoutInput>({
    resolver: resolverFor(storageId),
    defaultValues: { plan: defaultPlan, months: 1, accountName: '', acceptTerms: false },
  });
  const v = useWatch({ control }) as Values;
  // The offer arrived and the chosen plan is booked out: the first one that can be ordered instead.
  const firstSelectable = selectable[0];
  const chosenSelectable = selectable.includes(v.plan);
  useEffect(() => {
    if (!chosenSelectable && firstSelectable) setValue('plan', firstSelectable);
  }, [chosenSelectable, firstSelectable, setValue]);
  const nameCheck = useNameCheck(renewal ? '' : v.accountName, token !== null);
  const taxState = useTaxView();
  const tax = taxState.view;
  const money = (listGrossCents: number) => shownMoney(listGrossCents, taxState);
  // A larger plan costs the difference for the rest of the current term (decision 034).
  const upgradeCents = renewal ? storageUpgradeCents(renewal.plan, v.plan, renewal.remainingDays) : 0;
  const total = storagePriceCents({ plan: v.plan, months: v.months }) + upgradeCents;
  const discount = durationDiscountPercent(v.months);
  const plan = STORAGE_PLANS[v.plan];
  const canOrder = selectable.length > 0;

  const order = handleSubmit((input) => pay(() => checkout.mutateAsync(input), nameCheck.message), invalid);
  const busy = checkout.isPending || redirecting;
  const termsError = formState.errors.acceptTerms ? shopMessages.termsRequired : undefined;
  const nameError = formState.errors.accountName?.message ?? nameCheck.message ?? undefined;

  return (
    <form onSubmit={order} noValidate>
      {/* The form is in the prerendered page: until React owns it, a choice would be reset by hydration and
          "Zur Kasse" would send the bare HTML form, so it stays disabled until then. */}
      <HydratedFieldset className="grid min-w-0 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_24rem]">
      <div className="min-w-0 space-y-6">
        {!canOrder && <Alert tone="error">Derzeit ist auf unseren Speicherservern kein Platz frei. Bitte versuchen Sie es später erneut oder kontaktieren Sie den Support.</Alert>}
        {renewal && (
          <Alert tone="info">
            <p>Aktueller Tarif: <span className="font-semibold">{STORAGE_PLANS[renewal.plan].name}</span>, läuft bis {formatDate(renewal.expiresAt)}
              {renewal.usedBytes !== null && <>, belegt: {formatBytes(renewal.usedBytes)}</>}.</p>
            <p className="mt-1">{renewalNote}</p>
          </Alert>
        )}
        <Section title="Tarif" icon={Zap}>
          <fieldset>
            <legend className="sr-only">Tarif wählen</legend>
            <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
              {choices.map(({ id, disabledReason }) => {
                const p = STORAGE_PLANS[id];
                const checked = v.plan === id;
                const disabled = disabledReason !== null;
                return (
                  <label key={id} className={cn('relative flex flex-col rounded-xl border-2 p-4 transition focus-within:ring-2 focus-within:ring-brand-300',
                    checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white', disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer hover:border-slate-300')}>
                    <input type="radio" value={id} className="sr-only" disabled={disabled} aria-describedby={disabled ? `plan-${id}-reason` : undefined} {...register('plan')} />
                    <span className="flex items-center justify-between">
                      <span className="text-lg font-semibold text-slate-900">{p.name}</span>
                      {checked && <Check className="size-5 text-brand-700" aria-hidden="true" />}
                    </span>
                    <span className="mt-1 text-2xl font-bold tabular-nums text-slate-900">{money(p.monthlyCents)}<span className="text-sm font-normal text-slate-600"> / Monat</span></span>
                    {tax && <TaxLabel tax={tax} className="text-xs text-slate-600" />}
                    <span className="mt-2 text-sm text-slate-700">{formatQuotaGb(p.quotaGb)} Speicherplatz</span>
                    {disabled && <span id={`plan-${id}-reason`} className="mt-2 text-sm font-medium text-amber-800">{disabledReason}</span>}
                  </label>
                );
              })}
            </div>
          </fieldset>
        </Section>
        {renewal ? (
          <Section title="Konto" icon={User}>
            <p className="text-sm text-slate-700">Kontoname: <span className="font-mono font-semibold text-slate-900">{renewal.accountName}</span></p>
            <p className="mt-1 text-sm text-slate-600">Der Kontoname bleibt bei einer Verlängerung unverändert.</p>
          </Section>
        ) : (
          <Section title="Konto" icon={User}>
            <Field label="Kontoname" autoComplete="off" autoCapitalize="none" spellCheck={false} placeholder="z. B. mueller" maxLength={32}
              hint={nameCheck.available
                ? <span className="inline-flex items-center gap-1 font-medium text-green-800" role="status"><Check className="size-4" aria-hidden="true" /> Der Kontoname ist frei.</span>
                : nameCheck.checking ? <span role="status">Verfügbarkeit wird geprüft …</span>
                  : token ? 'Mit diesem Namen melden Sie sich in Nextcloud an: Kleinbuchstaben, Ziffern, Punkt, Unterstrich und Bindestrich, 3–32 Zeichen.'
                    : 'Mit diesem Namen melden Sie sich in Nextcloud an. Ob er frei ist, prüfen wir, sobald Sie angemeldet sind.'}
              error={nameError} {...register('accountName')} />
          </Section>
        )}
        <Section title="Laufzeit" icon={Tag}>
          <label htmlFor="storage-months" className="flex items-center justify-between text-sm font-medium text-slate-800">
            <span>Laufzeit (Monate)</span><span className="tabular-nums text-slate-900">{monthsText(v.months)}</span>
          </label>
          <input id="storage-months" type="range" min={STORAGE_MONTHS.min} max={STORAGE_MONTHS.max} step={1} className="mt-3 w-full accent-brand-600" aria-valuetext={monthsText(v.months)} {...register('months', { valueAsNumber: true })} />
          <p className="mt-2 text-sm text-slate-600">Laufzeitrabatt: 5 % ab 3 Monaten, 10 % ab 6 Monaten, 15 % ab 9 Monaten.</p>
          <div className="mt-3 flex flex-wrap gap-2">
            {[1, 3, 6, 12].map((n) => (
              <button key={n} type="button" onClick={() => setValue('months', n)} aria-pressed={v.months === n}
                className={cn('rounded-full border px-3 py-1 text-sm', v.months === n ? 'border-brand-600 bg-brand-50 text-brand-800' : 'border-slate-300 text-slate-700 hover:border-slate-400')}>{monthsText(n)}</button>
            ))}
          </div>
        </Section>
      </div>
      <Card className="p-5 sm:p-6 lg:sticky lg:top-6">
        <h2 className="text-lg font-semibold text-slate-900">Zusammenfassung</h2>
        <dl className="mt-4 divide-y divide-slate-100 text-sm">
          <Row icon={Zap} label="Tarif" value={`Cloud-Speicher ${plan.name}`} />
          <Row icon={HardDrive} label="Speicherplatz" value={formatQuotaGb(plan.quotaGb)} />
          <Row icon={User} label="Kontoname" value={renewal ? renewal.accountName : v.accountName.trim().toLowerCase() || '–'} />
          <Row icon={CalendarClock} label="Laufzeit" value={monthsText(v.months)} />
          <Row icon={Cloud} label="Zugriff" value="Browser, Apps, WebDAV" />
        </dl>
        <CheckoutTotal id="storage" totalCents={total} months={v.months} taxState={taxState} discountPercent={discount} testId="storage-total">
          {upgradeCents > 0 && renewal && <p className="mt-2 text-sm text-slate-700">inkl. {money(upgradeCents)} Aufpreis für die restlichen {renewal.remainingDays} Tage der bisherigen Laufzeit</p>}
        </CheckoutTotal>
        <TermsConsent id="storage" error={termsError} field={register('acceptTerms')} />
        {loginNeeded && <LoginHint text="Bitte melden Sie sich an, um Cloud-Speicher zu bestellen." className="mt-4" />}
        <TaxExplanation explanation={tax?.explanation} />
        <Button type="submit" size="lg" className="mt-5 w-full" loading={busy} disabled={!canOrder}>
          {!busy && <ShoppingCart className="size-5" aria-hidden="true" />}
          {redirecting ? 'Weiter zur Zahlung …' : 'Zur Kasse'}
        </Button>
        <p className="mt-3 text-center text-xs text-slate-600">Sie werden zur sicheren Zahlungsseite unseres Zahlungsanbieters weitergeleitet.</p>
      </Card>
    </HydratedFieldset>
    </form>
  );
}

/**
 * The account name's live check: the contract's rule at once (no request for a name that cannot be
 * valid), then the server, debounced, for a signed-in customer (visitors cannot ask).
 */
function useNameCheck(raw: string, signedIn: boolean) {
  const typed = raw.trim().toLowerCase();
  const debounced = useDebouncedValue(typed, NAME_CHECK_DELAY_MS);
  const parsed = StorageAccountName.safeParse(debounced);
  const settled = debounced === typed && debounced !== '';
  const ask = settled && parsed.success && signedIn ? debounced : null;
  const query = useStorageNameCheck(ask);
  if (!settled) return { message: null, available: false, checking: false };
  if (!parsed.success) return { message: parsed.error.issues[0]?.message ?? null, available: false, checking: false };
  if (!signedIn) return { message: null, available: false, checking: false };
  if (query.isPending) return { message: null, available: false, checking: true };
  if (query.isError) return { message: null, available: false, checking: false };
  return { message: query.data.available ? null : query.data.message ?? 'Dieser Kontoname ist nicht verfügbar.', available: query.data.available, checking: false };
}

function Section({ title, icon: Icon, children }: { title: string; icon: LucideIcon; children: ReactNode }) {
  const id = useId();
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby={id}>
        <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Icon className="size-5 text-brand-700" aria-hidden="true" /> {title}</h2>
        <div className="mt-4">{children}</div>
      </section>
    </Card>
  );
}

function Row({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: string }) {
  return (
    <div className="flex items-start justify-between gap-3 py-2">
      <dt className="flex items-center gap-2 text-slate-600"><Icon className="size-4" aria-hidden="true" />{label}</dt>
      <dd className="min-w-0 break-all text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
}

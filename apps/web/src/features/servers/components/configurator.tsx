import { useRef, useState } from 'react';
import { useWatch, type Resolver, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Check, Cpu, HardDrive, LogIn, MapPin, Mail, MemoryStick, Monitor, Network, ShoppingCart, Tag } from 'lucide-react';
import {
  CheckoutInput, CONFIG_LIMITS, DEFAULT_DISTRO, DEFAULT_WINDOWS, durationDiscountPercent, formatEuro, LINUX_DISTROS, paymentLabel,
  GERMAN_CONSUMER_VIEW, priceCents, shopMessages, WINDOWS_VERSIONS, type LinuxDistro, type OsFamily, type ServerConfig, type WindowsVersion,
} from '@hp/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Alert, Card } from '../../../components/ui/card.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { TextareaField } from '../../../components/ui/textarea.tsx';
import { RangeField } from '../../../components/ui/range-field.tsx';
import { useSession } from '../../../lib/session.ts';
import { useTaxView } from '../../../lib/use-tax-view.ts';
import { shownCents, TaxExplanation, TaxLabel, TaxNotes, taxSentence, taxTexts } from '../../../components/billing/tax-price.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { cn } from '../../../lib/cn.ts';
import { useCheckout } from '../api/checkout.ts';
import { ShopSection } from '../../../components/shop-section.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { paths } from '../../../config/paths.ts';

/** What the form holds; the payload (CheckoutInput) is derived from it in `toCheckoutInput`. */
export interface ConfiguratorValues {
  os: OsFamily;
  distro: LinuxDistro;
  windowsVersion: WindowsVersion;
  cpu: number;
  ram: number;
  storage: number;
  months: number;
  acceptTerms: boolean;
}

export type ConfigDefaults = Omit<ConfiguratorValues, 'acceptTerms'>;

export const NEW_SERVER_DEFAULTS: ConfigDefaults = { os: 'linux', distro: DEFAULT_DISTRO, windowsVersion: DEFAULT_WINDOWS, cpu: 2, ram: 4, storage: 50, months: 1 };

/** Staff configure for a customer (customer page, "Neue Bestellung"): no terms, no checkout, a link by mail. */
export interface OnBehalf {
  customerName: string;
  send: (config: ServerConfig, message: string) => Promise<void>;
}

export interface UpgradeTarget {
  serverId: string;
  /** The installed system as shown to the customer (read-only here; reinstalling is in the dashboard). */
  osName: string;
  /** Lowest storage the slider allows: the current storage, rounded up to a valid step. */
  storageMin: number;
}

const TOAST_MS = 7000;

/** Exactly the fields of the contract's CheckoutInput: only the chosen OS family's version is sent. */
function toCheckoutInput(values: ConfiguratorValues, serverId?: string) {
  return {
    os: values.os,
    ...(values.os === 'linux' ? { distro: values.distro } : { windowsVersion: values.windowsVersion }),
    cpu: values.cpu,
    ram: values.ram,
    storage: values.storage,
    months: values.months,
    acceptTerms: values.acceptTerms,
    ...(serverId ? { serverId } : {}),
  };
}

const checkoutResolver = zodResolver(CheckoutInput);

/** Validates the derived payload with the contract's schema, so the form sends what the server accepts. */
function configuratorResolver(serverId?: string): Resolver<ConfiguratorValues, unknown, CheckoutInput> {
  return (values, context, options) =>
    checkoutResolver(toCheckoutInput(values, serverId) as never, context, options as never) as unknown as ReturnType<Resolver<ConfiguratorValues, unknown, CheckoutInput>>;
}

type ErrorDialog = { title: string; text: string } | null;

/**
 * The root-server configurator (public spec §2.14/§2.15): OS, version, resources, rental length, live
 * price, terms and the order button. With `upgrade` it renews/upgrades an existing server: the OS family
 * is fixed and the storage cannot shrink.
 */
export function Configurator({ defaults, upgrade, onBehalf }: { defaults: ConfigDefaults; upgrade?: UpgradeTarget; onBehalf?: OnBehalf }) {
  const { token } = useSession();
  const [message, setMessage] = useState('');
  const checkout = useCheckout();
  const [loginNeeded, setLoginNeeded] = useState(false);
  const [redirecting, setRedirecting] = useState(false);
  const [dialog, setDialog] = useState<ErrorDialog>(null);
  const submitting = useRef(false);

  const { register, handleSubmit, control, setValue, formState } = useSchemaForm<ConfiguratorValues, unknown, CheckoutInput>({
    resolver: configuratorResolver(upgrade?.serverId),
    // Staff sending a link accept nothing on the customer's behalf: the customer accepts the terms when paying.
    defaultValues: { ...defaults, acceptTerms: onBehalf !== undefined },
  });
  const values = useWatch({ control }) as ConfiguratorValues;
  const config = { os: values.os, cpu: values.cpu, ram: values.ram, storage: values.storage, months: values.months };
  const total = priceCents(config);
  const taxState = useTaxView();
  // Staff configure for a customer whose tax the payment decides: they see the list prices (German gross).
  const tax = onBehalf ? GERMAN_CONSUMER_VIEW : taxState.view;
  const shown = tax ? formatEuro(shownCents(total, tax)) : '…';
  const discount = durationDiscountPercent(values.months);
  const storageMin = upgrade?.storageMin ?? CONFIG_LIMITS.storage.min;
  const osLabel = upgrade ? upgrade.osName : values.os === 'linux' ? values.distro : values.windowsVersion;

  const order = handleSubmit(
    async (input) => {
      if (submitting.current) return;
      if (onBehalf) {
        submitting.current = true;
        const { acceptTerms: _terms, serverId: _server, ...config } = input;
        try {
          await onBehalf.send(config, message);
        } finally {
          submitting.current = false;
        }
        return;
      }
      if (!token) {
        setLoginNeeded(true);
        toast.error(shopMessages.loginRequired, { duration: TOAST_MS });
        return;
      }
      setLoginNeeded(false);
      submitting.current = true;
      try {
        const res = await checkout.mutateAsync(input);
        setRedirecting(true);
        // The payment provider's hosted page (in the embedded default served by the API, not the SPA).
        window.location.assign(res.url);
      } catch (err) {
        submitting.current = false;
        showCheckoutError(err);
      }
    },
    (formErrors) => {
      if (formErrors.acceptTerms) {
        toast.error(shopMessages.termsRequired, { duration: TOAST_MS });
        return;
      }
      const first = Object.values(formErrors).find((e) => e?.message)?.message;
      toast.error(first ?? shopMessages.genericError, { duration: TOAST_MS });
    },
  );

  function showCheckoutError(err: unknown) {
    if (!(err instanceof ApiRequestError)) return toast.error(shopMessages.genericError, { duration: TOAST_MS });
    if (err.code === 'NOT_ENOUGH_RESOURCES') return setDialog({ title: shopMessages.notEnoughResourcesTitle, text: shopMessages.notEnoughResources });
    if (err.code === 'NO_FREE_IP') return setDialog({ title: shopMessages.noFreeIpTitle, text: shopMessages.noFreeIp });
    if (err.status === 401) {
      setLoginNeeded(true);
      return toast.error(shopMessages.loginRequired, { duration: TOAST_MS });
    }
    // Validation and conflicts (open payment, storage shrink …) and an unreachable payment provider
    // carry a specific German message.
    if ((err.status >= 400 && err.status < 500) || err.code === 'PAYMENT_UNAVAILABLE') return toast.error(err.message, { duration: TOAST_MS });
    toast.error(shopMessages.genericError, { duration: TOAST_MS });
  }

  const busy = checkout.isPending || redirecting;
  const submittingLink = onBehalf !== undefined && formState.isSubmitting;
  const termsError = formState.errors.acceptTerms ? shopMessages.termsRequired : undefined;

  return (
    <form onSubmit={order} noValidate className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_24rem]">
      <div className="space-y-6">
        <ShopSection title="Betriebssystem" icon={Monitor}>
          {upgrade ? (
            <div className="space-y-2">
              <p className="text-sm text-slate-700">Installiert: <span className="font-semibold text-slate-900">{upgrade.osName}</span></p>
              <p className="text-sm text-slate-600">Das Betriebssystem bleibt bei einer Verlängerung erhalten. Ein anderes System installieren Sie über die Neuinstallation im Server-Dashboard.</p>
            </div>
          ) : (
            <div className="space-y-5">
              <fieldset>
                <legend className="text-sm font-medium text-slate-800">Betriebssystem wählen</legend>
                <div className="mt-2 grid gap-3 sm:grid-cols-2">
                  <OsCard value="linux" title="Linux" text="Debian oder Ubuntu" checked={values.os === 'linux'} registration={register('os', { onChange: (e: { target: { value: string } }) => selectFamily(e.target.value) })} />
                  <OsCard value="windows" title="Windows" text="Windows Server, +5,00 € pro Monat" checked={values.os === 'windows'} registration={register('os', { onChange: (e: { target: { value: string } }) => selectFamily(e.target.value) })} />
                </div>
              </fieldset>
              {values.os === 'linux' ? (
                <SelectField label="Distribution" {...register('distro')}>
                  {LINUX_DISTROS.map((d) => <option key={d} value={d}>{d}</option>)}
                </SelectField>
              ) : (
                <SelectField label="Windows-Version" {...register('windowsVersion')}>
                  {WINDOWS_VERSIONS.map((v) => <option key={v} value={v}>{v}</option>)}
                </SelectField>
              )}
            </div>
          )}
        </ShopSection>

        <ShopSection title="Leistung" icon={Cpu}>
          <div className="space-y-6">
            <RangeField label="CPU-Kerne" display={`${values.cpu} ${values.cpu === 1 ? 'Kern' : 'Kerne'}`} limits={CONFIG_LIMITS.cpu} value={values.cpu} registration={register('cpu', { valueAsNumber: true })} onStep={(v) => setValue('cpu', v)} />
            <RangeField label="Arbeitsspeicher (GB)" display={`${values.ram} GB`} limits={CONFIG_LIMITS.ram} value={values.ram} registration={register('ram', { valueAsNumber: true })} onStep={(v) => setValue('ram', v)} />
            <RangeField
              label="Speicher (GB)"
              display={`${values.storage} GB`}
              limits={{ ...CONFIG_LIMITS.storage, min: storageMin }}
              value={values.storage}
              registration={register('storage', { valueAsNumber: true })}
              onStep={(v) => setValue('storage', v)}
              hint={upgrade ? `Mindestens ${storageMin} GB: ${shopMessages.storageShrink}` : 'NVMe-SSD-Speicher'}
            />
          </div>
        </ShopSection>

        <ShopSection title="Laufzeit" icon={Tag}>
          <RangeField
            label="Laufzeit (Monate)"
            display={`${values.months} ${values.months === 1 ? 'Monat' : 'Monate'}`}
            limits={CONFIG_LIMITS.months}
            value={values.months}
            registration={register('months', { valueAsNumber: true })}
            onStep={(v) => setValue('months', v)}
            hint="Laufzeitrabatt: 5 % ab 3 Monaten, 10 % ab 6 Monaten, 15 % ab 9 Monaten."
          />
        </ShopSection>
      </div>

      {/* Narrow screens: the price stays in sight while the sliders are moved (the summary below announces it). */}
      <div className="sticky bottom-3 z-10 flex items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white/95 px-4 py-3 shadow-lg backdrop-blur lg:hidden" aria-hidden="true">
        <div className="min-w-0">
          <p className="text-sm text-slate-600">Gesamtpreis <span className="ml-1 text-lg font-bold tabular-nums text-slate-900">{shown}</span></p>
          {tax && <p className="text-xs text-slate-600">{tax.priceLabel}</p>}
        </div>
        <a href="#kvm-summary" tabIndex={-1} className={cn(buttonClass('primary', 'sm'), 'shrink-0')}>Zur Bestellung</a>
      </div>

      <Card id="kvm-summary" className="scroll-mt-20 p-5 sm:p-6 lg:sticky lg:top-6">
        <h2 className="text-lg font-semibold text-slate-900">Zusammenfassung</h2>
        <dl className="mt-4 divide-y divide-slate-100 text-sm">
          <SummaryRow icon={Monitor} label="Betriebssystem" value={osLabel} />
          <SummaryRow icon={Cpu} label="CPU" value={`${values.cpu} ${values.cpu === 1 ? 'Kern' : 'Kerne'}`} />
          <SummaryRow icon={MemoryStick} label="Arbeitsspeicher" value={`${values.ram} GB`} />
          <SummaryRow icon={HardDrive} label="Speicher" value={`${values.storage} GB NVMe`} />
          <SummaryRow icon={Tag} label="Laufzeit" value={`${values.months} ${values.months === 1 ? 'Monat' : 'Monate'}`} />
          <SummaryRow icon={MapPin} label="Standort" value="Frankfurt am Main" />
          <SummaryRow icon={Network} label="Netzwerk" value="1 Gbit/s, 1 IPv4" />
        </dl>

        <div className="mt-5 rounded-lg bg-slate-50 p-4">
          <p id="kvm-price-label" className="text-sm font-medium text-slate-700">Gesamtpreis</p>
          <p className="mt-1 flex flex-wrap items-baseline gap-x-2">
            <output aria-live="polite" aria-labelledby="kvm-price-label" aria-busy={tax ? undefined : true} className="text-3xl font-bold tabular-nums text-slate-900" data-testid="kvm-total">{shown}</output>
            <span className="text-sm text-slate-600">/ {paymentLabel(values.months)}</span>
          </p>
          {tax && <p className="mt-1"><TaxLabel tax={tax} className="text-sm font-medium text-slate-700" /></p>}
          {discount > 0 && (
            <p className="mt-2 inline-flex items-center gap-1 rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-semibold text-green-800">
              <Check className="size-3.5" aria-hidden="true" /> inkl. {discount} % Laufzeitrabatt
            </p>
          )}
          {tax ? (
            <p className="mt-2 text-xs text-slate-600">
              {values.months > 1 && <>entspricht {formatEuro(Math.round(shownCents(total, tax) / values.months))} pro Monat · </>}{taxSentence(total, tax)} Zahlbar im Voraus für die gesamte Laufzeit.
            </p>
          ) : <p className="mt-2 text-xs text-slate-600" role="status">{taxTexts.loading}</p>}
          {onBehalf ? <p className="mt-2 text-xs text-slate-600">Listenpreis für Privatkunden in Deutschland. Den Preis für {onBehalf.customerName} berechnen wir bei der Zahlung nach dessen Land und Steuerstatus.</p>
            : tax && <TaxNotes state={taxState} />}
        </div>

        {onBehalf ? (
          <TextareaField
            className="mt-5"
            label="Persönliche Nachricht (optional)"
            hint="Steht in der E-Mail über der Konfiguration."
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            maxLength={2000}
            rows={3}
          />
        ) : (
          <div className="mt-5">
            <label className="flex items-start gap-3 text-sm text-slate-800">
              <input
                type="checkbox"
                className="mt-0.5 size-5 shrink-0 cursor-pointer rounded accent-brand-600"
                aria-invalid={termsError ? true : undefined}
                aria-describedby={termsError ? 'kvm-terms-error' : undefined}
                {...register('acceptTerms')}
              />
              <span>
                Ich akzeptiere die{' '}
                <Link to={paths.terms} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">AGB</Link>
                {' '}und{' '}
                <Link to={paths.privacy} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">Datenschutzbestimmungen</Link>
              </span>
            </label>
            {termsError && <p id="kvm-terms-error" role="alert" className="mt-2 text-sm font-medium text-red-700">{termsError}</p>}
          </div>
        )}

        {loginNeeded && (
          <Alert tone="error" className="mt-4">
            <p>{shopMessages.loginRequired}</p>
            <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
              <Link to={paths.login} className="inline-flex items-center gap-1 font-semibold underline"><LogIn className="size-4" aria-hidden="true" /> Zum Login</Link>
              <Link to={paths.register} className="font-semibold underline">Konto erstellen</Link>
            </p>
          </Alert>
        )}

        {!onBehalf && <TaxExplanation explanation={taxState.view?.explanation} />}

        {onBehalf ? (
          <>
            <Button type="submit" size="lg" className="mt-5 w-full" loading={submittingLink}>
              {!submittingLink && <Mail className="size-5" aria-hidden="true" />}
              Zahlungslink senden
            </Button>
            <p className="mt-3 text-center text-xs text-slate-600">{onBehalf.customerName} erhält eine E-Mail mit dieser Konfiguration, dem Preis und einem Link zum Bezahlen. Kapazität und Preis gelten zum Zeitpunkt der Zahlung.</p>
          </>
        ) : (
          <>
            <Button type="submit" size="lg" className="mt-5 w-full" loading={busy}>
              {!busy && <ShoppingCart className="size-5" aria-hidden="true" />}
              {redirecting ? 'Weiter zur Zahlung …' : upgrade ? 'Jetzt verlängern' : 'Jetzt bestellen'}
            </Button>
            <p className="mt-3 text-center text-xs text-slate-600">Sie werden zur sicheren Zahlungsseite unseres Zahlungsanbieters weitergeleitet.</p>
          </>
        )}
      </Card>

      <Modal open={dialog !== null} onOpenChange={(open) => !open && setDialog(null)} title={dialog?.title ?? ''} description={dialog?.text}>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to={paths.dashboard.support} className={buttonClass('outline')}>Support kontaktieren</Link>
          <Button onClick={() => setDialog(null)}>Konfiguration anpassen</Button>
        </div>
      </Modal>
    </form>
  );

  /** Spec §2.14: choosing Linux selects Debian 12, choosing Windows selects Windows Server 2025. */
  function selectFamily(family: string) {
    if (family === 'linux') setValue('distro', DEFAULT_DISTRO);
    else setValue('windowsVersion', DEFAULT_WINDOWS);
  }
}


function OsCard({ value, title, text, checked, registration }: { value: OsFamily; title: string; text: string; checked: boolean; registration: UseFormRegisterReturn }) {
  return (
    <label
      className={cn(
        'relative flex cursor-pointer items-start gap-3 rounded-xl border-2 p-4 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
        checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white hover:border-slate-300',
      )}
    >
      <input type="radio" value={value} className="mt-1 size-4 shrink-0 accent-brand-600" {...registration} />
      <span>
        <span className="block font-semibold text-slate-900">{title}</span>
        <span className="block text-sm text-slate-600">{text}</span>
      </span>
    </label>
  );
}

function SummaryRow({ icon: Icon, label, value }: { icon: typeof Cpu; label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-3 py-2">
      <dt className="flex items-center gap-2 text-slate-600"><Icon className="size-4" aria-hidden="true" /> {label}</dt>
      <dd className="text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
}

/** Rounds up into the configurator's grid (min + k × step) and clamps to the limits. */
export function snapToLimits(value: number, limits: { min: number; max: number; step: number }): number {
  if (!Number.isFinite(value) || value <= limits.min) return limits.min;
  const snapped = limits.min + Math.ceil((value - limits.min) / limits.step) * limits.step;
  return Math.min(limits.max, snapped);
}

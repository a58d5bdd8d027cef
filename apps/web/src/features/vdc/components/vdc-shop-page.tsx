import { useState } from 'react';
import { useWatch, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Boxes, CalendarClock, Cpu, Disc3, HardDrive, MemoryStick, MessageSquare, Network, ShoppingCart, SlidersHorizontal, Tag, type LucideIcon } from 'lucide-react';
import {
  isStandardVdcPool, shopMessages, VDC_INCLUDED, VDC_LIMITS, VdcCheckoutInput, vdcPriceBreakdown, VdcRequestInput,
  type VdcShopInfo,
} from '@hp/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { TextareaField } from '../../../components/ui/textarea.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { ShopSection } from '../../../components/shop-section.tsx';
import { TaxExplanation } from '../../../components/billing/tax-price.tsx';
import { CheckoutTotal, LoginHint, shownMoney, TermsConsent } from '../../../components/shop/checkout-summary.tsx';
import { useCheckoutRedirect } from '../../../components/shop/use-checkout-redirect.ts';
import { useSession } from '../../../lib/session.ts';
import { useTaxView } from '../../../lib/use-tax-view.ts';
import { inputResolver, useSchemaForm } from '../../../lib/forms.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';
import { useVdcCheckout, useVdcRenewal, useVdcRequest, useVdcShopInfo } from '../api/vdc-shop.ts';
import { RangeField } from '../../../components/ui/range-field.tsx';
import { VdcOfferCheckout } from './vdc-offer-checkout.tsx';
import { errorText, formatCores, formatDate, formatGb, monthsText, snapUp } from './format.ts';

interface Values {
  cpu: number;
  ram: number;
  storage: number;
  ipv4: number;
  months: number;
  name: string;
  acceptTerms: boolean;
}

type Pool = Pick<Values, 'cpu' | 'ram' | 'storage' | 'ipv4'>;
type Renewal = NonNullable<VdcShopInfo['renewal']>;

export const VDC_LOGIN_MESSAGE = 'Bitte melden Sie sich an, um ein Virtual Data Center zu bestellen.';
export const renewalNote = 'Die neuen Ressourcen gelten ab Zahlungseingang; die Laufzeit verlängert sich ab dem aktuellen Ende. Bei einer Verlängerung kann der Pool gleich bleiben oder wachsen, aber nicht kleiner werden.';
export const noRoomNote = 'Derzeit ist auf unseren Hosts kein Platz für einen neuen Pool frei. Bitte versuchen Sie es später erneut oder stellen Sie eine individuelle Anfrage.';

const SMALLEST: Pool = { cpu: VDC_LIMITS.cpu.min, ram: VDC_LIMITS.ram.min, storage: VDC_LIMITS.storage.min, ipv4: VDC_LIMITS.ipv4.min };

/** Exactly the contract's fields: a new pool may send a name, a renewal sends the VDC's id instead. */
function toInput(v: Values, vdcId: string | null) {
  const name = v.name.trim();
  return {
    cpu: v.cpu, ram: v.ram, storage: v.storage, ipv4: v.ipv4, months: v.months, acceptTerms: v.acceptTerms,
    ...(vdcId ? { vdcId } : name ? { name } : {}),
  };
}
const resolverFor = (vdcId: string | null) => inputResolver(VdcCheckoutInput, (v: Values) => toInput(v, vdcId));

/**
 * /shop/vdc-request (issue 25, decision 036): the configurator of a standard pool with the live price,
 * and the "Individuelle Anfrage" for anything beyond the sliders. With ?renew={id} the configurator
 * renews (and enlarges) one's own pool, starting from its figures.
 */
export default function VdcShopPage() {
  const [params] = useSearchParams();
  const renewId = params.get('renew');
  const { token } = useSession();
  const renewal = useVdcRenewal(renewId && token ? renewId : null);
  const info = useVdcShopInfo();
  const [tab, setTab] = useState(params.get('anfrage') !== null ? 'request' : 'configurator');
  if (renewId && !token) return <Navigate to={paths.login} replace />;
  const offerId = params.get('offer');
  if (offerId) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
        <PageMeta title="Angebot annehmen" description="Ihr individuelles Angebot für ein Virtual Data Center annehmen und bezahlen." />
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Virtual Data Center</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Angebot annehmen</h1>
        <div className="mt-8"><VdcOfferCheckout offerId={offerId} /></div>
      </div>
    );
  }
  const title = renewId ? 'Virtual Data Center verlängern' : 'Virtual Data Center bestellen';

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <PageMeta title={title} description="Ihr Ressourcen-Pool aus vCPU, RAM, Speicher und IPv4-Adressen: eigene VMs, ISO-Upload und privates Netzwerk. Pool zusammenstellen oder individuell anfragen." />
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Virtual Data Center</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      {renewId ? (
        <>
          <p className="mt-3 max-w-2xl text-slate-600">
            {renewal.data?.renewal ? <>Pool <span className="font-semibold text-slate-900">{renewal.data.renewal.name}</span> (VDC-ID {renewal.data.renewal.number}) verlängern und auf Wunsch vergrößern.</>
              : 'Verlängern Sie Ihren Ressourcen-Pool und vergrößern Sie ihn auf Wunsch.'}
          </p>
          <div className="mt-8">
            {renewal.isPending ? <Spinner label="Lade Ihr Virtual Data Center …" />
              : renewal.isError ? <Alert tone="error">{errorText(renewal.error, 'Ihr Virtual Data Center konnte nicht geladen werden. Bitte laden Sie die Seite neu.')}</Alert>
                : <Configurator renewal={renewal.data.renewal} available />}
          </div>
        </>
      ) : (
        <>
          <p className="mt-3 max-w-2xl text-slate-600">
            Ein Pool aus vCPU, RAM, Speicher und öffentlichen IPv4-Adressen, den Sie selbst auf Ihre VMs aufteilen. Stellen Sie ihn hier zusammen oder fragen Sie größere Umgebungen individuell an.
          </p>
          <Tabs value={tab} onValueChange={setTab} className="mt-8">
            <TabsList aria-label="Bestellweg">
              <TabsTrigger value="configurator"><SlidersHorizontal className="size-4" aria-hidden="true" /> Konfigurator</TabsTrigger>
              <TabsTrigger value="request"><MessageSquare className="size-4" aria-hidden="true" /> Individuelle Anfrage</TabsTrigger>
            </TabsList>
            <TabsContent value="configurator"><Configurator renewal={null} available={info.data?.available !== false} /></TabsContent>
            <TabsContent value="request"><RequestForm /></TabsContent>
          </Tabs>
        </>
      )}
    </div>
  );
}

/** A renewal starts at the pool's figures and cannot go below them (the server refuses to shrink a pool). */
function renewalStart(r: Renewal) {
  const current: Pool = {
    cpu: snapUp(r.cpu, VDC_LIMITS.cpu), ram: snapUp(r.ram, VDC_LIMITS.ram), storage: snapUp(r.storage, VDC_LIMITS.storage), ipv4: snapUp(r.ipv4, VDC_LIMITS.ipv4),
  };
  const standard = isStandardVdcPool({ cpu: r.cpu, ram: r.ram, storage: r.storage, ipv4: r.ipv4, months: 1 });
  return { min: current, current, standard };
}

function Configurator({ renewal, available }: { renewal: Renewal | null; available: boolean }) {
  const checkout = useVdcCheckout();
  const { pay, invalid, loginNeeded, redirecting } = useCheckoutRedirect(VDC_LOGIN_MESSAGE);
  const start = renewal ? renewalStart(renewal) : null;
  const min = start?.min ?? SMALLEST;
  const { register, handleSubmit, control, setValue, formState } = useSchemaForm<Values, unknown, VdcCheckoutInput>({
    resolver: resolverFor(renewal?.vdcId ?? null),
    defaultValues: { ...(start?.current ?? SMALLEST), months: 1, name: '', acceptTerms: false },
  });
  const v = useWatch({ control }) as Values;
  const taxState = useTaxView();
  const tax = taxState.view;
  const money = (listGrossCents: number) => shownMoney(listGrossCents, taxState);
  const price = vdcPriceBreakdown({ cpu: v.cpu, ram: v.ram, storage: v.storage, ipv4: v.ipv4, months: v.months });
  const total = price.totalCents;

  const order = handleSubmit((input) => pay(() => checkout.mutateAsync(input)), invalid);
  const busy = checkout.isPending || redirecting;
  const termsError = formState.errors.acceptTerms ? shopMessages.termsRequired : undefined;
  const slider = (key: keyof Pool, label: string, display: string, hint?: string) => (
    <RangeField label={label} display={display} limits={{ ...VDC_LIMITS[key], min: min[key] }} value={v[key]}
      registration={register(key, { valueAsNumber: true })} onStep={(n) => setValue(key, n)} hint={hint} />
  );

  return (
    <form onSubmit={order} noValidate className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_24rem]">
      <div className="min-w-0 space-y-6">
        {!available && <Alert tone="error">{noRoomNote}</Alert>}
        {renewal && start && (
          <Alert tone="info">
            <p>Aktueller Pool: {formatCores(renewal.cpu)}, {formatGb(renewal.ram)} RAM, {formatGb(renewal.storage)} Speicher, {renewal.ipv4} IPv4; läuft bis {formatDate(renewal.expiresAt)}.</p>
            <p className="mt-1">{renewalNote}</p>
            {!start.standard && <p className="mt-1 font-medium">Ihr Pool wurde per Angebot vereinbart und ist größer als die Regler. Für eine Verlängerung in dieser Größe stellen Sie bitte eine <Link to={`${paths.shop.vdcRequest}?anfrage`} className="underline">individuelle Anfrage</Link>.</p>}
          </Alert>
        )}
        <ShopSection title="Ressourcen-Pool" icon={Boxes}>
          <div className="space-y-6">
            {slider('cpu', 'vCPU-Kerne', formatCores(v.cpu))}
            {slider('ram', 'Arbeitsspeicher (GB)', formatGb(v.ram))}
            {slider('storage', 'Speicher (GB)', formatGb(v.storage), 'NVMe-SSD-Speicher, frei auf die Festplatten Ihrer VMs verteilbar')}
            {slider('ipv4', 'Öffentliche IPv4-Adressen', String(v.ipv4), 'Die erste Adresse ist im Pool enthalten; jede weitere erhöht den Preis.')}
          </div>
          {renewal && <p className="mt-4 text-sm text-slate-600">Davon belegen Ihre VMs: {formatCores(renewal.used.cpu)}, {formatGb(renewal.used.ram)} RAM, {formatGb(renewal.used.storage)} Speicher, {renewal.used.ipv4} IPv4.</p>}
        </ShopSection>
        <ShopSection title="Laufzeit" icon={Tag}>
          <RangeField label="Laufzeit (Monate)" display={monthsText(v.months)} limits={VDC_LIMITS.months} value={v.months}
            registration={register('months', { valueAsNumber: true })} onStep={(n) => setValue('months', n)}
            hint="Laufzeitrabatt: 5 % ab 3 Monaten, 10 % ab 6 Monaten, 15 % ab 9 Monaten." />
        </ShopSection>
        {!renewal && (
          <ShopSection title="Name" icon={Boxes}>
            <Field label="Name des Virtual Data Centers (optional)" autoComplete="off" maxLength={40} placeholder="z. B. Projekt Alpha"
              hint="Erscheint in Ihrer Übersicht und auf der Rechnung. Ohne Angabe vergeben wir einen Namen."
              error={formState.errors.name?.message} {...register('name')} />
          </ShopSection>
        )}
        <Card className="p-5 text-sm text-slate-700 sm:p-6">
          <h2 className="text-base font-semibold text-slate-900">In jedem Pool enthalten</h2>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2">
            <Included icon={Boxes} text={`Bis zu ${VDC_INCLUDED.maxVms} VMs ohne Aufpreis`} />
            <Included icon={Disc3} text={`ISO-Bibliothek mit ${VDC_INCLUDED.isoLibraryGb} GB für eigene Images`} />
            <Included icon={Network} text="Ein privates Netzwerk zwischen Ihren VMs" />
            <Included icon={HardDrive} text="Linux-Vorlagen wie beim Root Server" />
          </ul>
          <p className="mt-3">Mehr als {VDC_LIMITS.cpu.max} Kerne, {VDC_LIMITS.ram.max} GB RAM oder {formatGb(VDC_LIMITS.storage.max)} Speicher? Stellen Sie eine individuelle Anfrage.</p>
        </Card>
      </div>

      {/* Narrow screens: the price stays in sight while the sliders move (the summary below announces it). */}
      <div className="sticky bottom-3 z-10 flex items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white/95 px-4 py-3 shadow-lg backdrop-blur lg:hidden" aria-hidden="true">
        <div className="min-w-0">
          <p className="text-sm text-slate-600">Gesamtpreis <span className="ml-1 text-lg font-bold tabular-nums text-slate-900">{money(total)}</span></p>
          {tax && <p className="text-xs text-slate-600">{tax.priceLabel}</p>}
        </div>
        <a href="#vdc-summary" tabIndex={-1} className={cn(buttonClass('primary', 'sm'), 'shrink-0')}>Zur Bestellung</a>
      </div>

      <Card id="vdc-summary" className="scroll-mt-20 p-5 sm:p-6 lg:sticky lg:top-6">
        <h2 className="text-lg font-semibold text-slate-900">Zusammenfassung</h2>
        <dl className="mt-4 divide-y divide-slate-100 text-sm">
          <Row icon={Cpu} label="vCPU" value={formatCores(v.cpu)} />
          <Row icon={MemoryStick} label="Arbeitsspeicher" value={formatGb(v.ram)} />
          <Row icon={HardDrive} label="Speicher" value={`${formatGb(v.storage)} NVMe`} />
          <Row icon={Network} label="IPv4-Adressen" value={String(v.ipv4)} />
          <Row icon={Disc3} label="ISO-Bibliothek" value={`${VDC_INCLUDED.isoLibraryGb} GB`} />
          <Row icon={CalendarClock} label="Laufzeit" value={monthsText(v.months)} />
        </dl>
        <CheckoutTotal id="vdc" totalCents={total} months={v.months} taxState={taxState} discountPercent={price.discountPercent} perMonth testId="vdc-total" />
        <TermsConsent id="vdc" error={termsError} field={register('acceptTerms')} />
        {loginNeeded && <LoginHint text={VDC_LOGIN_MESSAGE} className="mt-4" />}
        <TaxExplanation explanation={tax?.explanation} />
        <Button type="submit" size="lg" className="mt-5 w-full" loading={busy} disabled={!available}>
          {!busy && <ShoppingCart className="size-5" aria-hidden="true" />}
          {redirecting ? 'Weiter zur Zahlung …' : 'Zur Kasse'}
        </Button>
        <p className="mt-3 text-center text-xs text-slate-600">Sie werden zur sicheren Zahlungsseite unseres Zahlungsanbieters weitergeleitet.</p>
      </Card>
    </form>
  );
}

/** "Individuelle Anfrage": a ticket of type "VDC-Anfrage"; staff answer it with an offer. */
function RequestForm() {
  const { token } = useSession();
  const request = useVdcRequest();
  const [ticketId, setTicketId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useSchemaForm<VdcRequestInput>({
    resolver: zodResolver(VdcRequestInput) as unknown as Resolver<VdcRequestInput>,
    defaultValues: { needs: '', budget: '', phone: '' },
  });

  if (ticketId) {
    return (
      <Alert tone="success" className="max-w-2xl">
        <p className="font-semibold">Ihre Anfrage wurde als Ticket angelegt.</p>
        <p className="mt-1">Wir melden uns dort mit einem Angebot; Sie erhalten eine E-Mail, sobald wir antworten.</p>
        <p className="mt-2"><Link to={paths.ticket(ticketId)} className="font-semibold underline">Zum Ticket</Link></p>
      </Alert>
    );
  }

  const send = handleSubmit(async (input) => {
    setFailure(null);
    try {
      setTicketId((await request.mutateAsync(input)).ticketId);
    } catch (err) {
      setFailure(err instanceof ApiRequestError && err.status < 500 ? err.message : shopMessages.genericError);
    }
  });

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_24rem]">
      <Card className="p-5 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">Individuelle Anfrage</h2>
        <p className="mt-2 text-sm text-slate-600">Beschreiben Sie, was Sie brauchen: mehr Ressourcen als die Regler, mehrere Standorte oder besondere Anforderungen. Wir antworten im Support-Ticket mit einem Angebot, das Sie dort direkt bezahlen können.</p>
        {token ? (
          <form onSubmit={send} noValidate className="mt-5 space-y-5">
            <TextareaField label="Ihr Bedarf" rows={6} maxLength={5000} placeholder="z. B. 128 vCPU, 512 GB RAM, 10 TB Speicher, 8 IPv4-Adressen für eine Kubernetes-Umgebung"
              hint="Mindestens 20 Zeichen." error={formState.errors.needs?.message} {...register('needs')} />
            <div className="grid gap-5 sm:grid-cols-2">
              <Field label="Budget (optional)" maxLength={200} placeholder="z. B. 500 € pro Monat" error={formState.errors.budget?.message} {...register('budget')} />
              <Field label="Telefon für Rückfragen (optional)" type="tel" autoComplete="tel" maxLength={40} error={formState.errors.phone?.message} {...register('phone')} />
            </div>
            {failure && <Alert tone="error">{failure}</Alert>}
            <Button type="submit" loading={request.isPending}>Anfrage senden</Button>
          </form>
        ) : (
          <LoginHint text="Bitte melden Sie sich an, um eine individuelle Anfrage zu senden. Ihre Anfrage wird ein Ticket in Ihrem Kundenkonto." tone="info" className="mt-5" />
        )}
      </Card>
      <Card className="p-5 text-sm text-slate-700 sm:p-6">
        <h2 className="text-base font-semibold text-slate-900">So geht es weiter</h2>
        <ol className="mt-3 list-decimal space-y-2 pl-5">
          <li>Ihre Anfrage wird ein Ticket vom Typ „VDC-Anfrage“ im Support.</li>
          <li>Wir antworten dort mit einem Angebot: Pool-Größe, Laufzeit und Preis.</li>
          <li>Sie bezahlen das Angebot über den Link im Ticket; danach wird Ihr Pool eingerichtet.</li>
        </ol>
      </Card>
    </div>
  );
}

function Included({ icon: Icon, text }: { icon: LucideIcon; text: string }) {
  return <li className="flex items-start gap-2"><Icon className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />{text}</li>;
}

function Row({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: string }) {
  return (
    <div className="flex items-start justify-between gap-3 py-2">
      <dt className="flex items-center gap-2 text-slate-600"><Icon className="size-4" aria-hidden="true" />{label}</dt>
      <dd className="min-w-0 break-words text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
}

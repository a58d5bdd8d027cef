import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CheckCircle2, Clock, FileText, House, LifeBuoy, Package, RotateCcw, SlidersHorizontal, XCircle } from 'lucide-react';
import { formatDayMonthYear, formatEuro, orderStatusLabels, shopMessages, type PaymentResult } from '@hp/contract';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Alert, Card } from '../../../components/ui/card.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { usePaymentResult, type PaymentLookup } from '../api/payment-result.ts';
import { useRetryPayment } from '../api/retry-payment.ts';
import { cn } from '../../../lib/cn.ts';
import { chargedLabel } from '../../../components/billing/tax-price.tsx';
import { paths } from '../../../config/paths.ts';
import { useProductView } from '../../../lib/product-views.tsx';

const MISSING_PARAMS = 'Es wurde keine Zahlung angegeben. Bitte öffnen Sie diese Seite über den Link des Zahlungsanbieters oder prüfen Sie Ihre Bestellungen im Kundenbereich.';

function lookupFrom(params: URLSearchParams): PaymentLookup | null {
  const sessionId = params.get('session_id');
  if (sessionId) return { sessionId };
  const orderId = params.get('order');
  if (orderId) return { orderId };
  return null;
}

/**
 * /shop/payment (public spec §2.16): the server asks the payment provider and starts fulfilment; this
 * page only shows the answer and stores nothing. An open payment is re-checked every 2 s for ~30 s.
 */
export default function PaymentResultPage() {
  const [params] = useSearchParams();
  const lookup = lookupFrom(params);
  const result = usePaymentResult(lookup);
  const data = result.data;

  let body: ReactNode;
  if (!lookup) body = <FailureView message={MISSING_PARAMS} />;
  else if (result.isError) body = <FailureView message={result.error.message} />;
  else if (!data || result.polling) body = <Checking />;
  // Paid, but the order could not be delivered: it is refunded automatically (decision 023).
  else if (data.paymentStatus === 'paid' && (data.orderStatus === 'failed' || data.orderStatus === 'refunded')) body = <RefundView result={data} />;
  else if (data.paymentStatus === 'paid') body = <SuccessView result={data} />;
  else if (data.paymentStatus === 'failed') body = <FailureView result={data} onChanged={() => result.refetch()} />;
  else body = <OpenView result={data} onCheck={() => result.refetch()} checking={result.isFetching} />;

  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6 sm:py-16">
      {body}
    </div>
  );
}

function Checking() {
  return (
    <Card className="flex flex-col items-center gap-4 p-10 text-center" role="status">
      <PageMeta title="Zahlung wird geprüft" />
      <span className="size-10 animate-spin rounded-full border-4 border-brand-600 border-t-transparent" aria-hidden="true" />
      <h1 className="text-2xl font-bold text-slate-900">Zahlung wird geprüft …</h1>
      <p className="text-slate-600">Wir fragen den Status Ihrer Zahlung beim Zahlungsanbieter ab. Das dauert nur einen Moment.</p>
    </Card>
  );
}

function SuccessView({ result }: { result: PaymentResult }) {
  const view = useProductView(result.productKind);
  const open = view.openPath(result);
  return (
    <ResultCard tone="success" title={shopMessages.paymentSuccess} lead={view.paidLead(result.kind)}>
      <Facts result={result} />
      <div className="mt-6 flex flex-wrap gap-2">
        {open && <Link to={open} className={buttonClass('primary')}><view.icon className="size-4" aria-hidden="true" /> {view.openLabel}</Link>}
        <Link to={paths.dashboard.invoices} className={buttonClass('outline')}><FileText className="size-4" aria-hidden="true" /> Rechnungen</Link>
        <Link to={paths.dashboard.orders} className={buttonClass('outline')}><Package className="size-4" aria-hidden="true" /> Bestellungen</Link>
      </div>
      <HomeLink />
    </ResultCard>
  );
}

function RefundView({ result }: { result: PaymentResult }) {
  const refunded = result.orderStatus === 'refunded';
  return (
    <ResultCard tone="error" title="Bestellung konnte nicht ausgeführt werden"
      lead={refunded
        ? 'Ihre Zahlung ist eingegangen, die Bestellung konnte aber nicht ausgeführt werden. Wir haben den Betrag auf Ihre Karte zurückgezahlt und Ihnen eine E-Mail geschickt.'
        : 'Ihre Zahlung ist eingegangen, die Bestellung konnte aber nicht ausgeführt werden. Wir zahlen den Betrag automatisch auf Ihre Karte zurück und schicken Ihnen eine E-Mail, sobald das geschehen ist.'}>
      <Facts result={result} />
      <div className="mt-6 flex flex-wrap gap-2">
        <Link to={paths.dashboard.orders} className={buttonClass('primary')}><Package className="size-4" aria-hidden="true" /> Bestellungen</Link>
        <Link to={paths.dashboard.support} className={buttonClass('outline')}><LifeBuoy className="size-4" aria-hidden="true" /> Support kontaktieren</Link>
      </div>
      <HomeLink />
    </ResultCard>
  );
}

const berlinTime = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' });

/**
 * A payment that did not go through. While the order still holds what it reserved (`retryUntil`),
 * "Erneut versuchen" opens a new payment for the same order and goes there; afterwards the order is
 * cancelled and "Neu konfigurieren" leads to the product's own shop, prefilled with the order.
 */
function FailureView({ result, message, onChanged }: { result?: PaymentResult; message?: string; onChanged?: () => void }) {
  const retry = useRetryPayment();
  const [redirecting, setRedirecting] = useState(false);
  const [retryError, setRetryError] = useState<string | null>(null);
  const payable = result?.retryUntil ?? null;

  const payAgain = async () => {
    if (!result || retry.isPending || redirecting) return;
    setRetryError(null);
    try {
      const session = await retry.mutateAsync(result.orderId);
      setRedirecting(true);
      window.location.assign(session.url);
    } catch (err) {
      // Paid meanwhile or no longer reserved: the page shows what the server knows now.
      if (err instanceof ApiRequestError && err.status === 409) onChanged?.();
      setRetryError(err instanceof ApiRequestError && (err.status < 500 || err.code === 'PAYMENT_UNAVAILABLE') ? err.message : shopMessages.genericError);
    }
  };

  const lead = message ?? (payable
    ? `Ihre Zahlung wurde abgelehnt oder abgebrochen; es wurde nichts berechnet. Ihre Bestellung bleibt bis ${berlinTime.format(new Date(payable))} Uhr für Sie reserviert. Bis dahin können Sie die Zahlung erneut versuchen, gern auch mit einer anderen Karte.`
    : result?.replaced
      ? shopMessages.orderReplaced
    : result?.orderStatus === 'cancelled'
      ? 'Ihre Zahlung wurde nicht abgeschlossen und die Reservierung ist abgelaufen, daher wurde die Bestellung storniert. Es wurde nichts berechnet. Sie können Ihre Bestellung mit denselben Angaben neu konfigurieren.'
      : 'Ihre Zahlung wurde nicht abgeschlossen oder abgelehnt. Es wurde nichts berechnet. Sie können es erneut versuchen oder sich an unseren Support wenden.');
  return (
    <ResultCard tone="error" title={shopMessages.paymentFailed} lead={lead}>
      {result && <Facts result={result} />}
      {retryError && <Alert tone="error" className="mt-4">{retryError}</Alert>}
      <div className="mt-6 flex flex-wrap gap-2">
        {payable ? (
          <Button onClick={payAgain} loading={retry.isPending || redirecting}><RotateCcw className="size-4" aria-hidden="true" /> Erneut versuchen</Button>
        ) : !result && (
          <Button onClick={() => window.location.reload()}><RotateCcw className="size-4" aria-hidden="true" /> Seite neu laden</Button>
        )}
        {result && (
          <Link to={result.reconfigurePath} className={buttonClass(payable ? 'outline' : 'primary')}><SlidersHorizontal className="size-4" aria-hidden="true" /> Neu konfigurieren</Link>
        )}
        <Link to={paths.dashboard.support} className={buttonClass('outline')}><LifeBuoy className="size-4" aria-hidden="true" /> Support kontaktieren</Link>
      </div>
      <HomeLink />
    </ResultCard>
  );
}

function OpenView({ result, onCheck, checking }: { result: PaymentResult; onCheck: () => void; checking: boolean }) {
  return (
    <ResultCard tone="pending" title="Zahlung noch nicht bestätigt" lead="Der Zahlungsanbieter hat Ihre Zahlung noch nicht bestätigt. Das kann einen Moment dauern. Sobald die Zahlung eingeht, wird Ihre Bestellung automatisch ausgeführt.">
      <Facts result={result} />
      <div className="mt-6 flex flex-wrap gap-2">
        <Button onClick={onCheck} loading={checking}><RotateCcw className="size-4" aria-hidden="true" /> Erneut prüfen</Button>
        <Link to={paths.dashboard.orders} className={buttonClass('outline')}><Package className="size-4" aria-hidden="true" /> Bestellungen</Link>
        <Link to={paths.dashboard.support} className={buttonClass('outline')}><LifeBuoy className="size-4" aria-hidden="true" /> Support kontaktieren</Link>
      </div>
      <HomeLink />
    </ResultCard>
  );
}

const tones = {
  success: { icon: CheckCircle2, ring: 'bg-green-50 text-green-700' },
  error: { icon: XCircle, ring: 'bg-red-50 text-red-700' },
  pending: { icon: Clock, ring: 'bg-amber-50 text-amber-700' },
} as const;

function ResultCard({ tone, title, lead, children }: { tone: keyof typeof tones; title: string; lead: string; children: ReactNode }) {
  const { icon: Icon, ring } = tones[tone];
  return (
    <Card className="p-6 sm:p-10">
      <PageMeta title={title} />
      <div className="flex flex-col items-center text-center">
        <span className={cn('inline-flex size-16 items-center justify-center rounded-full', ring)}>
          <Icon className="size-9" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
        <p className={cn('mt-3', tone === 'error' ? 'text-slate-700' : 'text-slate-600')} role={tone === 'error' ? 'alert' : undefined}>{lead}</p>
      </div>
      <div className="mt-6">{children}</div>
    </Card>
  );
}

function Facts({ result }: { result: PaymentResult }) {
  const rows: [string, string][] = [
    ['Betrag', formatEuro(result.amountCents)],
    // What is charged always includes its tax: "inkl. 20 % USt.", "Reverse Charge", "ohne USt. (…)".
    ...(result.tax ? [['Umsatzsteuer', chargedLabel(result.tax)] as [string, string]] : []),
    ['Bestellnummer', result.orderNumber],
    ['Datum', formatDayMonthYear(result.date)],
    ['Status', orderStatusLabels[result.orderStatus]],
    ['Produkt', result.product],
  ];
  return (
    <>
      <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 px-4 py-2.5">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-right font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {result.tax?.invoiceNote && <p className="mt-2 text-sm text-slate-600">Auf der Rechnung: {result.tax.invoiceNote}</p>}
    </>
  );
}

function HomeLink() {
  return (
    <p className="mt-6 text-center text-sm">
      <Link to={paths.home} className="inline-flex items-center gap-1.5 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
        <House className="size-4" aria-hidden="true" /> Zur Startseite
      </Link>
    </p>
  );
}

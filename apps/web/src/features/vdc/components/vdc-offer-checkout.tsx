import { Link } from 'react-router';
import { LogIn, ShoppingCart } from 'lucide-react';
import { formatEuro, paymentLabel, shopMessages, VDC_INCLUDED, vdcOfferMessages, VdcOfferCheckoutInput, type VdcOffer } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { shownCents, TaxExplanation, TaxLabel, taxSentence, taxTexts } from '../../../components/billing/tax-price.tsx';
import { useCheckoutRedirect } from '../../../components/shop/use-checkout-redirect.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { inputResolver, useSchemaForm } from '../../../lib/forms.ts';
import { useSession } from '../../../lib/session.ts';
import { useTaxView } from '../../../lib/use-tax-view.ts';
import { paths } from '../../../config/paths.ts';
import { useVdcOffer, useVdcOfferCheckout } from '../api/vdc-offers.ts';
import { errorText, formatCores, formatDate, formatGb, monthsText } from './format.ts';

export const OFFER_LOGIN_MESSAGE = 'Bitte melden Sie sich an, um Ihr Angebot anzunehmen.';

const closedText: Record<Exclude<VdcOffer['status'], 'open'>, string> = {
  accepted: vdcOfferMessages.accepted, withdrawn: vdcOfferMessages.withdrawn, expired: vdcOfferMessages.expired,
};

interface Values { name: string; acceptTerms: boolean }

/** Exactly the contract's fields: the offer's id, the terms and a name only when one was typed. */
const resolverFor = (offerId: string) => inputResolver(VdcOfferCheckoutInput, (values: Values) => {
  const name = values.name.trim();
  return { offerId, acceptTerms: values.acceptTerms, ...(name ? { name } : {}) };
});

/**
 * /shop/vdc-request?offer={id}: a staff offer from a "VDC-Anfrage" ticket, with its figures and the
 * customer's price; accepting the terms opens the common payment. Only its customer sees it (404 else).
 */
export function VdcOfferCheckout({ offerId }: { offerId: string }) {
  const { token } = useSession();
  const offer = useVdcOffer(offerId, token !== null);

  if (!token) {
    return (
      <Alert tone="info" className="max-w-2xl">
        <p>{OFFER_LOGIN_MESSAGE}</p>
        <p className="mt-2"><Link to={paths.login} className="inline-flex items-center gap-1 font-semibold underline"><LogIn className="size-4" aria-hidden="true" /> Zum Login</Link></p>
      </Alert>
    );
  }
  if (offer.isPending) return <Spinner label="Lade Ihr Angebot …" />;
  if (offer.isError) {
    const missing = offer.error instanceof ApiRequestError && (offer.error.status === 404 || offer.error.status === 400);
    return <Alert tone="error" className="max-w-2xl">{missing ? vdcOfferMessages.notFound : errorText(offer.error, 'Das Angebot konnte nicht geladen werden. Bitte laden Sie die Seite neu.')}</Alert>;
  }
  return <OfferSummary offer={offer.data} />;
}

function OfferSummary({ offer }: { offer: VdcOffer }) {
  const checkout = useVdcOfferCheckout();
  const { pay, invalid, redirecting } = useCheckoutRedirect(OFFER_LOGIN_MESSAGE);
  const taxState = useTaxView();
  const tax = taxState.view;
  const { register, handleSubmit, formState } = useSchemaForm<Values, unknown, VdcOfferCheckoutInput>({
    resolver: resolverFor(offer.id),
    defaultValues: { name: '', acceptTerms: false },
  });
  const open = offer.status === 'open';
  const busy = checkout.isPending || redirecting;
  const termsError = formState.errors.acceptTerms ? shopMessages.termsRequired : undefined;
  const order = handleSubmit((input) => pay(() => checkout.mutateAsync(input)), invalid);

  return (
    <form onSubmit={order} noValidate className="grid max-w-4xl items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Card className="p-5 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">Ihr Angebot</h2>
        <p className="mt-1 text-sm text-slate-600">Ein Ressourcen-Pool, den wir für Sie zusammengestellt haben. Gültig bis {formatDate(offer.validUntil)}.</p>
        <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
          <dt className="text-slate-600">vCPU</dt><dd className="font-medium text-slate-900">{formatCores(offer.cpu)}</dd>
          <dt className="text-slate-600">Arbeitsspeicher</dt><dd className="font-medium text-slate-900">{formatGb(offer.ram)}</dd>
          <dt className="text-slate-600">Speicher</dt><dd className="font-medium text-slate-900">{formatGb(offer.storage)} NVMe</dd>
          <dt className="text-slate-600">IPv4-Adressen</dt><dd className="font-medium text-slate-900">{offer.ipv4}</dd>
          <dt className="text-slate-600">ISO-Bibliothek</dt><dd className="font-medium text-slate-900">{VDC_INCLUDED.isoLibraryGb} GB</dd>
          <dt className="text-slate-600">Laufzeit</dt><dd className="font-medium text-slate-900">{monthsText(offer.months)}</dd>
        </dl>
        {open && (
          <div className="mt-5">
            <Field label="Name des Virtual Data Centers (optional)" autoComplete="off" maxLength={40} placeholder="z. B. Projekt Alpha"
              error={formState.errors.name?.message} {...register('name')} />
          </div>
        )}
        <p className="mt-4 text-sm"><Link to={paths.ticket(offer.ticketId)} className="font-medium text-brand-700 underline">Zum Ticket mit Ihrer Anfrage</Link></p>
      </Card>
      <Card className="p-5 sm:p-6">
        <p id="vdc-offer-price-label" className="text-sm font-medium text-slate-700">Gesamtpreis</p>
        <p className="mt-1 flex flex-wrap items-baseline gap-x-2">
          <output aria-labelledby="vdc-offer-price-label" data-testid="vdc-offer-total" className="text-3xl font-bold tabular-nums text-slate-900">{tax ? formatEuro(shownCents(offer.priceCents, tax)) : '…'}</output>
          <span className="text-sm text-slate-600">/ {paymentLabel(offer.months)}</span>
        </p>
        {tax ? (
          <>
            <p className="mt-1"><TaxLabel tax={tax} className="text-sm font-medium text-slate-700" /></p>
            <p className="mt-2 text-xs text-slate-600">{taxSentence(offer.priceCents, tax)} Zahlbar im Voraus für die gesamte Laufzeit.</p>
          </>
        ) : <p className="mt-2 text-xs text-slate-600" role="status">{taxTexts.loading}</p>}
        {offer.status === 'open' ? (
          <>
            <div className="mt-5">
              <label className="flex items-start gap-3 text-sm text-slate-800">
                <input type="checkbox" className="mt-0.5 size-5 shrink-0 cursor-pointer rounded accent-brand-600" aria-invalid={termsError ? true : undefined} aria-describedby={termsError ? 'vdc-offer-terms-error' : undefined} {...register('acceptTerms')} />
                <span>Ich akzeptiere die <Link to={paths.terms} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">AGB</Link> und <Link to={paths.privacy} target="_blank" rel="noopener" className="font-medium text-brand-700 underline">Datenschutzbestimmungen</Link></span>
              </label>
              {termsError && <p id="vdc-offer-terms-error" role="alert" className="mt-2 text-sm font-medium text-red-700">{termsError}</p>}
            </div>
            <TaxExplanation explanation={tax?.explanation} />
            <Button type="submit" size="lg" className="mt-5 w-full" loading={busy}>
              {!busy && <ShoppingCart className="size-5" aria-hidden="true" />}
              {redirecting ? 'Weiter zur Zahlung …' : 'Angebot annehmen und bezahlen'}
            </Button>
          </>
        ) : <Alert tone={offer.status === 'accepted' ? 'success' : 'warning'} className="mt-5">{closedText[offer.status]}</Alert>}
      </Card>
    </form>
  );
}

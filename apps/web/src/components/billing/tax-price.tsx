import { Info } from 'lucide-react';
import { chargedLabel, displayCents, formatEuro, priceFor, type TaxView } from '@hp/contract';
import { Alert } from '../ui/card.tsx';
import type { TaxViewState } from '../../lib/use-tax-view.ts';

/** What the shops need of a tax decision: the customer's view, or an order's frozen one (OrderDetail.tax). */
export type PriceTax = Pick<TaxView, 'ratePercent' | 'category' | 'placeOfSupply' | 'priceMode' | 'priceLabel' | 'invoiceNote'>;

export const taxTexts = {
  visitorHint: 'Preise für Privatkunden in Deutschland. Firmenkunden und Kunden im Ausland sehen ihren Preis nach der Anmeldung.',
  viewFailed: 'Ihre Steuerangaben konnten nicht geladen werden; angezeigt sind deutsche Preise inkl. 19 % USt. Ihren Preis berechnen wir bei der Bestellung aus Ihrem Profil und zeigen ihn vor der Zahlung an.',
  loading: 'Ihr Preis wird berechnet …',
} as const;

const percent = (rate: number) => `${String(rate).replace('.', ',')} %`;
/** Swiss MWST is named as such; everything else is Umsatzsteuer. */
const taxName = (tax: Pick<PriceTax, 'priceLabel'>) => (tax.priceLabel.endsWith('MWST') ? 'MWST' : 'USt.');

/** The amount a customer sees for a German gross list price (gross or net, by the view). */
export const shownCents = (listGrossCents: number, tax: PriceTax) => displayCents(listGrossCents, tax);

/**
 * The sentence under a total: how the shown price is taxed and, for a business customer who sees a net
 * price with German VAT, what they will pay.
 */
export function taxSentence(listGrossCents: number, tax: PriceTax): string {
  if (tax.category === 'AE') return 'Nettopreis ohne deutsche Umsatzsteuer: Reverse Charge, die Umsatzsteuer schulden Sie in Ihrem Land.';
  if (tax.category === 'O') return 'Preis ohne Umsatzsteuer: Die Leistung ist in Deutschland nicht steuerbar.';
  if (tax.priceMode === 'net') return `Nettopreis zzgl. ${percent(tax.ratePercent)} ${taxName(tax)}, zu zahlen ${formatEuro(priceFor(listGrossCents, tax).grossCents)}.`;
  const vat = priceFor(listGrossCents, tax).vatCents;
  return `Darin enthalten: ${formatEuro(vat)} ${taxName(tax) === 'MWST' ? 'MWST' : 'USt.'} (${percent(tax.ratePercent)}).`;
}

/**
 * The VAT line of a net/VAT/gross breakdown; a 0 % line says why ("USt. 0 % – Reverse Charge").
 * `period` (" pro Monat") goes before the reason.
 */
export function vatLineLabel(tax: Pick<PriceTax, 'ratePercent' | 'category' | 'priceLabel'>, period = ''): string {
  if (tax.category === 'AE') return `USt. 0 %${period} – Reverse Charge`;
  if (tax.category === 'O') return `USt. 0 %${period} – nicht im Inland steuerbar`;
  return `${taxName(tax)} ${percent(tax.ratePercent)}${period}`;
}

/** The label after a charged amount: the contract's (the payment provider's line uses the same). */
export { chargedLabel };

/** The price's tax label right after the amount ("inkl. 20 % USt.", "zzgl. USt.", "Reverse Charge", …). */
export function TaxLabel({ tax, className }: { tax: PriceTax; className?: string }) {
  return <span className={className ?? 'text-sm text-slate-600'} data-testid="tax-label">{tax.priceLabel}</span>;
}

/**
 * Under a shop's total: the visitor's hint, a failed load, and for a treatment other than German VAT the
 * text the invoice will carry.
 */
export function TaxNotes({ state }: { state: TaxViewState }) {
  const { view, failed } = state;
  if (!view) return <p className="mt-2 text-xs text-slate-600" role="status">{taxTexts.loading}</p>;
  return (
    <>
      {failed && <p className="mt-2 text-xs text-amber-800">{taxTexts.viewFailed}</p>}
      {!failed && !view.signedIn && <p className="mt-2 flex gap-1.5 text-xs text-slate-600"><Info className="mt-px size-3.5 shrink-0" aria-hidden="true" />{taxTexts.visitorHint}</p>}
      {view.invoiceNote && <p className="mt-2 text-xs text-slate-600">Auf der Rechnung: {view.invoiceNote}</p>}
    </>
  );
}

/** Before the order button: why a business customer is billed as a consumer (null when nothing to say). */
export function TaxExplanation({ explanation, className }: { explanation: string | null | undefined; className?: string }) {
  if (!explanation) return null;
  return <Alert tone="warning" className={className ?? 'mt-4'}><p className="font-semibold">Hinweis zur Umsatzsteuer</p><p className="mt-1">{explanation}</p></Alert>;
}

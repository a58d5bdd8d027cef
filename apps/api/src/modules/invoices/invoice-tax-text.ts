import type { InvoiceDocument } from '../../db/schema/invoice-document.ts';

/**
 * What an invoice or credit note says about its tax (issue 24), shared by the PDF and the XRechnung so
 * both print the same words. Everything is read from the frozen snapshot: the order's decision
 * (`doc.tax`), copied into the invoice and from there into its credit note.
 */

export type DocumentTaxCategory = 'S' | 'AE' | 'O';

/** The document's VAT category; documents issued before issue 24 carry none and were German VAT (S). */
export const taxCategoryOf = (doc: Pick<InvoiceDocument, 'vatCategory' | 'tax'>): DocumentTaxCategory =>
  doc.vatCategory ?? doc.tax?.category ?? 'S';

/** The seller's Swiss MWST number when the document charges Swiss VAT, else null. */
export const swissVatNumberOf = (doc: Pick<InvoiceDocument, 'vatCategory' | 'tax'>): string | null =>
  taxCategoryOf(doc) === 'S' && doc.tax?.sellerSwissVatNumber?.trim() ? doc.tax.sellerSwissVatNumber.trim() : null;

/** The exemption reason (BT-120, BT-121) of a document without VAT; null for the standard rate. */
export function taxExemptionOf(doc: Pick<InvoiceDocument, 'vatCategory' | 'tax'>): { code: 'VATEX-EU-AE' | 'VATEX-EU-O'; text: string } | null {
  const category = taxCategoryOf(doc);
  const note = doc.tax?.invoiceNote.trim();
  // Without a decision (manual reverse-charge invoices issued before issue 24) the text they were issued with.
  if (category === 'AE') return { code: 'VATEX-EU-AE', text: note || 'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)' };
  if (category === 'O') return { code: 'VATEX-EU-O', text: note || 'Nicht im Inland steuerbare Leistung' };
  return null;
}

/**
 * The tax notes (BT-22), printed before the document's other notes: the decision's invoice text, for
 * reverse charge both VAT IDs (§14a Abs. 1 UStG), for Swiss VAT the seller's MWST number, and the
 * explanation why a business was billed as a consumer. Documents issued before issue 24 have no
 * decision and print none (a manual reverse-charge invoice of that time carries its text in `notes`).
 */
export function taxNotesOf(doc: Pick<InvoiceDocument, 'vatCategory' | 'tax' | 'buyer' | 'seller'>): string[] {
  const tax = doc.tax;
  if (!tax) return [];
  const notes: string[] = [];
  const category = taxCategoryOf(doc);
  if (tax.invoiceNote.trim()) notes.push(tax.invoiceNote.trim());
  if (category === 'AE') {
    const buyerVatId = doc.buyer.vatId ?? tax.buyerVatId;
    if (buyerVatId) notes.push(`USt-IdNr. des Leistungsempfängers: ${buyerVatId}`);
    if (doc.seller.vatId.trim()) notes.push(`USt-IdNr. des leistenden Unternehmers: ${doc.seller.vatId.trim()}`);
  }
  const swiss = swissVatNumberOf(doc);
  if (swiss) notes.push(`Unsere MWST-Nr. (Schweiz): ${swiss}`);
  if (tax.explanation?.trim()) notes.push(tax.explanation.trim());
  return notes;
}

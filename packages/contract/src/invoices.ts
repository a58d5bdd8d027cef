import { z } from 'zod';
import { messages } from './messages.ts';
import { plainText } from './text.ts';
import { InvoiceCard } from './shop.ts';

/**
 * Manual invoices written by staff (not prepaid by card) and the payments recorded against them
 * (docs/decisions/019). Amounts are integer cents; the client converts "49,90" before sending.
 */

export const invoiceMessages = {
  lineDescription: 'Bitte beschreiben Sie die Position.',
  lineDescriptionTooLong: 'Die Beschreibung ist zu lang (höchstens 300 Zeichen).',
  quantity: 'Bitte geben Sie eine Menge größer als 0 an (höchstens zwei Nachkommastellen).',
  unitPrice: 'Bitte geben Sie einen Einzelpreis (netto) zwischen 0,01 € und 100.000,00 € an.',
  noLines: 'Bitte fügen Sie mindestens eine Position hinzu.',
  tooManyLines: 'Höchstens 50 Positionen pro Rechnung.',
  vatIdRequired: 'Für Reverse Charge geben Sie bitte die USt-IdNr. des Kunden an (z. B. ATU12345678).',
  vatIdInvalid: 'Die USt-IdNr. hat nicht das Format eines anderen EU-Staats (z. B. ATU12345678).',
  reverseChargeCountry: 'Reverse Charge gilt nur für Unternehmen in einem anderen EU-Staat. Der Kunde hat seinen Sitz nicht dort.',
  reverseChargeCompany: 'Reverse Charge gilt nur für Unternehmen. Bitte tragen Sie zuerst die Firma des Kunden ein.',
  /** Staff asked for reverse charge, but the customer's tax decision (issue 24) is not reverse charge. */
  reverseChargeUnconfirmed: (explanation: string | null) =>
    `Reverse Charge setzt voraus, dass der Kunde als Firmenkunde mit einer bestätigten USt-IdNr. im Kundenprofil geführt wird. Die Umsatzsteuer richtet sich nach dem Kundenprofil.${explanation ? ` Hinweis an den Kunden: ${explanation}` : ''}`,
  reverseChargeOtherVatId: (confirmed: string) =>
    `Die angegebene USt-IdNr. weicht von der bestätigten USt-IdNr. im Kundenprofil (${confirmed}) ab. Bitte geben Sie die bestätigte USt-IdNr. an oder ändern Sie zuerst das Kundenprofil.`,
  period: 'Der Leistungszeitraum endet vor seinem Beginn.',
  date: 'Bitte geben Sie ein gültiges Datum an.',
  addressMissing: 'Für eine Rechnung fehlt die Anschrift des Kunden (Straße, PLZ, Ort). Bitte ergänzen Sie sie unter „Einstellungen“.',
  noteTooLong: 'Der Hinweis ist zu lang (höchstens 500 Zeichen).',
  paymentAmount: 'Bitte geben Sie einen Betrag größer als 0 an.',
  paymentTooHigh: (open: string) => `Der Betrag übersteigt den offenen Betrag von ${open}.`,
  paymentDateFuture: 'Das Zahlungsdatum liegt in der Zukunft.',
  paymentDateBeforeIssue: 'Das Zahlungsdatum liegt vor dem Rechnungsdatum.',
  alreadyPaid: 'Diese Rechnung ist bereits bezahlt.',
  credited: 'Diese Rechnung wurde durch eine Gutschrift ausgeglichen; es kann keine Zahlung mehr erfasst werden.',
  notAnInvoice: 'Zahlungen werden nur zu Rechnungen erfasst, nicht zu Gutschriften.',
} as const;

const isoDay = z.string({ error: invoiceMessages.date }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: invoiceMessages.date })
  .refine((v) => !Number.isNaN(Date.parse(`${v}T12:00:00Z`)) && new Date(`${v}T12:00:00Z`).toISOString().slice(0, 10) === v, { error: invoiceMessages.date });

/** Units of a line (UN/ECE rec 20): months count as recurring revenue, pieces and hours do not. */
export const InvoiceUnit = z.enum(['piece', 'month', 'hour']);
export type InvoiceUnit = z.infer<typeof InvoiceUnit>;
export const INVOICE_UNIT_LABEL: Record<InvoiceUnit, string> = { piece: 'Stück', month: 'Monat(e)', hour: 'Stunde(n)' };
export const INVOICE_UNIT_CODE: Record<InvoiceUnit, string> = { piece: 'C62', month: 'MON', hour: 'HUR' };

export const ManualInvoiceLineInput = z.strictObject({
  description: plainText({ error: invoiceMessages.lineDescription }).trim().min(2, invoiceMessages.lineDescription).max(300, invoiceMessages.lineDescriptionTooLong),
  quantity: z.number({ error: invoiceMessages.quantity }).positive({ error: invoiceMessages.quantity }).max(100_000, { error: invoiceMessages.quantity })
    .refine((q) => Math.abs(Math.round(q * 100) - q * 100) < 1e-6, { error: invoiceMessages.quantity }),
  unit: InvoiceUnit.default('piece'),
  unitNetCents: z.number({ error: invoiceMessages.unitPrice }).int({ error: invoiceMessages.unitPrice }).min(1, { error: invoiceMessages.unitPrice }).max(10_000_000, { error: invoiceMessages.unitPrice }),
}, { error: messages.invalidInput });
export type ManualInvoiceLineInput = z.infer<typeof ManualInvoiceLineInput>;

/** EU VAT id outside Germany: two-letter prefix (EL for Greece) and 2–12 letters/digits. */
export const EU_VAT_ID = /^(AT|BE|BG|CY|CZ|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI)[0-9A-Z+*]{2,12}$/;

export const ManualInvoiceInput = z.strictObject({
  lines: z.array(ManualInvoiceLineInput, { error: invoiceMessages.noLines }).min(1, invoiceMessages.noLines).max(50, invoiceMessages.tooManyLines),
  /**
   * The tax follows the customer's decision (issue 24: profile, checked VAT ID, threshold), not this
   * field. standard: whatever the decision is; reverse_charge: staff expect reverse charge, and the
   * invoice is refused when the decision is not reverse charge (no silent difference).
   */
  vatMode: z.enum(['standard', 'reverse_charge'], { error: messages.invalidInput }).default('standard'),
  buyerVatId: z.string().trim().transform((v) => v.replace(/\s+/g, '').toUpperCase()).nullish(),
  periodStart: isoDay.optional(),
  periodEnd: isoDay.optional(),
  note: plainText({ multiline: true }).trim().max(500, invoiceMessages.noteTooLong).optional(),
}, { error: messages.invalidInput }).superRefine((input, ctx) => {
  if (input.vatMode === 'reverse_charge') {
    if (!input.buyerVatId) ctx.addIssue({ code: 'custom', path: ['buyerVatId'], message: invoiceMessages.vatIdRequired });
    else if (!EU_VAT_ID.test(input.buyerVatId)) ctx.addIssue({ code: 'custom', path: ['buyerVatId'], message: invoiceMessages.vatIdInvalid });
  }
  if (input.periodStart && input.periodEnd && input.periodEnd < input.periodStart) {
    ctx.addIssue({ code: 'custom', path: ['periodEnd'], message: invoiceMessages.period });
  }
});
export type ManualInvoiceInput = z.input<typeof ManualInvoiceInput>;

export const PaymentMethod = z.enum(['transfer', 'sepa']);
export const PAYMENT_METHOD_LABEL: Record<'card' | 'transfer' | 'sepa', string> = { card: 'Kreditkarte', transfer: 'Überweisung', sepa: 'SEPA-Lastschrift' };

export const RecordPaymentInput = z.strictObject({
  paidOn: isoDay,
  amountCents: z.number({ error: invoiceMessages.paymentAmount }).int({ error: invoiceMessages.paymentAmount }).min(1, { error: invoiceMessages.paymentAmount }).max(100_000_000, { error: invoiceMessages.paymentAmount }),
  method: PaymentMethod,
  note: plainText().trim().max(200, invoiceMessages.noteTooLong).optional(),
}, { error: messages.invalidInput });
export type RecordPaymentInput = z.infer<typeof RecordPaymentInput>;

/** An invoice as staff see it on the customer page: the card plus what was paid and what is open. */
export const StaffInvoiceCard = InvoiceCard.extend({
  source: z.enum(['order', 'manual']),
  paidCents: z.number().int(),
  openCents: z.number().int(),
  /** For an invoice: the credit note that corrects it. */
  creditNoteNumber: z.string().nullable(),
  payments: z.array(z.object({ paidOn: z.string(), amountCents: z.number().int(), method: z.enum(['card', 'transfer', 'sepa']) })),
});
export type StaffInvoiceCard = z.infer<typeof StaffInvoiceCard>;
export const StaffInvoicePage = z.object({ items: z.array(StaffInvoiceCard), total: z.number().int() });
export type StaffInvoicePage = z.infer<typeof StaffInvoicePage>;

export const InvoiceIdParams = z.object({ id: z.uuid({ error: 'Rechnung nicht gefunden.' }) });

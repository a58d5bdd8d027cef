import { decideOrderTax, formatEuro, OSS_THRESHOLD_NET_CENTS, priceFor, splitGross, VAT_PERCENT, type OrderTax, type TaxCustomer } from '@hp/contract';
import type { InvoiceBuyer, InvoiceDocument } from '../../db/schema/invoice-document.ts';

/**
 * Realistic snapshots for tests and previews: a 3-month root server bought by card (76,54 € gross),
 * and the credit note that cancels it (refund still to be paid out, as `issueCreditNote` writes it). The buyer's company carries umlauts and an ampersand on purpose.
 */

const GROSS_CENTS = 7654;

export function sampleInvoiceDocument(overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  const { netCents, vatCents, grossCents } = splitGross(GROSS_CENTS);
  const months = 3;
  return {
    kind: 'invoice',
    number: 'RE-2026-000001',
    correctsNumber: null,
    issueDate: '2026-04-02',
    dueDate: '2026-04-17',
    periodStart: '2026-04-02',
    periodEnd: '2026-07-01',
    currency: 'EUR',
    orderNumber: 'B-2026-004711',
    seller: {
      name: 'Musterhost GmbH',
      street: 'Mainzer Landstraße 50',
      postalCode: '60325',
      city: 'Frankfurt am Main',
      countryCode: 'DE',
      email: 'rechnung@musterhost.de',
      phone: '+49 69 1234567-0',
      managingDirector: 'Max Mustermann',
      register: 'Amtsgericht Frankfurt am Main, HRB 123456',
      vatId: 'DE123456789',
      taxNumber: '045 234 56789',
    },
    buyer: {
      customerNumber: 100042,
      company: 'Bäckerei Müller & Söhne GmbH',
      name: 'Jürgen Weiß',
      street: 'Königsallee 12',
      postalCode: '40212',
      city: 'Düsseldorf',
      countryCode: 'DE',
      email: 'j.weiss@baeckerei-mueller.de',
    },
    lines: [
      {
        id: '1',
        name: 'Root Server (KVM)',
        description: `4 vCPU · 8 GB RAM · 100 GB SSD · Debian 12 · ${months} Monate`,
        quantity: months,
        unitCode: 'MON',
        netCents,
        unitPriceCents: Math.round(netCents / months),
        vatPercent: VAT_PERCENT,
      },
    ],
    totals: { netCents, vatCents, grossCents, prepaidCents: grossCents, dueCents: 0 },
    vatPercent: VAT_PERCENT,
    payment: {
      meansCode: '54',
      reference: 'cs_test_a1B2c3D4e5F6g7H8',
      card: { brand: 'visa', last4: '4242', holder: 'Jürgen Weiß' },
      paidAt: '2026-04-02T08:15:00.000Z',
    },
    notes: ['Bereits per Kreditkarte bezahlt.', 'Vielen Dank für Ihren Auftrag!'],
    ...overrides,
  };
}

/** Shaped like `issueCreditNote`: the full amount is still to be refunded to the card. */
export function sampleCreditNoteDocument(overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  const invoice = sampleInvoiceDocument();
  return sampleInvoiceDocument({
    kind: 'credit_note',
    number: 'GS-2026-000001',
    correctsNumber: invoice.number,
    issueDate: '2026-04-20',
    dueDate: '2026-05-05',
    totals: { ...invoice.totals, prepaidCents: 0, dueCents: invoice.totals.grossCents },
    notes: [
      `Gutschrift zu Rechnung ${invoice.number}: Kündigung innerhalb der Widerrufsfrist.`,
      `Der Betrag von ${formatEuro(invoice.totals.grossCents)} wird auf das ursprüngliche Zahlungsmittel erstattet.`,
    ],
    ...overrides,
  });
}

// ── one sample per tax treatment (issue 24) ────────────────────────────────────────────────────────

/** The seller's Swiss MWST number in the samples that charge Swiss VAT. */
export const SAMPLE_SWISS_VAT_NUMBER = 'CHE-123.456.789 MWST';

const check = (status: 'valid' | 'invalid'): NonNullable<OrderTax['vatCheck']> => ({
  id: '00000000-0000-4000-8000-0000000000c1', status, service: 'simulated',
  consultationNumber: status === 'valid' ? 'SIM-0123456789AB' : null, checkedAt: '2026-04-01T09:00:00.000Z',
});

interface TaxSampleSpec {
  customer: TaxCustomer;
  buyer: Pick<InvoiceBuyer, 'company' | 'name' | 'street' | 'postalCode' | 'city' | 'countryCode' | 'email'>;
  /** Cross-border consumer sales so far (net cents): above 10,000 € the customer's country's VAT applies. */
  crossBorder?: number;
  swissVatNumber?: string;
}

/**
 * The customers of the tax table (decision 030) that reach an invoice with a distinct text or category.
 * Each decision is the engine's own (`decideOrderTax`), so the samples cannot drift from the rules.
 */
const TAX_SAMPLES = {
  /** A German consumer: 19 % German VAT, no note. */
  'S-DE': {
    customer: { country: 'DE', business: false, vatId: null, check: null },
    buyer: { company: null, name: 'Jürgen Weiß', street: 'Königsallee 12', postalCode: '40212', city: 'Düsseldorf', countryCode: 'DE', email: 'j.weiss@example.de' },
  },
  /** A French consumer above the threshold: 20 % French VAT through the OSS, "Leistungsort Frankreich". */
  'S-FR': {
    customer: { country: 'FR', business: false, vatId: null, check: null },
    buyer: { company: null, name: 'Amélie Durand', street: '1 Rue de Rivoli', postalCode: '75001', city: 'Paris', countryCode: 'FR', email: 'amelie@example.fr' },
    crossBorder: OSS_THRESHOLD_NET_CENTS + 1,
  },
  /** A Swiss consumer while the seller is registered for Swiss VAT: 8.1 % MWST. */
  'S-CH': {
    customer: { country: 'CH', business: false, vatId: null, check: null },
    buyer: { company: null, name: 'Urs Müller', street: 'Bahnhofstrasse 1', postalCode: '8001', city: 'Zürich', countryCode: 'CH', email: 'urs@example.ch' },
    swissVatNumber: SAMPLE_SWISS_VAT_NUMBER,
  },
  /** An Austrian company whose VAT ID was rejected: billed as a consumer with German VAT, and told why. */
  'S-AT-invalid-id': {
    customer: { country: 'AT', business: true, vatId: 'ATU12340000', check: check('invalid') },
    buyer: { company: 'Alpen Hosting GmbH', name: 'Anna Huber', street: 'Ringstraße 1', postalCode: '1010', city: 'Wien', countryCode: 'AT', email: 'anna@example.at' },
  },
  /** An Austrian company with a confirmed VAT ID: reverse charge, both VAT IDs. */
  'AE-AT': {
    customer: { country: 'AT', business: true, vatId: 'ATU12345678', check: check('valid') },
    buyer: { company: 'Alpen Hosting GmbH', name: 'Anna Huber', street: 'Ringstraße 1', postalCode: '1010', city: 'Wien', countryCode: 'AT', email: 'anna@example.at' },
  },
  /** A Swiss company: not taxable in Germany (§3a Abs. 2 UStG). */
  'O-CH-business': {
    customer: { country: 'CH', business: true, vatId: null, check: null },
    buyer: { company: 'Berg & Tal AG', name: 'Urs Müller', street: 'Bahnhofstrasse 1', postalCode: '8001', city: 'Zürich', countryCode: 'CH', email: 'urs@example.ch' },
  },
  /** A Swiss consumer while the seller is not registered in Switzerland: not taxable (§3a Abs. 4 UStG). */
  'O-CH-consumer': {
    customer: { country: 'CH', business: false, vatId: null, check: null },
    buyer: { company: null, name: 'Urs Müller', street: 'Bahnhofstrasse 1', postalCode: '8001', city: 'Zürich', countryCode: 'CH', email: 'urs@example.ch' },
  },
  /** A US company. */
  'O-US-business': {
    customer: { country: 'US', business: true, vatId: null, check: null },
    buyer: { company: 'Acme Inc.', name: 'John Smith', street: '1 Main St', postalCode: '10001', city: 'New York', countryCode: 'US', email: 'john@example.com' },
  },
  /** A US consumer. */
  'O-US-consumer': {
    customer: { country: 'US', business: false, vatId: null, check: null },
    buyer: { company: null, name: 'John Smith', street: '1 Main St', postalCode: '10001', city: 'New York', countryCode: 'US', email: 'john@example.com' },
  },
} satisfies Record<string, TaxSampleSpec>;

export type TaxSample = keyof typeof TAX_SAMPLES;
export const TAX_SAMPLE_NAMES = Object.keys(TAX_SAMPLES) as TaxSample[];

/** The engine's decision for a sample customer, as `decideTaxForOrder` would freeze it on the order. */
export function sampleOrderTax(sample: TaxSample): OrderTax {
  const spec: TaxSampleSpec = TAX_SAMPLES[sample];
  const crossBorder = spec.crossBorder ?? 0;
  return decideOrderTax(spec.customer, { destinationTaxationOpted: false, swissVatNumber: spec.swissVatNumber ?? '' }, { previousYear: crossBorder, currentYear: crossBorder }, '2026-04-02');
}

/**
 * The sample invoice (76,54 € German list price) sold to a sample customer, shaped like `buildDocument`:
 * priced with `priceFor`, the decision copied into rate, category, buyer VAT ID and `tax`.
 */
export function taxedInvoiceDocument(sample: TaxSample, overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  const tax = sampleOrderTax(sample);
  const base = sampleInvoiceDocument();
  const { netCents, vatCents, grossCents } = priceFor(GROSS_CENTS, tax);
  const spec: TaxSampleSpec = TAX_SAMPLES[sample];
  return sampleInvoiceDocument({
    buyer: { ...base.buyer, ...spec.buyer, vatId: tax.buyerVatId },
    lines: base.lines.map((line) => ({ ...line, netCents, unitPriceCents: Math.round(netCents / line.quantity), vatPercent: tax.ratePercent })),
    totals: { netCents, vatCents, grossCents, prepaidCents: grossCents, dueCents: 0 },
    vatPercent: tax.ratePercent,
    vatCategory: tax.category,
    tax,
    notes: ['Bereits per Kreditkarte bezahlt.'],
    ...overrides,
  });
}

/** Its credit note, the way `issueCreditNote` copies the invoice (same decision, same category). */
export function taxedCreditNoteDocument(sample: TaxSample): InvoiceDocument {
  const invoice = taxedInvoiceDocument(sample);
  return {
    ...invoice,
    kind: 'credit_note',
    number: 'GS-2026-000001',
    correctsNumber: invoice.number,
    issueDate: '2026-04-20',
    dueDate: '2026-05-05',
    totals: { ...invoice.totals, prepaidCents: 0, dueCents: invoice.totals.grossCents },
    notes: [`Gutschrift zu Rechnung ${invoice.number}: Kündigung innerhalb der Widerrufsfrist.`, `Der Betrag von ${formatEuro(invoice.totals.grossCents)} wird auf das ursprüngliche Zahlungsmittel erstattet.`],
  };
}

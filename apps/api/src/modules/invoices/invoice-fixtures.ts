import { formatEuro, splitGross, VAT_PERCENT } from '@hp/contract';
import type { InvoiceDocument } from '../../db/schema/invoice-document.ts';

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

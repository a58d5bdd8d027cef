import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { InvoiceDocument, InvoiceLine } from '../../db/schema/invoice-document.ts';
import { sampleCreditNoteDocument, sampleInvoiceDocument, sampleOrderTax } from './invoice-fixtures.ts';
import { renderInvoicePdf, toPdfText } from './invoice-pdf.ts';
import { formatAmount, renderXRechnung } from './invoice-xrechnung.ts';
import { buildManualDocument } from './manual-invoices.ts';
import { readEnv } from '../../env.ts';
import type { users } from '../../db/schema/index.ts';
import { validateFiles, xrechnungValidator, type ValidationResult } from '../../../test/xrechnung.ts';

/** A manual invoice exactly as the service builds it (same function), for a German or an Austrian company. */
function manualDocument(country: 'DE' | 'AT', input: Parameters<typeof buildManualDocument>[2]): InvoiceDocument {
  const customer = {
    id: '00000000-0000-4000-8000-000000000001', customerNumber: 1042, username: 'Jürgen Weiß', email: 'j.weiss@example.com',
    street: country === 'AT' ? 'Ringstraße 1' : 'Hauptstraße 5', zipCode: country === 'AT' ? '1010' : '10115', city: country === 'AT' ? 'Wien' : 'Berlin',
    country, companyName: country === 'AT' ? 'Wiener Web GmbH' : 'Weiß & Söhne GmbH',
  } as typeof users.$inferSelect;
  // The customer's tax decision (issue 24): a German customer pays 19 %, the Austrian company has a confirmed VAT ID.
  return buildManualDocument(readEnv({}), customer, input, 'RE-2026-000123', new Date('2026-11-23T10:00:00Z'), sampleOrderTax(country === 'AT' ? 'AE-AT' : 'S-DE'));
}

const run = promisify(execFile);
const validator = xrechnungValidator;
const INSTALL_HINT = 'Install the tools with: apt-get install -y default-jre-headless libsaxonhe-java libxml2-utils';

// ── helpers ─────────────────────────────────────────────────────────────────────────────────────────

const HOSTILE = '<Müller & Söhne "GmbH">';

/** A document whose totals are derived from its lines the way the billing code does it (integer cents). */
function documentWithLines(lines: InvoiceLine[], overrides: Partial<InvoiceDocument> = {}): InvoiceDocument {
  const netCents = lines.reduce((sum, line) => sum + line.netCents, 0);
  const vatCents = Math.floor((netCents * 19 + 50) / 100);
  const grossCents = netCents + vatCents;
  return sampleInvoiceDocument({ lines, totals: { netCents, vatCents, grossCents, prepaidCents: grossCents, dueCents: 0 }, ...overrides });
}

const PRODUCTS = [
  { name: 'Root Server (KVM)', description: '4 vCPU · 8 GB RAM · 100 GB SSD · Debian 12 · 3 Monate', unitPriceCents: 2144 },
  { name: 'Zusätzliche IPv4-Adresse', description: 'Öffentliche IPv4-Adresse inkl. Reverse-DNS', unitPriceCents: 126 },
  { name: 'Backup-Speicher 100 GB', description: 'Tägliche Sicherung, 7 Tage Aufbewahrung', unitPriceCents: 399 },
];

function manyLines(count: number): InvoiceLine[] {
  return Array.from({ length: count }, (_, i) => {
    const product = PRODUCTS[i % PRODUCTS.length]!;
    const quantity = (i % 3) + 1;
    return { id: String(i + 1), ...product, quantity, unitCode: 'MON', netCents: product.unitPriceCents * quantity, vatPercent: 19 };
  });
}

/** 12 × 0,83 € is 9,96 €, but the line says 10,00 €: the unit price carries a remainder. */
const ROUNDED_PRICE_LINE: InvoiceLine = {
  id: '1', name: 'Traffic-Paket 1 TB', description: '12 Monate', quantity: 12, unitCode: 'MON', netCents: 1000, unitPriceCents: 83, vatPercent: 19,
};

const WIN_ANSI_HIGH: Record<number, string> = { 0x80: '€', 0x84: '„', 0x85: '…', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—' };

/**
 * The text of an uncompressed pdfkit PDF: every `[<hex> kern <hex>] TJ` is one line; the standard fonts
 * use WinAnsiEncoding. NBSP (from de-DE currency formatting) becomes a plain space to keep assertions readable.
 */
function extractText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const [, array] of pdf.toString('latin1').matchAll(/\[([^\]]*)\] TJ/g)) {
    let line = '';
    for (const [, hex] of (array ?? '').matchAll(/<([0-9a-f]*)>/g)) {
      for (let i = 0; i < (hex ?? '').length; i += 2) {
        const byte = parseInt(hex!.slice(i, i + 2), 16);
        line += WIN_ANSI_HIGH[byte] ?? String.fromCharCode(byte);
      }
    }
    lines.push(line.replace(/\u00a0/g, ' '));
  }
  return lines.join('\n');
}

const pageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page(?!s)/g)?.length ?? 0;

async function assertValidatorTooling(): Promise<void> {
  const missing: string[] = [];
  await run('java', ['-version']).catch(() => missing.push('java (default-jre-headless)'));
  await run('xmllint', ['--version']).catch(() => missing.push('xmllint (libxml2-utils)'));
  await access(process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar').catch(() => missing.push('Saxon-HE (libsaxonhe-java)'));
  await access(validator, constants.X_OK).catch(() => missing.push(`${validator} (executable)`));
  if (missing.length) throw new Error(`The XRechnung validator cannot run; missing: ${missing.join(', ')}. ${INSTALL_HINT}`);
}

// ── PDF ─────────────────────────────────────────────────────────────────────────────────────────────

describe('invoice PDF', () => {
  it('renders a one-page A4 invoice with umlauts, euro amounts, payment and footer', async () => {
    const pdf = await renderInvoicePdf(sampleInvoiceDocument(), { compress: false });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    expect(pageCount(pdf)).toBe(1);
    expect(pdf.toString('latin1')).toContain('/MediaBox [0 0 595.28 841.89]');

    const text = extractText(pdf);
    for (const expected of [
      'Rechnung RE-2026-000001',
      'Musterhost GmbH · Mainzer Landstraße 50 · 60325 Frankfurt am Main',
      'Bäckerei Müller & Söhne GmbH', 'Jürgen Weiß', 'Königsallee 12', '40212 Düsseldorf', 'Deutschland',
      'Rechnungsdatum', '02.04.2026', 'Fälligkeitsdatum', '17.04.2026', 'Leistungszeitraum', '02.04.2026 – 01.07.2026',
      'Kundennummer', '100042', 'Bestellnummer', 'B-2026-004711',
      'Root Server (KVM)', '4 vCPU · 8 GB RAM · 100 GB SSD · Debian 12 · 3 Monate', '3 Monate', '21,44 €',
      'Nettobetrag', '64,32 €', 'zzgl. 19 % USt.', '12,22 €', 'Gesamtbetrag (brutto)', '76,54 €',
      'Bereits bezahlt (Kreditkarte VISA •••• 4242)', '-76,54 €', 'Offener Betrag', '0,00 €',
      'Bereits per Kreditkarte bezahlt.',
      'Geschäftsführer: Max Mustermann', 'Amtsgericht Frankfurt am Main', 'HRB 123456',
      'USt-IdNr. DE123456789', 'Steuernummer 045 234 56789', 'Tel. +49 69 1234567-0', 'E-Mail rechnung@musterhost.de',
      'Seite 1 von 1',
    ]) expect(text).toContain(expected);
  });

  it('sets title, author, language and a creation date taken from the issue date', async () => {
    const raw = (await renderInvoicePdf(sampleInvoiceDocument())).toString('latin1');
    expect(raw).toContain('(Rechnung RE-2026-000001)');
    expect(raw).toContain('(Musterhost GmbH)');
    expect(raw).toContain('/Lang (de-DE)');
    expect(raw).toContain('(D:20260402000000Z)');
    expect(raw).toMatch(/\/Title \d+ 0 R/);
    expect(raw).toMatch(/\/Author \d+ 0 R/);
  });

  it('renders the same bytes for the same snapshot', async () => {
    const [first, second] = await Promise.all([renderInvoicePdf(sampleInvoiceDocument()), renderInvoicePdf(sampleInvoiceDocument())]);
    expect(first.equals(second)).toBe(true);
  });

  it('breaks a 40-line invoice over several pages with the table header repeated and every page numbered', async () => {
    const pdf = await renderInvoicePdf(documentWithLines(manyLines(40)), { compress: false });
    const pages = pageCount(pdf);
    expect(pages).toBeGreaterThanOrEqual(2);
    const text = extractText(pdf);
    for (let page = 1; page <= pages; page++) expect(text).toContain(`Seite ${page} von ${pages}`);
    expect(text.match(/^Einzelpreis netto$/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(text).toContain('Rechnung RE-2026-000001 · Fortsetzung');
    expect(text).toMatch(/^40$/m);
    expect(text).toContain('Offener Betrag');
  });

  it('wraps long names, flows a page-long description and survives characters Helvetica cannot show', async () => {
    const line = sampleInvoiceDocument().lines[0]!;
    const doc = sampleInvoiceDocument({
      buyer: { ...sampleInvoiceDocument().buyer, company: `${HOSTILE} 🚀 Łódź 東京\u0000\u0007` },
      lines: [{
        ...line,
        name: `${'Sehr langer Produktname mit vielen Wörtern '.repeat(8)}${'X'.repeat(200)}`,
        description: Array.from({ length: 120 }, (_, i) => `Zeile ${i + 1}: Konfiguration mit Überlänge`).join('\n'),
      }],
    });
    const pdf = await renderInvoicePdf(doc, { compress: false });
    expect(pageCount(pdf)).toBeGreaterThanOrEqual(2);
    const text = extractText(pdf);
    expect(text).toContain(`${HOSTILE} ? Lódz ??`);
    expect(text).toContain('Zeile 120: Konfiguration mit Überlänge');
    expect(text).toContain('Gesamtbetrag (brutto)');
  });

  it('prints a credit note with the invoice it corrects', async () => {
    const text = extractText(await renderInvoicePdf(sampleCreditNoteDocument(), { compress: false }));
    expect(text).toContain('Gutschrift GS-2026-000001');
    expect(text).toContain('Korrektur zu Rechnung RE-2026-000001');
    expect(text).toContain('Erstattungsbetrag');
    expect(text).not.toContain('Offener Betrag');
    expect(text).not.toContain('Fälligkeitsdatum');
    const refunded = sampleCreditNoteDocument();
    refunded.totals = { ...refunded.totals, prepaidCents: refunded.totals.grossCents, dueCents: 0 };
    expect(extractText(await renderInvoicePdf(refunded, { compress: false }))).toContain('Bereits erstattet (Kreditkarte VISA •••• 4242)');
  });

  it('maps text to what WinAnsi can encode', () => {
    expect(toPdfText('Grüße € – •')).toBe('Grüße € – •');
    expect(toPdfText('a\u0000b\u0085c')).toBe('abc');
    expect(toPdfText('Zeile 1\nZeile 2')).toBe('Zeile 1 Zeile 2');
    expect(toPdfText('Zeile 1\r\nZeile 2', { multiline: true })).toBe('Zeile 1\nZeile 2');
    expect(toPdfText('Ærø Łukasz Ćwik 😀')).toBe('Ærø Lukasz Cwik ?');
  });
});

// ── XML ─────────────────────────────────────────────────────────────────────────────────────────────

describe('XRechnung XML', () => {
  it('writes a UBL invoice with buyer reference, endpoints, card payment and prepaid totals', () => {
    const xml = renderXRechnung(sampleInvoiceDocument());
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"')).toBe(true);
    for (const expected of [
      '<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>',
      '<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>',
      '<cbc:ID>RE-2026-000001</cbc:ID>',
      '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>',
      '<cbc:DueDate>2026-04-17</cbc:DueDate>',
      '<cbc:BuyerReference>100042</cbc:BuyerReference>',
      '<cbc:StartDate>2026-04-02</cbc:StartDate>', '<cbc:EndDate>2026-07-01</cbc:EndDate>',
      '<cbc:EndpointID schemeID="EM">rechnung@musterhost.de</cbc:EndpointID>',
      '<cbc:EndpointID schemeID="EM">j.weiss@baeckerei-mueller.de</cbc:EndpointID>',
      '<cbc:Telephone>+49 69 1234567-0</cbc:Telephone>',
      '<cbc:CompanyID>DE123456789</cbc:CompanyID>',
      '<cbc:RegistrationName>Bäckerei Müller &amp; Söhne GmbH</cbc:RegistrationName>',
      '<cbc:PaymentMeansCode name="Kreditkarte">54</cbc:PaymentMeansCode>',
      '<cbc:PaymentID>cs_test_a1B2c3D4e5F6g7H8</cbc:PaymentID>',
      '<cbc:PrimaryAccountNumberID>4242</cbc:PrimaryAccountNumberID>', '<cbc:NetworkID>VISA</cbc:NetworkID>',
      '<cbc:TaxAmount currencyID="EUR">12.22</cbc:TaxAmount>', '<cbc:Percent>19</cbc:Percent>',
      '<cbc:TaxInclusiveAmount currencyID="EUR">76.54</cbc:TaxInclusiveAmount>',
      '<cbc:PrepaidAmount currencyID="EUR">76.54</cbc:PrepaidAmount>',
      '<cbc:PayableAmount currencyID="EUR">0.00</cbc:PayableAmount>',
      '<cbc:InvoicedQuantity unitCode="MON">3</cbc:InvoicedQuantity>',
      '<cbc:Name>Root Server (KVM)</cbc:Name>',
      '<cbc:PriceAmount currencyID="EUR">21.44</cbc:PriceAmount>',
    ]) expect(xml).toContain(expected);
  });

  it('writes a UBL credit note that references the corrected invoice', () => {
    const xml = renderXRechnung(sampleCreditNoteDocument());
    expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(xml).toMatch(/<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>RE-2026-000001<\/cbc:ID>/);
    expect(xml).toContain('<cbc:CreditedQuantity unitCode="MON">3</cbc:CreditedQuantity>');
    expect(xml).not.toContain('InvoiceLine');
    expect(xml).not.toContain('cbc:DueDate');
  });

  it('escapes markup characters and drops characters XML cannot carry', () => {
    const doc = sampleInvoiceDocument({ buyer: { ...sampleInvoiceDocument().buyer, company: `${HOSTILE}\u0007 O'Brien` } });
    const xml = renderXRechnung(doc);
    expect(xml).toContain('<cbc:RegistrationName>&lt;Müller &amp; Söhne &quot;GmbH&quot;&gt; O&apos;Brien</cbc:RegistrationName>');
    expect(xml).not.toContain('<Müller');
    expect(xml).not.toContain('\u0007');
  });

  it('gives the unit price in four decimals when the rounded cents would miss the line total', () => {
    expect(renderXRechnung(documentWithLines([ROUNDED_PRICE_LINE]))).toContain('<cbc:PriceAmount currencyID="EUR">0.8333</cbc:PriceAmount>');
  });

  it('formats integer cents with exactly two decimals and rejects fractions of a cent', () => {
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(123456)).toBe('1234.56');
    expect(formatAmount(-7654)).toBe('-76.54');
    expect(() => formatAmount(1.5)).toThrow(RangeError);
  });
});

// ── official validator ──────────────────────────────────────────────────────────────────────────────

describe('XRechnung against the official validator (tools/xrechnung/validate)', () => {
  const hostileLine: InvoiceLine = {
    id: '1',
    name: `Server "${HOSTILE}" <script>&amp;</script>`,
    description: "Beschreibung mit ]]> und 'Apostrophen' \u0007 & mehr",
    quantity: 1,
    unitCode: 'C62',
    netCents: 6432,
    unitPriceCents: 6432,
    vatPercent: 19,
  };
  const cases: Record<string, InvoiceDocument> = {
    'paid-card-private': sampleInvoiceDocument({ buyer: { ...sampleInvoiceDocument().buyer, company: null } }),
    'company-open-amount': (() => {
      const doc = sampleInvoiceDocument({ notes: [] });
      return { ...doc, totals: { ...doc.totals, prepaidCents: 0, dueCents: doc.totals.grossCents }, payment: { ...doc.payment, paidAt: null } };
    })(),
    'hostile-names': documentWithLines([hostileLine], {
      buyer: { ...sampleInvoiceDocument().buyer, company: HOSTILE, name: "Jürgen O'Brien & Co.", street: 'Straße <1> & 2' },
      notes: [`Hinweis für ${HOSTILE}: ]]> & 'ok'`],
    }),
    'forty-lines': documentWithLines(manyLines(40)),
    'rounded-unit-price': documentWithLines([{ ...ROUNDED_PRICE_LINE }]),
    'manual-transfer-19': manualDocument('DE', {
      lines: [
        { description: 'Einrichtung Mailserver', quantity: 1.5, unit: 'hour', unitNetCents: 8500 },
        { description: 'Zusätzliche IPv4-Adresse', quantity: 3, unit: 'month', unitNetCents: 199 },
        { description: 'Rabatt <Sonderaktion> & mehr', quantity: 0.33, unit: 'piece', unitNetCents: 333 },
      ],
      periodStart: '2026-11-01', periodEnd: '2026-11-30', note: 'Vielen Dank für Ihren Auftrag.',
    }),
    'manual-reverse-charge': manualDocument('AT', { lines: [{ description: 'Managed Service', quantity: 1, unit: 'month', unitNetCents: 10_000 }], vatMode: 'reverse_charge', buyerVatId: 'ATU12345678' }),
    'manual-credit-note': (() => {
      const doc = manualDocument('DE', { lines: [{ description: 'Beratung', quantity: 2, unit: 'hour', unitNetCents: 9000 }] });
      // Shaped like issueCreditNote for a transfer invoice: cleared against the invoice (UNCL 97).
      return { ...doc, kind: 'credit_note' as const, number: 'GS-2026-000007', correctsNumber: doc.number, payment: { ...doc.payment, meansCode: '97' as const, bank: null, reference: doc.number }, notes: [`Gutschrift zu Rechnung ${doc.number}: Doppelt berechnet`] };
    })(),
    'credit-note': sampleCreditNoteDocument(),
    'credit-note-already-refunded': (() => {
      const doc = sampleCreditNoteDocument();
      return { ...doc, totals: { ...doc.totals, prepaidCents: doc.totals.grossCents, dueCents: 0 } };
    })(),
  };
  const tampered = sampleInvoiceDocument();
  tampered.totals = { ...tampered.totals, grossCents: tampered.totals.grossCents + 100, prepaidCents: tampered.totals.grossCents + 100 };

  let dir = '';
  let setupError: unknown = null;
  const results = new Map<string, ValidationResult>();

  // A missing tool is stored and rethrown by every test below, so each one fails loudly instead of
  // being reported as skipped.
  beforeAll(async () => {
    try {
      await assertValidatorTooling();
      dir = await mkdtemp(join(tmpdir(), 'xrechnung-'));
      const files = Object.entries({ ...cases, tampered }).map(([name, doc]) => [name, join(dir, `${name}.xml`), renderXRechnung(doc)] as const);
      await Promise.all(files.map(([, file, xml]) => writeFile(file, xml, 'utf8')));
      // One validator run for all of them (batch mode: the rules compile once).
      const verdicts = await validateFiles(files.map(([, file]) => file));
      for (const [name, file] of files) results.set(name, verdicts.get(file)!);
    } catch (error) {
      setupError = error;
    }
  }, 120_000);

  function resultFor(name: string): ValidationResult {
    if (setupError) throw setupError;
    const result = results.get(name);
    if (!result) throw new Error(`no validation result for ${name}`);
    return result;
  }

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(cases))('passes without errors or warnings: %s', (name) => {
    const result = resultFor(name);
    expect(result.lastLine, result.output).toMatch(/^PASS /);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.lastLine, result.output).toMatch(/\(0 error\(s\), 0 warning\(s\)/);
  });

  it('fails a document whose gross amount is not net plus VAT (the validator really checks)', () => {
    const result = resultFor('tampered');
    expect(result.exitCode, result.output).toBe(1);
    expect(result.lastLine).toMatch(/^FAIL /);
    expect(result.lastLine).toContain('BR-CO-15');
  });
});

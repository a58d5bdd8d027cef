/**
 * Issue 24: every tax treatment reaches the invoice and its credit note with the right category, rate,
 * VAT IDs and texts, and every variant passes the official XRechnung rules (tools/xrechnung/validate).
 * The samples are the engine's own decisions (`sampleOrderTax`), so a rule change shows up here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { priceCents, priceFor, splitGross, taxInvoiceNotes, type StaffInvoiceCard } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { validateFiles, type ValidationResult } from '../../../test/xrechnung.ts';
import { baseOrder, drainJobs, paySimulated, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { invoices, orders, users } from '../../db/schema/index.ts';
import type { InvoiceDocument } from '../../db/schema/invoice-document.ts';
import {
  SAMPLE_SWISS_VAT_NUMBER, TAX_SAMPLE_NAMES, sampleOrderTax, taxedCreditNoteDocument, taxedInvoiceDocument, type TaxSample,
} from './invoice-fixtures.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { renderXRechnung } from './invoice-xrechnung.ts';
import { issueCreditNote, issueInvoice } from './invoices.service.ts';

/**
 * The validator sees every rate and text variant, invoice and credit note: in its batch mode one run
 * compiles the rules once for all of them (issue 26), so nothing is left out to save validator starts.
 */
const VALIDATED_INVOICE_SAMPLES: readonly TaxSample[] = TAX_SAMPLE_NAMES;
const CREDIT_NOTE_SAMPLES: readonly TaxSample[] = TAX_SAMPLE_NAMES;

/** Validates many documents in one run of the validator (its batch mode). */
async function validateAll(docs: [string, InvoiceDocument | string][], dir: string): Promise<Map<string, ValidationResult>> {
  const files = docs.map(([name, doc]) => [name, join(dir, `${name}.xml`), typeof doc === 'string' ? doc : renderXRechnung(doc)] as const);
  await Promise.all(files.map(([, file, xml]) => writeFile(file, xml, 'utf8')));
  const verdicts = await validateFiles(files.map(([, file]) => file));
  return new Map(files.map(([name, file]) => [name, verdicts.get(file)!]));
}

function expectPass(result: { exitCode: number; output: string; lastLine: string } | undefined) {
  expect(result, 'no validation result').toBeDefined();
  expect(result!.lastLine, result!.output).toMatch(/^PASS \(0 error\(s\), 0 warning\(s\)/);
  expect(result!.exitCode).toBe(0);
}

const WIN_ANSI_HIGH: Record<number, string> = { 0x80: '€', 0x84: '„', 0x85: '…', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—' };

/** The text of an uncompressed pdfkit PDF, one TJ operator a line (as in invoice-documents.test.ts). */
async function pdfText(doc: InvoiceDocument): Promise<string> {
  const pdf = await renderInvoicePdf(doc, { compress: false });
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
  // pdfkit wraps long notes; joining the lines with spaces lets a sentence be found whole.
  return lines.join('\n');
}
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** What each treatment must say, in the XML and on paper. */
const EXPECTED: Record<TaxSample, { category: 'S' | 'AE' | 'O'; percent: string; xml: string[]; xmlNot: string[]; pdf: string[]; amounts?: string[] }> = {
  'S-DE': {
    category: 'S', percent: '19',
    xml: ['<cbc:CompanyID>{sellerVatId}</cbc:CompanyID>'], xmlNot: ['TaxExemptionReason'],
    pdf: ['zzgl. 19 % USt.', 'Gesamtbetrag (brutto)'], amounts: ['12,22 €', '76,54 €'],
  },
  'S-FR': {
    category: 'S', percent: '20',
    xml: ['<cbc:CompanyID>{sellerVatId}</cbc:CompanyID>', `<cbc:Note>${taxInvoiceNotes.oss('Frankreich')}</cbc:Note>`], xmlNot: ['TaxExemptionReason'],
    // 64,32 € net + 20 % = 12,86 € (12,864 rounded half up).
    pdf: ['zzgl. 20 % USt.', taxInvoiceNotes.oss('Frankreich')], amounts: ['12,86 €', '77,18 €'],
  },
  'S-CH': {
    category: 'S', percent: '8.1',
    // BT-31 is the number the charged VAT belongs to: the seller's Swiss MWST number.
    xml: ['<cbc:CompanyID>CHE123456789MWST</cbc:CompanyID>', `<cbc:Note>${taxInvoiceNotes.swiss}</cbc:Note>`, `Unsere MWST-Nr. (Schweiz): ${SAMPLE_SWISS_VAT_NUMBER}`],
    xmlNot: ['<cbc:CompanyID>{sellerVatId}</cbc:CompanyID>', 'TaxExemptionReason'],
    // 64,32 € net + 8,1 % = 5,21 € (5,20992).
    pdf: ['zzgl. 8,1 % MWST (Schweiz)', 'Unsere MWST-Nr.', SAMPLE_SWISS_VAT_NUMBER, taxInvoiceNotes.swiss], amounts: ['5,21 €', '69,53 €'],
  },
  'S-AT-invalid-id': {
    category: 'S', percent: '19',
    xml: ['nicht als gültig bestätigt'], xmlNot: ['ATU12340000', 'TaxExemptionReason'],
    pdf: ['zzgl. 19 % USt.', 'Ihre USt-IdNr. wurde bei der Prüfung nicht als gültig bestätigt. Deshalb berechnen wir Ihnen wie einem Privatkunden 19 % deutsche Umsatzsteuer.'],
  },
  'AE-AT': {
    category: 'AE', percent: '0',
    xml: [
      '<cbc:CompanyID>{sellerVatId}</cbc:CompanyID>', '<cbc:CompanyID>ATU12345678</cbc:CompanyID>',
      '<cbc:TaxExemptionReasonCode>VATEX-EU-AE</cbc:TaxExemptionReasonCode>',
      `<cbc:TaxExemptionReason>${taxInvoiceNotes.reverseCharge}</cbc:TaxExemptionReason>`,
      `<cbc:Note>${taxInvoiceNotes.reverseCharge}</cbc:Note>`,
    ],
    xmlNot: [],
    pdf: [
      'Umsatzsteuer (Reverse Charge)', 'Gesamtbetrag', taxInvoiceNotes.reverseCharge,
      'USt-IdNr. des Leistungsempfängers: ATU12345678', 'USt-IdNr. des leistenden Unternehmers: {sellerVatId}', 'Ihre USt-IdNr.',
    ],
  },
  'O-CH-business': {
    category: 'O', percent: '0',
    xml: ['<cbc:TaxExemptionReasonCode>VATEX-EU-O</cbc:TaxExemptionReasonCode>', `<cbc:TaxExemptionReason>${taxInvoiceNotes.notTaxableBusiness}</cbc:TaxExemptionReason>`, '<cbc:CompanyID>{taxNumber}</cbc:CompanyID>'],
    // BR-O-02: no seller or buyer VAT ID on a document not subject to VAT; the Steuernummer (BT-32) instead.
    xmlNot: ['<cbc:CompanyID>{sellerVatId}</cbc:CompanyID>'],
    pdf: ['Umsatzsteuer (nicht im Inland steuerbar)', taxInvoiceNotes.notTaxableBusiness], amounts: ['64,32 €'],
  },
  'O-CH-consumer': {
    category: 'O', percent: '0',
    xml: ['<cbc:TaxExemptionReasonCode>VATEX-EU-O</cbc:TaxExemptionReasonCode>', `<cbc:TaxExemptionReason>${taxInvoiceNotes.notTaxableConsumer}</cbc:TaxExemptionReason>`],
    xmlNot: ['<cbc:CompanyID>{sellerVatId}</cbc:CompanyID>', 'MWST'],
    pdf: ['Umsatzsteuer (nicht im Inland steuerbar)', taxInvoiceNotes.notTaxableConsumer],
  },
  'O-US-business': {
    category: 'O', percent: '0',
    xml: ['<cbc:TaxExemptionReasonCode>VATEX-EU-O</cbc:TaxExemptionReasonCode>', `<cbc:Note>${taxInvoiceNotes.notTaxableBusiness}</cbc:Note>`],
    xmlNot: ['<cbc:CompanyID>{sellerVatId}</cbc:CompanyID>'],
    pdf: ['Umsatzsteuer (nicht im Inland steuerbar)', taxInvoiceNotes.notTaxableBusiness, 'Vereinigte Staaten'],
  },
  'O-US-consumer': {
    category: 'O', percent: '0',
    xml: ['<cbc:TaxExemptionReasonCode>VATEX-EU-O</cbc:TaxExemptionReasonCode>', `<cbc:Note>${taxInvoiceNotes.notTaxableConsumer}</cbc:Note>`],
    xmlNot: ['<cbc:CompanyID>{sellerVatId}</cbc:CompanyID>'],
    pdf: ['Umsatzsteuer (nicht im Inland steuerbar)', taxInvoiceNotes.notTaxableConsumer],
  },
};

/** The XML and PDF checks every document of a treatment must pass (invoice or credit note). */
async function expectTreatment(sample: TaxSample, doc: InvoiceDocument, { amounts = false } = {}) {
  const want = EXPECTED[sample];
  const fill = (text: string) => text.replace('{sellerVatId}', doc.seller.vatId).replace('{taxNumber}', doc.seller.taxNumber);
  expect(doc.vatCategory).toBe(want.category);
  const xml = renderXRechnung(doc);
  for (const text of want.xml) expect(xml).toContain(fill(text));
  for (const text of want.xmlNot) expect(xml).not.toContain(fill(text));
  // The breakdown's category and rate (BT-118, BT-119); an O line carries no rate (BR-O-05).
  expect(xml).toMatch(new RegExp(`<cac:TaxCategory>\\s*<cbc:ID>${want.category}</cbc:ID>\\s*<cbc:Percent>${want.percent.replace('.', '\\.')}</cbc:Percent>`));
  if (want.category === 'O') expect(xml).toMatch(/<cac:ClassifiedTaxCategory>\s*<cbc:ID>O<\/cbc:ID>\s*<cac:TaxScheme>/);
  const text = flat(await pdfText(doc));
  for (const expected of [...want.pdf, ...(amounts ? want.amounts ?? [] : [])]) expect(text).toContain(fill(expected));
  expect(text).not.toMatch(/zzgl\. 0 %/);
  if (want.category !== 'S') expect(text).not.toContain('(brutto)');
}

// ── documents rendered from the frozen snapshot ─────────────────────────────────────────────────────

describe('invoices and credit notes per tax treatment (rendering)', () => {
  let dir = '';
  let results = new Map<string, ValidationResult>();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'xrechnung-tax-'));
    // Each rate and text variant's invoice; credit notes (another document type) once per category.
    results = await validateAll(TAX_SAMPLE_NAMES.flatMap((name) => [
      ...(VALIDATED_INVOICE_SAMPLES.includes(name) ? [[name, taxedInvoiceDocument(name)]] : []),
      ...(CREDIT_NOTE_SAMPLES.includes(name) ? [[`${name}-credit-note`, taxedCreditNoteDocument(name)]] : []),
    ] as [string, InvoiceDocument][]), dir);
  }, 300_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(VALIDATED_INVOICE_SAMPLES)('%s: the invoice passes the XRechnung validator', (name) => {
    expectPass(results.get(name));
  });

  it.each(CREDIT_NOTE_SAMPLES)('%s: the credit note passes the XRechnung validator', (name) => {
    expectPass(results.get(`${name}-credit-note`));
  });

  it.each(TAX_SAMPLE_NAMES)('%s: category, rate, VAT IDs and texts in the XML and on the PDF, for the invoice and the credit note', async (name) => {
    await expectTreatment(name, taxedInvoiceDocument(name), { amounts: true });
    const note = taxedCreditNoteDocument(name);
    await expectTreatment(name, note, { amounts: true });
    expect(flat(await pdfText(note))).toContain('Gutschrift GS-2026-000001');
  });

  it('a German invoice prints no tax note, and a document issued before issue 24 (no decision) renders as before', async () => {
    const german = flat(await pdfText(taxedInvoiceDocument('S-DE')));
    expect(german).not.toContain('Leistungsort');
    expect(german).not.toContain('Steuerschuldnerschaft');
    const legacy = taxedInvoiceDocument('S-DE', { tax: undefined, vatCategory: undefined });
    expect(renderXRechnung(legacy)).toContain('<cbc:ID>S</cbc:ID>');
    expect(flat(await pdfText(legacy))).toContain('zzgl. 19 % USt.');
    // A manual reverse-charge invoice of that time: its exemption text as issued, no "zzgl. 0 %" on paper.
    const legacyReverseCharge = taxedInvoiceDocument('AE-AT', { tax: undefined });
    expect(renderXRechnung(legacyReverseCharge)).toContain('<cbc:TaxExemptionReason>Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)</cbc:TaxExemptionReason>');
    expect(flat(await pdfText(legacyReverseCharge))).toContain('Umsatzsteuer (Reverse Charge)');
  });
});

// ── from the order to the document ──────────────────────────────────────────────────────────────────

interface Profile { country: string; street: string; zipCode: string; city: string; companyName: string; business: boolean; vatId: string | null }
const PROFILES: Record<TaxSample, Profile> = {
  'S-DE': { country: 'DE', street: 'Königsallee 12', zipCode: '40212', city: 'Düsseldorf', companyName: '', business: false, vatId: null },
  'S-FR': { country: 'FR', street: '1 Rue de Rivoli', zipCode: '75001', city: 'Paris', companyName: '', business: false, vatId: null },
  'S-CH': { country: 'CH', street: 'Bahnhofstrasse 1', zipCode: '8001', city: 'Zürich', companyName: '', business: false, vatId: null },
  'S-AT-invalid-id': { country: 'AT', street: 'Ringstraße 1', zipCode: '1010', city: 'Wien', companyName: 'Alpen Hosting GmbH', business: true, vatId: 'ATU12340000' },
  'AE-AT': { country: 'AT', street: 'Ringstraße 1', zipCode: '1010', city: 'Wien', companyName: 'Alpen Hosting GmbH', business: true, vatId: 'ATU12345678' },
  'O-CH-business': { country: 'CH', street: 'Bahnhofstrasse 1', zipCode: '8001', city: 'Zürich', companyName: 'Berg & Tal AG', business: true, vatId: null },
  'O-CH-consumer': { country: 'CH', street: 'Bahnhofstrasse 1', zipCode: '8001', city: 'Zürich', companyName: '', business: false, vatId: null },
  'O-US-business': { country: 'US', street: '1 Main St', zipCode: '10001', city: 'New York', companyName: 'Acme Inc.', business: true, vatId: null },
  'O-US-consumer': { country: 'US', street: '1 Main St', zipCode: '10001', city: 'New York', companyName: '', business: false, vatId: null },
};

let ipCounter = 0;
const nextIp = () => `10.92.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

describeEachDatabase('invoices and credit notes follow the order\'s tax decision (issue 24)', (ctx) => {
  const LIST = priceCents({ os: 'linux', cpu: 2, ram: 4, storage: 50, months: 3 });
  let dir = '';
  // Every document the tests below issue, validated together by the last test: one validator run per
  // database instead of one per test (about 4 CPU-seconds each, issue 26).
  const toValidate: [string, InvoiceDocument | string][] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'xrechnung-tax-db-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function customer(profile: Profile) {
    const user = await createUser(ctx());
    await ctx().database.db.update(users).set({ ...profile, country: profile.country as 'DE' }).where(eq(users.id, user.user.id));
    return user;
  }

  /** A paid order carrying the sample's decision, priced with it, as the checkout leaves it. */
  async function paidOrder(userId: string, sample: TaxSample) {
    const { node } = await seedCapacity(ctx(), { ips: 0 });
    const tax = sampleOrderTax(sample);
    const price = priceFor(LIST, tax);
    const now = new Date();
    const [order] = await ctx().database.db.insert(orders).values({
      userId, kind: 'new', nodeId: node.id, osFamily: 'linux', os: 'Debian 12', cpuCores: 2, ramGb: 4, storageGb: 50, months: 3, holdUntil: now,
      amountCents: price.grossCents, netCents: price.netCents, vatCents: price.vatCents, tax, paymentProvider: 'simulated', status: 'processing',
      paidAt: now, periodStart: now, periodEnd: new Date(now.getTime() + 90 * 86_400_000), cardBrand: 'visa', cardLast4: '4242',
    }).returning();
    return { order: order!, price };
  }

  it('every treatment: the invoice copies the order\'s decision, its credit note follows, both validate and print the texts', async () => {
    const deps = ctx().app.deps;
    const issued: [string, InvoiceDocument][] = [];
    for (const sample of TAX_SAMPLE_NAMES) {
      const user = await customer(PROFILES[sample]);
      const { order, price } = await paidOrder(user.user.id, sample);
      const invoice = await issueInvoice(deps, order.id);
      const tax = sampleOrderTax(sample);
      expect(invoice.grossCents, sample).toBe(price.grossCents);
      expect(invoice.document, sample).toMatchObject({
        vatPercent: tax.ratePercent, vatCategory: tax.category, tax: { category: tax.category, invoiceNote: tax.invoiceNote },
        totals: { netCents: price.netCents, vatCents: price.vatCents, grossCents: price.grossCents },
        buyer: { countryCode: PROFILES[sample].country, vatId: tax.buyerVatId },
      });
      const note = await issueCreditNote(deps, invoice.id, 'Widerruf');
      expect(note.document, sample).toMatchObject({ kind: 'credit_note', vatCategory: tax.category, vatPercent: tax.ratePercent, tax: { category: tax.category }, buyer: { vatId: tax.buyerVatId } });
      await expectTreatment(sample, invoice.document);
      await expectTreatment(sample, note.document);
      issued.push([sample, invoice.document], [`${sample}-credit-note`, note.document]);
    }
    // Every invoice and credit note as issued from the database goes to the validator (the last test).
    expect(issued).toHaveLength(TAX_SAMPLE_NAMES.length * 2);
    toValidate.push(...issued);
  }, 600_000);

  it('an Austrian company with a confirmed VAT ID buys through the checkout: net price, reverse-charge invoice with both IDs and 0 € VAT', async () => {
    const user = await createUser(ctx());
    const call = (opts: InjectOptions) => ctx().app.inject({ ...opts, remoteAddress: nextIp() });
    const profile = await call({
      method: 'PUT', url: '/api/account/profile', headers: user.auth,
      payload: { phone: '', street: 'Ringstraße 1', zipCode: '1010', city: 'Wien', country: 'AT', companyName: 'Alpen Hosting GmbH', industry: 'IT', business: true, vatId: 'ATU12345678' },
    });
    expect(profile.statusCode, profile.body).toBe(200);
    await seedCapacity(ctx(), { ips: 1 });
    const checkout = await postCheckout(ctx(), user.auth, baseOrder);
    expect(checkout.statusCode, checkout.body).toBe(201);
    const { orderId, sessionId } = checkout.json<{ orderId: string; sessionId: string }>();
    await paySimulated(ctx(), sessionId);
    await drainJobs(ctx());

    const net = splitGross(priceCents(baseOrder)).netCents;
    const [order] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ amountCents: net, netCents: net, vatCents: 0 });
    expect(order!.tax).toMatchObject({ category: 'AE', buyerVatId: 'ATU12345678', vatCheck: { status: 'valid' } });
    const [invoice] = await ctx().database.db.select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(invoice?.grossCents).toBe(net);
    const doc = invoice!.document;
    expect(doc).toMatchObject({
      vatCategory: 'AE', vatPercent: 0, totals: { netCents: net, vatCents: 0, grossCents: net },
      buyer: { vatId: 'ATU12345678', countryCode: 'AT', company: 'Alpen Hosting GmbH' }, seller: { vatId: ctx().app.deps.env.company.vatId },
    });
    const xml = renderXRechnung(doc);
    expect(xml).toContain(`<cbc:CompanyID>${doc.seller.vatId}</cbc:CompanyID>`);
    expect(xml).toContain('<cbc:CompanyID>ATU12345678</cbc:CompanyID>');
    expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-AE</cbc:TaxExemptionReasonCode>');
    toValidate.push(['checkout-ae', xml]);
    const text = flat(await pdfText(doc));
    expect(text).toContain('Umsatzsteuer (Reverse Charge)');
    expect(text).toContain('USt-IdNr. des Leistungsempfängers: ATU12345678');
    expect(text).toContain(taxInvoiceNotes.reverseCharge);
    expect(text).not.toMatch(/zzgl\. 0 %/);
    // The mail carries the same documents.
    const mail = ctx().mail.sent.find((m) => m.subject.includes(invoice!.number));
    expect(mail?.attachments?.map((a) => a.contentType)).toEqual(['application/pdf', 'application/xml']);
  }, 120_000);

  it('manual invoices follow the customer\'s decision: a Swiss company gets O, an Austrian company with a confirmed ID gets AE without asking', async () => {
    const staff = await createUser(ctx(), { role: 'employee' });
    const line = { description: 'Einrichtung Mailserver', quantity: 2, unit: 'hour', unitNetCents: 8500 };
    const write = async (userId: string) => {
      const res = await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${userId}/invoices`, headers: staff.auth, payload: { lines: [line] } });
      expect(res.statusCode, res.body).toBe(201);
      const [row] = await ctx().database.db.select().from(invoices).where(eq(invoices.id, res.json<StaffInvoiceCard>().id));
      return row!;
    };
    const swiss = await write((await customer(PROFILES['O-CH-business'])).user.id);
    expect(swiss.grossCents).toBe(17_000);
    expect(swiss.document).toMatchObject({ vatCategory: 'O', vatPercent: 0, totals: { netCents: 17_000, vatCents: 0, grossCents: 17_000 }, buyer: { vatId: null }, tax: { invoiceNote: taxInvoiceNotes.notTaxableBusiness } });
    const austrian = await write((await customer(PROFILES['AE-AT'])).user.id);
    expect(austrian.document).toMatchObject({ vatCategory: 'AE', vatPercent: 0, totals: { vatCents: 0, grossCents: 17_000 }, buyer: { vatId: 'ATU12345678' }, tax: { vatCheck: { status: 'valid' } } });
    const german = await write((await customer(PROFILES['S-DE'])).user.id);
    expect(german.document).toMatchObject({ vatCategory: 'S', vatPercent: 19, totals: { netCents: 17_000, vatCents: 3230, grossCents: 20_230 } });
    const credit = await issueCreditNote(ctx().app.deps, swiss.id, 'Doppelt berechnet');
    expect(credit.document).toMatchObject({ kind: 'credit_note', vatCategory: 'O', payment: { meansCode: '97' } });

    toValidate.push(['manual-o', swiss.document], ['manual-ae', austrian.document], ['manual-s', german.document], ['manual-o-credit-note', credit.document]);
    expect(flat(await pdfText(austrian.document))).toContain('USt-IdNr. des Leistungsempfängers: ATU12345678');
  }, 180_000);

  it('every invoice and credit note issued above passes the official XRechnung rules (one validator run)', async () => {
    // All of them, or a test above failed before handing its documents over.
    expect(toValidate.map(([name]) => name)).toEqual([
      ...TAX_SAMPLE_NAMES.flatMap((sample) => [sample, `${sample}-credit-note`]),
      'checkout-ae', 'manual-o', 'manual-ae', 'manual-s', 'manual-o-credit-note',
    ]);
    const results = await validateAll(toValidate, dir);
    for (const [name] of toValidate) expectPass(results.get(name));
  }, 300_000);
});

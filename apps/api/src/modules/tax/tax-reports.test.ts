import { expect, it } from 'vitest';
import { decideOrderTax, OSS_THRESHOLD_NET_CENTS, priceFor, taxReportMessages, type OrderTax, type TaxCustomer } from '@hp/contract';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { invoices } from '../../db/schema/index.ts';
import type { InvoiceDocument } from '../../db/schema/invoice-document.ts';
import { sampleInvoiceDocument } from '../invoices/invoice-fixtures.ts';
import { ossCsv, ossRows, taxThreshold, zmCsv, zmRows } from './tax-reports.ts';

/**
 * Invoices and credit notes of several quarters and every category, inserted the way `issueInvoice` and
 * `issueCreditNote` write them: the engine's decision (`decideOrderTax`) frozen in `document.tax`, the
 * amounts priced with it (`priceFor`), a credit note a copy of its invoice's document with its own date.
 * List prices are German gross prices: 119,00 € is 100,00 € net for everyone.
 */
const checked = { id: '00000000-0000-4000-8000-0000000000c1', status: 'valid' as const, service: 'simulated', consultationNumber: 'SIM-1', checkedAt: '2026-01-05T09:00:00.000Z' };
const company = (country: TaxCustomer['country'], vatId: string): TaxCustomer => ({ country, business: true, vatId, check: checked });
const consumer = (country: TaxCustomer['country']): TaxCustomer => ({ country, business: false, vatId: null, check: null });
const ABOVE = OSS_THRESHOLD_NET_CENTS + 1;
const NOW = new Date('2026-11-27T12:00:00Z');

let sequence = 0;

async function insertInvoice(ctx: TestContext, userId: string, customer: TaxCustomer | null, issueDate: string, grossCents: number, opts: { crossBorder?: number } = {}) {
  const cross = opts.crossBorder ?? 0;
  const tax: OrderTax | undefined = customer
    ? decideOrderTax(customer, { destinationTaxationOpted: false, swissVatNumber: '' }, { previousYear: cross, currentYear: cross }, issueDate)
    : undefined;
  const base = sampleInvoiceDocument();
  const price = tax ? priceFor(grossCents, tax) : { netCents: Math.round(grossCents / 1.19), vatCents: grossCents - Math.round(grossCents / 1.19), grossCents };
  sequence += 1;
  const number = `RE-T-${String(sequence).padStart(6, '0')}`;
  const document: InvoiceDocument = sampleInvoiceDocument({
    number, issueDate, dueDate: issueDate, periodStart: issueDate,
    buyer: { ...base.buyer, vatId: tax?.buyerVatId ?? null },
    lines: base.lines.map((l) => ({ ...l, netCents: price.netCents, vatPercent: tax?.ratePercent ?? 19 })),
    totals: { netCents: price.netCents, vatCents: price.vatCents, grossCents: price.grossCents, prepaidCents: price.grossCents, dueCents: 0 },
    vatPercent: tax?.ratePercent ?? 19,
    ...(tax ? { vatCategory: tax.category, tax } : {}),
  });
  const [row] = await ctx.database.db.insert(invoices).values({
    kind: 'invoice', number, year: Number(issueDate.slice(0, 4)), sequence, userId, grossCents: price.grossCents,
    issueDate, dueDate: issueDate, document, paidAt: new Date(`${issueDate}T09:00:00Z`),
  }).returning();
  return row!;
}

async function insertCreditNote(ctx: TestContext, invoice: typeof invoices.$inferSelect, issueDate: string) {
  sequence += 1;
  const number = `GS-T-${String(sequence).padStart(6, '0')}`;
  const document: InvoiceDocument = { ...invoice.document, kind: 'credit_note', number, correctsNumber: invoice.number, issueDate, dueDate: issueDate };
  await ctx.database.db.insert(invoices).values({
    kind: 'credit_note', number, year: Number(issueDate.slice(0, 4)), sequence, userId: invoice.userId, correctsInvoiceId: invoice.id,
    grossCents: invoice.grossCents, issueDate, dueDate: issueDate, document,
  });
}

async function seed(ctx: TestContext) {
  const { user } = await createUser(ctx);
  const at = company('AT', 'ATU12345678');
  const fr = consumer('FR');
  // 2025: 8,000 € net to a consumer in Italy, taxed in Germany below the threshold (80 % of it).
  await insertInvoice(ctx, user.id, consumer('IT'), '2025-09-30', 952_000);
  // Q1 2026
  const atQ1 = await insertInvoice(ctx, user.id, at, '2026-02-10', 23_800); // 200 € reverse charge
  const frQ1 = await insertInvoice(ctx, user.id, fr, '2026-03-31', 11_900, { crossBorder: ABOVE }); // 100 € + 20 % OSS, last day of Q1
  // Q2 2026
  await insertInvoice(ctx, user.id, at, '2026-04-01', 11_900); // 100 €, first day of Q2
  await insertInvoice(ctx, user.id, company('AT', 'atu 123 456 78'), '2026-05-15', 5_950); // 50 €, the same ID typed loosely
  const nl = await insertInvoice(ctx, user.id, company('NL', 'NL123456789B01'), '2026-06-30', 23_800);
  await insertCreditNote(ctx, nl, '2026-06-30'); // cancelled within the quarter: no line
  await insertInvoice(ctx, user.id, company('GR', 'EL123456789'), '2026-05-02', 1_190); // 10 €, Greece reports as EL
  await insertCreditNote(ctx, atQ1, '2026-04-20'); // the Q1 invoice of 200 € credited in Q2
  await insertInvoice(ctx, user.id, fr, '2026-04-10', 11_900, { crossBorder: ABOVE }); // 100 € + 20,00 €
  await insertInvoice(ctx, user.id, fr, '2026-06-01', 5_950, { crossBorder: ABOVE }); // 50 € + 10,00 €
  await insertInvoice(ctx, user.id, consumer('FI'), '2026-05-05', 11_900, { crossBorder: ABOVE }); // 100 € + 25,5 %
  await insertCreditNote(ctx, frQ1, '2026-05-20'); // corrects Q1's French sale
  const atConsumer = await insertInvoice(ctx, user.id, consumer('AT'), '2026-04-15', 11_900, { crossBorder: ABOVE });
  await insertCreditNote(ctx, atConsumer, '2026-06-15'); // cancelled within the quarter: no line
  await insertInvoice(ctx, user.id, fr, '2026-05-06', 11_900); // below the threshold: German VAT, counts towards it, no OSS
  await insertInvoice(ctx, user.id, consumer('DE'), '2026-05-07', 11_900);
  await insertInvoice(ctx, user.id, { country: 'CH', business: true, vatId: null, check: null }, '2026-05-08', 11_900); // not taxable in Germany (O)
  await insertInvoice(ctx, user.id, null, '2026-05-09', 11_900); // issued before the tax decision: no `tax`
  await insertInvoice(ctx, user.id, { ...at, check: { ...checked, status: 'invalid' } }, '2026-05-10', 11_900); // ID rejected: billed as a consumer
  // Q3 2026
  await insertInvoice(ctx, user.id, at, '2026-07-01', 11_900);
  await insertInvoice(ctx, user.id, fr, '2026-07-01', 11_900, { crossBorder: ABOVE });
}

const lines = (csv: string) => csv.split('\r\n').slice(0, -1);

describeEachDatabase('tax reports (ZM, OSS, threshold)', (ctx) => {
  let seeded = false;
  const fixture = async () => {
    if (!seeded) await seed(ctx());
    seeded = true;
  };
  const deps = () => ({ db: ctx().database.db, env: ctx().app.deps.env });

  it('the Zusammenfassende Meldung sums the quarter\'s reverse-charge invoices per VAT ID, credit notes subtracting', async () => {
    await fixture();
    const csv = zmCsv(await zmRows(deps(), '2026-Q2'));
    expect(csv.startsWith('\uFEFF')).toBe(true);
    // AT: 100 + 50 (the same ID typed loosely) − 200 (credit note of Q1's invoice) = −50; GR as EL; NL cancelled in the quarter.
    expect(lines(csv.slice(1))).toEqual([
      'Länderkennzeichen;USt-IdNr.;Summe der Bemessungsgrundlagen (EUR);Art der Leistung',
      'AT;ATU12345678;-50,00;S',
      'EL;EL123456789;10,00;S',
    ]);
    expect(lines(zmCsv(await zmRows(deps(), '2026-Q1'))).slice(1)).toEqual(['AT;ATU12345678;200,00;S']);
    expect(lines(zmCsv(await zmRows(deps(), '2026-Q3'))).slice(1)).toEqual(['AT;ATU12345678;100,00;S']);
    expect(lines(zmCsv(await zmRows(deps(), '2025-Q4')))).toHaveLength(1);
  });

  it('the OSS return sums net and VAT per country and rate; a credit note of an earlier quarter is a correction line', async () => {
    await fixture();
    const csv = ossCsv(await ossRows(deps(), '2026-Q2'));
    expect(csv.startsWith('\uFEFF')).toBe(true);
    // FR: 100 + 50 net, 20 + 10 VAT; FI 25,5 %; AT cancelled in the quarter; the French consumer below the threshold paid German VAT (no OSS).
    expect(lines(csv.slice(1))).toEqual([
      'Verbrauchsmitgliedstaat;Land;Steuersatz (%);Bemessungsgrundlage (EUR);Steuerbetrag (EUR);Berichtigung für Zeitraum',
      'FI;Finnland;25,5;100,00;25,50;',
      'FR;Frankreich;20;150,00;30,00;',
      'FR;Frankreich;20;-100,00;-20,00;1. Quartal 2026',
    ]);
    expect(lines(ossCsv(await ossRows(deps(), '2026-Q1'))).slice(1)).toEqual(['FR;Frankreich;20;100,00;20,00;']);
  });

  it('the threshold counts cross-border consumer sales of both years and warns from 80 %', async () => {
    await fixture();
    const t = await taxThreshold(deps(), NOW);
    // 2026: FR 100 + 100 + 50 + 100 (below the threshold) + 100 (Q3), FI 100, AT 100 − 100, credit note FR − 100, the rejected ID's company 100 = 550 €.
    expect(t.previousYear).toEqual({ year: 2025, netCents: 800_000, percent: 80 });
    expect(t.currentYear).toEqual({ year: 2026, netCents: 55_000, percent: 5.5 });
    expect(t.level).toBe('warning');
    expect(t.message).toBe('Achtung: Die Verkäufe an Verbraucher in anderen EU-Staaten haben im Vorjahr (2025) 80 % der Lieferschwelle von 10.000 € erreicht. Wird sie überschritten, gilt ab diesem Verkauf die Umsatzsteuer des Kundenlandes (OSS).');
    expect(t.setting).toBe('threshold');
    const opted = await taxThreshold({ ...deps(), env: { ...deps().env, tax: { ...deps().env.tax, destinationTaxationOpted: true } } }, NOW);
    expect(opted.setting).toBe('destination');
    expect(opted.settingText).toContain('VAT_EU_CONSUMERS=destination');
    // In 2027 the 2025 sales no longer count.
    expect((await taxThreshold(deps(), new Date('2027-01-10T12:00:00Z'))).level).toBe('ok');
  });

  it('serves the reports to the owner only: CSV downloads with a file name, JSON, employees and customers refused', async () => {
    await fixture();
    const owner = await createUser(ctx(), { role: 'owner' });
    const employee = await createUser(ctx(), { role: 'employee' });
    const customer = await createUser(ctx(), { role: 'customer' });
    const urls = ['/api/admin/statistics/tax/threshold', '/api/admin/statistics/tax/reports?quarter=2026-Q2', '/api/admin/statistics/tax/zm.csv?quarter=2026-Q2', '/api/admin/statistics/tax/oss.csv?quarter=2026-Q2'];
    for (const url of urls) {
      expect((await ctx().app.inject({ method: 'GET', url, headers: owner.auth })).statusCode, url).toBe(200);
      expect((await ctx().app.inject({ method: 'GET', url, headers: employee.auth })).statusCode, url).toBe(403);
      expect((await ctx().app.inject({ method: 'GET', url, headers: customer.auth })).statusCode, url).toBe(403);
      expect((await ctx().app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    const zm = await ctx().app.inject({ method: 'GET', url: '/api/admin/statistics/tax/zm.csv?quarter=2026-Q2', headers: owner.auth });
    expect(zm.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(zm.headers['content-disposition']).toBe('attachment; filename="zm-2026-Q2.csv"');
    expect(zm.body).toBe(zmCsv(await zmRows(deps(), '2026-Q2')));
    const oss = await ctx().app.inject({ method: 'GET', url: '/api/admin/statistics/tax/oss.csv?quarter=2026-Q2', headers: owner.auth });
    expect(oss.headers['content-disposition']).toBe('attachment; filename="oss-2026-Q2.csv"');
    expect(oss.body).toBe(ossCsv(await ossRows(deps(), '2026-Q2')));

    const json = (await ctx().app.inject({ method: 'GET', url: '/api/admin/statistics/tax/reports?quarter=2026-Q2', headers: owner.auth })).json();
    expect(json).toMatchObject({ quarter: '2026-Q2', from: '2026-04-01', to: '2026-06-30' });
    expect(json.zm).toEqual([
      { countryCode: 'AT', vatId: 'ATU12345678', netCents: -5_000, invoices: 2, creditNotes: 1 },
      { countryCode: 'EL', vatId: 'EL123456789', netCents: 1_000, invoices: 1, creditNotes: 0 },
    ]);
    expect(json.oss).toHaveLength(3);
    const threshold = (await ctx().app.inject({ method: 'GET', url: '/api/admin/statistics/tax/threshold', headers: owner.auth })).json();
    expect(threshold).toMatchObject({ thresholdCents: 1_000_000, warningPercent: 80, setting: 'threshold' });
  });

  it('refuses a missing or malformed quarter with a German message', async () => {
    const owner = await createUser(ctx(), { role: 'owner' });
    for (const query of ['', '?quarter=2026-Q5', '?quarter=2026-4', '?quarter=Q1-2026', '?quarter=2026-q1', '?quarter=1999-Q1']) {
      for (const file of ['zm.csv', 'oss.csv', 'reports']) {
        const res = await ctx().app.inject({ method: 'GET', url: `/api/admin/statistics/tax/${file}${query}`, headers: owner.auth });
        expect(res.statusCode, `${file}${query}`).toBe(400);
        expect(res.json().error.message, `${file}${query}`).toBe(taxReportMessages.quarterFormat);
      }
    }
  });
});

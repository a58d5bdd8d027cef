import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  formatEuro, INVOICE_UNIT_CODE, INVOICE_UNIT_LABEL, invoiceMessages as im, isEuMember, ManualInvoiceInput, normalizeVatId,
  type OrderTax, type RecordPaymentInput, type StaffInvoiceCard, type StaffInvoicePage,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Env } from '../../env.ts';
import { auditEvents, invoicePayments, invoices, users } from '../../db/schema/index.ts';
import type { InvoiceDocument, InvoiceLine } from '../../db/schema/invoice-document.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { defineJob } from '../../jobs/define.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import { invoiceReminderMail } from '../../drivers/mail/templates.ts';
import { addDays, berlinDate, DUE_DAYS, invoiceFileName, mailInvoiceJob, nextNumber, sellerOf, toInvoiceCard } from './invoices.service.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { renderXRechnung } from './invoice-xrechnung.ts';
import { customerTaxFacts, decideTaxForOrder } from '../tax/tax.service.ts';

/**
 * Invoices that are not prepaid by card (docs/decisions/019): staff write them for a customer with free
 * lines, they take the next number of the same gap-free RE series, are paid by transfer or SEPA and
 * recorded by staff; a reminder goes out on the due date and seven days later while they stay unpaid.
 */

type InvoiceRow = typeof invoices.$inferSelect;
type UserRow = typeof users.$inferSelect;
type ManualDeps = Pick<Deps, 'db' | 'env'>;
type CreateDeps = Pick<Deps, 'db' | 'env' | 'vatCheck'>;

const invalid = (message: string, field?: string) => new AppError(400, 'invalid_input', message, field ? { fields: { [field]: message } } : undefined);

/** Integer cents of quantity × unit price; quantities carry at most two decimals. */
export function lineNetCents(quantity: number, unitNetCents: number): number {
  return Math.round((Math.round(quantity * 100) * unitNetCents) / 100);
}

/**
 * The VAT of a standard-rate total, rounded half up on the whole document (EN 16931 BR-CO-17). Rates
 * carry at most one decimal (8.1 %, 25.5 %): tenths of a percent keep the arithmetic in integers.
 */
export const vatOf = (netCents: number, percent: number) => Math.floor((netCents * Math.round(percent * 10) + 500) / 1000);

/** The net total of the lines as they will be printed (each line rounded to the cent first). */
export function manualNetCents(raw: ManualInvoiceInput): number {
  return ManualInvoiceInput.parse(raw).lines.reduce((sum, line) => sum + lineNetCents(line.quantity, line.unitNetCents), 0);
}

/**
 * The frozen snapshot of a manual invoice: pure, so the validator test renders exactly what is issued.
 * `tax` is the customer's decision (issue 24) for this invoice's net sum, as for an order: it gives the
 * rate, the category, the buyer's VAT ID (reverse charge only) and the texts the renderers print.
 */
export function buildManualDocument(env: Env, customer: UserRow, raw: ManualInvoiceInput, number: string, issue: Date, tax: OrderTax): InvoiceDocument {
  const input = ManualInvoiceInput.parse(raw);
  const vatPercent = tax.ratePercent;
  const lines: InvoiceLine[] = input.lines.map((line, index) => ({
    id: String(index + 1),
    name: line.description,
    description: `${formatQuantity(line.quantity)} ${INVOICE_UNIT_LABEL[line.unit]} × ${formatEuro(line.unitNetCents)} netto`,
    quantity: line.quantity,
    unitCode: INVOICE_UNIT_CODE[line.unit],
    netCents: lineNetCents(line.quantity, line.unitNetCents),
    unitPriceCents: line.unitNetCents,
    vatPercent,
  }));
  const netCents = lines.reduce((sum, l) => sum + l.netCents, 0);
  const vatCents = tax.category === 'S' ? vatOf(netCents, vatPercent) : 0;
  const grossCents = netCents + vatCents;
  const issueDate = berlinDate(issue);
  return {
    kind: 'invoice',
    number,
    correctsNumber: null,
    issueDate,
    dueDate: addDays(issueDate, DUE_DAYS),
    periodStart: input.periodStart ?? issueDate,
    periodEnd: input.periodEnd ?? input.periodStart ?? issueDate,
    currency: 'EUR',
    orderNumber: '',
    seller: sellerOf(env),
    buyer: {
      name: customer.username,
      street: customer.street.trim(),
      postalCode: customer.zipCode.trim(),
      city: customer.city.trim(),
      countryCode: customer.country,
      email: customer.email,
      customerNumber: customer.customerNumber,
      company: customer.companyName.trim() || null,
      vatId: tax.buyerVatId,
    },
    lines,
    totals: { netCents, vatCents, grossCents, prepaidCents: 0, dueCents: grossCents },
    vatPercent,
    vatCategory: tax.category,
    tax,
    payment: {
      meansCode: '58',
      reference: number,
      card: null,
      paidAt: null,
      bank: { iban: env.company.iban, bic: env.company.bic, bankName: env.company.bankName, holder: env.company.name },
    },
    // The tax texts (reverse charge, both VAT IDs, OSS, explanation) come from `tax` when rendered.
    notes: input.note ? [input.note] : [],
  };
}

function formatQuantity(q: number): string {
  return new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2 }).format(q);
}

/** 09:00 in Germany on a calendar day (winter time offset; in summer the job runs an hour later). */
const morningOf = (isoDate: string) => new Date(`${isoDate}T09:00:00+01:00`);

/**
 * Writes, numbers and mails a manual invoice; reminders are queued for the due date and a week later.
 * The tax follows the customer's decision as for an order (issue 24): profile country, business status
 * and VAT ID, checked again when the last check is due (§18e UStG), and the threshold with this
 * invoice's net sum. Staff cannot choose the rate; asking for reverse charge where the decision is not
 * reverse charge is refused with the reason.
 */
export async function createManualInvoice(deps: CreateDeps, staff: Pick<RequestUser, 'id'>, customerId: string, raw: ManualInvoiceInput): Promise<StaffInvoiceCard> {
  const input = ManualInvoiceInput.parse(raw);
  const { db, env } = deps;
  const [profile] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, customerId), eq(users.role, 'customer')));
  if (!profile) throw notFound('Kunde nicht gefunden.');
  // Outside the transaction: the VAT-ID check may ask a slow outside service.
  const facts = await customerTaxFacts(deps, customerId, { recheck: true });
  if (!facts) throw notFound('Kunde nicht gefunden.');
  const netCents = manualNetCents(input);
  const created = await db.transaction(async (tx) => {
    const [customer] = await tx.select().from(users).where(and(eq(users.id, customerId), eq(users.role, 'customer'))).for('update');
    if (!customer) throw notFound('Kunde nicht gefunden.');
    if (!customer.street.trim() || !customer.zipCode.trim() || !customer.city.trim()) throw invalid(im.addressMissing);
    const issue = new Date();
    const tax = await decideTaxForOrder(tx, env.tax, facts, netCents, issue);
    if (input.vatMode === 'reverse_charge') {
      if (!isEuMember(customer.country) || customer.country === 'DE') throw invalid(im.reverseChargeCountry, 'vatMode');
      if (!customer.companyName.trim()) throw invalid(im.reverseChargeCompany, 'vatMode');
      if (tax.category !== 'AE') throw invalid(im.reverseChargeUnconfirmed(tax.explanation ?? null), 'vatMode');
      const asked = input.buyerVatId ? normalizeVatId(customer.country, input.buyerVatId) ?? input.buyerVatId : null;
      if (asked && asked !== tax.buyerVatId) throw invalid(im.reverseChargeOtherVatId(tax.buyerVatId ?? ''), 'buyerVatId');
    }
    const year = Number(berlinDate(issue).slice(0, 4));
    const { sequence, number } = await nextNumber(tx, 'invoice', year);
    const document = buildManualDocument(env, customer, input, number, issue, tax);
    const [invoice] = await tx.insert(invoices).values({
      kind: 'invoice', number, year, sequence, orderId: null, userId: customer.id, source: 'manual', createdBy: staff.id,
      grossCents: document.totals.grossCents, issueDate: document.issueDate, dueDate: document.dueDate, document,
    }).returning();
    await tx.insert(auditEvents).values({
      actorId: staff.id, action: 'invoice.created', targetType: 'customer', targetId: customer.id,
      details: { number, grossCents: document.totals.grossCents, lines: document.lines.length, vatCategory: document.vatCategory },
    });
    await enqueue(tx, mailInvoiceJob, { invoiceId: invoice!.id }, { dedupeKey: `mail-invoice:${invoice!.id}` });
    await enqueue(tx, invoiceReminderJob, { invoiceId: invoice!.id, stage: 1 }, { dedupeKey: `invoice-reminder:${invoice!.id}:1`, runAt: morningOf(document.dueDate) });
    return invoice!;
  });
  return (await staffCards(deps, [created]))[0]!;
}

/**
 * Records a payment. The invoice row is locked, so two staff members booking the same transfer cannot
 * both pass the "open amount" check; the invoice is paid when the payments reach its total.
 */
export async function recordPayment(deps: ManualDeps, staff: Pick<RequestUser, 'id'>, invoiceId: string, input: RecordPaymentInput): Promise<StaffInvoiceCard> {
  const today = berlinDate(new Date());
  const updated = await deps.db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for('update');
    if (!invoice) throw notFound('Rechnung nicht gefunden.');
    if (invoice.kind !== 'invoice') throw new AppError(409, 'conflict', im.notAnInvoice);
    if (invoice.paidAt) throw new AppError(409, 'conflict', im.alreadyPaid);
    if (invoice.creditedAt) throw new AppError(409, 'conflict', im.credited);
    if (input.paidOn > today) throw invalid(im.paymentDateFuture, 'paidOn');
    if (input.paidOn < invoice.issueDate) throw invalid(im.paymentDateBeforeIssue, 'paidOn');
    const [sum] = await tx.select({ paid: sql<number>`coalesce(sum(${invoicePayments.amountCents}), 0)::int` }).from(invoicePayments).where(eq(invoicePayments.invoiceId, invoice.id));
    const open = invoice.grossCents - Number(sum?.paid ?? 0);
    if (input.amountCents > open) throw invalid(im.paymentTooHigh(formatEuro(open)), 'amountCents');
    await tx.insert(invoicePayments).values({ invoiceId: invoice.id, amountCents: input.amountCents, method: input.method, paidOn: input.paidOn, recordedBy: staff.id, note: input.note || null });
    const paidNow = input.amountCents === open;
    const [row] = paidNow ? await tx.update(invoices).set({ paidAt: new Date() }).where(eq(invoices.id, invoice.id)).returning() : [invoice];
    await tx.insert(auditEvents).values({
      actorId: staff.id, action: 'invoice.payment_recorded', targetType: 'customer', targetId: invoice.userId,
      details: { number: invoice.number, amountCents: input.amountCents, method: input.method, paidOn: input.paidOn, paid: paidNow },
    });
    return row!;
  });
  return (await staffCards(deps, [updated]))[0]!;
}

/** All invoices and credit notes of a customer, newest first, with payments and the open amount. */
export async function listCustomerInvoices(deps: Pick<Deps, 'db'>, customerId: string, page: { limit: number; offset: number }): Promise<StaffInvoicePage> {
  const { db } = deps;
  const [customer] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, customerId), eq(users.role, 'customer')));
  if (!customer) throw notFound('Kunde nicht gefunden.');
  const [rows, [total]] = await Promise.all([
    db.select().from(invoices).where(eq(invoices.userId, customerId)).orderBy(desc(invoices.createdAt), desc(invoices.number)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(invoices).where(eq(invoices.userId, customerId)),
  ]);
  return { items: await staffCards(deps, rows), total: total?.total ?? 0 };
}

async function staffCards({ db }: Pick<Deps, 'db'>, rows: InvoiceRow[]): Promise<StaffInvoiceCard[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [payments, notes] = await Promise.all([
    db.select().from(invoicePayments).where(inArray(invoicePayments.invoiceId, ids)).orderBy(asc(invoicePayments.paidOn), asc(invoicePayments.createdAt)),
    db.select({ number: invoices.number, corrects: invoices.correctsInvoiceId }).from(invoices).where(and(inArray(invoices.correctsInvoiceId, ids), eq(invoices.kind, 'credit_note'))),
  ]);
  return rows.map((row) => {
    const own = payments.filter((p) => p.invoiceId === row.id);
    const paidCents = own.reduce((sum, p) => sum + p.amountCents, 0);
    const card = toInvoiceCard(row);
    return {
      ...card,
      source: row.source,
      paidCents,
      openCents: card.state === 'open' || card.state === 'overdue' ? row.grossCents - paidCents : 0,
      creditNoteNumber: notes.find((n) => n.corrects === row.id)?.number ?? null,
      payments: own.map((p) => ({ paidOn: p.paidOn, amountCents: p.amountCents, method: p.method })),
    };
  });
}

// ── Reminders ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Stage 1 runs on the due date, stage 2 seven days later. Each checks the state when it runs: an invoice
 * paid or credited in between gets no mail. Stage 1 queues stage 2 (dedupe key: at most once each).
 */
export const invoiceReminderJob = defineJob(jobKind('invoice-reminder', z.object({ invoiceId: z.string(), stage: z.union([z.literal(1), z.literal(2)]) })), async (deps, { invoiceId, stage }) => {
  const [invoice] = await deps.db.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice) throw new PermanentJobError('invoice missing');
  if (invoice.kind !== 'invoice' || invoice.paidAt || invoice.creditedAt) return;
  const [customer] = await deps.db.select({ email: users.email, name: users.username }).from(users).where(eq(users.id, invoice.userId));
  if (!customer) throw new PermanentJobError('customer missing');
  const [sum] = await deps.db.select({ paid: sql<number>`coalesce(sum(${invoicePayments.amountCents}), 0)::int` }).from(invoicePayments).where(eq(invoicePayments.invoiceId, invoice.id));
  const open = invoice.grossCents - Number(sum?.paid ?? 0);
  // Queued before the mail: a retry after a failed send finds it there (dedupe) instead of mailing twice.
  if (stage === 1) {
    // A week after the due date, and never sooner than a week after this one (a queue that was down
    // for days must not send both reminders at once).
    const planned = morningOf(addDays(invoice.dueDate, 7));
    const spaced = new Date(Date.now() + 7 * 86_400_000);
    await enqueue(deps.db, invoiceReminderJob, { invoiceId, stage: 2 }, { dedupeKey: `invoice-reminder:${invoiceId}:2`, runAt: planned > spaced ? planned : spaced });
  }
  const pdf = await renderInvoicePdf(invoice.document);
  const xml = Buffer.from(renderXRechnung(invoice.document), 'utf8');
  await deps.mail.send(invoiceReminderMail(customer.email, invoice.document.buyer.name, invoice.number, formatEuro(open), new Date(`${invoice.dueDate}T12:00:00Z`), stage, [
    { filename: invoiceFileName(invoice, 'pdf'), content: pdf, contentType: 'application/pdf' },
    { filename: invoiceFileName(invoice, 'xml'), content: xml, contentType: 'application/xml' },
  ]));
});

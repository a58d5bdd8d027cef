import { and, count, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatEuro, LEGACY_ORDER_TAX, type OrderTax, type InvoiceCard, type InvoiceList, type InvoiceState } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import { invoicePayments, invoices, orders, users } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { defineJob } from '../../jobs/define.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import { invoiceMail } from '../../drivers/mail/templates.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { renderXRechnung } from './invoice-xrechnung.ts';
import type { InvoiceDocument } from '../../db/schema/invoice-document.ts';


type InvoiceRow = typeof invoices.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

const PREFIX = { invoice: 'RE', credit_note: 'GS' } as const;
/** Payment terms of every invoice: due 15 days after issue (portal spec §9, the invoice screens). */
export const DUE_DAYS = 15;

export { addDays, berlinDate } from '../../lib/berlin-date.ts';
import { addDays, berlinDate } from '../../lib/berlin-date.ts';

/**
 * The next number of a kind in the year: the counter row is locked by the UPDATE until the caller's
 * transaction ends, so numbers are unique and, because a rollback also undoes the increment, gap-free.
 */
export async function nextNumber(tx: Tx, kind: 'invoice' | 'credit_note', year: number) {
  await tx.execute(sql`insert into invoice_counters (kind, year, last) values (${kind}, ${year}, 0) on conflict (kind, year) do nothing`);
  const result = await tx.execute<{ last: number }>(sql`update invoice_counters set last = last + 1 where kind = ${kind} and year = ${year} returning last`);
  const sequence = Number((result as unknown as { rows: { last: number }[] }).rows[0]!.last);
  return { sequence, number: `${PREFIX[kind]}-${year}-${String(sequence).padStart(6, '0')}` };
}

export function sellerOf(env: Env): InvoiceDocument['seller'] {
  const c = env.company;
  const zipCity = /^\s*(\S+)\s+(.+)$/.exec(c.zipCity);
  return {
    name: c.name, street: c.street,
    postalCode: zipCity?.[1] ?? c.zipCity, city: zipCity?.[2] ?? c.zipCity,
    countryCode: c.countryCode,
    email: c.email, phone: c.phone, managingDirector: c.managingDirector, register: c.register, vatId: c.vatId, taxNumber: c.taxNumber,
  };
}

function buyerOf(order: OrderRow, user: typeof users.$inferSelect, tax: OrderTax): InvoiceDocument['buyer'] {
  // The billing address entered at payment wins; the profile fills what the payment did not ask for.
  // But the tax decision rests on the profile's country (issue 24): when the payment's address is in
  // another country, the address frozen with the decision is printed, so the document and its tax agree;
  // the company is the one the decision was made for (a reverse-charge invoice names the business).
  const billing = order.billingAddress;
  const frozen = order.tax?.buyerAddress;
  const elsewhere = Boolean(order.tax && billing?.country && billing.country.toUpperCase() !== tax.customerCountry);
  const a = elsewhere ? null : billing;
  return {
    name: order.billingName?.trim() || user.username,
    street: a?.line1?.trim() || (elsewhere && frozen ? frozen.street : user.street) || '–',
    postalCode: a?.postalCode?.trim() || (elsewhere && frozen ? frozen.zipCode : user.zipCode) || '–',
    city: a?.city?.trim() || (elsewhere && frozen ? frozen.city : user.city) || '–',
    countryCode: (a?.country || (order.tax ? tax.customerCountry : user.country) || 'DE').toUpperCase(),
    email: user.email,
    customerNumber: user.customerNumber,
    company: (frozen ? frozen.company : user.companyName.trim()) || null,
    vatId: tax.buyerVatId,
  };
}

function buildDocument({ env, products }: Pick<Deps, 'env' | 'products'>, order: OrderRow, user: typeof users.$inferSelect, number: string, issue: Date): InvoiceDocument {
  const issueDate = berlinDate(issue);
  // The order's tax decision (issue 24) made the amounts; older orders were German VAT at 19 %.
  const tax = order.tax ?? LEGACY_ORDER_TAX;
  const split = { netCents: order.netCents, vatCents: order.vatCents, grossCents: order.amountCents };
  const start = order.periodStart ?? order.paidAt ?? issue;
  const end = order.periodEnd ?? start;
  const line = products.ofOrder(order).invoiceLine(order);
  const quantity = line.quantity ?? order.months;
  const unitPriceCents = Math.round(split.netCents / quantity);
  const card = order.cardLast4 ? { brand: (order.cardBrand ?? 'card').toUpperCase(), last4: order.cardLast4, holder: order.billingName?.trim() || user.username } : null;
  return {
    kind: 'invoice',
    number,
    correctsNumber: null,
    issueDate,
    dueDate: addDays(issueDate, DUE_DAYS),
    periodStart: berlinDate(start),
    // The term ends at the start of its last day; the period on paper is inclusive.
    periodEnd: berlinDate(new Date(end.getTime() - 1000)),
    currency: 'EUR',
    orderNumber: String(order.number),
    seller: sellerOf(env),
    buyer: buyerOf(order, user, tax),
    lines: [{
      id: '1',
      name: line.name,
      description: line.description,
      quantity,
      unitCode: line.unitCode ?? 'MON',
      netCents: split.netCents,
      unitPriceCents,
      vatPercent: tax.ratePercent,
    }],
    totals: { netCents: split.netCents, vatCents: split.vatCents, grossCents: split.grossCents, prepaidCents: order.paidAt ? split.grossCents : 0, dueCents: order.paidAt ? 0 : split.grossCents },
    vatPercent: tax.ratePercent,
    vatCategory: tax.category,
    tax,
    payment: { meansCode: '54', reference: order.paymentSessionId ?? `order-${order.id}`, card, paidAt: order.paidAt?.toISOString() ?? null },
    notes: order.paidAt ? [`Bereits per Kreditkarte bezahlt am ${issueDate.split('-').reverse().join('.')}. Es ist keine Zahlung mehr offen.`] : [],
  };
}

/** The order failed (or was refunded) before its invoice was issued: it gets none. */
export class NotInvoiceableError extends Error {
  constructor(status: string) {
    super(`order is ${status}: no invoice`);
  }
}

/** Issues the invoice of a paid order, once (the unique index per order is the last line of defence). */
export async function issueInvoice(deps: Pick<Deps, 'db' | 'env' | 'products'>, orderId: string): Promise<InvoiceRow> {
  const { db } = deps;
  return db.transaction(async (tx) => {
    // The order row lock serialises issuing per order; only then is "already issued?" a safe question.
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw notFound();
    const [existing] = await tx.select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice')));
    if (existing) return existing;
    if (!order.paidAt) throw new Error('order is not paid');
    // A paid order that failed is refunded instead (decision 023): under this lock, so the refund job
    // sees the invoice question settled.
    if (order.status === 'failed' || order.status === 'refunded' || order.status === 'cancelled') throw new NotInvoiceableError(order.status);
    const [user] = await tx.select().from(users).where(eq(users.id, order.userId));
    const issue = new Date();
    const year = Number(berlinDate(issue).slice(0, 4));
    const { sequence, number } = await nextNumber(tx, 'invoice', year);
    const document = buildDocument(deps, order, user!, number, issue);
    const [invoice] = await tx.insert(invoices).values({
      kind: 'invoice', number, year, sequence, orderId, userId: order.userId, grossCents: order.amountCents,
      issueDate: document.issueDate, dueDate: document.dueDate, document,
      // Card orders are paid before the invoice exists: paid at issue, with the card payment on record.
      paidAt: issue,
    }).returning();
    await tx.insert(invoicePayments).values({ invoiceId: invoice!.id, amountCents: order.amountCents, method: 'card', paidOn: berlinDate(order.paidAt) });
    await enqueue(tx, mailInvoiceJob, { invoiceId: invoice!.id }, { dedupeKey: `mail-invoice:${invoice!.id}` });
    return invoice!;
  });
}

/**
 * Corrects an issued invoice in full: a credit note with its own gap-free number that references the
 * invoice. The invoice itself is never changed. The order is marked refunded.
 */
export async function issueCreditNote(deps: Pick<Deps, 'db' | 'env'>, invoiceId: string, reason: string): Promise<InvoiceRow> {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(and(eq(invoices.id, invoiceId), eq(invoices.kind, 'invoice'))).for('update');
    if (!invoice) throw notFound();
    const [existing] = await tx.select().from(invoices).where(and(eq(invoices.correctsInvoiceId, invoiceId), eq(invoices.kind, 'credit_note')));
    if (existing) return existing;
    const issue = new Date();
    const year = Number(berlinDate(issue).slice(0, 4));
    const { sequence, number } = await nextNumber(tx, 'credit_note', year);
    const source = invoice.document;
    const issueDate = berlinDate(issue);
    const manual = source.payment.meansCode !== '54';
    let notes = [`Gutschrift zu Rechnung ${source.number}: ${reason}`, `Der Betrag von ${formatEuro(source.totals.grossCents)} wird auf das ursprüngliche Zahlungsmittel erstattet.`];
    if (manual) {
      // A transfer invoice is cleared against the credit note; what was already paid goes back by transfer.
      const [sum] = await tx.select({ paid: sql<number>`coalesce(sum(${invoicePayments.amountCents}), 0)::int` }).from(invoicePayments).where(eq(invoicePayments.invoiceId, invoice.id));
      const paid = Number(sum?.paid ?? 0);
      notes = [`Gutschrift zu Rechnung ${source.number}: ${reason}`, paid > 0
        ? `Die Rechnung ${source.number} ist damit ausgeglichen. Bereits gezahlte ${formatEuro(paid)} erstatten wir per Überweisung.`
        : `Die Rechnung ${source.number} ist damit ausgeglichen; es ist keine Zahlung mehr offen.`];
    }
    const document: InvoiceDocument = {
      ...source,
      kind: 'credit_note',
      number,
      correctsNumber: source.number,
      issueDate,
      dueDate: addDays(issueDate, DUE_DAYS),
      totals: { ...source.totals, prepaidCents: 0, dueCents: source.totals.grossCents },
      payment: manual ? { ...source.payment, meansCode: '97', bank: null, reference: source.number } : { ...source.payment },
      notes,
    };
    const [note] = await tx.insert(invoices).values({
      kind: 'credit_note', number, year, sequence, orderId: invoice.orderId, userId: invoice.userId, correctsInvoiceId: invoice.id,
      grossCents: invoice.grossCents, issueDate, dueDate: document.dueDate, document,
    }).returning();
    await tx.update(invoices).set({ creditedAt: issue }).where(eq(invoices.id, invoice.id));
    if (invoice.orderId) await tx.update(orders).set({ status: 'refunded' }).where(eq(orders.id, invoice.orderId));
    await enqueue(tx, mailInvoiceJob, { invoiceId: note!.id }, { dedupeKey: `mail-invoice:${note!.id}` });
    return note!;
  });
}

/** The payment state on a Berlin calendar day (YYYY-MM-DD); null for credit notes. */
export function invoiceState(row: Pick<InvoiceRow, 'kind' | 'paidAt' | 'creditedAt' | 'dueDate'>, today = berlinDate(new Date())): InvoiceState | null {
  if (row.kind !== 'invoice') return null;
  // A credit note cancels the invoice whether or not it was paid (a refunded card payment): "Gutgeschrieben".
  if (row.creditedAt) return 'credited';
  if (row.paidAt) return 'paid';
  return row.dueDate < today ? 'overdue' : 'open';
}

export const toInvoiceCard = (row: InvoiceRow): InvoiceCard => ({
  id: row.id,
  number: row.number,
  kind: row.kind,
  product: row.document.lines[0]?.name ?? '–',
  date: row.issueDate,
  dueDate: row.dueDate,
  amountCents: row.kind === 'credit_note' ? -row.grossCents : row.grossCents,
  orderId: row.orderId,
  paid: row.kind === 'invoice' ? row.paidAt !== null : true,
  state: invoiceState(row),
});

export async function listInvoices({ db }: Pick<Deps, 'db'>, user: RequestUser, page: { limit: number; offset: number }): Promise<InvoiceList> {
  const [rows, [total]] = await Promise.all([
    db.select().from(invoices).where(eq(invoices.userId, user.id)).orderBy(desc(invoices.createdAt), desc(invoices.number)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(invoices).where(eq(invoices.userId, user.id)),
  ]);
  return { items: rows.map(toInvoiceCard), total: total?.total ?? 0 };
}

/** The invoice for a download: the owner's own, or any for staff. Others get 404. */
export async function findInvoiceForDownload({ db }: Pick<Deps, 'db'>, user: RequestUser, id: string): Promise<InvoiceRow> {
  const staff = user.role === 'employee' || user.role === 'owner';
  const [row] = await db.select().from(invoices).where(staff ? eq(invoices.id, id) : and(eq(invoices.id, id), eq(invoices.userId, user.id)));
  if (!row) throw notFound('Rechnung nicht gefunden.');
  return row;
}

/** Server-built file names only (no user input reaches them). */
export const invoiceFileName = (row: InvoiceRow, ext: 'pdf' | 'xml') => `${row.kind === 'credit_note' ? 'Gutschrift' : 'Rechnung'}-${row.number}.${ext}`;

// ── Jobs ───────────────────────────────────────────────────────────────────────────────────────────

/** Issues the invoice of a paid order (enqueued with the payment, payments.service.ts). */
export const issueInvoiceJob = defineJob(jobKind('issue-invoice', z.object({ orderId: z.string() })), async (deps, { orderId }) => {
  try {
    await issueInvoice(deps, orderId);
  } catch (err) {
    if (!(err instanceof NotInvoiceableError)) throw err;
  }
});

/** Mails an issued invoice or credit note with its PDF and XRechnung, once. */
export const mailInvoiceJob = defineJob(jobKind('mail-invoice', z.object({ invoiceId: z.string() })), async (deps, { invoiceId }) => {
  const [row] = await deps.db.select({ invoice: invoices }).from(invoices).where(eq(invoices.id, invoiceId));
  if (!row) throw new PermanentJobError('invoice missing');
  if (row.invoice.mailedAt) return;
  const { invoice } = row;
  const pdf = await renderInvoicePdf(invoice.document);
  const xml = Buffer.from(renderXRechnung(invoice.document), 'utf8');
  const byCard = invoice.document.payment.meansCode === '54';
  await deps.mail.send(invoiceMail(invoice.document.buyer.email, invoice.document.buyer.name, invoice.kind, invoice.number, formatEuro(invoice.grossCents), [
    { filename: invoiceFileName(invoice, 'pdf'), content: pdf, contentType: 'application/pdf' },
    { filename: invoiceFileName(invoice, 'xml'), content: xml, contentType: 'application/xml' },
  ], byCard ? { paidByCard: true } : { paidByCard: false, dueDate: new Date(`${invoice.dueDate}T12:00:00Z`) }));
  await deps.db.update(invoices).set({ mailedAt: new Date() }).where(eq(invoices.id, invoice.id));
});

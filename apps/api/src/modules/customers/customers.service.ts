import type { Db } from '../../db/client.ts';
import { and, count, desc, eq, inArray, isNull, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  customerDetailMessages as dm,
  resolvePaging,
  type CreateCustomerNoteInput,
  type CustomerDetail,
  type CustomerExportQuery,
  type CustomerListQuery,
  type CustomerNote,
  type CustomerPage,
  isEuMember, normalizeVatId, profileMessages,
  type CustomerOrderPage,
  type CustomerRow,
  type CustomerAuditEntry,
  type LockCustomerInput,
  type UpdateCustomerInput,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { contactChanged } from '../products/registry.ts';
import { auditEvents, customerNotes, invoices, orders, tickets, users } from '../../db/schema/index.ts';
import { findAudit } from '../audit/audit.service.ts';
import { listCommunications } from './communications.ts';
import { pendingEmailOf } from './email-change.ts';
import { revokeAllSessions } from '../auth/sessions.ts';
import { badRequest } from '../../http/errors.ts';
import { notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { containsPattern } from '../../lib/like.ts';
import { CSV_BOM, csvRow } from '../../lib/csv.ts';
import { latestCheck } from '../tax/vat-id.service.ts';
import { taxViewFor } from '../tax/tax.service.ts';

type CustomerDeps = Pick<Deps, 'db' | 'env' | 'products'>;

/** Rows of one CSV export at most (a spreadsheet's practical size; the filter narrows it). */
export const EXPORT_LIMIT = 100_000;

const isCustomer = eq(users.role, 'customer');
/** Deleted (anonymised) accounts leave the overview, the search and the export, and take no changes. */
const isActiveCustomer = and(isCustomer, isNull(users.deletedAt));

/** Name, e-mail or customer number contain the term, case-insensitively (trigram indexes, migration 0013). */
function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const pattern = containsPattern(q);
  return or(
    sql`${users.username} ilike ${pattern}`,
    sql`${users.email} ilike ${pattern}`,
    sql`(${users.customerNumber})::text ilike ${pattern}`,
  );
}

/** The columns an order reads: the table's, or those of a subquery that selected them. */
type SortColumns = Record<'createdAt' | 'username' | 'lastLoginAt' | 'customerNumber', AnyColumn>;
const tableSort: SortColumns = { createdAt: users.createdAt, username: users.username, lastLoginAt: users.lastLoginAt, customerNumber: users.customerNumber };

/**
 * Each order matches an index among customers (migrations 0013, customer_bench_indexes and 0040): created_at
 * and lower(username) are never null, so their descending order is a backward scan (a "nulls last" there
 * would change nothing but the plan: a sort of every customer); the last login may be null and keeps
 * "never signed in" last in both directions, with one index per direction.
 */
function orderBy(sort: string | undefined, c: SortColumns = tableSort): SQL[] {
  const value = sort ?? '-createdAt';
  const descending = value.startsWith('-');
  const field = descending ? value.slice(1) : value;
  const nullable = field === 'lastLogin';
  const column = field === 'name' ? sql`lower(${c.username})` : nullable ? c.lastLoginAt : c.createdAt;
  const primary = descending ? sql`${column} desc${nullable ? sql` nulls last` : sql``}` : sql`${column} asc nulls last`;
  return [primary, descending ? sql`${c.customerNumber} desc` : sql`${c.customerNumber} asc`];
}

const columns = {
  id: users.id, customerNumber: users.customerNumber, name: users.username, email: users.email,
  companyName: users.companyName, business: users.business, createdAt: users.createdAt, lastLoginAt: users.lastLoginAt,
};

// "Firmenkunde" is the customer's own business status (issue 24: it decides the tax), not the mere
// presence of a company name.
const toRow = (r: { id: string; customerNumber: number; name: string; email: string; companyName: string; business: boolean; createdAt: Date; lastLoginAt: Date | null }): CustomerRow => ({
  id: r.id, customerNumber: r.customerNumber, name: r.name, email: r.email, companyName: r.companyName,
  kind: r.business ? 'business' : 'private',
  createdAt: r.createdAt.toISOString(), lastLoginAt: r.lastLoginAt ? r.lastLoginAt.toISOString() : null,
});

/** Spec "Customer overview": customer accounts only (not staff), searched, sorted and paged on the server. */
/**
 * The overview counts matches only this far (plus ten pages beyond the one shown): a count over every
 * customer read the whole table (63 ms at 100,000). Beyond it the page says "mehr als …".
 */
export const CUSTOMER_COUNT_CAP = 10_000;

export async function findCustomers({ db }: CustomerDeps, query: CustomerListQuery, opts: { countCap?: number } = {}): Promise<CustomerPage> {
  const paging = resolvePaging(query);
  const cap = opts.countCap ?? Math.max(CUSTOMER_COUNT_CAP, paging.offset + paging.limit * 10);
  const where = and(isActiveCustomer, searchCondition(paging.q));
  const pageOf = (rows: Parameters<typeof toRow>[0][], counted: number): CustomerPage => ({
    items: rows.map(toRow), total: Math.min(counted, cap), ...(counted > cap ? { totalCapped: true } : {}), page: paging.page, pageSize: paging.pageSize,
  });
  const countMatches = async () => {
    const [total] = await db.select({ total: count() }).from(db.select({ one: sql`1` }).from(users).where(where).limit(cap + 1).as('matches'));
    return total?.total ?? 0;
  };
  // Walking the sort's index: the page's keys first, then only those rows (an offset over whole rows would
  // read every skipped customer from the table). Without a search term the keys come from an index-only scan
  // of the sort's index, cheap even deep down.
  const walk = () => db.select(columns).from(users)
    .where(inArray(users.customerNumber, db.select({ customerNumber: users.customerNumber }).from(users).where(where).orderBy(...orderBy(query.sort)).limit(paging.limit).offset(paging.offset)))
    .orderBy(...orderBy(query.sort));
  if (!paging.q) {
    const [rows, counted] = await Promise.all([walk(), countMatches()]);
    return pageOf(rows, counted);
  }

  // A search collects its matches (from the trigram indexes, at most cap + 1 of them), counts and sorts them.
  // Walking the sort's index and filtering, the plan PostgreSQL picks for a term it expects often, reads up to
  // the whole index when the matches sit together in that order: "michae" sorted by name (1,700 matches, all
  // among the names beginning "michael") took 120 ms at 100,000 customers, collected 5–8 ms (docs/benchmarks.md,
  // session 27). The limit inside keeps the planner from merging the two steps again. Only a term with more
  // matches than the cap, common enough for a walk to meet its 25 early, is then walked.
  const matches = db.select(columns).from(users).where(where).limit(cap + 1).as('matches');
  const collected = await db.select({
    id: matches.id, customerNumber: matches.customerNumber, name: matches.name, email: matches.email, companyName: matches.companyName,
    business: matches.business, createdAt: matches.createdAt, lastLoginAt: matches.lastLoginAt, matched: sql<number>`count(*) over ()`.mapWith(Number),
  }).from(matches)
    .orderBy(...orderBy(query.sort, { createdAt: matches.createdAt, username: matches.name, lastLoginAt: matches.lastLoginAt, customerNumber: matches.customerNumber }))
    .limit(paging.limit).offset(paging.offset);
  // A page past the last match has no row to carry the count.
  const counted = collected[0]?.matched ?? (paging.offset > 0 ? await countMatches() : 0);
  return pageOf(counted > cap ? await walk() : collected, counted);
}

const dateDe = (d: Date | null) => (d ? d.toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Berlin' }) : '');

/** The CSV of the current search and sort (no paging), formula-escaped (lib/csv.ts). */
export async function exportCustomersCsv({ db }: CustomerDeps, query: CustomerExportQuery): Promise<string> {
  const rows = await db.select(columns).from(users).where(and(isActiveCustomer, searchCondition(query.q || undefined)))
    .orderBy(...orderBy(query.sort)).limit(EXPORT_LIMIT);
  let out = CSV_BOM + csvRow(['Kundennummer', 'Name', 'E-Mail', 'Firma', 'Kundenart', 'Kunde seit', 'Letzte Anmeldung']);
  for (const r of rows) {
    const row = toRow(r);
    out += csvRow([row.customerNumber, row.name, row.email, row.companyName, row.kind === 'business' ? 'Firmenkunde' : 'Privatkunde', dateDe(r.createdAt), dateDe(r.lastLoginAt)]);
  }
  return out;
}

const authors = alias(users, 'authors');
const netOf = sql`(${invoices.document}->'totals'->>'netCents')::bigint`;
/** What is still open of an unpaid, uncredited invoice: its total minus the payments recorded so far. */
const openOf = sql`case when "invoices"."kind" = 'invoice' and "invoices"."paid_at" is null and "invoices"."credited_at" is null
  then "invoices"."gross_cents" - coalesce((select sum(p.amount_cents) from invoice_payments p where p.invoice_id = "invoices"."id"), 0) else 0 end`;
/** Revenue counts paid invoices; a credit note takes back what its (paid) invoice brought. */
const revenueOf = sql`case
  when "invoices"."kind" = 'invoice' and "invoices"."paid_at" is not null then ${netOf}
  when "invoices"."kind" = 'credit_note' and exists (select 1 from invoices c where c.id = "invoices"."corrects_invoice_id" and c.paid_at is not null) then -abs(${netOf})
  else 0 end`;

async function notesOf({ db }: CustomerDeps, customerId: string): Promise<CustomerNote[]> {
  const rows = await db.select({ id: customerNotes.id, body: customerNotes.body, author: authors.username, createdAt: customerNotes.createdAt })
    .from(customerNotes).innerJoin(authors, eq(authors.id, customerNotes.authorId))
    .where(eq(customerNotes.customerId, customerId)).orderBy(desc(customerNotes.createdAt), desc(customerNotes.id)).limit(50);
  return rows.map((r) => ({ id: r.id, body: r.body, author: r.author, createdAt: r.createdAt.toISOString() }));
}

/** The customer detail's overview, from real data (issue 11). Staff accounts are not customers: 404. */
export async function getCustomer(deps: CustomerDeps, id: string): Promise<CustomerDetail> {
  const { db } = deps;
  const [user] = await db.select().from(users).where(and(eq(users.id, id), isCustomer));
  if (!user) throw notFound(dm.notFound);
  // One connection in one read-only snapshot: the queries of one page view run one after another on it
  // (pg does not pipeline; queuing several at once on one client is deprecated) instead of taking ten of
  // the pool's connections at once, and every part shows the same moment.
  const { openTickets, recentOrders, money, notes, audit, contacts, pendingEmail, vatCheck, productSections } = await db.transaction(async (tx) => {
    const on = { ...deps, db: tx as unknown as Db };
    const openTickets = await tx.select({ id: tickets.id, title: tickets.title, status: tickets.status, createdAt: tickets.createdAt }).from(tickets)
      .where(and(eq(tickets.customerId, id), ne(tickets.status, 'closed'))).orderBy(desc(tickets.createdAt)).limit(20);
    const recentOrders = await tx.select({ id: orders.id, number: orders.number, product: orders.product, kind: orders.kind, status: orders.status, grossCents: orders.amountCents, createdAt: orders.createdAt }).from(orders)
      .where(eq(orders.userId, id)).orderBy(desc(orders.createdAt)).limit(3);
    const [money] = await tx.select({
      revenue: sql<string>`coalesce(sum(${revenueOf}), 0)`,
      open: sql<string>`coalesce(sum(${openOf}), 0)`,
    }).from(invoices).where(and(eq(invoices.userId, id), inArray(invoices.kind, ['invoice', 'credit_note'])));
    const notes = await notesOf(on, id);
    const audit = await findAudit(tx, { type: 'customer', id }, 30);
    const contacts = await listCommunications(on, id);
    const pendingEmail = user.deletedAt ? null : await pendingEmailOf(tx, id);
    const vatCheck = await latestCheck(on, id);
    // Every product's section in the registry's order, each from the product's own table (decision 035).
    const productSections: CustomerDetail['productSections'] = [];
    for (const { kind, staffSection } of deps.products.all()) {
      productSections.push({ kind, title: staffSection.title, empty: staffSection.empty, items: await staffSection.items(tx as unknown as Db, id) });
    }
    return { openTickets, recentOrders, money, notes, audit, contacts, pendingEmail, vatCheck, productSections };
  }, { isolationLevel: 'repeatable read', accessMode: 'read only' });
  const tax = await taxViewFor(deps, id);
  return {
    ...toRow({ id: user.id, customerNumber: user.customerNumber, name: user.username, email: user.email, companyName: user.companyName, business: user.business, createdAt: user.createdAt, lastLoginAt: user.lastLoginAt }),
    phone: user.phone, industry: user.industry,
    address: { street: user.street, zipCode: user.zipCode, city: user.city, country: user.country },
    business: user.business,
    vatId: user.vatId,
    vatCheck: vatCheck && {
      status: vatCheck.status, country: vatCheck.country, vatId: vatCheck.vatId, service: vatCheck.service, consultationNumber: vatCheck.consultationNumber,
      checkedAt: vatCheck.checkedAt.toISOString(), matches: vatCheck.matches, message: vatCheck.message,
    },
    tax,
    disabled: user.disabledAt !== null,
    deletedAt: user.deletedAt ? user.deletedAt.toISOString() : null,
    pendingEmail,
    productSections,
    openTickets: openTickets.map((t) => ({ ...t, createdAt: t.createdAt.toISOString() })),
    recentOrders: recentOrders.map((o) => ({ ...o, product: deps.products.of(o.product).name, createdAt: o.createdAt.toISOString() })),
    revenueNetCents: Number(money?.revenue ?? 0),
    openCents: Number(money?.open ?? 0),
    notes,
    audit: audit.map((a): CustomerAuditEntry => ({
      action: a.action, actor: a.actor, at: a.at,
      changes: Array.isArray(a.details.changes) ? (a.details.changes as CustomerAuditEntry['changes']) : [],
    })),
    communications: contacts,
  };
}

const editable = ['phone', 'street', 'zipCode', 'city', 'country', 'companyName', 'industry'] as const;

/**
 * Staff change a customer's contact data. Only changed fields are written; each change is recorded
 * with who, when and old → new in the same transaction (audit_events, target 'customer').
 */
export async function updateCustomer(deps: CustomerDeps, staff: Pick<RequestUser, 'id'>, id: string, input: UpdateCustomerInput): Promise<CustomerDetail> {
  await deps.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(and(eq(users.id, id), isActiveCustomer)).for('update');
    if (!user) throw notFound(dm.notFound);
    const edited = editable.filter((f) => user[f] !== input[f]);
    const changes: { field: string; from: string; to: string }[] = edited.map((f) => ({ field: f, from: String(user[f]), to: String(input[f]) }));
    if (changes.length === 0) throw badRequest('UNCHANGED', dm.unchanged);
    // Issue 24: a business customer keeps a company name, and a VAT ID belongs to its country. When staff
    // move the customer to a country the ID does not fit, the ID is dropped (the customer enters the new
    // one, which is checked); it must never be sent or invoiced under another country.
    if (user.business && !input.companyName.trim()) throw badRequest('COMPANY_NAME_REQUIRED', profileMessages.companyNameRequired);
    const vatId = user.vatId && input.country !== user.country && !(isEuMember(input.country) && normalizeVatId(input.country, user.vatId)) ? null : user.vatId;
    if (vatId !== user.vatId) changes.push({ field: 'vatId', from: user.vatId ?? '', to: '' });
    await tx.update(users).set({ ...Object.fromEntries(edited.map((f) => [f, input[f]])), vatId }).where(eq(users.id, id));
    await tx.insert(auditEvents).values({ actorId: staff.id, action: 'customer.updated', targetType: 'customer', targetId: id, details: { changes } });
    await contactChanged(deps.products, tx, id);
  });
  return getCustomer(deps, id);
}

/** Lock (all sessions end at once; login is refused) or unlock a customer account, recorded. */
export async function setCustomerLock(deps: CustomerDeps, staff: Pick<RequestUser, 'id'>, id: string, input: LockCustomerInput): Promise<CustomerDetail> {
  await deps.db.transaction(async (tx) => {
    const [user] = await tx.select({ disabledAt: users.disabledAt }).from(users).where(and(eq(users.id, id), isActiveCustomer)).for('update');
    if (!user) throw notFound(dm.notFound);
    if ((user.disabledAt !== null) === input.locked) return;
    await tx.update(users).set({ disabledAt: input.locked ? new Date() : null }).where(eq(users.id, id));
    await tx.insert(auditEvents).values({
      actorId: staff.id, action: input.locked ? 'customer.locked' : 'customer.unlocked', targetType: 'customer', targetId: id,
      details: { changes: [{ field: 'locked', from: input.locked ? 'nein' : 'ja', to: input.locked ? 'ja' : 'nein' }] },
    });
  });
  if (input.locked) await revokeAllSessions(deps.db, id);
  return getCustomer(deps, id);
}

export async function addCustomerNote(deps: CustomerDeps, staff: Pick<RequestUser, 'id'>, customerId: string, input: CreateCustomerNoteInput): Promise<CustomerNote> {
  const [customer] = await deps.db.select({ id: users.id }).from(users).where(and(eq(users.id, customerId), isActiveCustomer));
  if (!customer) throw notFound(dm.notFound);
  const [row] = await deps.db.insert(customerNotes).values({ customerId, authorId: staff.id, body: input.body }).returning({ id: customerNotes.id });
  const [note] = (await notesOf(deps, customerId)).filter((n) => n.id === row!.id);
  return note!;
}

/** All orders of a customer, newest first, paged; each with its invoice (one line item per order today). */
export async function listCustomerOrders({ db, products }: CustomerDeps, id: string, page: { limit: number; offset: number }): Promise<CustomerOrderPage> {
  const [user] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, id), isCustomer));
  if (!user) throw notFound(dm.notFound);
  const [rows, [total]] = await Promise.all([
    db.select({ order: orders, invoiceId: invoices.id, invoiceNumber: invoices.number }).from(orders)
      .leftJoin(invoices, and(eq(invoices.orderId, orders.id), eq(invoices.kind, 'invoice')))
      .where(eq(orders.userId, id)).orderBy(desc(orders.createdAt), desc(orders.number)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(orders).where(eq(orders.userId, id)),
  ]);
  return {
    total: total?.total ?? 0,
    items: rows.map(({ order: o, invoiceId, invoiceNumber }) => ({
      id: o.id, number: o.number, kind: o.kind, status: o.status, itemCount: 1, grossCents: o.amountCents, createdAt: o.createdAt.toISOString(),
      invoiceId, invoiceNumber,
      // The product's own line (as on the payment page): hosting and domain orders were summarised as
      // "Root Server: null vCPU" before (issue 21).
      summary: products.ofOrder(o).paymentLine(o),
    })),
  };
}

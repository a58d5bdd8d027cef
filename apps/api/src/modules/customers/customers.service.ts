import { and, asc, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { resolvePaging, type CustomerExportQuery, type CustomerListQuery, type CustomerPage, type CustomerRow } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { users } from '../../db/schema/index.ts';
import { containsPattern } from '../../lib/like.ts';
import { CSV_BOM, csvRow } from '../../lib/csv.ts';

type CustomerDeps = Pick<Deps, 'db'>;

/** Rows of one CSV export at most (a spreadsheet's practical size; the filter narrows it). */
export const EXPORT_LIMIT = 100_000;

const isCustomer = eq(users.role, 'customer');

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

function orderBy(sort: string | undefined): SQL[] {
  const value = sort ?? '-createdAt';
  const descending = value.startsWith('-');
  const field = descending ? value.slice(1) : value;
  const column = field === 'name' ? sql`lower(${users.username})` : field === 'lastLogin' ? users.lastLoginAt : users.createdAt;
  const primary = descending ? sql`${column} desc nulls last` : sql`${column} asc nulls last`;
  return [primary, descending ? desc(users.customerNumber) : asc(users.customerNumber)];
}

const columns = {
  id: users.id, customerNumber: users.customerNumber, name: users.username, email: users.email,
  companyName: users.companyName, createdAt: users.createdAt, lastLoginAt: users.lastLoginAt,
};

const toRow = (r: { id: string; customerNumber: number; name: string; email: string; companyName: string; createdAt: Date; lastLoginAt: Date | null }): CustomerRow => ({
  id: r.id, customerNumber: r.customerNumber, name: r.name, email: r.email, companyName: r.companyName,
  kind: r.companyName.trim() ? 'business' : 'private',
  createdAt: r.createdAt.toISOString(), lastLoginAt: r.lastLoginAt ? r.lastLoginAt.toISOString() : null,
});

/** Spec "Customer overview": customer accounts only (not staff), searched, sorted and paged on the server. */
export async function findCustomers({ db }: CustomerDeps, query: CustomerListQuery): Promise<CustomerPage> {
  const paging = resolvePaging(query);
  const where = and(isCustomer, searchCondition(paging.q));
  const [rows, [total]] = await Promise.all([
    db.select(columns).from(users).where(where).orderBy(...orderBy(query.sort)).limit(paging.limit).offset(paging.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { items: rows.map(toRow), total: total?.total ?? 0, page: paging.page, pageSize: paging.pageSize };
}

const dateDe = (d: Date | null) => (d ? d.toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Berlin' }) : '');

/** The CSV of the current search and sort (no paging), formula-escaped (lib/csv.ts). */
export async function exportCustomersCsv({ db }: CustomerDeps, query: CustomerExportQuery): Promise<string> {
  const rows = await db.select(columns).from(users).where(and(isCustomer, searchCondition(query.q || undefined)))
    .orderBy(...orderBy(query.sort)).limit(EXPORT_LIMIT);
  let out = CSV_BOM + csvRow(['Kundennummer', 'Name', 'E-Mail', 'Firma', 'Kundenart', 'Kunde seit', 'Letzte Anmeldung']);
  for (const r of rows) {
    const row = toRow(r);
    out += csvRow([row.customerNumber, row.name, row.email, row.companyName, row.kind === 'business' ? 'Firmenkunde' : 'Privatkunde', dateDe(r.createdAt), dateDe(r.lastLoginAt)]);
  }
  return out;
}

import { sql, type SQL } from 'drizzle-orm';
import {
  churnedColumnTitle, monthIndex, monthOfIndex, receivableBucketLabels, receivableBuckets, ticketTypeLabels, ticketTypes,
  type ChurnProduct, type FinanceMonth, type NodeCapacity, type ReceivableBucket, type Statistics, type StatisticsQuery, type StatisticsResource, type StatisticsTable,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { NodeInfo } from '../../drivers/hypervisor/hypervisor.ts';
import { CSV_BOM, CsvDecimal, csvRow } from '../../lib/csv.ts';
import { rowsOf } from '../../lib/rate-limit.ts';
import { berlinDate } from '../invoices/invoices.service.ts';

/**
 * Owner statistics (docs/decisions/017, 020). Every figure is aggregated by the database; the invoice
 * figures come from the rollup that triggers keep (migration 0021), so the work grows with the months
 * shown, not with the number of invoices.
 */
type StatisticsDeps = Pick<Deps, 'db' | 'hypervisor' | 'env' | 'products'>;

const GiB = 1024 ** 3;
/** A slow or unreachable hypervisor must not hold the page: live use is then shown as unknown. */
const LIVE_TIMEOUT_MS = 1500;

const num = (v: unknown) => Number(v ?? 0);
const round1 = (v: number) => Math.round(v * 10) / 10;

/** The range as month indexes (year * 12 + month - 1), default the 12 months up to this one. */
export function resolveRange(query: StatisticsQuery, now: Date) {
  const current = monthIndex(berlinDate(now).slice(0, 7));
  const to = query.to ? monthIndex(query.to) : current;
  const from = query.from ? monthIndex(query.from) : (query.to ? to : current) - 11;
  return { from, to, current };
}

function resource(physical: number, allocated: number, used: number | null): StatisticsResource {
  return {
    physical, allocated, free: Math.max(0, physical - allocated), used,
    overcommit: physical > 0 ? Math.round((allocated / physical) * 100) / 100 : 0,
  };
}

async function liveNodes(deps: StatisticsDeps): Promise<NodeInfo[] | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      deps.hypervisor.listNodes(),
      new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), LIVE_TIMEOUT_MS); }),
    ]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

interface NodeAllocation { id: number; name: string; status: string; physical: Record<'cpu' | 'ram' | 'storage', number>; allocated: Record<'cpu' | 'ram' | 'storage', number> }

/**
 * Physical (node specs) and allocated per node: root servers not deleted, virtual data center pools
 * (whole, not their VMs; decision 036) and open checkout holds, as servers/capacity.ts counts them.
 */
async function nodeAllocations({ db }: StatisticsDeps, now: Date): Promise<NodeAllocation[]> {
  const result = await db.execute(sql`
    select n.id, n.name, n.status, n.cpu_cores, n.ram_gb, n.storage_gb,
      coalesce(s.cpu, 0) + coalesce(o.cpu, 0) as cpu_alloc,
      coalesce(s.ram, 0) + coalesce(o.ram, 0) as ram_alloc,
      coalesce(s.storage, 0) + coalesce(o.storage, 0) as storage_alloc
    from nodes n
    left join (select node_id, sum(cpu_cores) as cpu, sum(ram_gb) as ram, sum(storage_gb) as storage
               from (select node_id, cpu_cores, ram_gb, storage_gb from servers where deleted_at is null and vdc_id is null
                     union all
                     select node_id, cpu_cores, ram_gb, storage_gb from vdcs where deleted_at is null and status <> 'failed') allocated
               group by node_id) s on s.node_id = n.id
    left join (select node_id, sum(hold_cpu_cores) as cpu, sum(hold_ram_gb) as ram, sum(hold_storage_gb) as storage
               from orders where status = 'pending' and hold_until > ${now.toISOString()}::timestamptz group by node_id) o on o.node_id = n.id
    order by n.id`);
  return rowsOf(result).map((r) => ({
    id: num(r.id), name: String(r.name), status: String(r.status),
    physical: { cpu: num(r.cpu_cores), ram: num(r.ram_gb), storage: num(r.storage_gb) },
    allocated: { cpu: num(r.cpu_alloc), ram: num(r.ram_alloc), storage: num(r.storage_alloc) },
  }));
}

/** Adds free, live use (null when the node could not be asked or is not online) and overcommit. */
export function capacityOf(allocations: NodeAllocation[], live: NodeInfo[] | null): Omit<Statistics['capacity'], 'products'> {
  const byName = new Map((live ?? []).map((n) => [n.node.toLowerCase(), n]));
  const nodes: NodeCapacity[] = allocations.map((a) => {
    const info = byName.get(a.name.toLowerCase());
    const online = info && info.status === 'online';
    return {
      id: a.id, name: a.name, status: a.status,
      cpu: resource(a.physical.cpu, a.allocated.cpu, online ? round1(info.cpu * info.maxcpu) : null),
      ram: resource(a.physical.ram, a.allocated.ram, online ? round1(info.mem / GiB) : null),
      storage: resource(a.physical.storage, a.allocated.storage, online ? round1(info.disk / GiB) : null),
    };
  });
  const sum = (pick: (n: NodeCapacity) => StatisticsResource) => {
    const used = nodes.map((n) => pick(n).used);
    return resource(
      nodes.reduce((acc, n) => acc + pick(n).physical, 0),
      nodes.reduce((acc, n) => acc + pick(n).allocated, 0),
      used.length && used.every((u) => u !== null) ? round1(used.reduce<number>((acc, u) => acc + (u ?? 0), 0)) : null,
    );
  };
  return {
    nodes,
    total: { cpu: sum((n) => n.cpu), ram: sum((n) => n.ram), storage: sum((n) => n.storage) },
    liveAvailable: live !== null,
  };
}

/** Runs the statements one after the other on the same connection and returns their results. */
async function inSequence(db: StatisticsDeps['db'], statements: SQL[]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const statement of statements) results.push(await db.execute(statement));
  return results;
}

/** A PostgreSQL bigint or numeric as an exact integer (the drivers return it as text). */
const bigOf = (v: unknown) => BigInt(String(v ?? 0));

/**
 * MRR in cents, rounded once (half up) from the exact sum of every running term's share: per term length
 * t the recurring net S_t of the terms running in the month, MRR = Σ S_t / t over a common denominator,
 * so no share is rounded or summed in floating point.
 */
export function mrrCentsOf(byTerm: { termMonths: number; cents: bigint }[]): number {
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
  const terms = byTerm.filter((t) => t.termMonths > 0 && t.cents !== 0n);
  const common = terms.reduce((l, t) => (l * BigInt(t.termMonths)) / gcd(l, BigInt(t.termMonths)), 1n);
  const numerator = terms.reduce((sum, t) => sum + t.cents * (common / BigInt(t.termMonths)), 0n);
  // Math.round's rule (half towards +∞) on numerator / common, in integers.
  const twice = 2n * numerator + common;
  const denominator = 2n * common;
  const floor = twice >= 0n ? twice / denominator : -((-twice + denominator - 1n) / denominator);
  return Number(floor);
}

/** Month boundaries (Berlin midnight of the 1st) from the first month of the range to the month after it. */
const monthStarts = (from: number, to: number) =>
  sql.raw(`array[${Array.from({ length: to - from + 2 }, (_, k) => `'${monthOfIndex(from + k)}-01'::timestamp at time zone 'Europe/Berlin'`).join(', ')}]`);

/**
 * Every product's subscriptions as (kind, owner_id, expires_at, deleted_at), each from the table its
 * churn source names (product port): the statistics never name a product's table themselves.
 */
function subscriptionsOf(products: StatisticsDeps['products']): SQL {
  return sql.join(products.all().map(({ kind, churnSource: s }) =>
    sql`select ${kind}::text as kind, ${s.ownerId} as owner_id, ${s.expiresAt} as expires_at, ${s.deletedAt} as deleted_at from ${s.table}${s.where ? sql` where ${s.where}` : sql``}`), sql` union all `);
}

/** The products the churn figures count, in the registry's order, with the plural their column names. */
export const churnProductsOf = (products: StatisticsDeps['products']): ChurnProduct[] =>
  products.all().map(({ kind, churnSource }) => ({ kind, label: churnSource.label }));

/**
 * Per month of the range: revenue (invoices − credit notes by issue month, net), MRR (each invoice's
 * recurring net spread evenly over the months of its term; a credit note ends it from its month on),
 * ARR, ARPA, paying, new and churned customers, churned subscriptions per product. Revenue, MRR, paying
 * and new customers come from the rollup that the invoice triggers keep (migration 0021,
 * docs/decisions/020): a few hundred rows, however many invoices there are.
 */
export async function financeStatistics({ db, products }: StatisticsDeps, range: { from: number; to: number }, now: Date): Promise<FinanceMonth[]> {
  const { from, to } = range;
  const nowIso = now.toISOString();
  // One after the other: they share the transaction's connection (docs/decisions/017).
  const queries = [
    sql`
      select month, revenue_cents, paying_customers, new_customers
      from statistics_months where month between ${from} and ${to}`,
    // The running recurring net per term length in each month: the sum of all changes up to the month.
    sql`
      select m as month, c.term_months, sum(c.recurring_cents) as cents
      from generate_series(${from}::int, ${to}::int) m join statistics_mrr_changes c on c.month <= m
      group by m, c.term_months having sum(c.recurring_cents) <> 0`,
    // Churn over every product's subscriptions (their churn sources): a term that ended (expires_at passed)
    // without a renewal moving it on, counted per product. A customer churns in the month their last term
    // of any product ends, unless a subscription without a term still runs for them (a server created by
    // staff, a domain whose registration is still pending). The Berlin month is found among the range's
    // month starts (width_bucket), not computed per row. A customer's row has no kind.
    sql`
      with bounds as (select ${monthStarts(from, to)} as starts),
      subscriptions as (${subscriptionsOf(products)}),
      last_term as (
        select max(expires_at) as expires_at from subscriptions
        group by owner_id
        having bool_and(expires_at is not null or deleted_at is not null) and max(expires_at) <= ${nowIso}::timestamptz
      )
      select ${from}::int + width_bucket(expires_at, starts) - 1 as month, kind, count(*) as n
      from (
        select kind, expires_at from subscriptions, bounds
        where expires_at >= starts[1] and expires_at < starts[array_length(starts, 1)] and expires_at <= ${nowIso}::timestamptz
        union all
        select null, expires_at from last_term, bounds
        where expires_at >= starts[1] and expires_at < starts[array_length(starts, 1)]
      ) x, bounds group by 1, 2`,
  ];
  const [rollup, mrr, churn] = await inSequence(db, queries);
  const byMonth = <T>(result: unknown, pick: (r: Record<string, unknown>) => T) => new Map(rowsOf(result).map((r) => [num(r.month), pick(r)]));
  const rollupBy = byMonth(rollup, (r) => ({ revenue: num(r.revenue_cents), payers: num(r.paying_customers), fresh: num(r.new_customers) }));
  const mrrBy = new Map<number, { termMonths: number; cents: bigint }[]>();
  for (const r of rowsOf(mrr)) {
    const month = num(r.month);
    mrrBy.set(month, [...(mrrBy.get(month) ?? []), { termMonths: num(r.term_months), cents: bigOf(r.cents) }]);
  }
  // month → kind ('' for lost customers) → count
  const churnBy = new Map<number, Map<string, number>>();
  for (const r of rowsOf(churn)) {
    const month = num(r.month);
    churnBy.set(month, (churnBy.get(month) ?? new Map<string, number>()).set(r.kind === null || r.kind === undefined ? '' : String(r.kind), num(r.n)));
  }
  const months: FinanceMonth[] = [];
  for (let m = from; m <= to; m += 1) {
    const cents = mrrCentsOf(mrrBy.get(m) ?? []);
    const payers = rollupBy.get(m)?.payers ?? 0;
    months.push({
      month: monthOfIndex(m),
      revenueCents: rollupBy.get(m)?.revenue ?? 0,
      mrrCents: cents,
      arrCents: cents * 12,
      arpaCents: payers > 0 ? Math.round(cents / payers) : 0,
      payingCustomers: payers,
      newCustomers: rollupBy.get(m)?.fresh ?? 0,
      churnedCustomers: churnBy.get(m)?.get('') ?? 0,
      churned: products.all().map(({ kind }) => ({ kind, count: churnBy.get(m)?.get(kind) ?? 0 })),
    });
  }
  return months;
}

/**
 * Unpaid invoices today (neither paid nor credited), net, less what was already paid in part.
 * Open (not yet due): age in days since the issue date. Overdue: days past the due date.
 */
export async function receivableStatistics({ db }: StatisticsDeps, now: Date): Promise<ReceivableBucket[]> {
  const today = berlinDate(now);
  const result = await db.execute(sql`
    with unpaid as (
      select i.due_date < ${today} as overdue,
        (case when i.due_date < ${today} then ${today}::date - i.due_date::date else ${today}::date - i.issue_date::date end) as age,
        case when i.gross_cents > 0 then round(i.net_cents::numeric * (i.gross_cents - coalesce(p.paid, 0)) / i.gross_cents) else i.net_cents end as cents
      from invoices i
      -- Only the unpaid invoices' payments (index invoice_payments_invoice_idx), not a sum over every payment.
      left join lateral (select sum(amount_cents) as paid from invoice_payments where invoice_id = i.id) p on true
      where i.kind = 'invoice' and i.paid_at is null and i.credited_at is null
    )
    select overdue, case when age <= 30 then '0-30' when age <= 60 then '31-60' else '61+' end as bucket, sum(cents) as cents, count(*) as invoices
    from unpaid group by 1, 2`);
  const rows = rowsOf(result);
  return receivableBuckets.map((bucket) => {
    const pick = (overdue: boolean) => rows.find((r) => r.bucket === bucket && Boolean(r.overdue) === overdue);
    return {
      bucket,
      openCents: num(pick(false)?.cents), openCount: num(pick(false)?.invoices),
      overdueCents: num(pick(true)?.cents), overdueCount: num(pick(true)?.invoices),
    };
  });
}

/** Open tickets now; median first response and tickets per type for tickets created in the range. */
export async function supportStatistics({ db }: StatisticsDeps, range: { from: number; to: number }): Promise<Statistics['support']> {
  const start = `${monthOfIndex(range.from)}-01`;
  const end = `${monthOfIndex(range.to + 1)}-01`;
  const inRange = sql`created_at >= (${start}::timestamp at time zone 'Europe/Berlin') and created_at < (${end}::timestamp at time zone 'Europe/Berlin')`;
  // The range's tickets are read once: the median and the count per type from the same scan.
  const perType = sql.raw(ticketTypes.map((type) => `count(*) filter (where type = '${type}') as "${type}"`).join(', '));
  const [open, inRangeRow] = await inSequence(db, [
    sql`select count(*) as n from tickets where status <> 'closed'`,
    sql`
      select percentile_cont(0.5) within group (order by extract(epoch from first_response_at - created_at)) filter (where first_response_at is not null) as seconds,
        count(*) filter (where first_response_at is not null) as n, ${perType}
      from tickets where ${inRange}`,
  ]);
  const r = rowsOf(inRangeRow)[0];
  return {
    openTickets: num(rowsOf(open)[0]?.n),
    medianFirstResponseMinutes: r && r.seconds !== null && r.seconds !== undefined ? round1(num(r.seconds) / 60) : null,
    answeredTickets: num(r?.n),
    byType: ticketTypes.map((type) => ({ type, count: num(r?.[type]) })),
  };
}

/**
 * Runs the statistics' queries in one read transaction without JIT: compiling a plan costs PostgreSQL
 * seconds whenever a large scan looks expensive (before autovacuum has set the visibility map), while
 * the queries themselves take milliseconds. PGlite has no JIT; the setting is harmless there.
 */
async function withStatisticsSession<T>(deps: StatisticsDeps, run: (deps: StatisticsDeps) => Promise<T>): Promise<T> {
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    return run({ ...deps, db: tx as unknown as StatisticsDeps['db'] });
  });
}

export async function getStatistics(deps: StatisticsDeps, query: StatisticsQuery, now = new Date()): Promise<Statistics> {
  const range = resolveRange(query, now);
  // Asked outside the transaction: the simulated hypervisor reads the database itself, and PGlite's one
  // connection would hold its query until the transaction ends.
  const live = liveNodes(deps);
  const { allocations, months, receivables, support } = await withStatisticsSession(deps, async (d) => {
    // One connection: the parts run one after the other (their queries are queued on it anyway).
    const allocations = await nodeAllocations(d, now);
    const months = await financeStatistics(d, range, now);
    const receivables = await receivableStatistics(d, now);
    const support = await supportStatistics(d, range);
    return { allocations, months, receivables, support };
  });
  // Products with servers of their own (cloud storage) add their capacity through the port (decision 033).
  const products = [];
  for (const product of deps.products.all()) if (product.capacity) products.push(await product.capacity(deps.db, deps.env));
  const capacity = { ...capacityOf(allocations, await live), products };
  const current = months.find((m) => monthIndex(m.month) === range.current) ?? null;
  return {
    from: monthOfIndex(range.from), to: monthOfIndex(range.to), generatedAt: now.toISOString(),
    capacity, finances: { months, current, products: churnProductsOf(deps.products) }, receivables, support,
  };
}

const euro = (cents: number) => new CsvDecimal(cents / 100);
const decimal = (v: number | null) => (v === null ? null : new CsvDecimal(v, Number.isInteger(v) ? 0 : 2));

/** One table of the page as CSV (lib/csv.ts: semicolons, BOM, formula-escaped cells). */
export async function exportStatisticsCsv(deps: StatisticsDeps, table: StatisticsTable, query: StatisticsQuery, now = new Date()): Promise<string> {
  if (table === 'capacity') {
    const live = liveNodes(deps);
    const allocations = await withStatisticsSession(deps, (d) => nodeAllocations(d, now));
    return capacityCsv(capacityOf(allocations, await live));
  }
  return withStatisticsSession(deps, (d) => statisticsCsv(d, table, query, now));
}

function capacityCsv(capacity: Omit<Statistics['capacity'], 'products'>): string {
  let out = CSV_BOM + csvRow(['Knoten', 'Ressource', 'Physisch', 'Zugewiesen', 'Frei', 'Live genutzt', 'Überbuchung']);
  const rows = [...capacity.nodes, { name: 'Gesamt', ...capacity.total }];
  for (const n of rows) {
    for (const [label, r] of [['CPU-Kerne', n.cpu], ['RAM (GB)', n.ram], ['Speicher (GB)', n.storage]] as const) {
      out += csvRow([n.name, label, r.physical, r.allocated, r.free, decimal(r.used), decimal(r.overcommit)]);
    }
  }
  return out;
}

async function statisticsCsv(deps: StatisticsDeps, table: Exclude<StatisticsTable, 'capacity'>, query: StatisticsQuery, now: Date): Promise<string> {
  let out = CSV_BOM;
  if (table === 'finances') {
    const months = await financeStatistics(deps, resolveRange(query, now), now);
    out += csvRow(['Monat', 'Umsatz netto (EUR)', 'MRR (EUR)', 'ARR (EUR)', 'ARPA (EUR)', 'Zahlende Kunden', 'Neue Kunden', 'Verlorene Kunden', ...churnProductsOf(deps.products).map(churnedColumnTitle)]);
    for (const m of months) out += csvRow([m.month, euro(m.revenueCents), euro(m.mrrCents), euro(m.arrCents), euro(m.arpaCents), m.payingCustomers, m.newCustomers, m.churnedCustomers, ...m.churned.map((c) => c.count)]);
  } else if (table === 'receivables') {
    const buckets = await receivableStatistics(deps, now);
    out += csvRow(['Alter', 'Offen netto (EUR)', 'Offene Rechnungen', 'Überfällig netto (EUR)', 'Überfällige Rechnungen']);
    for (const b of buckets) out += csvRow([receivableBucketLabels[b.bucket], euro(b.openCents), b.openCount, euro(b.overdueCents), b.overdueCount]);
  } else {
    const support = await supportStatistics(deps, resolveRange(query, now));
    out += csvRow(['Ticketart', 'Tickets im Zeitraum']);
    for (const t of support.byType) out += csvRow([ticketTypeLabels[t.type], t.count]);
  }
  return out;
}

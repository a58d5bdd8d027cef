import { beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FinanceMonth } from '@hp/contract';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { seedCapacity } from '../../../test/shop.ts';
import { buyDomain, createDomainCustomer } from '../../../test/domains.ts';
import { invoices, orders, users } from '../../db/schema/index.ts';
import type { Hypervisor } from '../../drivers/hypervisor/hypervisor.ts';
import { rowsOf } from '../../lib/rate-limit.ts';
import { berlinDate, issueCreditNote, issueInvoice } from '../invoices/invoices.service.ts';
import { createManualInvoice, recordPayment } from '../invoices/manual-invoices.ts';
import { deleteCustomerAccount } from '../customers/customer-deletion.ts';
import { getStatistics } from './statistics.service.ts';

/**
 * The statistics' rollup (docs/decisions/020) is kept by triggers on invoices. After every kind of write
 * through the real service functions it must equal the rollup computed from scratch
 * (`statistics_rebuild()`), and the page's figures must move by exactly what the write adds.
 */

type User = Awaited<ReturnType<typeof createUser>>;
const hypervisor = { listNodes: async () => [] } as unknown as Hypervisor;

/** The rollup's rows that carry a figure, as text (rows summed back to zero are equivalent to none). */
async function rollupOf(ctx: TestContext): Promise<string> {
  const result = await ctx.database.db.execute(sql`select json_build_object(
    'months', (select coalesce(json_agg(json_build_array(month, revenue_cents, paying_customers, new_customers) order by month), '[]')
               from statistics_months where revenue_cents <> 0 or paying_customers <> 0 or new_customers <> 0),
    'mrr', (select coalesce(json_agg(json_build_array(month, term_months, recurring_cents) order by month, term_months), '[]')
            from statistics_mrr_changes where recurring_cents <> 0),
    'customers', (select coalesce(json_agg(json_build_array(user_id, paying_months, first_paid_month) order by user_id), '[]')
                  from statistics_customers where cardinality(paying_months) > 0 or first_paid_month is not null)
  )::text as rollup`);
  return String(rowsOf(result)[0]!.rollup);
}

/** The maintained rollup equals the one computed from all invoices; the rebuild then leaves it as it was. */
async function expectRollupFromScratch(ctx: TestContext) {
  const maintained = await rollupOf(ctx);
  await ctx.database.db.execute(sql`select statistics_rebuild()`);
  expect(maintained).toBe(await rollupOf(ctx));
}

describeEachDatabase('statistics rollup', (ctx) => {
  let owner: User;
  let staff: User;
  let nodeId: number;
  beforeAll(async () => {
    owner = await createUser(ctx(), { role: 'owner' });
    staff = await createUser(ctx(), { role: 'employee' });
    nodeId = (await seedCapacity(ctx(), { ips: 0 })).node.id;
  });

  /** A paid order as the checkout leaves it; 1190 cents gross a month is 1000 net. */
  const paidOrder = async (userId: string, kind: 'new' | 'upgrade', months: number) => {
    const now = new Date();
    const [order] = await ctx().database.db.insert(orders).values({
      userId, kind, nodeId, osFamily: 'linux', os: 'Debian 12', cpuCores: 2, ramGb: 4, storageGb: 50, months, holdUntil: now,
      amountCents: 1190 * months, netCents: 1000 * months, vatCents: 190 * months, paymentProvider: 'simulated', status: 'processing',
      paidAt: now, periodStart: now, periodEnd: new Date(now.getTime() + months * 30 * 86_400_000), cardBrand: 'visa', cardLast4: '4242',
    }).returning();
    return order!;
  };
  const thisMonth = () => berlinDate(new Date()).slice(0, 7);
  const current = async (): Promise<FinanceMonth> => {
    const s = await getStatistics({ db: ctx().database.db, hypervisor, env: ctx().app.deps.env, products: ctx().app.deps.products }, { from: thisMonth(), to: thisMonth() });
    return s.finances.months[0]!;
  };
  const moved = (before: FinanceMonth, after: FinanceMonth) => ({
    revenueCents: after.revenueCents - before.revenueCents,
    mrrCents: after.mrrCents - before.mrrCents,
    payingCustomers: after.payingCustomers - before.payingCustomers,
    newCustomers: after.newCustomers - before.newCustomers,
  });

  it('follows order and upgrade invoices, a manual invoice, its payments, a credit note and a customer deletion', async () => {
    const deps = ctx().app.deps;
    const anna = await createUser(ctx());
    const bernd = await createUser(ctx());
    await ctx().database.db.update(users).set({ street: 'Hauptstraße 5', zipCode: '10115', city: 'Berlin', country: 'DE' }).where(eq(users.id, bernd.user.id));
    await expectRollupFromScratch(ctx());

    // A new server for 3 months: 3000 net, paid by card at issue. A new, paying customer; MRR + 1000.
    let before = await current();
    const first = await issueInvoice(deps, (await paidOrder(anna.user.id, 'new', 3)).id);
    expect(moved(before, await current())).toEqual({ revenueCents: 3000, mrrCents: 1000, payingCustomers: 1, newCustomers: 1 });
    await expectRollupFromScratch(ctx());

    // An upgrade for 2 months (2000 net) is a term of its own: MRR + 1000, the same customer.
    before = await current();
    await issueInvoice(deps, (await paidOrder(anna.user.id, 'upgrade', 2)).id);
    expect(moved(before, await current())).toEqual({ revenueCents: 2000, mrrCents: 1000, payingCustomers: 0, newCustomers: 0 });
    await expectRollupFromScratch(ctx());

    // A manual invoice: 3 months at 10 € (recurring) and a setup hour (one-off), unpaid. Bernd pays (MRR
    // is contracted revenue) but is not new until an invoice of his is paid.
    before = await current();
    const manual = await createManualInvoice(deps, staff.user, bernd.user.id, {
      lines: [{ description: 'Zusätzliche IPv4', quantity: 3, unit: 'month', unitNetCents: 1000 }, { description: 'Einrichtung', quantity: 1, unit: 'hour', unitNetCents: 5000 }],
    });
    expect(moved(before, await current())).toEqual({ revenueCents: 8000, mrrCents: 1000, payingCustomers: 1, newCustomers: 0 });
    await expectRollupFromScratch(ctx());

    // A partial payment changes nothing; the one that settles the invoice makes Bernd a new customer.
    before = await current();
    const today = berlinDate(new Date());
    await recordPayment(deps, staff.user, manual.id, { amountCents: 1000, method: 'transfer', paidOn: today });
    expect(moved(before, await current())).toEqual({ revenueCents: 0, mrrCents: 0, payingCustomers: 0, newCustomers: 0 });
    await expectRollupFromScratch(ctx());
    await recordPayment(deps, staff.user, manual.id, { amountCents: manual.amountCents - 1000, method: 'sepa', paidOn: today });
    expect(moved(before, await current())).toEqual({ revenueCents: 0, mrrCents: 0, payingCustomers: 0, newCustomers: 1 });
    await expectRollupFromScratch(ctx());

    // A credit note for the first invoice: its net leaves the revenue, its term ends from this month on.
    // Anna still pays for the upgrade; she stays a customer who was new this month (a paid invoice remains).
    before = await current();
    await issueCreditNote(deps, first.id, 'Widerruf');
    expect(moved(before, await current())).toEqual({ revenueCents: -3000, mrrCents: -1000, payingCustomers: 0, newCustomers: 0 });
    await expectRollupFromScratch(ctx());

    // Deleting Bernd's account keeps his invoices (§147 AO) and so every figure.
    before = await current();
    await deleteCustomerAccount(deps, owner.user, bernd.user.id, { self: false });
    expect(moved(before, await current())).toEqual({ revenueCents: 0, mrrCents: 0, payingCustomers: 0, newCustomers: 0 });
    await expectRollupFromScratch(ctx());
  });

  it('counts a bought domain in revenue and, per year spread over twelve months, in MRR; the buyer is a paying and new customer', async () => {
    const buyer = await createDomainCustomer(ctx());
    const before = await current();
    const { orderId } = await buyDomain(ctx(), buyer, { years: 2 });
    const [invoice] = await ctx().database.db.select().from(invoices).where(eq(invoices.orderId, orderId));
    const net = invoice!.document.totals.netCents;
    expect(invoice).toMatchObject({ recurringNetCents: net, termMonths: 24 });
    expect(moved(before, await current())).toEqual({ revenueCents: net, mrrCents: Math.round(net / 24), payingCustomers: 1, newCustomers: 1 });
    await expectRollupFromScratch(ctx());
  });

  it('stays exact when invoices and credit notes for one customer are written at the same time', async () => {
    const deps = ctx().app.deps;
    const carla = await createUser(ctx());
    const issued = await Promise.all([1, 2, 3].map(async (months) => issueInvoice(deps, (await paidOrder(carla.user.id, 'new', months)).id)));
    const before = await current();
    await Promise.all([
      ...[4, 5, 6].map(async (months) => issueInvoice(deps, (await paidOrder(carla.user.id, 'upgrade', months)).id)),
      issueCreditNote(deps, issued[0]!.id, 'Kulanz'),
      issueCreditNote(deps, issued[1]!.id, 'Kulanz'),
    ]);
    // + 3 terms of 1000 a month, − the two credited ones; Carla was counted once before and still is.
    expect(moved(before, await current())).toEqual({ revenueCents: 15_000 - 3000, mrrCents: 1000, payingCustomers: 0, newCustomers: 0 });
    await expectRollupFromScratch(ctx());
  });
});

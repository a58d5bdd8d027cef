import { bigint, integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';

/**
 * The statistics' rollup (docs/decisions/020), kept by the database: triggers of migration 0021 on
 * `invoices` update these rows in the transaction that writes an invoice, a credit note or a payment
 * state, so the statistics page reads a few hundred rows instead of every invoice. Months are counted as
 * year * 12 + month - 1 (Berlin calendar), like the generated invoice columns. `statistics_rebuild()`
 * computes all three tables from scratch (the migration's backfill, the benchmark's bulk seed, the test).
 */
export const statisticsMonths = pgTable('statistics_months', {
  month: integer('month').primaryKey(),
  /** Net of invoices minus net of credit notes issued in the month. */
  revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
  /** Customers with a running term in the month. */
  payingCustomers: integer('paying_customers').notNull().default(0),
  /** Customers whose first paid invoice was issued in the month. */
  newCustomers: integer('new_customers').notNull().default(0),
});

/**
 * MRR as changes: the recurring net of every term, added in its first month and taken away in the month
 * after its end (or from its credit note's month on), summed per month and term length. MRR of a month
 * is the sum over all changes up to it, each term length's total divided by its months once.
 */
export const statisticsMrrChanges = pgTable('statistics_mrr_changes', {
  month: integer('month').notNull(),
  termMonths: integer('term_months').notNull(),
  recurringCents: bigint('recurring_cents', { mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ columns: [t.month, t.termMonths] })]);

/**
 * Per customer: the months with a running term and the month of the first paid invoice, so that a
 * change counts a customer once per month.
 */
export const statisticsCustomers = pgTable('statistics_customers', {
  userId: uuid('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  payingMonths: integer('paying_months').array().notNull().default(sql`'{}'::integer[]`),
  firstPaidMonth: integer('first_paid_month'),
});

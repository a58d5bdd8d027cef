import { pgTable, text, timestamp, uuid, index, jsonb } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The proof of every VAT-ID check (issue 24, §18e UStG): what was asked, what the service answered and
 * when, with the consultation number (VIES `requestIdentifier`, eVatR `id`) and how the company details
 * compared with the register. Rows are only added: the latest per customer is the one that counts, the
 * older ones stay as the history an auditor may ask for.
 */
export const vatIdChecks = pgTable('vat_id_checks', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id),
  /** ISO 3166-1 alpha-2 of the customer's country (GR, not EL). */
  country: text('country').notNull(),
  /** The ID as checked: VAT prefix and number, upper case, without spaces (e.g. ATU12345678). */
  vatId: text('vat_id').notNull(),
  status: text('status', { enum: ['valid', 'invalid', 'unavailable'] }).notNull(),
  service: text('service', { enum: ['vies', 'evatr', 'simulated'] }).notNull(),
  consultationNumber: text('consultation_number'),
  /** name/street/zip/city → match | mismatch | unknown, for the details that were asked. */
  matches: jsonb('matches').$type<{ name?: string; street?: string; zip?: string; city?: string }>(),
  /** German: why the ID is invalid or could not be checked. */
  message: text('message'),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('vat_id_checks_user_idx').on(t.userId, t.checkedAt)]);

export type VatIdCheckRow = typeof vatIdChecks.$inferSelect;

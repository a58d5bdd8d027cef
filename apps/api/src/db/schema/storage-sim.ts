import { pgTable, serial, text, timestamp, boolean, bigint, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * State of the simulated cloud storage server (embedded default, drivers/storage/simulated): one row per
 * Nextcloud account. User ids are unique per server regardless of case, as Nextcloud's user backend looks
 * them up case-insensitively, so a second create of the same name fails on the index however many API
 * instances race. Usage is not stored: it grows with the account's age (deterministic, read lazily).
 */
export const simStorageAccounts = pgTable('sim_storage_accounts', {
  id: serial('id').primaryKey(),
  /** The storage server's reference (its base URL, lower case, without a trailing slash). */
  serverId: text('server_id').notNull(),
  /** The Nextcloud user id (login name) as created. */
  userId: text('user_id').notNull(),
  displayName: text('display_name').notNull(),
  email: text('email'),
  enabled: boolean('enabled').notNull().default(true),
  /** Quota in bytes; null is Nextcloud's "none" (unlimited). */
  quotaBytes: bigint('quota_bytes', { mode: 'number' }),
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('sim_storage_accounts_user_idx').on(t.serverId, sql`lower(${t.userId})`)]);

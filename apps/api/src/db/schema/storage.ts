import { pgTable, serial, text, timestamp, integer, uuid, index, uniqueIndex, bigint } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';

/**
 * Cloud storage (issue 23, decision 034). A storage server is a Nextcloud instance with a usable
 * capacity; an account is one customer's Nextcloud user on it with the plan's quota. What Nextcloud
 * knows (usage, files, shares) is read through the storage driver, not copied here.
 */
export const storageServers = pgTable('storage_servers', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** The Nextcloud base URL (https://cloud1.example.net). */
  url: text('url').notNull(),
  /** Pinned SHA-256 fingerprint of its certificate; empty: the system CAs check it. */
  fingerprint: text('fingerprint').notNull().default(''),
  /** Usable space for customer files in GiB; quotas may add up to capacity × STORAGE_OVERCOMMIT. */
  capacityGb: integer('capacity_gb').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});

export const storageAccounts = pgTable('storage_accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** "Speicher-ID" customers quote to support. */
  number: bigint('number', { mode: 'number' }).notNull().default(sql`nextval('storage_account_number_seq')`),
  ownerId: uuid('owner_id').notNull().references(() => users.id),
  storageServerId: integer('storage_server_id').notNull().references(() => storageServers.id),
  plan: text('plan', { enum: ['100gb', '500gb', '1tb', '5tb', '10tb'] }).notNull(),
  /** The quota the plan gives (GiB), summed for the server's capacity. */
  quotaGb: integer('quota_gb').notNull(),
  /** The Nextcloud user id (login name), unique across our servers. */
  accountName: text('account_name').notNull(),
  status: text('status', { enum: ['provisioning', 'active', 'suspended', 'failed'] }).notNull().default('provisioning'),
  statusMessage: text('status_message'),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  expiryReminderStage: integer('expiry_reminder_stage').notNull().default(0),
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('storage_accounts_number_idx').on(t.number),
  // A name stays taken while the account lives; a deleted or failed one frees it.
  uniqueIndex('storage_accounts_name_idx').on(t.accountName).where(sql`deleted_at is null and status <> 'failed'`),
  index('storage_accounts_owner_idx').on(t.ownerId),
  index('storage_accounts_server_idx').on(t.storageServerId),
]);

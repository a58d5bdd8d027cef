import { pgTable, uuid, text, timestamp, integer, bigint, boolean, index, uniqueIndex, serial } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { CountryCode } from '@hp/contract';

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Human-facing customer number, also the `customerId` claim. */
  customerNumber: serial('customer_number').notNull(),
  username: text('username').notNull(),
  email: text('email').notNull(),
  passwordHash: text('password_hash').notNull(),
  role: text('role', { enum: ['customer', 'employee', 'owner'] }).notNull().default('customer'),
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  totpSecret: text('totp_secret'),
  totpPendingSecret: text('totp_pending_secret'),
  totpEnabled: boolean('totp_enabled').notNull().default(false),
  /** Last accepted TOTP time step; a code of this step or earlier is refused (no replay). */
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  phone: text('phone').notNull().default(''),
  street: text('street').notNull().default(''),
  zipCode: text('zip_code').notNull().default(''),
  city: text('city').notNull().default(''),
  /** ISO 3166-1 alpha-2, any country of @hp/contract's `countries` (issue 24; before: DE, AT, CH). */
  country: text('country').$type<CountryCode>().notNull().default('DE'),
  companyName: text('company_name').notNull().default(''),
  /** "Firmenkunde" (issue 24): buys as a business; the VAT ID's checks are in vat_id_checks. */
  business: boolean('business').notNull().default(false),
  /** The VAT ID as the customer gave it, normalised (prefix and number); null when none. */
  vatId: text('vat_id'),
  industry: text('industry').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  /** Staff: no mails about new tickets and customer replies (docs/decisions/014). */
  ticketMailOptOut: boolean('ticket_mail_opt_out').notNull().default(false),
  /**
   * Deleted at the customer's or the owner's request (docs/decisions/018): the row stays because
   * invoices, orders and tickets must keep pointing at someone, but it holds no personal data any more.
   */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
  uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
  uniqueIndex('users_customer_number_idx').on(t.customerNumber),
  // Staff search "contains" on the customer's name (ilike '%…%'): trigram index (pg_trgm).
  index('users_username_trgm_idx').using('gin', sql`${t.username} gin_trgm_ops`),
  // Customer search "contains" on e-mail and customer number (the back office's customer overview).
  index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
  index('users_customer_number_trgm_idx').using('gin', sql`(${t.customerNumber}::text) gin_trgm_ops`),
  // The overview's orders among the customers it lists (not deleted, docs/decisions/018): the predicate is
  // the overview's own, so a deep page and the bounded total are index-only scans; with \`role = 'customer'\`
  // alone, every skipped entry was read from the table for its deleted_at (page 2,000: 50–70 ms).
  // The default order (customer since):
  index('users_customers_created_idx').on(t.createdAt, t.customerNumber).where(sql`role = 'customer' and deleted_at is null`),
  // The other orders of the overview, with the customer number so a deep page is an index-only scan
  // (docs/benchmarks.md): by name, and by last login in each direction ("never" last in both).
  // (username itself last: PostgreSQL answers lower(username) from an index only when the column is in it.)
  index('users_customers_name_idx').on(sql`lower(${t.username})`, t.customerNumber, t.username).where(sql`role = 'customer' and deleted_at is null`),
  index('users_customers_last_login_idx').on(t.lastLoginAt.asc().nullsLast(), t.customerNumber).where(sql`role = 'customer' and deleted_at is null`),
  index('users_customers_last_login_desc_idx').on(t.lastLoginAt.desc().nullsLast(), t.customerNumber.desc().nullsFirst()).where(sql`role = 'customer' and deleted_at is null`),
]);

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  refreshTokenHash: text('refresh_token_hash').notNull(),
  /** The role the session was opened with; a role change therefore invalidates it at once. */
  role: text('role').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * When the refresh token was last rotated. Within a short grace window the immediately previous token
   * still yields the current one (two tabs refreshing at once); later it counts as theft.
   */
  rotatedAt: timestamp('rotated_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  userAgent: text('user_agent').notNull().default(''),
}, (t) => [index('sessions_user_idx').on(t.userId), uniqueIndex('sessions_refresh_idx').on(t.refreshTokenHash)]);

/** E-mail verification, password-reset and e-mail-change codes. Only a keyed hash of the code is stored. */
export const oneTimeCodes = pgTable('one_time_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  purpose: text('purpose', { enum: ['verify_email', 'reset_password', 'change_email', 'staff_change_email'] }).notNull(),
  /** Keyed hash of the normalised e-mail address: throttles reset requests for known and unknown addresses alike. */
  emailKey: text('email_key'),
  /** Null until the mail job draws the code (and for requests that must never succeed). */
  codeHash: text('code_hash'),
  /** change_email, staff_change_email: the address the code was sent to and that a correct code makes the account's. */
  newEmail: text('new_email'),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  /** Set when the reset token issued after a correct code was spent. */
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
}, (t) => [index('codes_user_purpose_idx').on(t.userId, t.purpose), index('codes_email_key_idx').on(t.emailKey, t.createdAt)]);

export const backupCodes = pgTable('backup_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
}, (t) => [index('backup_codes_user_idx').on(t.userId)]);

/** Fixed-window counters shared by all API instances (rate limits must hold behind a load balancer). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/** Installation secrets generated on first start when no environment variable provides them. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

import { pgTable, text, timestamp, integer, uuid, index, uniqueIndex, jsonb, boolean } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';

/**
 * Domains customers bought from us (issue 13, decision 024). The registrar (drivers/registrar) is the
 * truth for what the registry holds; this row is what we sold: owner, term, the customer's choices, and
 * the state of the registration or transfer we are carrying out. One live row per name.
 */
export const domains = pgTable('domains', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerId: uuid('owner_id').notNull().references(() => users.id),
  /** Full ASCII name (punycode), lower case. */
  domain: text('domain').notNull(),
  tld: text('tld').notNull(),
  status: text('status', { enum: ['registering', 'transferring', 'active', 'expired', 'failed'] }).notNull(),
  /** German, for the customer: why it failed, what is pending. */
  statusMessage: text('status_message'),
  nameservers: jsonb('nameservers').$type<string[]>().notNull(),
  transferLock: boolean('transfer_lock').notNull().default(true),
  /** The customer keeps the domain: renewal reminders with a payment link (decision 024). Off: it runs out. */
  autoRenew: boolean('auto_renew').notNull().default(true),
  /** Gross cents per year it was sold for (list or premium price); renewals cost the same. */
  yearCents: integer('year_cents').notNull(),
  premium: boolean('premium').notNull().default(false),
  /** A transfer in that the registry has not finished by then is given up (and refunded). */
  pendingDeadline: timestamp('pending_deadline', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  expiryReminderStage: integer('expiry_reminder_stage').notNull().default(0),
  /** Term over and not renewed: expired (the registrar lets it run out by itself, AUTOEXPIRE). */
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  // One live domain per name: two paid orders of the same name cannot both become a domain.
  uniqueIndex('domains_domain_idx').on(t.domain).where(sql`deleted_at is null and status <> 'failed'`),
  index('domains_owner_idx').on(t.ownerId),
]);

/** The registrant contact the registrar keeps for a customer (created once, updated when the profile changed). */
export const registrarContacts = pgTable('registrar_contacts', {
  userId: uuid('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  contactId: text('contact_id').notNull(),
  /** Hash of the profile data last sent: a changed profile is sent again before the next registration. */
  contactHash: text('contact_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

import { pgTable, serial, text, timestamp, jsonb, boolean } from 'drizzle-orm/pg-core';

/**
 * State of the simulated domain registry (embedded default, drivers/registrar/simulated): every
 * registered name is one row, ours or "someone else's" (seeded demo names), so a second registration of
 * the same name fails on the primary key however many API instances race. Transfers finish by
 * timestamps (pending_until), read lazily.
 */
export const simDomainRegistry = pgTable('sim_domain_registry', {
  /** Full ASCII name (punycode), lower case. */
  domain: text('domain').primaryKey(),
  /** false: registered elsewhere (a seeded demo name); true: in our account (registered or transferred in). */
  ours: boolean('ours').notNull(),
  /** active | pending (a transfer in that finishes at pending_until). */
  status: text('status').notNull(),
  authCode: text('auth_code').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  nameservers: jsonb('nameservers').$type<string[]>().notNull(),
  transferLock: boolean('transfer_lock').notNull().default(false),
  contactId: text('contact_id'),
  pendingUntil: timestamp('pending_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Registrant contacts of the simulated registry (one per customer, updated with the profile). */
export const simRegistrarContacts = pgTable('sim_registrar_contacts', {
  id: serial('id').primaryKey(),
  contact: jsonb('contact').$type<Record<string, unknown>>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

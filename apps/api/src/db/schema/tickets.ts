import { pgTable, uuid, text, timestamp, boolean, bigserial, index, primaryKey } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';
import { servers } from './infrastructure.ts';
import { files } from './files.ts';

/** The staff overview's rows (partial indexes below; the service's condition must imply it). */
const queue = sql`assignee_id is null and status <> 'closed'`;

/** Support tickets (spec §3). Live events come from triggers in migration 0008 (docs/decisions/014). */
export const tickets = pgTable('tickets', {
  id: uuid('id').primaryKey().defaultRandom(),
  customerId: uuid('customer_id').notNull().references(() => users.id),
  title: text('title').notNull(),
  description: text('description').notNull(),
  type: text('type', { enum: ['question', 'issue', 'problem', 'technical', 'billing', 'other', 'vdc_request'] }).notNull(),
  status: text('status', { enum: ['open', 'in_progress', 'closed'] }).notNull().default('open'),
  /** The customer's own server the ticket is about, if any. */
  serverId: uuid('server_id').references(() => servers.id),
  /** The staff member who took the ticket over; null while unassigned. */
  assigneeId: uuid('assignee_id').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** The customer's oldest message that staff have not answered yet (waiting time); null when answered. */
  waitingSince: timestamp('waiting_since', { withTimezone: true }),
  /** The first staff answer, for the statistics. */
  firstResponseAt: timestamp('first_response_at', { withTimezone: true }),
  closedAt: timestamp('closed_at', { withTimezone: true }),
}, (t) => [
  index('tickets_customer_idx').on(t.customerId, t.createdAt),
  index('tickets_status_type_idx').on(t.status, t.type),
  index('tickets_waiting_idx').on(t.waitingSince),
  // Search "contains" (ilike '%…%') on PostgreSQL and PGlite alike: trigram index (pg_trgm).
  index('tickets_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`),
  // The staff overview ("the queue": open or in progress, nobody holds it; a few per cent of all
  // tickets). One partial index per sort, each with the id tie-break, so a sorted page is the first
  // rows of one index scan (the benchmark checks this with EXPLAIN, docs/decisions/014). Status and type
  // trail as key columns: a filtered page or count is then an index-only scan, no row fetched to test
  // the filter. Search: the title by trigram, the customer by id (the matching customers' ids come from
  // users_username_trgm_idx).
  index('tickets_unassigned_idx').on(t.createdAt, t.id, t.status, t.type).where(queue),
  index('tickets_unassigned_status_idx').on(t.status, t.id, t.type).where(queue),
  index('tickets_unassigned_type_idx').on(t.type, t.id, t.status).where(queue),
  index('tickets_unassigned_waiting_idx').on(t.waitingSince, t.id, t.status, t.type).where(queue),
  index('tickets_unassigned_waiting_desc_idx').on(t.waitingSince.desc().nullsLast(), t.id.desc().nullsFirst(), t.status, t.type).where(queue),
  index('tickets_unassigned_customer_idx').on(t.customerId).where(queue),
  index('tickets_unassigned_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`).where(queue),
  // "My tickets" (closed ones included, so it grows with every ticket a staff member ever held): the
  // same per sort, behind the assignee.
  index('tickets_assignee_idx').on(t.assigneeId, t.createdAt, t.id, t.status, t.type),
  index('tickets_assignee_status_idx').on(t.assigneeId, t.status, t.id, t.type),
  index('tickets_assignee_type_idx').on(t.assigneeId, t.type, t.id, t.status),
  index('tickets_assignee_waiting_idx').on(t.assigneeId, t.waitingSince, t.id, t.status, t.type),
  index('tickets_assignee_waiting_desc_idx').on(t.assigneeId, t.waitingSince.desc().nullsLast(), t.id.desc().nullsFirst(), t.status, t.type),
  index('tickets_assignee_customer_idx').on(t.assigneeId, t.customerId),
]);

/** The chat of a ticket. Internal notes (`internal`) are for staff only and never reach a customer. */
export const ticketMessages = pgTable('ticket_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Paging cursor: increasing per insert, so "older than" is one index range. */
  seq: bigserial('seq', { mode: 'number' }).notNull(),
  ticketId: uuid('ticket_id').notNull().references(() => tickets.id, { onDelete: 'cascade' }),
  authorId: uuid('author_id').notNull().references(() => users.id),
  /** Written by staff (rendered as "Support Agent" for the customer). */
  fromStaff: boolean('from_staff').notNull(),
  internal: boolean('internal').notNull().default(false),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('ticket_messages_ticket_seq_idx').on(t.ticketId, t.seq),
]);

/**
 * Files of a ticket's chat (at most 5 per message, 10 MB each; docs/decisions/015). Uploaded first
 * (`messageId` null: pending, only its uploader can attach it), then attached by the message that names
 * it. Pending uploads nobody sent are removed after a day.
 */
export const ticketAttachments = pgTable('ticket_attachments', {
  fileId: uuid('file_id').primaryKey().references(() => files.id, { onDelete: 'cascade' }),
  ticketId: uuid('ticket_id').notNull().references(() => tickets.id, { onDelete: 'cascade' }),
  messageId: uuid('message_id').references(() => ticketMessages.id, { onDelete: 'cascade' }),
  uploadedBy: uuid('uploaded_by').notNull().references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('ticket_attachments_message_idx').on(t.messageId),
  index('ticket_attachments_pending_idx').on(t.createdAt).where(sql`message_id is null`),
]);

/**
 * "Vertrauliche Angaben": a secret a customer hands over (a root password). Encrypted at rest
 * (AES-256-GCM, lib/secrets.ts); only staff read it, each opening is logged; `sealed` is wiped (set to
 * null) when the ticket is closed. Never mailed, never in an event, never exported.
 */
export const ticketSecrets = pgTable('ticket_secrets', {
  id: uuid('id').primaryKey().defaultRandom(),
  ticketId: uuid('ticket_id').notNull().references(() => tickets.id, { onDelete: 'cascade' }),
  label: text('label').notNull(),
  sealed: text('sealed'),
  createdBy: uuid('created_by').notNull().references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  wipedAt: timestamp('wiped_at', { withTimezone: true }),
}, (t) => [
  index('ticket_secrets_ticket_idx').on(t.ticketId, t.createdAt),
]);

/** Who opened a confidential field, and when. */
export const ticketSecretOpenings = pgTable('ticket_secret_openings', {
  id: uuid('id').primaryKey().defaultRandom(),
  secretId: uuid('secret_id').notNull().references(() => ticketSecrets.id, { onDelete: 'cascade' }),
  staffId: uuid('staff_id').notNull().references(() => users.id),
  openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('ticket_secret_openings_secret_idx').on(t.secretId, t.openedAt),
]);

/**
 * Staff presence in a ticket view: refreshed by a heartbeat, gone after `expiresAt`. A change of who is
 * there or who types sends 'ticket.presence' (staff only).
 */
export const ticketPresence = pgTable('ticket_presence', {
  ticketId: uuid('ticket_id').notNull().references(() => tickets.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  typing: boolean('typing').notNull().default(false),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
}, (t) => [
  primaryKey({ columns: [t.ticketId, t.userId] }),
]);

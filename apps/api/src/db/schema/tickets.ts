import { pgTable, uuid, text, timestamp, boolean, bigserial, index } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';
import { servers } from './infrastructure.ts';

/** Support tickets (spec §3). Live events come from triggers in migration 0008 (docs/decisions/014). */
export const tickets = pgTable('tickets', {
  id: uuid('id').primaryKey().defaultRandom(),
  customerId: uuid('customer_id').notNull().references(() => users.id),
  title: text('title').notNull(),
  description: text('description').notNull(),
  type: text('type', { enum: ['question', 'issue', 'problem', 'technical', 'billing', 'other'] }).notNull(),
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
  // The staff overview: open, unassigned tickets, newest first.
  index('tickets_unassigned_idx').on(t.createdAt).where(sql`assignee_id is null and status <> 'closed'`),
  index('tickets_assignee_idx').on(t.assigneeId, t.createdAt),
  index('tickets_status_type_idx').on(t.status, t.type),
  index('tickets_waiting_idx').on(t.waitingSince),
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

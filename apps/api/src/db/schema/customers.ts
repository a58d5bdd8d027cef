import { pgTable, uuid, text, timestamp, index } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { files } from './files.ts';

/** Staff-only notes about a customer (customer detail, "Notizen"): author and date, never shown to the customer. */
export const customerNotes = pgTable('customer_notes', {
  id: uuid('id').primaryKey().defaultRandom(),
  customerId: uuid('customer_id').notNull().references(() => users.id),
  authorId: uuid('author_id').notNull().references(() => users.id),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('customer_notes_customer_idx').on(t.customerId, t.createdAt),
]);

/**
 * The communication history with a customer: every mail the system sent them (logged automatically when
 * the mail driver accepted it; bodies of mails with one-time codes are not kept) and calls, meetings
 * and other contacts that staff record.
 */
export const communications = pgTable('communications', {
  id: uuid('id').primaryKey().defaultRandom(),
  customerId: uuid('customer_id').notNull().references(() => users.id),
  kind: text('kind', { enum: ['email', 'call', 'meeting', 'other'] }).notNull(),
  subject: text('subject').notNull(),
  /** Null when the content must not be kept (one-time codes). */
  body: text('body'),
  /** The staff member who sent or recorded it; null for the system's own mails. */
  staffId: uuid('staff_id').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('communications_customer_idx').on(t.customerId, t.createdAt),
]);

/**
 * Documents staff upload to a customer (contracts, signed forms; tab "Dokumente"). The bytes are a
 * `files` row (docs/decisions/015), one per document: deleting the document deletes its file, and a file
 * deleted elsewhere takes the document with it. Business records: kept when the customer is deleted
 * (docs/decisions/018).
 */
export const customerDocuments = pgTable('customer_documents', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull().references(() => users.id),
  fileId: uuid('file_id').notNull().unique().references(() => files.id, { onDelete: 'cascade' }),
  uploadedBy: uuid('uploaded_by').notNull().references(() => users.id),
  /** A short label ("Rahmenvertrag 2026"); empty when none was given. */
  description: text('description').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('customer_documents_user_idx').on(t.userId, t.createdAt),
]);

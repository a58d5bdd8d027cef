import { pgTable, uuid, text, timestamp, integer, customType } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Uploaded files (docs/decisions/015): kept in PostgreSQL, so every API instance sees them and a backup
 * of the database holds them. The id is a random UUID (unguessable); the content type is the one sniffed
 * from the bytes, never the client's claim. Read the bytes only through lib/files.ts.
 */
export const files = pgTable('files', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The uploader's file name, for Content-Disposition only (never used as a path). */
  name: text('name').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  sha256: text('sha256').notNull(),
  data: bytea('data').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

import { pgTable, uuid, text, timestamp, boolean, date, jsonb, index } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** One change of a changelog entry (spec §3: {id, title, description, type}); ids c1, c2 … by position. */
export interface ChangelogChangeRow { id: string; title: string; description: string; type: string }

/**
 * Changelog entries (spec "Changelog"): public to read, written by staff. The changes are a small ordered
 * list that is always read and written with its entry, so they live in the entry as JSON (validated by
 * the contract on every write).
 */
export const changelogEntries = pgTable('changelog_entries', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Empty for announcements. */
  version: text('version'),
  releaseDate: date('release_date', { mode: 'string' }).notNull(),
  title: text('title').notNull(),
  description: text('description').notNull(),
  type: text('type', { enum: ['feature', 'improvement', 'bugfix', 'security', 'announcement'] }).notNull(),
  highlight: boolean('highlight').notNull().default(false),
  changes: jsonb('changes').$type<ChangelogChangeRow[]>().notNull(),
  createdBy: uuid('created_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  // The public order: newest release first; entries of one day by creation.
  index('changelog_entries_order_idx').on(t.releaseDate, t.createdAt, t.id),
]);

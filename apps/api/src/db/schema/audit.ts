import { pgTable, text, timestamp, uuid, index, jsonb, bigserial } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * What staff did to customers' things (power actions on a customer's server, manual server creation …).
 * Append-only; read by staff only.
 */
export const auditEvents = pgTable('audit_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  actorId: uuid('actor_id').notNull().references(() => users.id),
  action: text('action').notNull(),
  targetType: text('target_type').notNull(),
  targetId: text('target_id').notNull(),
  details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('audit_events_target_idx').on(t.targetType, t.targetId, t.createdAt), index('audit_events_actor_idx').on(t.actorId, t.createdAt)]);

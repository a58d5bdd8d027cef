import { pgTable, serial, text, timestamp, integer, jsonb, index } from 'drizzle-orm/pg-core';

export const statusServices = pgTable('status_services', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  status: text('status', { enum: ['operational', 'partial_outage', 'major_outage'] }).notNull().default('operational'),
  position: integer('position').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const statusIncidents = pgTable('status_incidents', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  status: text('status', { enum: ['investigating', 'identified', 'monitoring', 'resolved'] }).notNull(),
  severity: text('severity', { enum: ['minor', 'major', 'critical'] }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('status_incidents_created_idx').on(t.createdAt)]);

export const statusIncidentUpdates = pgTable('status_incident_updates', {
  id: serial('id').primaryKey(),
  incidentId: integer('incident_id').notNull().references(() => statusIncidents.id, { onDelete: 'cascade' }),
  status: text('status', { enum: ['investigating', 'identified', 'monitoring', 'resolved'] }).notNull(),
  message: text('message').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('status_incident_updates_incident_idx').on(t.incidentId)]);

export const statusMaintenances = pgTable('status_maintenances', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  status: text('status', { enum: ['scheduled', 'in_progress', 'completed'] }).notNull().default('scheduled'),
  startDate: timestamp('start_date', { withTimezone: true }).notNull(),
  endDate: timestamp('end_date', { withTimezone: true }).notNull(),
  affectedServices: jsonb('affected_services').$type<string[]>().notNull().default([]),
  description: text('description').notNull(),
}, (t) => [index('status_maintenances_start_idx').on(t.startDate)]);

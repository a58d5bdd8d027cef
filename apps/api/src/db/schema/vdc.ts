import { pgTable, text, timestamp, integer, uuid, index, uniqueIndex, bigint, check } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';
import { nodes } from './infrastructure.ts';

/**
 * The virtual data center (issue 25, decision 036): a resource pool on one node, bought for a term. Its
 * VMs are rows of `servers` with `vdc_id` set (so every VM has the root server's panel); the pool counts
 * as allocated on its node as a whole, never its VMs. Its public IPv4 addresses are rows of
 * `ip_addresses` with `vdc_id` set; each is given to at most one of its VMs (`server_id`).
 */
export const vdcs = pgTable('vdcs', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** "VDC-ID" customers quote to support. */
  number: bigint('number', { mode: 'number' }).notNull().default(sql`nextval('vdc_number_seq')`),
  ownerId: uuid('owner_id').notNull().references(() => users.id),
  nodeId: integer('node_id').notNull().references(() => nodes.id),
  /** The customer's own name for it ("Produktion"). */
  name: text('name').notNull(),
  /** The pool's limits; the portal enforces them under this row's lock (Proxmox has none). */
  cpuCores: integer('cpu_cores').notNull(),
  ramGb: integer('ram_gb').notNull(),
  storageGb: integer('storage_gb').notNull(),
  ipv4Count: integer('ipv4_count').notNull(),
  /** GB of ISO images the customer may keep, apart from the pool's storage. */
  isoQuotaGb: integer('iso_quota_gb').notNull().default(50),
  maxVms: integer('max_vms').notNull().default(20),
  /** Proxmox pool id (`vdc-<number>`) and SDN VNet id (`vdc<number>`, at most 8 characters). */
  poolId: text('pool_id').notNull(),
  vnet: text('vnet').notNull(),
  /** The private network's range the customer picked (RFC 1918, e.g. 10.20.0.0/24); null until chosen. */
  networkCidr: text('network_cidr'),
  networkStatus: text('network_status', { enum: ['none', 'creating', 'active', 'deleting', 'failed'] }).notNull().default('none'),
  status: text('status', { enum: ['provisioning', 'active', 'suspended', 'failed'] }).notNull().default('provisioning'),
  statusMessage: text('status_message'),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  expiryReminderStage: integer('expiry_reminder_stage').notNull().default(0),
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('vdcs_number_idx').on(t.number),
  index('vdcs_owner_idx').on(t.ownerId),
  index('vdcs_node_idx').on(t.nodeId).where(sql`deleted_at is null`),
  index('vdcs_owner_expiry_idx').on(t.ownerId, t.expiresAt, t.deletedAt),
  check('vdcs_positive', sql`${t.cpuCores} > 0 and ${t.ramGb} > 0 and ${t.storageGb} > 0 and ${t.ipv4Count} >= 0 and ${t.isoQuotaGb} >= 0 and ${t.maxVms} > 0`),
]);

/**
 * An ISO image in a VDC's library. A row is written before the first byte arrives (status
 * 'uploading', counted against the quota by its announced size) so parallel uploads cannot exceed
 * the quota; a failed or abandoned upload is removed with whatever reached the hypervisor.
 */
export const vdcIsos = pgTable('vdc_isos', {
  id: uuid('id').primaryKey().defaultRandom(),
  vdcId: uuid('vdc_id').notNull().references(() => vdcs.id),
  /** The file name the customer sees (sanitised, ends in .iso). */
  name: text('name').notNull(),
  /** The announced size in bytes; counted against the library quota from the start. */
  sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
  /** Bytes received so far (a resumed upload continues here). */
  receivedBytes: bigint('received_bytes', { mode: 'number' }).notNull().default(0),
  /** The hypervisor's volume id once the image is stored (`local:iso/vdc70001-….iso`). */
  volid: text('volid'),
  status: text('status', { enum: ['uploading', 'ready', 'failed'] }).notNull().default('uploading'),
  statusMessage: text('status_message'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  index('vdc_isos_vdc_idx').on(t.vdcId).where(sql`deleted_at is null`),
  uniqueIndex('vdc_isos_name_idx').on(t.vdcId, t.name).where(sql`deleted_at is null`),
]);

/**
 * An offer staff made in a "VDC-Anfrage" ticket: a priced pool that may lie beyond the sliders. The
 * customer accepts it by paying its order (the same payment link as a staff-prepared order).
 */
export const vdcOffers = pgTable('vdc_offers', {
  id: uuid('id').primaryKey().defaultRandom(),
  ticketId: uuid('ticket_id').notNull(),
  customerId: uuid('customer_id').notNull().references(() => users.id),
  createdById: uuid('created_by_id').notNull().references(() => users.id),
  cpuCores: integer('cpu_cores').notNull(),
  ramGb: integer('ram_gb').notNull(),
  storageGb: integer('storage_gb').notNull(),
  ipv4Count: integer('ipv4_count').notNull(),
  months: integer('months').notNull(),
  /** Gross list price for the whole term in cents, as staff set it. */
  priceCents: integer('price_cents').notNull(),
  /** The order that paid it (set when the customer pays, decision 021: the order is made at checkout). */
  orderId: uuid('order_id'),
  status: text('status', { enum: ['open', 'accepted', 'withdrawn', 'expired'] }).notNull().default('open'),
  validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('vdc_offers_ticket_idx').on(t.ticketId), index('vdc_offers_customer_idx').on(t.customerId)]);

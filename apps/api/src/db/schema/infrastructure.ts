import { pgTable, serial, text, timestamp, integer, boolean, uuid, index, uniqueIndex, jsonb, bigint } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';

/** Physical servers (Proxmox nodes). `name` is the node name the hypervisor knows. */
export const nodes = pgTable('nodes', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  host: text('host').notNull(),
  cpuCores: integer('cpu_cores').notNull(),
  ramGb: integer('ram_gb').notNull(),
  storageGb: integer('storage_gb').notNull(),
  status: text('status', { enum: ['online', 'offline', 'maintenance', 'unknown'] }).notNull().default('unknown'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('nodes_name_idx').on(sql`lower(${t.name})`), index('nodes_host_idx').on(t.host)]);

export const ipAddresses = pgTable('ip_addresses', {
  id: serial('id').primaryKey(),
  address: text('address').notNull(),
  version: text('version', { enum: ['IPv4', 'IPv6'] }).notNull(),
  subnet: text('subnet').notNull(),
  gateway: text('gateway').notNull(),
  /** Set while a server uses the address (or an open order holds it, see reservedUntil). */
  serverId: uuid('server_id'),
  /** The virtual data center the address belongs to (issue 25; its VMs share it out); null for the free pool and root servers. Foreign key in migration 0038. */
  vdcId: uuid('vdc_id'),
  reservedUntil: timestamp('reserved_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('ip_addresses_address_idx').on(sql`lower(${t.address})`), index('ip_addresses_server_idx').on(t.serverId), index('ip_addresses_vdc_idx').on(t.vdcId).where(sql`vdc_id is not null`)]);

/** Virtual servers. VM ids come from our sequence (Proxmox's nextid does not reserve). */
export const servers = pgTable('servers', {
  id: uuid('id').primaryKey().defaultRandom(),
  vmid: integer('vmid').notNull(),
  name: text('name').notNull(),
  ownerId: uuid('owner_id').notNull().references(() => users.id),
  nodeId: integer('node_id').notNull().references(() => nodes.id),
  os: text('os').notNull(),
  cpuCores: integer('cpu_cores').notNull(),
  ramGb: integer('ram_gb').notNull(),
  storageGb: integer('storage_gb').notNull(),
  status: text('status', { enum: ['provisioning', 'online', 'offline', 'maintenance', 'restart', 'reinstall', 'install', 'failed', 'starting', 'stopping'] }).notNull().default('provisioning'),
  statusMessage: text('status_message'),
  firewallEnabled: boolean('firewall_enabled').notNull().default(true),
  sshKeys: text('ssh_keys').notNull().default(''),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  /** Expiry reminders already mailed for the current term (0 none, 1 first, 2 second). */
  expiryReminderStage: integer('expiry_reminder_stage').notNull().default(0),
  /** Stopped because the prepaid term ended; deleted after the grace period unless renewed. */
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  /** The operation that holds the server (one at a time); null when idle. */
  busyTaskId: uuid('busy_task_id'),
  lastPowerActionAt: timestamp('last_power_action_at', { withTimezone: true }),
  /** Staff member who created the server by hand (no order, no expiry); null for ordered servers. */
  createdById: uuid('created_by_id').references(() => users.id),
  /** Why staff created it without an order (shown to staff on the server). */
  creationReason: text('creation_reason'),
  /**
   * Set for a VM of a virtual data center (issue 25): it lives inside the pool's limits, has no term of
   * its own and does not count on its node apart from the pool. Foreign key in migration 0038.
   */
  vdcId: uuid('vdc_id'),
  /** A VDC VM's address in the pool's private network; null while it is not joined. */
  privateAddress: text('private_address'),
  /** The VDC library's ISO image in its CD-ROM drive (it boots from it); null for none. */
  isoId: uuid('iso_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [index('servers_vdc_idx').on(t.vdcId).where(sql`vdc_id is not null and deleted_at is null`), uniqueIndex('servers_vmid_idx').on(t.vmid), index('servers_owner_idx').on(t.ownerId), index('servers_node_idx').on(t.nodeId), index('servers_expires_idx').on(t.expiresAt).where(sql`deleted_at is null and expires_at is not null`),
  // Statistics: terms that ended unrenewed (churn), deleted servers included.
  index('servers_owner_expiry_idx').on(t.ownerId, t.expiresAt, t.deletedAt)]);

/** Long-running hypervisor work (Proxmox tasks), visible to the customer with progress. */
export const serverTasks = pgTable('server_tasks', {
  id: uuid('id').primaryKey().defaultRandom(),
  serverId: uuid('server_id').notNull().references(() => servers.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  upid: text('upid'),
  status: text('status', { enum: ['running', 'ok', 'failed'] }).notNull().default('running'),
  progress: integer('progress').notNull().default(0),
  error: text('error'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
}, (t) => [index('server_tasks_server_idx').on(t.serverId, t.startedAt)]);

/** Servers shared with other account holders: they may operate the server but see no billing. */
export const serverAccess = pgTable('server_access', {
  serverId: uuid('server_id').notNull().references(() => servers.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('server_access_pk').on(t.serverId, t.userId), index('server_access_user_idx').on(t.userId)]);

/**
 * State of the simulated hypervisor (embedded default). Kept in the database so it survives restarts
 * and behaves the same for every API instance.
 */
export const simVms = pgTable('sim_vms', {
  vmid: integer('vmid').primaryKey(),
  node: text('node').notNull(),
  state: jsonb('state').$type<Record<string, unknown>>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const simTasks = pgTable('sim_tasks', {
  upid: text('upid').primaryKey(),
  node: text('node').notNull(),
  vmid: integer('vmid'),
  type: text('type').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  durationMs: integer('duration_ms').notNull(),
  /** 'OK' or the error text the task ends with. */
  exitStatus: text('exit_status').notNull().default('OK'),
  /** What happens to the VM state when the task finishes. */
  effect: jsonb('effect').$type<Record<string, unknown>>().notNull().default({}),
  appliedAt: timestamp('applied_at', { withTimezone: true }),
  sizeBytes: bigint('size_bytes', { mode: 'number' }),
});

/** Simulated Proxmox pools (one per virtual data center); the members are the VMs whose state names the pool. */
export const simPools = pgTable('sim_pools', {
  poolid: text('poolid').primaryKey(),
  comment: text('comment'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Simulated SDN VNets with their one subnet; a VLAN tag is used once per zone, as in a Proxmox VLAN zone. */
export const simVnets = pgTable('sim_vnets', {
  vnet: text('vnet').primaryKey(),
  zone: text('zone').notNull(),
  tag: integer('tag').notNull(),
  subnet: text('subnet').notNull(),
  gateway: text('gateway').notNull(),
  alias: text('alias'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('sim_vnets_zone_tag_idx').on(t.zone, t.tag)]);

/** Simulated ISO images in a node's ISO storage (metadata only; the bytes are not kept). */
export const simIsos = pgTable('sim_isos', {
  node: text('node').notNull(),
  volid: text('volid').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  sha256: text('sha256').notNull(),
  /** When the copy task ends and the image is listed. */
  availableAt: timestamp('available_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('sim_isos_node_volid_idx').on(t.node, t.volid)]);

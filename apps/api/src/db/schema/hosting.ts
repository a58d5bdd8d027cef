import { pgTable, serial, text, timestamp, integer, uuid, index, uniqueIndex, jsonb, bigint } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';

/**
 * Web hosting (decision 022). A hosting server is a server of the hosting panel (ISPConfig: System →
 * Server) with a number of package slots; a package is one customer's hosting account on it. What the
 * panel knows (site, domains, databases, backups) is read through the hosting driver, not copied here.
 */
export const hostingServers = pgTable('hosting_servers', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** Public host name (FTP host, shown to customers). */
  hostname: text('hostname').notNull(),
  /** The panel's server id (ISPConfig server_id). */
  panelServerId: text('panel_server_id').notNull(),
  /** How many packages may live on it; open checkouts hold a slot until their hold runs out. */
  slots: integer('slots').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});

export const hostingPackages = pgTable('hosting_packages', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** "Hosting ID" customers quote to support. */
  number: bigint('number', { mode: 'number' }).notNull().default(sql`nextval('hosting_package_number_seq')`),
  ownerId: uuid('owner_id').notNull().references(() => users.id),
  hostingServerId: integer('hosting_server_id').notNull().references(() => hostingServers.id),
  plan: text('plan', { enum: ['starter', 'professional', 'business'] }).notNull(),
  name: text('name').notNull(),
  primaryDomain: text('primary_domain').notNull(),
  status: text('status', { enum: ['provisioning', 'active', 'suspended', 'failed'] }).notNull().default('provisioning'),
  statusMessage: text('status_message'),
  websiteType: text('website_type', { enum: ['standard', 'wordpress', 'joomla'] }).notNull().default('standard'),
  /** The panel's login of this account (unique on the panel) and its ids, set by provisioning. */
  panelUsername: text('panel_username').notNull(),
  panelClientId: text('panel_client_id'),
  panelSiteId: text('panel_site_id'),
  /** The customer's retention choice in days; the panel keeps the matching number of copies. */
  backupRetentionDays: integer('backup_retention_days').notNull().default(30),
  /** A restore asked for and not yet applied by the panel (progress on the Backups tab). */
  restoreRequestedAt: timestamp('restore_requested_at', { withTimezone: true }),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  expiryReminderStage: integer('expiry_reminder_stage').notNull().default(0),
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('hosting_packages_number_idx').on(t.number),
  uniqueIndex('hosting_packages_username_idx').on(t.panelUsername),
  // One live package per primary domain: the web server cannot serve one name from two sites.
  uniqueIndex('hosting_packages_domain_idx').on(t.primaryDomain).where(sql`deleted_at is null and status <> 'failed'`),
  index('hosting_packages_owner_idx').on(t.ownerId),
  index('hosting_packages_server_idx').on(t.hostingServerId),
]);

/** Other account holders who may operate a package (like server_access); they see no billing. */
export const hostingAccess = pgTable('hosting_access', {
  packageId: uuid('package_id').notNull().references(() => hostingPackages.id, { onDelete: 'cascade' }),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('hosting_access_pk').on(t.packageId, t.userId), index('hosting_access_user_idx').on(t.userId)]);

/**
 * State of the simulated hosting panel (embedded default): one row per panel client with its site,
 * domains, databases, FTP user, backups and app as JSON. Kept in the database so it survives restarts
 * and is the same for every API instance; timed work (SSL, restores, installs) finishes by timestamps.
 */
export const simHostingAccounts = pgTable('sim_hosting_accounts', {
  id: serial('id').primaryKey(),
  serverId: text('server_id').notNull(),
  username: text('username').notNull(),
  state: jsonb('state').$type<Record<string, unknown>>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('sim_hosting_accounts_username_idx').on(t.username)]);

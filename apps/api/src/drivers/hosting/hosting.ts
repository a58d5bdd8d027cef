/**
 * The port every web hosting implementation fills: `simulated` (embedded default, state in our database)
 * and `ispconfig` (ISPConfig 3.2's JSON remote API, ../shared/integrations/ispconfig.md). One contract
 * suite (hosting.contract.ts) runs against both; the ISPConfig driver runs against the fake panel
 * (ispconfig/fake-ispconfig.ts).
 *
 * Shapes follow ISPConfig: a panel "server" (by its panel id) hosts sites; one customer account is a
 * panel client with one site (the primary domain); writes are applied by the panel's cron about once a
 * minute, so anything that takes effect later is reported as pending and read back by polling.
 */

/** Where an account lives: the panel's server id (hosting_servers.panel_server_id). */
export interface PanelServerRef {
  /** ISPConfig server_id (text, as our database stores it). */
  serverId: string;
}

/** One hosting account = panel client + its primary site; ids are the panel's (decimal text for ISPConfig). */
export interface HostingAccountRef extends PanelServerRef {
  clientId: string;
  siteId: string;
}

export interface HostingPlanLimits {
  /** Panel template / plan name, e.g. 'Professional'. */
  name: string;
  storageMb: number;
  trafficMb: number;
  databases: number;
  /** Domains including the primary one. */
  domains: number;
}

export interface CreateAccountSpec extends PanelServerRef {
  /** Unique login of the panel client, [a-z0-9]{3,32}; also the key for idempotency. */
  username: string;
  password: string;
  contactName: string;
  email: string;
  plan: HostingPlanLimits;
  primaryDomain: string;
  /** One of phpVersions(); null = the server's default. */
  phpVersion: string | null;
}

export type SslState = 'none' | 'pending' | 'active' | 'failed';

export interface HostingDomain {
  id: string;
  domain: string;
  type: 'primary' | 'addon';
  /** Absolute path on the panel server; the public folder is `<documentRoot>/web` on ISPConfig. */
  documentRoot: string;
  ssl: SslState;
}

export type BackupInterval = 'none' | 'daily' | 'weekly' | 'monthly';
/** ISPConfig accepts these copy counts only. */
export const BACKUP_COPIES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 30] as const;
export type BackupCopies = (typeof BACKUP_COPIES)[number];

export interface SiteInfo {
  primaryDomain: string;
  documentRoot: string;
  /** false while suspended (ISPConfig: client locked or site inactive). */
  active: boolean;
  ssl: SslState;
  /** null = the server's default PHP */
  phpVersion: string | null;
  memoryLimitMb: number;
  maxExecutionTimeS: number;
  backupInterval: BackupInterval;
  backupCopies: number;
  /** Changes written but not yet applied by the panel (ISPConfig: the minute cron). */
  pendingChanges: boolean;
}

export interface HostingDatabaseUser {
  id: string;
  name: string;
}

export interface HostingDatabase {
  id: string;
  name: string;
  userId: string | null;
  userName: string | null;
  /** null when the panel does not report it */
  sizeMb: number | null;
  /** Number of tables; null when the panel does not report it (ISPConfig's remote API has no such call). */
  tables: number | null;
}

export interface FtpAccount {
  id: string;
  username: string;
  host: string;
  port: number;
  directory: string;
}

export interface HostingBackup {
  id: string;
  /** ISO time the backup was made */
  createdAt: string;
  sizeBytes: number;
  /** What the archive holds: the web files or one database. */
  content: 'web' | 'mysql';
  /** true: made by the schedule; ISPConfig has no manual backups (no backup-now call). */
  automatic: boolean;
  filename: string;
}

/** Where a downloaded backup ends up: ISPConfig copies it into the site's backup/ folder (FTP). */
export type BackupDownload = { kind: 'ftp'; path: string } | { kind: 'url'; url: string };

export interface HostingUsage {
  diskUsedMb: number;
  diskQuotaMb: number;
  trafficThisMonthMb: number;
  trafficQuotaMb: number;
}

export type HostingAppKind = 'wordpress' | 'joomla';

/** The application tools of the Website tab that run a while (security check, database optimisation, update of everything). */
export type AppTool = 'security-check' | 'optimize-database' | 'update-all';
/** What runs on the application right now; one at a time (a second is PENDING). */
export type AppJobKind = AppTool | 'update-core' | 'update-plugin';

export interface AppFinding {
  severity: 'critical' | 'warning' | 'info';
  /** German, for the customer. */
  text: string;
}

export interface HostingApp {
  kind: HostingAppKind;
  version: string;
  latestVersion: string;
  /** 'updating' while core, plugins or themes are being replaced (update-core, update-all, update-plugin). */
  state: 'installing' | 'installed' | 'updating' | 'failed';
  plugins: { slug: string; name: string; version: string; latestVersion: string; update: 'none' | 'available' | 'critical'; active: boolean }[];
  /** Joomla calls them templates. Exactly one is active. */
  themes: { slug: string; name: string; version: string; latestVersion: string; active: boolean; update: 'none' | 'available' }[];
  /** The job that runs now (target: the plugin's slug for update-plugin), null when idle. */
  job: { kind: AppJobKind; target: string | null; startedAt: string } | null;
  lastSecurityCheck: { at: string; findings: AppFinding[] } | null;
  lastOptimized: { at: string; savedMb: number } | null;
}

export interface HostingCapabilities {
  /** One-click application install (WordPress, Joomla): the simulated driver only (decision 022). */
  apps: boolean;
  /** ISPConfig has no backup-now call. */
  backupNow: boolean;
  /** ISPConfig has no file API (.htaccess). */
  htaccess: boolean;
}

export type HostingErrorCode =
  /** Panel not reachable or too slow (time budget). */
  | 'UNAVAILABLE'
  /** The panel refused the call (remote_fault / invalid_data); message is German, detail the panel's text. */
  | 'REMOTE_FAULT'
  | 'NOT_FOUND'
  /** A name already exists (database, user, domain). */
  | 'DUPLICATE'
  /** An action of this kind is still queued (e.g. a restore). */
  | 'PENDING'
  /** The backend cannot do this at all (capability false). */
  | 'UNSUPPORTED'
  /** Login refused or a function not permitted: configuration, not the customer's fault. */
  | 'AUTH';

export class HostingError extends Error {
  constructor(readonly code: HostingErrorCode, message: string = hostingMessages[code], readonly detail?: string) {
    super(message);
  }
}

export const hostingMessages: Record<HostingErrorCode, string> = {
  UNAVAILABLE: 'Das Hosting-Panel ist derzeit nicht erreichbar. Bitte versuchen Sie es später erneut.',
  REMOTE_FAULT: 'Das Hosting-Panel hat die Änderung abgelehnt. Bitte prüfen Sie Ihre Eingabe oder wenden Sie sich an den Support.',
  NOT_FOUND: 'Das Objekt wurde im Hosting-Panel nicht gefunden.',
  DUPLICATE: 'Dieser Name ist auf dem Hosting-Server bereits vergeben.',
  PENDING: 'Für dieses Paket läuft bereits ein gleichartiger Vorgang. Bitte warten Sie, bis er abgeschlossen ist.',
  UNSUPPORTED: 'Diese Funktion wird vom Hosting-Panel nicht angeboten.',
  AUTH: 'Die Anmeldung am Hosting-Panel ist fehlgeschlagen. Bitte wenden Sie sich an den Support.',
};

export interface HostingDriver {
  readonly kind: 'simulated' | 'ispconfig';
  readonly capabilities: HostingCapabilities;

  /** PHP versions the panel server offers, e.g. ['7.4', '8.1', '8.2']. */
  phpVersions(server: PanelServerRef): Promise<string[]>;
  /** The phpMyAdmin address (absolute URL). */
  phpMyAdminUrl(server: PanelServerRef): Promise<string>;
  /** The panel's own login page for customers (the "cPanel" button). */
  panelLoginUrl(server: PanelServerRef): Promise<string>;

  /** Creates client, site and FTP user. Idempotent by username: a second call returns the same ref. */
  createAccount(spec: CreateAccountSpec): Promise<HostingAccountRef>;
  /** The password of the panel's own login for this account (the customer's "panel" button). */
  setPanelPassword(ref: HostingAccountRef, password: string): Promise<void>;
  suspend(ref: HostingAccountRef): Promise<void>;
  unsuspend(ref: HostingAccountRef): Promise<void>;
  /** Removes everything of the account; NOT_FOUND is not an error (already gone). */
  deleteAccount(ref: HostingAccountRef): Promise<void>;

  getSite(ref: HostingAccountRef): Promise<SiteInfo>;
  /** PHP version (null = default), memory limit and max execution time; unsent fields keep their value. */
  setPhp(ref: HostingAccountRef, change: { phpVersion?: string | null; memoryLimitMb?: number; maxExecutionTimeS?: number }): Promise<void>;

  listDomains(ref: HostingAccountRef): Promise<HostingDomain[]>;
  /** Addon domain with its own document root (a folder below the site). */
  addDomain(ref: HostingAccountRef, domain: string): Promise<HostingDomain>;
  deleteDomain(ref: HostingAccountRef, domainId: string): Promise<void>;
  /** Requests Let's Encrypt for a domain; issued asynchronously (getSite/listDomains show the real state). */
  requestSsl(ref: HostingAccountRef, domainId: string): Promise<void>;

  listDatabaseUsers(ref: HostingAccountRef): Promise<HostingDatabaseUser[]>;
  createDatabaseUser(ref: HostingAccountRef, name: string, password: string): Promise<HostingDatabaseUser>;
  setDatabaseUserPassword(ref: HostingAccountRef, userId: string, password: string): Promise<void>;
  deleteDatabaseUser(ref: HostingAccountRef, userId: string): Promise<void>;
  listDatabases(ref: HostingAccountRef): Promise<HostingDatabase[]>;
  createDatabase(ref: HostingAccountRef, name: string, userId: string): Promise<HostingDatabase>;
  deleteDatabase(ref: HostingAccountRef, databaseId: string): Promise<void>;

  getFtpAccount(ref: HostingAccountRef): Promise<FtpAccount>;
  setFtpPassword(ref: HostingAccountRef, password: string): Promise<void>;

  listBackups(ref: HostingAccountRef): Promise<HostingBackup[]>;
  /** Queued; a second restore while one is pending fails with PENDING. */
  restoreBackup(ref: HostingAccountRef, backupId: string): Promise<void>;
  downloadBackup(ref: HostingAccountRef, backupId: string): Promise<BackupDownload>;
  setBackupSchedule(ref: HostingAccountRef, schedule: { interval: BackupInterval; copies: BackupCopies }): Promise<void>;
  /** Only where capabilities.backupNow; otherwise UNSUPPORTED. */
  backupNow(ref: HostingAccountRef): Promise<void>;

  usage(ref: HostingAccountRef): Promise<HostingUsage>;

  /** Only where capabilities.apps; otherwise UNSUPPORTED / null. */
  installApp(ref: HostingAccountRef, app: HostingAppKind): Promise<void>;
  getApp(ref: HostingAccountRef): Promise<HostingApp | null>;
  /** Updates the core (WordPress/Joomla) only; PENDING while another job runs. */
  updateApp(ref: HostingAccountRef): Promise<void>;
  /** Starts a tool; its result shows in getApp (lastSecurityCheck, lastOptimized, versions) once done. PENDING while a job runs. */
  runAppTool(ref: HostingAccountRef, tool: AppTool): Promise<void>;
  /** Updates one plugin by slug; NOT_FOUND for an unknown one, PENDING while a job runs. */
  updatePlugin(ref: HostingAccountRef, slug: string): Promise<void>;
  /** Activates or deactivates a plugin at once; NOT_FOUND / PENDING as above. */
  setPluginActive(ref: HostingAccountRef, slug: string, active: boolean): Promise<void>;
  /** Makes this theme (Joomla: template) the only active one; NOT_FOUND / PENDING as above. */
  activateTheme(ref: HostingAccountRef, slug: string): Promise<void>;
}

import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { simHostingAccounts } from '../../../db/schema/index.ts';
import {
  HostingError,
  type AppFinding, type AppJobKind, type AppTool, type BackupInterval, type CreateAccountSpec, type HostingAccountRef, type HostingApp, type HostingAppKind, type HostingBackup,
  type HostingDriver, type HostingPlanLimits, type SslState,
} from '../hosting.ts';

/**
 * The embedded hosting panel: every account is one row of sim_hosting_accounts with its state as JSON,
 * changed under the row lock. It behaves like ISPConfig where the product can observe it (ids, the
 * document root layout, copy-count retention, changes and certificates that apply after a while, a
 * restore that is queued, duplicate names) and adds what ISPConfig cannot: one-click WordPress/Joomla
 * and "backup now" (capabilities). Timed work finishes by timestamps, read lazily, so no process has to
 * stay alive for it; durations are realistic (SSL 45 s, panel changes 20 s, restore 30 s, install
 * 40 s, application jobs 10–45 s) divided by SIMULATED_SPEED.
 */

interface SimDomain { id: string; domain: string; type: 'primary' | 'addon'; documentRoot: string; ssl: SslState; sslReadyAt?: string }
type SimBackup = HostingBackup;
interface SimApp extends HostingApp {
  readyAt?: string;
  /** Database overhead (revisions, transients) grows from this base since this time; optimising resets it. */
  overheadSince?: string;
  overheadBaseMb?: number;
}
interface SimState {
  clientId: string;
  username: string;
  siteId: string;
  contactName: string;
  email: string;
  locked: boolean;
  plan: HostingPlanLimits;
  phpVersion: string | null;
  memoryLimitMb: number;
  maxExecutionTimeS: number;
  backupInterval: BackupInterval;
  backupCopies: number;
  lastBackupAt: string;
  pendingUntil: string | null;
  restoreUntil: string | null;
  domains: SimDomain[];
  dbUsers: { id: string; name: string }[];
  databases: { id: string; name: string; userId: string; sizeMb: number; tables?: number }[];
  ftp: { id: string; username: string };
  backups: SimBackup[];
  app: SimApp | null;
  nextId: number;
  createdAt: string;
}

export const SIM_PHP_VERSIONS = ['7.4', '8.0', '8.1', '8.2', '8.3'];
const DAY = 86_400_000;
const WORDPRESS = { version: '6.6.2', latest: '6.7.1' };
const JOOMLA = { version: '5.1.4', latest: '5.2.1' };
/** How long the application's jobs take (ms, before SIMULATED_SPEED). */
const APP_JOB_MS: Record<AppJobKind, number> = { 'update-core': 30_000, 'update-all': 45_000, 'update-plugin': 10_000, 'security-check': 15_000, 'optimize-database': 20_000 };
const CHANGES_SOFTWARE: ReadonlySet<AppJobKind> = new Set(['update-core', 'update-all', 'update-plugin']);
const round1 = (n: number) => Math.round(n * 10) / 10;
const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** State written before plugins and themes had slugs and target versions, and before jobs: filled in. */
function normaliseApp(app: SimApp, createdAt: string) {
  for (const p of app.plugins) { p.slug ??= slugOf(p.name); p.latestVersion ??= p.version; }
  for (const t of app.themes) { t.slug ??= slugOf(t.name); t.latestVersion ??= t.version; }
  app.job ??= null;
  app.lastSecurityCheck ??= null;
  app.lastOptimized ??= null;
  app.overheadSince ??= createdAt;
  app.overheadBaseMb ??= 1.2;
  if (app.state === 'updating' && !app.job) app.job = { kind: 'update-core', target: null, startedAt: createdAt };
}

/**
 * What a security scanner (like Wordfence or the Joomla security checker) reports for this state:
 * outdated core and extensions, unused code left on the server, no TLS, a PHP without security support.
 */
function securityFindings(s: SimState, app: SimApp): AppFinding[] {
  const name = app.kind === 'wordpress' ? 'WordPress' : 'Joomla';
  const plugin = app.kind === 'wordpress' ? 'Plugin' : 'Erweiterung';
  const theme = app.kind === 'wordpress' ? 'Theme' : 'Template';
  const findings: AppFinding[] = [];
  for (const p of app.plugins.filter((x) => x.update === 'critical')) {
    findings.push({ severity: 'critical', text: `Das ${plugin} „${p.name}“ ${p.version} hat eine bekannte Sicherheitslücke. Aktualisieren Sie es sofort auf ${p.latestVersion}.` });
  }
  if (app.version !== app.latestVersion) {
    findings.push({ severity: 'warning', text: `${name} ${app.version} ist nicht aktuell. Version ${app.latestVersion} enthält Sicherheitskorrekturen.` });
  }
  for (const p of app.plugins.filter((x) => x.update === 'available')) {
    findings.push({ severity: 'warning', text: `Für das ${plugin} „${p.name}“ gibt es ein Update (${p.version} → ${p.latestVersion}).` });
  }
  if (s.domains[0] && s.domains[0].ssl !== 'active') {
    findings.push({ severity: 'warning', text: `Für ${s.domains[0].domain} ist kein SSL-Zertifikat aktiv: Anmeldungen im Admin-Bereich werden unverschlüsselt übertragen.` });
  }
  if (s.phpVersion !== null && Number(s.phpVersion) < 8.1) {
    findings.push({ severity: 'warning', text: `PHP ${s.phpVersion} erhält keine Sicherheitsupdates mehr. Wählen Sie unter „Einstellungen“ PHP 8.1 oder neuer.` });
  }
  for (const p of app.plugins.filter((x) => !x.active)) {
    findings.push({ severity: 'info', text: `Das ${plugin} „${p.name}“ ist deaktiviert. Entfernen Sie nicht genutzte ${plugin === 'Plugin' ? 'Plugins' : 'Erweiterungen'}: Ihr Code bleibt auf dem Server und kann angegriffen werden.` });
  }
  for (const t of app.themes.filter((x) => !x.active && x.update !== 'none')) {
    findings.push({ severity: 'info', text: `Das ${theme} „${t.name}“ ist nicht aktiv und veraltet. Entfernen Sie ungenutzte ${theme}s oder halten Sie sie aktuell.` });
  }
  return findings;
}
/** Tables an installed application creates in its database: WordPress core has 12, Joomla 5 about 70. */
const APP_TABLES = { wordpress: 12, joomla: 71 } as const;

export interface SimulatedHostingOptions {
  /** Divides the durations (demo 1, browser tests 10, API tests 50). */
  speed?: number;
  /** Clock (tests move it forward). */
  now?: () => number;
  /** Where the "panel" and phpMyAdmin buttons lead (an explanatory page of this product). */
  panelUrl: string;
  /** Domains whose certificate request fails (like a domain whose DNS does not point to us). */
  failSslFor?: (domain: string) => boolean;
}

export function createSimulatedHosting(db: Db, options: SimulatedHostingOptions): HostingDriver & { kind: 'simulated' } {
  const speed = Math.max(1, options.speed ?? 1);
  const now = options.now ?? (() => Date.now());
  const later = (ms: number) => new Date(now() + ms / speed).toISOString();
  const due = (iso: string | null | undefined) => iso !== null && iso !== undefined && Date.parse(iso) <= now();
  const failSsl = options.failSslFor ?? ((d: string) => d.endsWith('.invalid'));

  /** Applies whatever finished by now: pending changes, certificates, restores, installs, scheduled backups. */
  function settle(s: SimState): boolean {
    let changed = false;
    if (s.pendingUntil && due(s.pendingUntil)) { s.pendingUntil = null; changed = true; }
    if (s.restoreUntil && due(s.restoreUntil)) { s.restoreUntil = null; changed = true; }
    for (const d of s.domains) {
      if (d.ssl === 'pending' && due(d.sslReadyAt)) {
        d.ssl = failSsl(d.domain) ? 'failed' : 'active';
        delete d.sslReadyAt;
        changed = true;
      }
    }
    if (s.app) {
      normaliseApp(s.app, s.createdAt);
      if ((s.app.state === 'installing' || s.app.job) && due(s.app.readyAt)) {
        finishAppJob(s, s.app);
        changed = true;
      }
    }
    const period = s.backupInterval === 'daily' ? DAY : s.backupInterval === 'weekly' ? 7 * DAY : s.backupInterval === 'monthly' ? 30 * DAY : 0;
    if (period && !s.locked) {
      let last = Date.parse(s.lastBackupAt);
      for (let i = 0; i < 40 && last + period <= now(); i++) {
        last += period;
        s.backups.push(...backupPair(s, new Date(last), true));
        changed = true;
      }
      s.lastBackupAt = new Date(last).toISOString();
    }
    // Retention counts copies per content, like ISPConfig's backup_copies.
    for (const content of ['web', 'mysql'] as const) {
      const ofKind = s.backups.filter((b) => b.content === content && b.automatic).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      const drop = new Set(ofKind.slice(s.backupCopies).map((b) => b.id));
      if (drop.size) { s.backups = s.backups.filter((b) => !drop.has(b.id)); changed = true; }
    }
    return changed;
  }

  /** The job's effect, as of the moment it finished (readyAt). */
  function finishAppJob(s: SimState, app: SimApp) {
    const at = app.readyAt ?? new Date(now()).toISOString();
    const upgrade = (x: { version: string; latestVersion: string; update: string }) => { x.version = x.latestVersion; x.update = 'none'; };
    switch (app.job?.kind) {
      case 'update-core': app.version = app.latestVersion; break;
      case 'update-plugin': { const p = app.plugins.find((x) => x.slug === app.job!.target); if (p) upgrade(p); break; }
      case 'update-all': app.version = app.latestVersion; app.plugins.forEach(upgrade); app.themes.forEach(upgrade); break;
      case 'security-check': app.lastSecurityCheck = { at, findings: securityFindings(s, app) }; break;
      case 'optimize-database': {
        const days = Math.max(0, (Date.parse(at) - Date.parse(app.overheadSince!)) / DAY);
        app.lastOptimized = { at, savedMb: round1((app.overheadBaseMb ?? 0) + days * 0.15) };
        app.overheadSince = at;
        app.overheadBaseMb = 0;
        break;
      }
      default: break;
    }
    app.state = 'installed';
    app.job = null;
    delete app.readyAt;
  }

  /** The application, idle: a job or an install still running is PENDING. */
  function idleApp(s: SimState): SimApp {
    if (!s.app) throw new HostingError('NOT_FOUND');
    if (s.app.state === 'installing' || s.app.job) throw new HostingError('PENDING');
    return s.app;
  }
  function startAppJob(app: SimApp, kind: AppJobKind, target: string | null = null) {
    app.job = { kind, target, startedAt: new Date(now()).toISOString() };
    app.readyAt = later(APP_JOB_MS[kind]);
    if (CHANGES_SOFTWARE.has(kind)) app.state = 'updating';
  }
  const findPlugin = (s: SimState, slug: string) => {
    const p = s.app?.plugins.find((x) => x.slug === slug);
    if (!p) throw new HostingError('NOT_FOUND');
    return p;
  };

  function backupPair(s: SimState, at: Date, automatic: boolean): SimBackup[] {
    const stamp = at.toISOString().slice(0, 16).replace(/[-:T]/g, '');
    const web = usageOf(s).diskUsedMb;
    const list: SimBackup[] = [{ id: `b${s.nextId++}`, createdAt: at.toISOString(), sizeBytes: Math.round(web * 0.6 * 1024 * 1024), content: 'web', automatic, filename: `web_${stamp}.tar.gz` }];
    if (s.databases.length) list.push({ id: `b${s.nextId++}`, createdAt: at.toISOString(), sizeBytes: s.databases.reduce((n, d) => n + d.sizeMb, 0) * 300_000, content: 'mysql', automatic, filename: `db_${stamp}.sql.gz` });
    return list;
  }

  function usageOf(s: SimState) {
    const days = Math.max(0, (now() - Date.parse(s.createdAt)) / DAY);
    const diskUsedMb = Math.round(35 + (s.app ? (s.app.kind === 'wordpress' ? 68 : 92) : 0) + s.databases.reduce((n, d) => n + d.sizeMb, 0) + s.domains.length * 2);
    return { diskUsedMb, diskQuotaMb: s.plan.storageMb, trafficThisMonthMb: Math.round(days * 37 + (s.app ? 120 : 4)), trafficQuotaMb: s.plan.trafficMb };
  }

  /** Reads (and settles) an account; mutate() runs the change under the row lock. */
  async function read(ref: HostingAccountRef): Promise<SimState> {
    return mutate(ref, () => undefined);
  }

  async function mutate<T>(ref: HostingAccountRef, change: (s: SimState) => T): Promise<T extends undefined ? SimState : T> {
    const id = Number(ref.clientId);
    if (!Number.isSafeInteger(id)) throw new HostingError('NOT_FOUND');
    return db.transaction(async (tx) => {
      const [row] = await tx.select().from(simHostingAccounts).where(eq(simHostingAccounts.id, id)).for('update');
      if (!row || row.serverId !== ref.serverId || (row.state as unknown as SimState).siteId !== ref.siteId) throw new HostingError('NOT_FOUND');
      const s = row.state as unknown as SimState;
      const before = JSON.stringify(s);
      settle(s);
      const result = change(s);
      if (JSON.stringify(s) !== before) {
        await tx.update(simHostingAccounts).set({ state: s as unknown as Record<string, unknown>, updatedAt: new Date() }).where(eq(simHostingAccounts.id, id));
      }
      return (result === undefined ? s : result) as T extends undefined ? SimState : T;
    });
  }

  const touch = (s: SimState) => { s.pendingUntil = later(20_000); };
  const findDomain = (s: SimState, id: string) => {
    const d = s.domains.find((x) => x.id === id);
    if (!d) throw new HostingError('NOT_FOUND');
    return d;
  };
  const allDomains = async () => (await db.select({ state: simHostingAccounts.state }).from(simHostingAccounts))
    .flatMap((r) => (r.state as unknown as SimState).domains.map((d) => d.domain));

  return {
    kind: 'simulated',
    capabilities: { apps: true, backupNow: true, htaccess: false },

    async phpVersions() { return SIM_PHP_VERSIONS; },
    async phpMyAdminUrl() { return `${options.panelUrl}/phpmyadmin`; },
    async panelLoginUrl() { return options.panelUrl; },

    async createAccount(spec: CreateAccountSpec) {
      const [existing] = await db.select().from(simHostingAccounts).where(eq(simHostingAccounts.username, spec.username));
      if (existing) {
        const s = existing.state as unknown as SimState;
        return { serverId: existing.serverId, clientId: s.clientId, siteId: s.siteId };
      }
      if ((await allDomains()).includes(spec.primaryDomain)) throw new HostingError('DUPLICATE');
      const created = new Date(now()).toISOString();
      // Row and state in one transaction: a process that dies in between must not leave an account
      // without state, which a retry would take for a finished one (and allDomains would trip over).
      const ref = await db.transaction(async (tx) => {
        const [row] = await tx.insert(simHostingAccounts).values({ serverId: spec.serverId, username: spec.username, state: {} })
          .onConflictDoNothing().returning({ id: simHostingAccounts.id });
        if (!row) return null;
        const clientId = String(row.id);
        const documentRoot = `/var/www/clients/client${clientId}/web${clientId}`;
        const state: SimState = {
          clientId, siteId: clientId, username: spec.username, contactName: spec.contactName, email: spec.email, locked: false, plan: spec.plan,
          // A new site has the panel's defaults (ISPConfig: no certificate, no backups, PHP's own limits);
          // provisioning sets the product's defaults through the same calls a customer uses.
          phpVersion: spec.phpVersion, memoryLimitMb: 128, maxExecutionTimeS: 30, backupInterval: 'none', backupCopies: 1,
          lastBackupAt: created, pendingUntil: later(20_000), restoreUntil: null,
          domains: [{ id: clientId, domain: spec.primaryDomain, type: 'primary', documentRoot, ssl: 'none' }],
          dbUsers: [], databases: [], ftp: { id: `f${clientId}`, username: spec.username }, backups: [], app: null, nextId: 2, createdAt: created,
        };
        await tx.update(simHostingAccounts).set({ state: state as unknown as Record<string, unknown> }).where(eq(simHostingAccounts.id, row.id));
        return { serverId: spec.serverId, clientId, siteId: clientId };
      });
      return ref ?? this.createAccount(spec);
    },

    async setPanelPassword(ref) { await mutate(ref, (s) => { touch(s); }); },
    async suspend(ref) { await mutate(ref, (s) => { s.locked = true; touch(s); }); },
    async unsuspend(ref) { await mutate(ref, (s) => { s.locked = false; touch(s); }); },
    async deleteAccount(ref) {
      const id = Number(ref.clientId);
      if (Number.isSafeInteger(id)) await db.delete(simHostingAccounts).where(eq(simHostingAccounts.id, id));
    },

    async getSite(ref) {
      const s = await read(ref);
      const primary = s.domains[0]!;
      return {
        primaryDomain: primary.domain, documentRoot: primary.documentRoot, active: !s.locked, ssl: primary.ssl,
        phpVersion: s.phpVersion, memoryLimitMb: s.memoryLimitMb, maxExecutionTimeS: s.maxExecutionTimeS,
        backupInterval: s.backupInterval, backupCopies: s.backupCopies, pendingChanges: s.pendingUntil !== null || s.restoreUntil !== null,
      };
    },
    async setPhp(ref, change) {
      if (change.phpVersion && !SIM_PHP_VERSIONS.includes(change.phpVersion)) throw new HostingError('REMOTE_FAULT', undefined, 'unknown php version');
      await mutate(ref, (s) => {
        if (change.phpVersion !== undefined) s.phpVersion = change.phpVersion;
        if (change.memoryLimitMb !== undefined) s.memoryLimitMb = change.memoryLimitMb;
        if (change.maxExecutionTimeS !== undefined) s.maxExecutionTimeS = change.maxExecutionTimeS;
        touch(s);
      });
    },

    async listDomains(ref) {
      return (await read(ref)).domains.map(({ sslReadyAt: _ignored, ...d }) => d);
    },
    async addDomain(ref, domain) {
      if ((await allDomains()).includes(domain)) throw new HostingError('DUPLICATE');
      return mutate(ref, (s) => {
        const id = `a${s.nextId++}`;
        const d: SimDomain = { id, domain, type: 'addon', documentRoot: `${s.domains[0]!.documentRoot}/web/${domain}`, ssl: 'none' };
        s.domains.push(d);
        touch(s);
        return { id, domain, type: d.type, documentRoot: d.documentRoot, ssl: d.ssl };
      });
    },
    async deleteDomain(ref, domainId) {
      await mutate(ref, (s) => {
        const d = findDomain(s, domainId);
        if (d.type === 'primary') throw new HostingError('REMOTE_FAULT', undefined, 'the primary domain cannot be deleted');
        s.domains = s.domains.filter((x) => x.id !== domainId);
        touch(s);
      });
    },
    async requestSsl(ref, domainId) {
      await mutate(ref, (s) => {
        const d = findDomain(s, domainId);
        if (d.ssl === 'active' || d.ssl === 'pending') return;
        d.ssl = 'pending';
        d.sslReadyAt = later(45_000);
      });
    },

    async listDatabaseUsers(ref) { return (await read(ref)).dbUsers; },
    async createDatabaseUser(ref, name) {
      return mutate(ref, (s) => {
        if (s.dbUsers.some((u) => u.name === name)) throw new HostingError('DUPLICATE');
        const user = { id: `u${s.nextId++}`, name };
        s.dbUsers.push(user);
        return user;
      });
    },
    async setDatabaseUserPassword(ref, userId) {
      await mutate(ref, (s) => {
        if (!s.dbUsers.some((u) => u.id === userId)) throw new HostingError('NOT_FOUND');
        touch(s);
      });
    },
    async deleteDatabaseUser(ref, userId) {
      await mutate(ref, (s) => {
        if (s.databases.some((d) => d.userId === userId)) throw new HostingError('REMOTE_FAULT', undefined, 'user still owns a database');
        s.dbUsers = s.dbUsers.filter((u) => u.id !== userId);
      });
    },
    async listDatabases(ref) {
      const s = await read(ref);
      return s.databases.map((d) => ({ id: d.id, name: d.name, userId: d.userId, userName: s.dbUsers.find((u) => u.id === d.userId)?.name ?? null, sizeMb: d.sizeMb, tables: d.tables ?? 0 }));
    },
    async createDatabase(ref, name, userId) {
      return mutate(ref, (s) => {
        if (s.databases.some((d) => d.name === name)) throw new HostingError('DUPLICATE');
        const user = s.dbUsers.find((u) => u.id === userId);
        if (!user) throw new HostingError('NOT_FOUND');
        const db = { id: `db${s.nextId++}`, name, userId, sizeMb: 1, tables: 0 };
        s.databases.push(db);
        return { id: db.id, name, userId, userName: user.name, sizeMb: db.sizeMb, tables: db.tables };
      });
    },
    async deleteDatabase(ref, databaseId) {
      await mutate(ref, (s) => {
        const gone = s.databases.find((d) => d.id === databaseId);
        if (!gone) throw new HostingError('NOT_FOUND');
        s.databases = s.databases.filter((d) => d.id !== databaseId);
        // An application without its database is gone too (it can be installed again).
        if (s.app && gone.name === `${s.username}_${s.app.kind === 'wordpress' ? 'wp' : 'joomla'}`) s.app = null;
      });
    },

    async getFtpAccount(ref) {
      const s = await read(ref);
      return { id: s.ftp.id, username: s.ftp.username, host: `ftp.${s.domains[0]!.domain}`, port: 21, directory: s.domains[0]!.documentRoot };
    },
    async setFtpPassword(ref) { await mutate(ref, (s) => { touch(s); }); },

    async listBackups(ref) {
      return (await read(ref)).backups.slice().sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
    async restoreBackup(ref, backupId) {
      await mutate(ref, (s) => {
        if (!s.backups.some((b) => b.id === backupId)) throw new HostingError('NOT_FOUND');
        if (s.restoreUntil) throw new HostingError('PENDING');
        s.restoreUntil = later(30_000);
      });
    },
    async downloadBackup(ref, backupId) {
      const s = await read(ref);
      const backup = s.backups.find((b) => b.id === backupId);
      if (!backup) throw new HostingError('NOT_FOUND');
      return { kind: 'ftp', path: `backup/${backup.filename}` };
    },
    async setBackupSchedule(ref, schedule) {
      await mutate(ref, (s) => {
        const period = schedule.interval === 'daily' ? DAY : schedule.interval === 'weekly' ? 7 * DAY : schedule.interval === 'monthly' ? 30 * DAY : 0;
        // Switched on: the first run comes soon (the panel's next backup window), then one per period.
        if (s.backupInterval === 'none' && period) s.lastBackupAt = new Date(now() + 60_000 / speed - period).toISOString();
        s.backupInterval = schedule.interval;
        s.backupCopies = schedule.copies;
        touch(s);
      });
    },
    async backupNow(ref) {
      await mutate(ref, (s) => { s.backups.push(...backupPair(s, new Date(now()), false)); });
    },

    async usage(ref) { return usageOf(await read(ref)); },

    async installApp(ref, kind: HostingAppKind) {
      await mutate(ref, (s) => {
        if (s.app && (s.app.state === 'installing' || s.app.state === 'updating')) throw new HostingError('PENDING');
        const v = kind === 'wordpress' ? WORDPRESS : JOOMLA;
        s.app = {
          kind, version: v.version, latestVersion: v.latest, state: 'installing', readyAt: later(40_000),
          plugins: kind === 'wordpress'
            ? [
              { slug: 'akismet', name: 'Akismet Anti-Spam', version: '5.3.3', latestVersion: '5.3.5', update: 'available', active: true },
              { slug: 'wordpress-seo', name: 'Yoast SEO', version: '23.5', latestVersion: '23.5', update: 'none', active: true },
              { slug: 'contact-form-7', name: 'Contact Form 7', version: '5.9.6', latestVersion: '5.9.8', update: 'critical', active: false },
            ]
            : [],
          themes: kind === 'wordpress'
            ? [
              { slug: 'twentytwentyfour', name: 'Twenty Twenty-Four', version: '1.2', latestVersion: '1.2', active: true, update: 'none' },
              { slug: 'twentytwentythree', name: 'Twenty Twenty-Three', version: '1.4', latestVersion: '1.5', active: false, update: 'available' },
            ]
            : [{ slug: 'cassiopeia', name: 'Cassiopeia', version: '5.1', latestVersion: '5.1', active: true, update: 'none' }],
          job: null, lastSecurityCheck: null, lastOptimized: null, overheadSince: new Date(now()).toISOString(), overheadBaseMb: 1.2,
        };
        // The application's own database, named like the customer's (panel user + suffix).
        const appDb = `${s.username}_${kind === 'wordpress' ? 'wp' : 'joomla'}`;
        if (!s.databases.some((d) => d.name === appDb)) {
          const user = { id: `u${s.nextId++}`, name: appDb };
          s.dbUsers.push(user);
          s.databases.push({ id: `db${s.nextId++}`, name: appDb, userId: user.id, sizeMb: 4, tables: APP_TABLES[kind] });
        }
      });
    },
    async getApp(ref) {
      const app = (await read(ref)).app;
      if (!app) return null;
      const { readyAt: _r, overheadSince: _o, overheadBaseMb: _b, ...rest } = app;
      return rest;
    },
    async updateApp(ref) {
      await mutate(ref, (s) => {
        const app = idleApp(s);
        if (app.version !== app.latestVersion) startAppJob(app, 'update-core');
      });
    },
    async runAppTool(ref, tool: AppTool) {
      await mutate(ref, (s) => {
        const app = idleApp(s);
        const outdated = app.version !== app.latestVersion || app.plugins.some((p) => p.update !== 'none') || app.themes.some((t) => t.update !== 'none');
        if (tool !== 'update-all' || outdated) startAppJob(app, tool);
      });
    },
    async updatePlugin(ref, slug) {
      await mutate(ref, (s) => {
        const p = findPlugin(s, slug);
        const app = idleApp(s);
        if (p.update !== 'none') startAppJob(app, 'update-plugin', slug);
      });
    },
    async setPluginActive(ref, slug, active) {
      await mutate(ref, (s) => {
        const p = findPlugin(s, slug);
        idleApp(s);
        p.active = active;
      });
    },
    async activateTheme(ref, slug) {
      await mutate(ref, (s) => {
        if (!s.app?.themes.some((t) => t.slug === slug)) throw new HostingError('NOT_FOUND');
        const app = idleApp(s);
        for (const t of app.themes) t.active = t.slug === slug;
      });
    },
  };
}

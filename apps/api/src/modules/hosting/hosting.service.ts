import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import {
  HOSTING_PLANS, hostingMessages, retentionCopies,
  type AddDomainInput, type AppTool, type BackupScheduleInput, type CreateDatabaseInput, type CreateDatabaseUserInput, type HostingBackups, type HostingCard, type HostingDatabases,
  type HostingDetail, type HostingDomainView, type PhpSettingsInput,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { hostingAccess, hostingPackages, hostingServers, users } from '../../db/schema/index.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { HostingError, type BackupCopies, type HostingAccountRef, type HostingDomain, type HostingDriver } from '../../drivers/hosting/hosting.ts';
import { domainClaim, domainClaimError } from './hosting.product.ts';
import { withLease } from '../../lib/lease.ts';

/**
 * The customer's hosting packages (decision 022). Our database knows who may see a package and its
 * term; everything on the package page is read from and written to the panel through the driver, so
 * what the customer sees is what the panel has. Nothing is copied, so nothing can be half-done here.
 */

type HostingDeps = Pick<Deps, 'db' | 'hosting' | 'env'> & { log?: { warn: (obj: object, msg: string) => void; error?: (obj: object, msg: string) => void } };
type Pkg = typeof hostingPackages.$inferSelect;

const PACKAGE_NOT_FOUND = 'Hosting-Paket nicht gefunden.';
const RESTORE_WINDOW_MS = 15 * 60_000;

/** A driver error as the API answers it: German message, no panel internals. */
export function toHostingAppError(err: unknown, deps?: HostingDeps): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HostingError) {
    if (err.code === 'AUTH') deps?.log?.error?.({ detail: err.detail }, 'hosting panel refused our remote user: check ISPCONFIG_USER and its function rights');
    else if (err.code === 'REMOTE_FAULT') deps?.log?.warn({ detail: err.detail }, 'hosting panel refused a change');
    const status = { UNAVAILABLE: 503, AUTH: 503, REMOTE_FAULT: 409, DUPLICATE: 409, PENDING: 409, NOT_FOUND: 404, UNSUPPORTED: 400 }[err.code];
    return new AppError(status, `HOSTING_${err.code}`, err.message);
  }
  return new AppError(503, 'HOSTING_UNAVAILABLE', new HostingError('UNAVAILABLE').message);
}

async function panel<T>(deps: HostingDeps, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toHostingAppError(err, deps);
  }
}

/** Own packages and packages shared with the user; everything else does not exist (404). */
export async function findAccessiblePackage(deps: Pick<Deps, 'db'>, user: RequestUser, id: string) {
  const [row] = await deps.db.select({ pkg: hostingPackages, server: hostingServers, shared: hostingAccess.userId })
    .from(hostingPackages)
    .innerJoin(hostingServers, eq(hostingServers.id, hostingPackages.hostingServerId))
    .leftJoin(hostingAccess, and(eq(hostingAccess.packageId, hostingPackages.id), eq(hostingAccess.userId, user.id)))
    .where(and(eq(hostingPackages.id, id), isNull(hostingPackages.deletedAt), or(eq(hostingPackages.ownerId, user.id), eq(hostingAccess.userId, user.id))))
    .limit(1);
  if (!row) throw notFound(PACKAGE_NOT_FOUND);
  return { pkg: row.pkg, server: row.server, access: row.pkg.ownerId === user.id ? ('owner' as const) : ('shared' as const) };
}

function refOf(pkg: Pkg, server: typeof hostingServers.$inferSelect): HostingAccountRef {
  return { serverId: server.panelServerId, clientId: pkg.panelClientId!, siteId: pkg.panelSiteId! };
}

/**
 * Logins that outlive a share (FTP, database users and their passwords, the panel login) are set by the
 * owner only: a shared user must not keep a way in after the owner removed the access.
 */
function ownerOnly(access: 'owner' | 'shared', message: string = hostingMessages.credentialsOwnerOnly) {
  if (access !== 'owner') throw forbidden(message);
}

/** A package the panel can be asked about: active (set up, not suspended). */
async function activePackage(deps: HostingDeps, user: RequestUser, id: string) {
  const found = await findAccessiblePackage(deps, user, id);
  if (found.pkg.status !== 'active' || !found.pkg.panelClientId || !found.pkg.panelSiteId) throw conflict('PACKAGE_NOT_ACTIVE', hostingMessages.notActive);
  return { ...found, ref: refOf(found.pkg, found.server) };
}

/** The columns a card shows: the list selects only these (bench: the package list against raw SQL). */
const cardColumns = {
  id: hostingPackages.id, name: hostingPackages.name, plan: hostingPackages.plan, status: hostingPackages.status,
  statusMessage: hostingPackages.statusMessage, primaryDomain: hostingPackages.primaryDomain, expiresAt: hostingPackages.expiresAt,
  ownerId: hostingPackages.ownerId,
};
type CardRow = Pick<Pkg, keyof typeof cardColumns>;

function toCard(pkg: CardRow, access: 'owner' | 'shared'): HostingCard {
  return {
    id: pkg.id, name: pkg.name, plan: pkg.plan, planName: HOSTING_PLANS[pkg.plan].name, status: pkg.status, statusMessage: pkg.statusMessage,
    primaryDomain: pkg.primaryDomain, expiresAt: pkg.expiresAt?.toISOString() ?? null, access,
  };
}

// The package list is read on every portal visit: a prepared statement, built once per database (like the profile).
const listQueries = new WeakMap<object, ReturnType<typeof prepareListQuery>>();
const prepareListQuery = (db: Deps['db']) => {
  const userId = sql.placeholder('userId');
  return db.select({ pkg: cardColumns }).from(hostingPackages)
    .leftJoin(hostingAccess, and(eq(hostingAccess.packageId, hostingPackages.id), eq(hostingAccess.userId, userId)))
    .where(and(isNull(hostingPackages.deletedAt), or(eq(hostingPackages.ownerId, userId), eq(hostingAccess.userId, userId))))
    .orderBy(desc(hostingPackages.createdAt))
    .prepare('hosting_list');
};

export async function listPackages(deps: Pick<Deps, 'db'>, user: RequestUser): Promise<{ items: HostingCard[] }> {
  let query = listQueries.get(deps.db);
  if (!query) listQueries.set(deps.db, (query = prepareListQuery(deps.db)));
  const rows = await query.execute({ userId: user.id });
  return { items: rows.map(({ pkg }) => toCard(pkg, pkg.ownerId === user.id ? 'owner' : 'shared')) };
}

/** A panel domain as the package page shows it: its public folder, and whether its DNS is ours. */
function domainView(deps: HostingDeps, d: HostingDomain): HostingDomainView {
  const base = deps.env.hostingSubdomainBase;
  return {
    id: d.id, domain: d.domain, type: d.type,
    // The primary domain's document root is the site folder; it serves web/. An addon is served from its own folder.
    directory: d.type === 'primary' ? `${d.documentRoot}/web` : d.documentRoot,
    documentRoot: d.documentRoot,
    ssl: d.ssl,
    dnsManaged: d.domain === base || d.domain.endsWith(`.${base}`),
  };
}

/** The PHP versions a package may use: its plan's, as far as the panel server offers them. */
async function packagePhpVersions(hosting: HostingDriver, pkg: Pkg, server: typeof hostingServers.$inferSelect) {
  const offered = await hosting.phpVersions({ serverId: server.panelServerId });
  return HOSTING_PLANS[pkg.plan].phpVersions.filter((v) => offered.includes(v));
}

export async function getPackageDetail(deps: HostingDeps, user: RequestUser, id: string): Promise<HostingDetail> {
  const { pkg, server, access } = await findAccessiblePackage(deps, user, id);
  const plan = HOSTING_PLANS[pkg.plan];
  const base = {
    ...toCard(pkg, access),
    hostingId: String(pkg.number),
    limits: { storageMb: plan.storageMb, trafficMb: plan.trafficMb, databases: plan.databases, domains: plan.domains },
    websiteType: pkg.websiteType,
    capabilities: deps.hosting.capabilities,
    panelName: deps.hosting.kind === 'ispconfig' ? 'ISPConfig' : 'Hosting-Panel (Demo)',
    serverHostname: server.hostname,
  };
  if (pkg.status !== 'active' || !pkg.panelClientId) return { ...base, phpVersions: plan.phpVersions, site: null, panelError: null };
  const ref = refOf(pkg, server);
  const h = deps.hosting;
  try {
    const [site, domains, databases, ftp, usage, phpVersions, phpMyAdminUrl, panelUrl, app] = await Promise.all([
      h.getSite(ref), h.listDomains(ref), h.listDatabases(ref), h.getFtpAccount(ref), h.usage(ref),
      packagePhpVersions(h, pkg, server), h.phpMyAdminUrl(ref), h.panelLoginUrl(ref), h.capabilities.apps ? h.getApp(ref) : Promise.resolve(null),
    ]);
    return {
      ...base,
      phpVersions,
      panelError: null,
      site: {
        // The panel's default PHP is the newest the plan allows.
        phpVersion: site.phpVersion ?? phpVersions.at(-1) ?? '–',
        memoryLimitMb: site.memoryLimitMb,
        maxExecutionTimeS: site.maxExecutionTimeS,
        ssl: site.ssl,
        backupFrequency: site.backupInterval,
        backupCopies: site.backupCopies,
        retentionDays: pkg.backupRetentionDays,
        pendingChanges: site.pendingChanges,
        usage,
        domains: domains.map((d) => domainView(deps, d)),
        databasesUsed: databases.length,
        ftp: { host: ftp.host, username: ftp.username, port: ftp.port, directory: ftp.directory },
        phpMyAdminUrl,
        panelUrl,
        panelUsername: pkg.panelUsername,
        app,
      },
    };
  } catch (err) {
    const appError = toHostingAppError(err, deps);
    return { ...base, phpVersions: plan.phpVersions, site: null, panelError: appError.message };
  }
}

export async function setPhpSettings(deps: HostingDeps, user: RequestUser, id: string, input: PhpSettingsInput) {
  const { pkg, server, ref } = await activePackage(deps, user, id);
  if (input.phpVersion !== undefined) {
    const allowed = await panel(deps, () => packagePhpVersions(deps.hosting, pkg, server));
    if (!allowed.includes(input.phpVersion)) throw badRequest('PHP_VERSION_UNKNOWN', hostingMessages.phpVersionUnknown);
  }
  if (input.phpVersion === undefined && input.memoryLimitMb === undefined && input.maxExecutionTimeS === undefined) {
    throw badRequest('NOTHING_TO_CHANGE', 'Bitte wählen Sie eine Einstellung, die geändert werden soll.');
  }
  await panel(deps, () => deps.hosting.setPhp(ref, input));
  return { message: hostingMessages.saved };
}

/** Longer than the panel calls of one creation can take (their time budgets); a dead process frees it after this. */
const CREATE_LEASE_S = 60;

/**
 * One creation of a kind at a time per package, across API instances: the plan's limit is checked
 * against the panel and then written to it, so two parallel requests would both pass the check.
 * The lease is a row in the shared rate_limits table (like the console tokens); a second request
 * meanwhile is told that the same kind of change is running.
 */
async function oneCreationAtATime<T>(deps: HostingDeps, kind: 'databases' | 'domains', pkg: Pkg, work: () => Promise<T>): Promise<T> {
  const done = await withLease(deps.db, `hosting-create:${kind}:${pkg.id}`, CREATE_LEASE_S, work);
  if (!done) throw conflict('HOSTING_PENDING', new HostingError('PENDING').message);
  return done.value;
}

export async function addDomain(deps: HostingDeps, user: RequestUser, id: string, input: AddDomainInput) {
  const { pkg, ref } = await activePackage(deps, user, id);
  return oneCreationAtATime(deps, 'domains', pkg, () => addDomainOnce(deps, pkg, ref, input));
}

async function addDomainOnce(deps: HostingDeps, pkg: Pkg, ref: HostingAccountRef, input: AddDomainInput) {
  const domains = await panel(deps, () => deps.hosting.listDomains(ref));
  if (domains.length >= HOSTING_PLANS[pkg.plan].domains) throw conflict('DOMAIN_LIMIT', hostingMessages.domainLimit);
  const base = deps.env.hostingSubdomainBase;
  if (input.domain === base || (input.domain.endsWith(`.${base}`) && input.domain !== pkg.primaryDomain && !input.domain.endsWith(`.${pkg.primaryDomain}`))) {
    throw badRequest('DOMAIN_INVALID', hostingMessages.domainInvalid);
  }
  if (domains.some((d) => d.domain === input.domain)) throw conflict('DOMAIN_TAKEN', hostingMessages.domainTaken);
  // Another package's primary domain, another customer's open checkout for it, or a name under another
  // customer's domain: all refused (one transaction with the checkout's per-domain lock).
  const claim = await deps.db.transaction((tx) => domainClaim(tx, input.domain, pkg.ownerId));
  if (claim) throw domainClaimError(claim);
  const added = await panel(deps, () => deps.hosting.addDomain(ref, input.domain));
  return domainView(deps, added);
}

export async function deleteDomain(deps: HostingDeps, user: RequestUser, id: string, domainId: string) {
  const { ref } = await activePackage(deps, user, id);
  const domains = await panel(deps, () => deps.hosting.listDomains(ref));
  const domain = domains.find((d) => d.id === domainId);
  if (!domain) throw notFound('Domain nicht gefunden.');
  if (domain.type === 'primary') throw badRequest('PRIMARY_DOMAIN', 'Die Hauptdomain kann nicht entfernt werden.');
  await panel(deps, () => deps.hosting.deleteDomain(ref, domainId));
  return { message: `Die Domain ${domain.domain} wurde entfernt.` };
}

export async function requestSsl(deps: HostingDeps, user: RequestUser, id: string, domainId: string) {
  const { ref } = await activePackage(deps, user, id);
  const domains = await panel(deps, () => deps.hosting.listDomains(ref));
  const domain = domains.find((d) => d.id === domainId);
  if (!domain) throw notFound('Domain nicht gefunden.');
  await panel(deps, () => deps.hosting.requestSsl(ref, domainId));
  return { message: `Das Let's-Encrypt-Zertifikat für ${domain.domain} wird ausgestellt. Das dauert meist ein bis zwei Minuten; die Domain muss dafür auf unseren Server zeigen.` };
}

/** Database and user names carry the package's prefix; the panel adds none (ISPConfig facts). */
const prefixOf = (pkg: Pkg) => `${pkg.panelUsername}_`;

export async function listDatabases(deps: HostingDeps, user: RequestUser, id: string): Promise<HostingDatabases> {
  const { pkg, ref } = await activePackage(deps, user, id);
  const [databases, users_, phpMyAdminUrl] = await panel(deps, () => Promise.all([deps.hosting.listDatabases(ref), deps.hosting.listDatabaseUsers(ref), deps.hosting.phpMyAdminUrl(ref)]));
  return {
    prefix: prefixOf(pkg),
    databases: databases.map((d) => ({ id: d.id, name: d.name, user: d.userName, userId: d.userId, sizeMb: d.sizeMb, tables: d.tables })),
    users: users_.map((u) => ({ id: u.id, name: u.name })),
    limit: HOSTING_PLANS[pkg.plan].databases,
    phpMyAdminUrl,
  };
}

/**
 * Creates a database for an existing user of the package, or with a new user of the same name. If the
 * database cannot be created after a new user was, that user is removed again: the panel keeps nothing
 * half-made.
 */
export async function createDatabase(deps: HostingDeps, user: RequestUser, id: string, input: CreateDatabaseInput) {
  const { pkg, ref, access } = await activePackage(deps, user, id);
  // A database for an existing user sets no login; one with a new user does.
  if (!input.userId) ownerOnly(access);
  return oneCreationAtATime(deps, 'databases', pkg, () => createDatabaseOnce(deps, pkg, ref, input));
}

async function createDatabaseOnce(deps: HostingDeps, pkg: Pkg, ref: HostingAccountRef, input: CreateDatabaseInput) {
  const [existing, dbUsers] = await panel(deps, () => Promise.all([deps.hosting.listDatabases(ref), deps.hosting.listDatabaseUsers(ref)]));
  if (existing.length >= HOSTING_PLANS[pkg.plan].databases) throw conflict('DATABASE_LIMIT', hostingMessages.databaseLimit);
  const name = `${prefixOf(pkg)}${input.name}`;
  if (existing.some((d) => d.name === name)) throw conflict('HOSTING_DUPLICATE', new HostingError('DUPLICATE').message);
  if (input.userId) {
    const owner = dbUsers.find((u) => u.id === input.userId);
    if (!owner) throw notFound(hostingMessages.databaseUserUnknown);
    const created = await panel(deps, () => deps.hosting.createDatabase(ref, name, owner.id));
    return { id: created.id, name: created.name, user: owner.name, userId: owner.id, sizeMb: created.sizeMb, tables: created.tables };
  }
  if (dbUsers.length >= HOSTING_PLANS[pkg.plan].databases) throw conflict('DATABASE_USER_LIMIT', hostingMessages.databaseUserLimit);
  if (dbUsers.some((u) => u.name === name)) throw conflict('HOSTING_DUPLICATE', new HostingError('DUPLICATE').message);
  const dbUser = await panel(deps, () => deps.hosting.createDatabaseUser(ref, name, input.password!));
  try {
    const created = await deps.hosting.createDatabase(ref, name, dbUser.id);
    return { id: created.id, name: created.name, user: dbUser.name, userId: dbUser.id, sizeMb: created.sizeMb, tables: created.tables };
  } catch (err) {
    await deps.hosting.deleteDatabaseUser(ref, dbUser.id).catch((cleanup: unknown) =>
      deps.log?.warn({ err: cleanup, user: dbUser.name }, 'database user left on the panel after a failed database creation'));
    throw toHostingAppError(err, deps);
  }
}

/**
 * "Benutzer erstellen": a database user without a database (to give a database a user of its own
 * choice). Users count against the same limit as databases; the same lease as database creation keeps
 * parallel requests from passing the check together.
 */
export async function createDatabaseUser(deps: HostingDeps, user: RequestUser, id: string, input: CreateDatabaseUserInput) {
  const { pkg, ref, access } = await activePackage(deps, user, id);
  ownerOnly(access);
  return oneCreationAtATime(deps, 'databases', pkg, async () => {
    const dbUsers = await panel(deps, () => deps.hosting.listDatabaseUsers(ref));
    if (dbUsers.length >= HOSTING_PLANS[pkg.plan].databases) throw conflict('DATABASE_USER_LIMIT', hostingMessages.databaseUserLimit);
    const name = `${prefixOf(pkg)}${input.name}`;
    if (dbUsers.some((u) => u.name === name)) throw conflict('HOSTING_DUPLICATE', new HostingError('DUPLICATE').message);
    const created = await panel(deps, () => deps.hosting.createDatabaseUser(ref, name, input.password));
    return { id: created.id, name: created.name };
  });
}

/**
 * Deletes a database user that owns no database. ISPConfig would delete it anyway and leave its
 * databases without a user (no application could log in any more), so the rule is ours.
 */
export async function deleteDatabaseUser(deps: HostingDeps, user: RequestUser, id: string, userId: string) {
  const { pkg, ref } = await activePackage(deps, user, id);
  // Under the creation lease: a database created for this user meanwhile would lose its user.
  return oneCreationAtATime(deps, 'databases', pkg, () => deleteUnusedDatabaseUser(deps, ref, userId));
}

async function deleteUnusedDatabaseUser(deps: HostingDeps, ref: HostingAccountRef, userId: string) {
  const [dbUsers, databases] = await panel(deps, () => Promise.all([deps.hosting.listDatabaseUsers(ref), deps.hosting.listDatabases(ref)]));
  const dbUser = dbUsers.find((u) => u.id === userId);
  if (!dbUser) throw notFound(hostingMessages.databaseUserUnknown);
  const owned = databases.filter((d) => d.userId === userId).map((d) => d.name);
  if (owned.length) {
    throw conflict('DATABASE_USER_IN_USE', `Der Benutzer ${dbUser.name} gehört noch zu ${owned.length === 1 ? 'der Datenbank' : 'den Datenbanken'} ${owned.join(', ')}. Löschen Sie zuerst ${owned.length === 1 ? 'diese Datenbank' : 'diese Datenbanken'}.`);
  }
  await panel(deps, () => deps.hosting.deleteDatabaseUser(ref, userId));
  return { message: `Der Datenbankbenutzer ${dbUser.name} wurde gelöscht.` };
}

export async function deleteDatabase(deps: HostingDeps, user: RequestUser, id: string, databaseId: string) {
  const { pkg, ref } = await activePackage(deps, user, id);
  // Under the creation lease: its user may go with it, and a database created for that user meanwhile would lose it.
  return oneCreationAtATime(deps, 'databases', pkg, () => deleteDatabaseOnce(deps, ref, databaseId));
}

async function deleteDatabaseOnce(deps: HostingDeps, ref: HostingAccountRef, databaseId: string) {
  const databases = await panel(deps, () => deps.hosting.listDatabases(ref));
  const database = databases.find((d) => d.id === databaseId);
  if (!database) throw notFound('Datenbank nicht gefunden.');
  await panel(deps, () => deps.hosting.deleteDatabase(ref, databaseId));
  // Its own user (same name) goes with it; a user shared with other databases stays.
  if (database.userId && database.userName === database.name && !databases.some((d) => d.id !== databaseId && d.userId === database.userId)) {
    await deps.hosting.deleteDatabaseUser(ref, database.userId).catch(() => undefined);
  }
  return { message: `Die Datenbank ${database.name} wurde gelöscht.` };
}

export async function setDatabasePassword(deps: HostingDeps, user: RequestUser, id: string, userId: string, password: string) {
  const { ref, access } = await activePackage(deps, user, id);
  ownerOnly(access);
  const dbUsers = await panel(deps, () => deps.hosting.listDatabaseUsers(ref));
  const dbUser = dbUsers.find((u) => u.id === userId);
  if (!dbUser) throw notFound('Datenbank-Benutzer nicht gefunden.');
  await panel(deps, () => deps.hosting.setDatabaseUserPassword(ref, userId, password));
  return { message: `Das Passwort von ${dbUser.name} wurde geändert.` };
}

export async function setFtpPassword(deps: HostingDeps, user: RequestUser, id: string, password: string) {
  const { ref, access } = await activePackage(deps, user, id);
  ownerOnly(access);
  await panel(deps, () => deps.hosting.setFtpPassword(ref, password));
  return { message: 'Das FTP-Passwort wurde geändert.' };
}

export async function setPanelPassword(deps: HostingDeps, user: RequestUser, id: string, password: string) {
  const { ref, access } = await activePackage(deps, user, id);
  // The panel login is the whole account: a shared user must not be able to keep it after the share ends.
  ownerOnly(access, hostingMessages.panelPasswordOwnerOnly);
  await panel(deps, () => deps.hosting.setPanelPassword(ref, password));
  return { message: 'Das Panel-Passwort wurde geändert.' };
}

export async function listBackups(deps: HostingDeps, user: RequestUser, id: string): Promise<HostingBackups> {
  const { pkg, ref } = await activePackage(deps, user, id);
  const [backups, site] = await panel(deps, () => Promise.all([deps.hosting.listBackups(ref), deps.hosting.getSite(ref)]));
  const restorePending = pkg.restoreRequestedAt !== null && Date.now() - pkg.restoreRequestedAt.getTime() < RESTORE_WINDOW_MS && site.pendingChanges;
  if (pkg.restoreRequestedAt && !restorePending) {
    await deps.db.update(hostingPackages).set({ restoreRequestedAt: null }).where(and(eq(hostingPackages.id, pkg.id), eq(hostingPackages.restoreRequestedAt, pkg.restoreRequestedAt)));
  }
  return {
    items: backups.map((b) => ({ id: b.id, date: b.createdAt, sizeBytes: b.sizeBytes, content: b.content, automatic: b.automatic })),
    restorePending,
  };
}

export async function restoreBackup(deps: HostingDeps, user: RequestUser, id: string, backupId: string) {
  const { pkg, ref } = await activePackage(deps, user, id);
  await panel(deps, () => deps.hosting.restoreBackup(ref, backupId));
  await deps.db.update(hostingPackages).set({ restoreRequestedAt: new Date() }).where(eq(hostingPackages.id, pkg.id));
  return { message: 'Die Wiederherstellung wurde gestartet. Der Server spielt das Backup innerhalb weniger Minuten zurück.' };
}

export async function downloadBackup(deps: HostingDeps, user: RequestUser, id: string, backupId: string) {
  const { ref } = await activePackage(deps, user, id);
  const result = await panel(deps, () => deps.hosting.downloadBackup(ref, backupId));
  return result.kind === 'ftp' ? { kind: 'ftp' as const, path: result.path, url: null } : { kind: 'url' as const, path: null, url: result.url };
}

export async function backupNow(deps: HostingDeps, user: RequestUser, id: string) {
  const { ref } = await activePackage(deps, user, id);
  await panel(deps, () => deps.hosting.backupNow(ref));
  return { message: 'Das Backup wurde erstellt.' };
}

export async function setBackupSchedule(deps: HostingDeps, user: RequestUser, id: string, input: BackupScheduleInput) {
  const { pkg, ref } = await activePackage(deps, user, id);
  const copies = retentionCopies(input.frequency, input.retentionDays) as BackupCopies;
  await panel(deps, () => deps.hosting.setBackupSchedule(ref, { interval: input.frequency, copies }));
  await deps.db.update(hostingPackages).set({ backupRetentionDays: input.retentionDays }).where(eq(hostingPackages.id, pkg.id));
  return { message: input.frequency === 'none' ? 'Automatische Backups sind abgeschaltet.' : copies === 1 ? 'Gespeichert: Der Server bewahrt die letzte Sicherung auf.' : `Gespeichert: Der Server bewahrt die letzten ${copies} Sicherungen auf.` };
}

export async function installApp(deps: HostingDeps, user: RequestUser, id: string, kind: 'wordpress' | 'joomla') {
  const { pkg, ref } = await activePackage(deps, user, id);
  if (!deps.hosting.capabilities.apps) throw badRequest('HOSTING_UNSUPPORTED', hostingMessages.appUnsupported);
  const [app, databases] = await panel(deps, () => Promise.all([deps.hosting.getApp(ref), deps.hosting.listDatabases(ref)]));
  if (app) throw conflict('APP_INSTALLED', hostingMessages.appInstalled);
  // The application brings its own database, which counts against the plan like any other.
  if (databases.length >= HOSTING_PLANS[pkg.plan].databases) throw conflict('DATABASE_LIMIT', hostingMessages.databaseLimit);
  await panel(deps, () => deps.hosting.installApp(ref, kind));
  await deps.db.update(hostingPackages).set({ websiteType: kind }).where(eq(hostingPackages.id, pkg.id));
  return { message: `${kind === 'wordpress' ? 'WordPress' : 'Joomla'} wird installiert. Das dauert etwa eine Minute.` };
}

export async function updateApp(deps: HostingDeps, user: RequestUser, id: string) {
  const { ref } = await activePackage(deps, user, id);
  if (!deps.hosting.capabilities.apps) throw badRequest('HOSTING_UNSUPPORTED', hostingMessages.appUnsupported);
  await panel(deps, () => deps.hosting.updateApp(ref));
  return { message: 'Die Aktualisierung läuft.' };
}

// ── Application tools, plugins and themes (Website tab; capability `apps`) ─────────────────────────

const APP_WORDS = {
  wordpress: { name: 'WordPress', plugin: 'Plugin', plugins: 'Plugins', theme: 'Theme', themes: 'Themes' },
  joomla: { name: 'Joomla', plugin: 'Erweiterung', plugins: 'Erweiterungen', theme: 'Template', themes: 'Templates' },
} as const;

/** The installed application of an active package, where the panel offers the tools (same rules as updateApp). */
async function installedApp(deps: HostingDeps, user: RequestUser, id: string) {
  const { ref } = await activePackage(deps, user, id);
  if (!deps.hosting.capabilities.apps) throw badRequest('HOSTING_UNSUPPORTED', hostingMessages.appToolsUnsupported);
  const app = await panel(deps, () => deps.hosting.getApp(ref));
  if (!app) throw notFound(hostingMessages.appMissing);
  return { ref, app, words: APP_WORDS[app.kind] };
}

export async function runAppTool(deps: HostingDeps, user: RequestUser, id: string, tool: AppTool) {
  const { ref, app, words } = await installedApp(deps, user, id);
  const outdated = app.version !== app.latestVersion || app.plugins.some((p) => p.update !== 'none') || app.themes.some((t) => t.update !== 'none');
  await panel(deps, () => deps.hosting.runAppTool(ref, tool));
  if (tool === 'security-check') return { message: 'Der Sicherheits-Check läuft. Das Ergebnis erscheint hier, sobald er fertig ist.' };
  if (tool === 'optimize-database') return { message: 'Die Datenbank wird optimiert. Das Ergebnis erscheint hier, sobald es fertig ist.' };
  return { message: outdated ? `${words.name}, ${words.plugins} und ${words.themes} werden aktualisiert.` : `${words.name}, ${words.plugins} und ${words.themes} sind auf dem neuesten Stand; es gibt nichts zu aktualisieren.` };
}

export async function updatePlugin(deps: HostingDeps, user: RequestUser, id: string, slug: string) {
  const { ref, app, words } = await installedApp(deps, user, id);
  const plugin = app.plugins.find((p) => p.slug === slug);
  if (!plugin) throw notFound(`${words.plugin} nicht gefunden.`);
  await panel(deps, () => deps.hosting.updatePlugin(ref, slug));
  return { message: plugin.update === 'none' ? `„${plugin.name}“ ist bereits auf dem neuesten Stand.` : `„${plugin.name}“ wird auf ${plugin.latestVersion} aktualisiert.` };
}

export async function setPluginActive(deps: HostingDeps, user: RequestUser, id: string, slug: string, active: boolean) {
  const { ref, app, words } = await installedApp(deps, user, id);
  const plugin = app.plugins.find((p) => p.slug === slug);
  if (!plugin) throw notFound(`${words.plugin} nicht gefunden.`);
  await panel(deps, () => deps.hosting.setPluginActive(ref, slug, active));
  return { message: `„${plugin.name}“ wurde ${active ? 'aktiviert' : 'deaktiviert'}.` };
}

export async function activateTheme(deps: HostingDeps, user: RequestUser, id: string, slug: string) {
  const { ref, app, words } = await installedApp(deps, user, id);
  const theme = app.themes.find((t) => t.slug === slug);
  if (!theme) throw notFound(`${words.theme} nicht gefunden.`);
  await panel(deps, () => deps.hosting.activateTheme(ref, slug));
  return { message: `„${theme.name}“ ist jetzt das aktive ${words.theme}.` };
}

// ── Sharing (owner only), like servers ──────────────────────────────────────────────────────────────

async function ownedPackage(deps: HostingDeps, user: RequestUser, id: string) {
  const found = await findAccessiblePackage(deps, user, id);
  if (found.access !== 'owner') throw forbidden('Nur der Inhaber kann das Paket teilen.');
  return found.pkg;
}

export async function listShares(deps: HostingDeps, user: RequestUser, id: string) {
  const pkg = await ownedPackage(deps, user, id);
  const rows = await deps.db.select({ username: users.username, since: hostingAccess.createdAt }).from(hostingAccess)
    .innerJoin(users, eq(users.id, hostingAccess.userId)).where(eq(hostingAccess.packageId, pkg.id)).orderBy(hostingAccess.createdAt);
  return { items: rows.map((r) => ({ username: r.username, since: r.since.toISOString() })) };
}

export async function sharePackage(deps: HostingDeps, user: RequestUser, id: string, username: string) {
  const pkg = await ownedPackage(deps, user, id);
  const [friend] = await deps.db.select({ id: users.id, username: users.username }).from(users)
    .where(and(sql`lower(${users.username}) = lower(${username})`, eq(users.role, 'customer'), isNull(users.disabledAt))).limit(1);
  if (!friend) throw notFound('Benutzer nicht gefunden. Bitte prüfen Sie den Benutzernamen.');
  if (friend.id === user.id) throw badRequest('SHARE_SELF', 'Sie können das Paket nicht mit sich selbst teilen.');
  const inserted = await deps.db.insert(hostingAccess).values({ packageId: pkg.id, userId: friend.id }).onConflictDoNothing().returning({ since: hostingAccess.createdAt });
  if (!inserted.length) throw conflict('SHARE_EXISTS', 'Das Paket ist bereits mit diesem Benutzer geteilt.');
  return { username: friend.username, since: inserted[0]!.since.toISOString() };
}

export async function unsharePackage(deps: HostingDeps, user: RequestUser, id: string, username: string) {
  const pkg = await ownedPackage(deps, user, id);
  const [target] = await deps.db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${username})`).limit(1);
  const removed = target
    ? await deps.db.delete(hostingAccess).where(and(eq(hostingAccess.packageId, pkg.id), eq(hostingAccess.userId, target.id))).returning({ id: hostingAccess.userId })
    : [];
  if (!removed.length) throw notFound('Dieser Benutzer hat keinen Zugriff auf das Paket.');
}

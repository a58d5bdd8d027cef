/**
 * The ISPConfig 3.2 hosting driver: every port method as calls of the JSON remote API
 * (../shared/integrations/ispconfig.md). One account = one panel client with one website (vhost) and one
 * FTP user; addon domains are "vhostalias" domains with their own folder below the site's web/.
 *
 * Rules the panel imposes:
 * - Updates reset fields they were not sent (pm_* to 1, log_retention to 30), so every update is
 *   get → merge → update with the full row, hashes left out.
 * - client_update merges the stored row, password hash included, before it saves, and then hashes that
 *   hash as if it were a new password (client.inc.php:203, remoting.inc.php:433, remoting_lib.inc.php:311):
 *   every client_update that is no password change sends `password: ''`, which the panel leaves alone.
 * - What the remote API accepts is written down from ISPConfig's source in ispconfig-api-table.ts.
 * - Rows come back with every value as text (PHP's mysqli), ids included.
 * - Writes land in the datalog and the server's minute cron applies them; `monitor_jobqueue_count`
 *   (per panel server, not per site) tells whether something is still waiting.
 */
import {
  BACKUP_COPIES, HostingError, hostingMessages,
  type CreateAccountSpec, type FtpAccount, type HostingAccountRef, type HostingBackup, type HostingDatabase, type HostingDatabaseUser,
  type HostingDomain, type HostingDriver, type PanelServerRef, type SiteInfo, type SslState,
} from '../hosting.ts';
import { createIspConfigClient, type IspConfigClientOptions, type IspConfigConfig } from './ispconfig-client.ts';

export type { IspConfigConfig } from './ispconfig-client.ts';

type Row = Record<string, unknown>;

/** PHP's own defaults, shown when neither the customer nor the admin set a value for the site. */
const PHP_DEFAULT_MEMORY_MB = 128;
const PHP_DEFAULT_MAX_EXECUTION_S = 30;
const FTP_PORT = 21;
/** Fields of the site an alias domain is added with: the website form requires them (ispconfig-api-table.ts FORMS.web_vhost_domain). */
const SITE_FIELDS_FOR_ALIASES = [
  'hd_quota', 'traffic_quota', 'allow_override', 'http_port', 'https_port', 'pm', 'pm_max_children', 'pm_start_servers', 'pm_min_spare_servers',
  'pm_max_spare_servers', 'pm_process_idle_timeout', 'pm_max_requests', 'log_retention',
] as const;

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const num = (v: unknown) => {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
};
/** A `*_get` by id answers the row, or an empty array / false when there is none. */
const isRow = (v: unknown): v is Row => !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0;
const rowsOf = (v: unknown): Row[] => (Array.isArray(v) ? v.filter(isRow) : []);
const byId = (key: string) => (a: Row, b: Row) => num(a[key]) - num(b[key]);

/** The row without what must not go back: the primary key and password hashes (they would be hashed again). */
function mergeable(row: Row, ...drop: string[]): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) if (!drop.includes(k) && !/password/.test(k)) out[k] = v;
  return out;
}

/** "8.2" out of the admin's free-text name ("PHP 8.2", "php8.2-fpm", …). */
function versionOf(name: unknown): string | null {
  return /(\d+\.\d+)/.exec(text(name))?.[1] ?? null;
}

function iniValue(ini: string, key: string): string | undefined {
  const line = ini.split(/\r?\n/).find((l) => new RegExp(`^\\s*${key}\\s*=`, 'i').test(l));
  return line?.slice(line.indexOf('=') + 1).trim().replace(/^["']|["']$/g, '');
}

/** Sets the given php.ini lines and keeps every other line the customer or the admin wrote. */
export function setIniValues(ini: string, values: Record<string, string>): string {
  const lines = ini ? ini.split(/\r?\n/) : [];
  if (lines.at(-1) === '') lines.pop();
  for (const [key, value] of Object.entries(values)) {
    const pattern = new RegExp(`^\\s*${key}\\s*=`, 'i');
    const index = lines.findIndex((l) => pattern.test(l));
    if (index >= 0) lines[index] = `${key} = ${value}`;
    else lines.push(`${key} = ${value}`);
  }
  return lines.join('\n');
}

function megabytes(value: string | undefined, fallback: number): number {
  const m = /^(-?\d+)\s*([kmg]?)$/i.exec(value ?? '');
  if (!m) return fallback;
  const n = Number(m[1]);
  if (n < 0) return n;
  return { '': n / 1024 ** 2, k: n / 1024, m: n, g: n * 1024 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
}

export function createIspConfigHosting(config: IspConfigConfig, options: IspConfigClientOptions = {}): HostingDriver {
  const client = createIspConfigClient(config, options);
  const call = client.call;
  const panelUrl = new URL(config.url);
  const groups = new Map<string, number>();
  /**
   * Domains we asked Let's Encrypt for. After a failed issuance the panel's row looks exactly like a
   * domain nobody asked for (ssl_letsencrypt 'n', ssl back to 'n'); only this memory tells "failed" from
   * "none". It is per process: after a restart a failure shows as 'none' (no certificate, which is true),
   * and a request still queued shows as 'active' until the cron has run it.
   */
  const sslRequested = new Set<string>();

  const notFound = (detail: string) => new HostingError('NOT_FOUND', hostingMessages.NOT_FOUND, detail);
  const serverId = (server: PanelServerRef) => num(server.serverId);

  async function site(ref: HostingAccountRef): Promise<Row> {
    const row = await call<unknown>('sites_web_domain_get', { primary_id: num(ref.siteId) });
    if (!isRow(row) || row.type !== 'vhost') throw notFound(`site ${ref.siteId}`);
    return row;
  }

  async function clientRow(ref: HostingAccountRef): Promise<Row> {
    const row = await call<unknown>('client_get', { client_id: num(ref.clientId) });
    if (!isRow(row)) throw notFound(`client ${ref.clientId}`);
    return row;
  }

  /** The client's group owns its database users (they hang on no site); it never changes, so it is kept. */
  async function groupId(ref: HostingAccountRef): Promise<number> {
    const known = groups.get(ref.clientId);
    if (known !== undefined) return known;
    const id = num(await call('client_get_groupid', { client_id: num(ref.clientId) }));
    if (id <= 0) throw notFound(`group of client ${ref.clientId}`);
    groups.set(ref.clientId, id);
    return id;
  }

  /**
   * Changes of one site row run one after the other (in this process): each sends the whole row back
   * (get → merge → update), so two parallel changes would each write the other's fields back stale
   * and one would be lost although both were confirmed.
   */
  const siteQueues = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(ref: HostingAccountRef, work: () => Promise<T>): Promise<T> {
    const key = `${ref.serverId}:${ref.siteId}`;
    const run = (siteQueues.get(key) ?? Promise.resolve()).then(work, work);
    const settled = run.then(() => undefined, () => undefined);
    siteQueues.set(key, settled);
    void settled.then(() => {
      if (siteQueues.get(key) === settled) siteQueues.delete(key);
    });
    return run;
  }

  async function updateSite(ref: HostingAccountRef, row: Row, change: Row) {
    await call('sites_web_domain_update', { client_id: num(ref.clientId), primary_id: num(ref.siteId), params: { ...mergeable(row, 'domain_id'), ...change } });
  }

  async function updateClient(ref: HostingAccountRef, change: Row, row?: Row) {
    const current = row ?? (await clientRow(ref));
    await call('client_update', {
      client_id: num(ref.clientId),
      reseller_id: num(current.parent_client_id),
      // An empty password is the only way to keep the stored one: without it the panel hashes the hash.
      params: { ...mergeable(current, 'client_id'), password: '', ...change },
    });
  }

  async function phpList(server: PanelServerRef): Promise<{ id: number; version: string }[]> {
    const rows = rowsOf(await call('server_get_php_versions', { server_id: serverId(server), php: 'php-fpm', get_full_data: true }));
    return rows.filter((r) => text(r.active || 'y') === 'y').flatMap((r) => {
      const version = versionOf(r.name);
      return version ? [{ id: num(r.server_php_id), version }] : [];
    });
  }

  async function phpIdFor(server: PanelServerRef, version: string | null): Promise<number> {
    if (version === null) return 0;
    const match = (await phpList(server)).find((p) => p.version === version);
    if (!match) throw new HostingError('REMOTE_FAULT', `Die PHP-Version ${version} wird auf diesem Hosting-Server nicht angeboten.`, `no server_php for ${version}`);
    return match.id;
  }

  async function pendingJobs(server: PanelServerRef): Promise<number> {
    return num(await call('monitor_jobqueue_count', { server_id: serverId(server) }));
  }

  function sslState(server: PanelServerRef, row: Row, jobs: number): SslState {
    const key = `${server.serverId}:${text(row.domain_id)}`;
    if (row.ssl === 'y' && row.ssl_letsencrypt !== 'y') return 'active'; // own certificate
    if (row.ssl === 'y' && row.ssl_letsencrypt === 'y') {
      // Our request is in the datalog until the cron ran it; a cron run that failed would have flipped the flag.
      if (sslRequested.has(key) && jobs > 0) return 'pending';
      sslRequested.delete(key);
      return 'active';
    }
    return sslRequested.has(key) ? 'failed' : 'none';
  }

  async function aliasDomains(ref: HostingAccountRef): Promise<Row[]> {
    // The *_get functions read the whole web_domain table: without the type, subdomains would come along.
    return rowsOf(await call('sites_web_vhost_aliasdomain_get', { primary_id: { parent_domain_id: num(ref.siteId), type: 'vhostalias' } })).sort(byId('domain_id'));
  }

  async function ownAlias(ref: HostingAccountRef, domainId: string): Promise<Row> {
    const row = await call<unknown>('sites_web_vhost_aliasdomain_get', { primary_id: num(domainId) });
    if (!isRow(row) || row.type !== 'vhostalias' || text(row.parent_domain_id) !== ref.siteId) throw notFound(`domain ${domainId} of site ${ref.siteId}`);
    return row;
  }

  function toDomain(server: PanelServerRef, row: Row, siteRoot: string, jobs: number): HostingDomain {
    const primary = row.type !== 'vhostalias';
    return {
      id: text(row.domain_id),
      domain: text(row.domain),
      type: primary ? 'primary' : 'addon',
      // An addon domain is served from its folder below the site's web/, which is therefore its root.
      documentRoot: primary ? text(row.document_root) : `${siteRoot}/web/${text(row.web_folder)}`,
      ssl: sslState(server, row, jobs),
    };
  }

  async function databaseUsers(ref: HostingAccountRef): Promise<Row[]> {
    return rowsOf(await call('sites_database_user_get', { primary_id: { sys_groupid: await groupId(ref) } })).sort(byId('database_user_id'));
  }

  async function ownDatabaseUser(ref: HostingAccountRef, userId: string): Promise<Row> {
    const row = await call<unknown>('sites_database_user_get', { primary_id: num(userId) });
    if (!isRow(row) || num(row.sys_groupid) !== (await groupId(ref))) throw notFound(`database user ${userId} of client ${ref.clientId}`);
    return row;
  }

  async function ftpUser(ref: HostingAccountRef): Promise<Row | undefined> {
    return rowsOf(await call('sites_ftp_user_get', { primary_id: { parent_domain_id: num(ref.siteId) } })).sort(byId('ftp_user_id'))[0];
  }

  async function backups(ref: HostingAccountRef): Promise<Row[]> {
    return rowsOf(await call('sites_web_domain_backup_list', { site_id: num(ref.siteId) })).filter((b) => text(b.parent_domain_id) === ref.siteId);
  }

  async function ownBackup(ref: HostingAccountRef, backupId: string): Promise<Row> {
    const row = (await backups(ref)).find((b) => text(b.backup_id) === backupId);
    if (!row) throw notFound(`backup ${backupId} of site ${ref.siteId}`);
    return row;
  }

  /**
   * createAccount's steps: reuse what exists, add what is missing. When a parallel createAccount for the
   * same username adds it first, the panel answers DUPLICATE and the winner's object is taken, as a retry would.
   */
  async function findOrAdd(find: () => Promise<Row | undefined>, add: () => Promise<unknown>, idKey: string): Promise<number> {
    const found = await find();
    if (found) return num(found[idKey]);
    try {
      return num(await add());
    } catch (err) {
      const winner = err instanceof HostingError && err.code === 'DUPLICATE' ? await find() : undefined;
      if (!winner) throw err;
      return num(winner[idKey]);
    }
  }

  async function addClient(spec: CreateAccountSpec) {
    const templates = rowsOf(await call('client_templates_get_all'));
    const template = templates.find((t) => text(t.template_name) === spec.plan.name);
    return call('client_add', {
      reseller_id: 0,
      params: {
        company_name: '', contact_name: spec.contactName, email: spec.email, username: spec.username, password: spec.password,
        language: 'de', usertheme: 'default', country: 'DE', locked: 'n', canceled: 'n',
        template_master: template ? num(template.template_id) : 0, template_additional: '',
        // Sent even with a template: a panel without a template of the plan's name still gets the plan's limits.
        limit_web_domain: 1, limit_web_aliasdomain: Math.max(0, spec.plan.domains - 1), limit_web_quota: spec.plan.storageMb,
        limit_traffic_quota: spec.plan.trafficMb, limit_database: spec.plan.databases, web_php_options: 'php-fpm', default_webserver: serverId(spec),
        // The client form requires it (NOTEMPTY, client.tform.php:1277) and the remote API fills in no default.
        ssh_chroot: 'no',
      },
    });
  }

  async function addSite(spec: CreateAccountSpec, clientId: number) {
    return call('sites_web_domain_add', {
      client_id: clientId,
      params: {
        server_id: serverId(spec), ip_address: '*', ipv6_address: '', domain: spec.primaryDomain.toLowerCase(), type: 'vhost', parent_domain_id: 0, vhost_type: 'name',
        hd_quota: spec.plan.storageMb, traffic_quota: spec.plan.trafficMb, cgi: 'n', ssi: 'n', suexec: 'y', errordocs: 1, subdomain: 'www',
        php: 'php-fpm', server_php_id: await phpIdFor(spec, spec.phpVersion), ssl: 'n', ssl_letsencrypt: 'n', allow_override: 'All',
        pm: 'ondemand', pm_max_children: 10, pm_start_servers: 2, pm_min_spare_servers: 1, pm_max_spare_servers: 5, pm_process_idle_timeout: 10, pm_max_requests: 0,
        log_retention: 10, backup_interval: 'none', backup_copies: 1, custom_php_ini: '', traffic_quota_lock: 'n', http_port: 80, https_port: 443, active: 'y',
      },
    });
  }

  /** The site of that domain, if it exists; one of another client means the domain is taken. */
  async function findSite(spec: CreateAccountSpec, ref: HostingAccountRef): Promise<Row | undefined> {
    const [row] = rowsOf(await call('sites_web_domain_get', { primary_id: { domain: spec.primaryDomain.toLowerCase(), type: 'vhost' } }));
    if (row && num(row.sys_groupid) !== (await groupId(ref))) {
      throw new HostingError('DUPLICATE', hostingMessages.DUPLICATE, `domain ${spec.primaryDomain} belongs to another client`);
    }
    return row;
  }

  async function addFtpUser(spec: CreateAccountSpec, ref: HostingAccountRef) {
    const row = await site(ref);
    return call('sites_ftp_user_add', {
      client_id: num(ref.clientId),
      params: {
        server_id: serverId(spec), parent_domain_id: num(ref.siteId), username: spec.username, password: spec.password, quota_size: -1, active: 'y',
        uid: row.system_user, gid: row.system_group, dir: row.document_root, quota_files: -1, ul_ratio: -1, dl_ratio: -1, ul_bandwidth: -1, dl_bandwidth: -1,
      },
    });
  }

  return {
    kind: 'ispconfig',
    capabilities: { apps: false, backupNow: false, htaccess: false },

    async phpVersions(server) {
      const versions = [...new Set((await phpList(server)).map((p) => p.version))];
      return versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    },

    async phpMyAdminUrl() {
      // An unset key answers false (admin.inc.php:148), not an empty text.
      const setting = await call<unknown>('system_config_get', { section: 'sites', key: 'phpmyadmin_url' });
      const configured = (typeof setting === 'string' ? setting.trim() : '') || '/phpmyadmin';
      // The panel shows the setting with its placeholders filled in; do the same for the one we can know.
      const value = configured.replace(/\[SERVERNAME\]/g, panelUrl.hostname);
      return new URL(value, panelUrl.origin).toString();
    },

    async panelLoginUrl() {
      return new URL('/', panelUrl).toString();
    },

    async createAccount(spec) {
      const findClient = async () => rowsOf(await call('client_get', { client_id: { username: spec.username } }))[0];
      const clientId = await findOrAdd(findClient, () => addClient(spec), 'client_id');
      const ref: HostingAccountRef = { serverId: spec.serverId, clientId: String(clientId), siteId: '' };
      ref.siteId = String(await findOrAdd(() => findSite(spec, ref), () => addSite(spec, clientId), 'domain_id'));
      await findOrAdd(() => ftpUser(ref), () => addFtpUser(spec, ref), 'ftp_user_id');
      return ref;
    },

    async setPanelPassword(ref, password) {
      // Not client_update: on a suspended client it would run the lock again, and the panel would then
      // forget which objects unsuspend must switch back on (func_client_lock keeps only the last lock's view).
      await call('client_change_password', { client_id: num(ref.clientId), new_password: password });
    },

    async suspend(ref) {
      const row = await clientRow(ref);
      // Locking again would make the panel forget which objects were on (func_client_lock remembers only
      // what is off at the lock), and unsuspend would then leave the site switched off.
      if (row.locked === 'y') return;
      await updateClient(ref, { locked: 'y' }, row);
    },

    async unsuspend(ref) {
      const row = await clientRow(ref);
      // Unlocking an unlocked client switches every object on, also those that were off before the
      // suspension (the panel forgot them at the first unlock): a retried unsuspend must do nothing.
      if (row.locked !== 'y') return;
      await updateClient(ref, { locked: 'n' }, row);
    },

    async deleteAccount(ref) {
      try {
        await call('client_delete_everything', { client_id: num(ref.clientId) });
      } catch (err) {
        if (!(err instanceof HostingError && err.code === 'NOT_FOUND')) throw err;
      }
      groups.delete(ref.clientId);
    },

    async getSite(ref): Promise<SiteInfo> {
      const [row, owner, jobs, php] = await Promise.all([site(ref), clientRow(ref), pendingJobs(ref), phpList(ref)]);
      const ini = text(row.custom_php_ini);
      const phpId = num(row.server_php_id);
      const interval = text(row.backup_interval);
      return {
        primaryDomain: text(row.domain),
        documentRoot: text(row.document_root),
        active: row.active === 'y' && owner.locked !== 'y',
        ssl: sslState(ref, row, jobs),
        phpVersion: phpId === 0 ? null : php.find((p) => p.id === phpId)?.version ?? null,
        memoryLimitMb: megabytes(iniValue(ini, 'memory_limit'), PHP_DEFAULT_MEMORY_MB),
        maxExecutionTimeS: num(iniValue(ini, 'max_execution_time') ?? PHP_DEFAULT_MAX_EXECUTION_S),
        backupInterval: interval === 'daily' || interval === 'weekly' || interval === 'monthly' ? interval : 'none',
        backupCopies: num(row.backup_copies),
        pendingChanges: jobs > 0,
      };
    },

    async setPhp(ref, change) {
      const update: Row = {};
      if (change.phpVersion !== undefined) Object.assign(update, { php: 'php-fpm', server_php_id: await phpIdFor(ref, change.phpVersion) });
      const ini: Record<string, string> = {};
      if (change.memoryLimitMb !== undefined) ini.memory_limit = `${Math.round(change.memoryLimitMb)}M`;
      if (change.maxExecutionTimeS !== undefined) ini.max_execution_time = String(Math.round(change.maxExecutionTimeS));
      await oneAtATime(ref, async () => {
        const row = await site(ref);
        if (Object.keys(ini).length) update.custom_php_ini = setIniValues(text(row.custom_php_ini), ini);
        if (Object.keys(update).length) await updateSite(ref, row, update);
      });
    },

    async listDomains(ref) {
      const [row, aliases, jobs] = await Promise.all([site(ref), aliasDomains(ref), pendingJobs(ref)]);
      const root = text(row.document_root);
      return [row, ...aliases].map((r) => toDomain(ref, r, root, jobs));
    },

    async addDomain(ref, domain) {
      const row = await site(ref);
      const name = domain.trim().toLowerCase();
      // The remote API validates an alias domain with the website form (web_vhost_domain.tform.php:40):
      // quotas, ports, AllowOverride and the PHP-FPM numbers are required, so they come from the site.
      const inherited = Object.fromEntries(SITE_FIELDS_FOR_ALIASES.map((k) => [k, row[k]]));
      const id = await call('sites_web_vhost_aliasdomain_add', {
        client_id: num(ref.clientId),
        params: {
          ...inherited, server_id: serverId(ref), parent_domain_id: num(ref.siteId), domain: name, web_folder: name, type: 'vhostalias', subdomain: 'www',
          ssl: 'n', ssl_letsencrypt: 'n', active: 'y',
        },
      });
      return toDomain(ref, await ownAlias(ref, text(id)), text(row.document_root), 0);
    },

    async deleteDomain(ref, domainId) {
      if (domainId === ref.siteId) throw new HostingError('REMOTE_FAULT', 'Die Hauptdomain eines Pakets kann nicht entfernt werden.', `domain ${domainId} is the site itself`);
      await ownAlias(ref, domainId);
      await call('sites_web_vhost_aliasdomain_delete', { primary_id: num(domainId) });
    },

    async requestSsl(ref, domainId) {
      const letsEncrypt = { ssl: 'y', ssl_letsencrypt: 'y' };
      if (domainId === ref.siteId) await oneAtATime(ref, async () => updateSite(ref, await site(ref), letsEncrypt));
      else {
        const row = await ownAlias(ref, domainId);
        await call('sites_web_vhost_aliasdomain_update', { client_id: num(ref.clientId), primary_id: num(domainId), params: { ...mergeable(row, 'domain_id'), ...letsEncrypt } });
      }
      sslRequested.add(`${ref.serverId}:${domainId}`);
    },

    async listDatabaseUsers(ref): Promise<HostingDatabaseUser[]> {
      return (await databaseUsers(ref)).map((u) => ({ id: text(u.database_user_id), name: text(u.database_user) }));
    },

    async createDatabaseUser(ref, name, password) {
      const id = await call('sites_database_user_add', { client_id: num(ref.clientId), params: { server_id: serverId(ref), database_user: name, database_password: password } });
      return { id: text(id), name };
    },

    async setDatabaseUserPassword(ref, userId, password) {
      const row = await ownDatabaseUser(ref, userId);
      await call('sites_database_user_update', { client_id: num(ref.clientId), primary_id: num(userId), params: { ...mergeable(row, 'database_user_id'), database_password: password } });
    },

    async deleteDatabaseUser(ref, userId) {
      await ownDatabaseUser(ref, userId);
      await call('sites_database_user_delete', { primary_id: num(userId) });
    },

    async listDatabases(ref): Promise<HostingDatabase[]> {
      const [rows, users] = await Promise.all([call('sites_database_get', { primary_id: { parent_domain_id: num(ref.siteId) } }), databaseUsers(ref)]);
      return rowsOf(rows).sort(byId('database_id')).map((d) => {
        const user = users.find((u) => text(u.database_user_id) === text(d.database_user_id));
        return { id: text(d.database_id), name: text(d.database_name), userId: user ? text(user.database_user_id) : null, userName: user ? text(user.database_user) : null, sizeMb: null, tables: null };
      });
    },

    async createDatabase(ref, name, userId) {
      const user = await ownDatabaseUser(ref, userId);
      const id = await call('sites_database_add', {
        client_id: num(ref.clientId),
        params: {
          server_id: serverId(ref), type: 'mysql', parent_domain_id: num(ref.siteId), database_name: name, database_user_id: num(userId), database_ro_user_id: 0,
          database_charset: 'utf8mb4', database_quota: -1, remote_access: 'n', remote_ips: '', backup_interval: 'none', backup_copies: 1, active: 'y',
        },
      });
      return { id: text(id), name, userId, userName: text(user.database_user), sizeMb: null, tables: null };
    },

    async deleteDatabase(ref, databaseId) {
      const row = await call<unknown>('sites_database_get', { primary_id: num(databaseId) });
      if (!isRow(row) || text(row.parent_domain_id) !== ref.siteId) throw notFound(`database ${databaseId} of site ${ref.siteId}`);
      await call('sites_database_delete', { primary_id: num(databaseId) });
    },

    async getFtpAccount(ref): Promise<FtpAccount> {
      const row = await ftpUser(ref);
      if (!row) throw notFound(`ftp user of site ${ref.siteId}`);
      // The panel knows no FTP host name; on a single-server panel it is the panel's host.
      return { id: text(row.ftp_user_id), username: text(row.username), host: panelUrl.hostname, port: FTP_PORT, directory: text(row.dir) };
    },

    async setFtpPassword(ref, password) {
      const row = await ftpUser(ref);
      if (!row) throw notFound(`ftp user of site ${ref.siteId}`);
      await call('sites_ftp_user_update', { client_id: num(ref.clientId), primary_id: num(row.ftp_user_id), params: { ...mergeable(row, 'ftp_user_id'), password } });
    },

    async listBackups(ref): Promise<HostingBackup[]> {
      return (await backups(ref))
        .sort((a, b) => num(b.tstamp) - num(a.tstamp) || num(b.backup_id) - num(a.backup_id))
        .map((b) => ({
          id: text(b.backup_id),
          createdAt: new Date(num(b.tstamp) * 1000).toISOString(),
          sizeBytes: num(b.filesize),
          content: b.backup_type === 'mysql' ? 'mysql' : 'web',
          automatic: true,
          filename: text(b.filename),
        }));
    },

    async restoreBackup(ref, backupId) {
      await ownBackup(ref, backupId);
      await call('sites_web_domain_backup', { primary_id: num(backupId), action_type: 'backup_restore' });
    },

    async downloadBackup(ref, backupId) {
      const row = await ownBackup(ref, backupId);
      try {
        await call('sites_web_domain_backup', { primary_id: num(backupId), action_type: 'backup_download' });
      } catch (err) {
        // The same copy is already on its way into backup/: asking twice is not the customer's mistake.
        if (!(err instanceof HostingError && err.code === 'PENDING')) throw err;
      }
      return { kind: 'ftp', path: `backup/${text(row.filename)}` };
    },

    async setBackupSchedule(ref, schedule) {
      if (!(BACKUP_COPIES as readonly number[]).includes(schedule.copies)) {
        throw new HostingError('REMOTE_FAULT', 'Diese Anzahl an Sicherungskopien ist nicht möglich.', `backup_copies ${schedule.copies}`);
      }
      await oneAtATime(ref, async () => updateSite(ref, await site(ref), { backup_interval: schedule.interval, backup_copies: schedule.copies }));
    },

    async backupNow() {
      throw new HostingError('UNSUPPORTED', hostingMessages.UNSUPPORTED, 'ISPConfig has no backup-now call');
    },

    async usage(ref) {
      const [row, quota, traffic] = await Promise.all([
        site(ref),
        call('quota_get_by_user', { client_id: num(ref.clientId) }),
        call<unknown>('trafficquota_get_by_user', { client_id: num(ref.clientId), lastdays: 0 }),
      ]);
      // A site the monitor has not measured yet has no `used`: nothing used.
      const disk = rowsOf(quota).find((q) => text(q.domain_id) === ref.siteId);
      const aliases = new Set([text(row.domain), ...(await aliasDomains(ref)).map((a) => text(a.domain))]);
      let trafficBytes = 0;
      if (traffic && typeof traffic === 'object') {
        for (const [domain, t] of Object.entries(traffic as Record<string, Row>)) if (aliases.has(domain)) trafficBytes += num(t?.this_month);
      }
      return {
        // `used` is KiB in every 3.2 release; `used_raw` changed from KiB to bytes in 3.2.12 (quota_lib.inc.php:43).
        diskUsedMb: Math.round((num(disk?.used) / 1024) * 10) / 10,
        diskQuotaMb: num(row.hd_quota),
        trafficThisMonthMb: Math.round((trafficBytes / 1024 ** 2) * 10) / 10,
        trafficQuotaMb: num(row.traffic_quota),
      };
    },

    async installApp() {
      throw new HostingError('UNSUPPORTED', hostingMessages.UNSUPPORTED, 'ISPConfig has no application installer');
    },

    async getApp() {
      return null;
    },

    async updateApp() {
      throw new HostingError('UNSUPPORTED', hostingMessages.UNSUPPORTED, 'ISPConfig has no application installer');
    },
    async runAppTool() {
      throw new HostingError('UNSUPPORTED', hostingMessages.UNSUPPORTED, 'ISPConfig has no application tools');
    },
    async updatePlugin() {
      throw new HostingError('UNSUPPORTED', hostingMessages.UNSUPPORTED, 'ISPConfig has no application tools');
    },
    async setPluginActive() {
      throw new HostingError('UNSUPPORTED', hostingMessages.UNSUPPORTED, 'ISPConfig has no application tools');
    },
    async activateTheme() {
      throw new HostingError('UNSUPPORTED', hostingMessages.UNSUPPORTED, 'ISPConfig has no application tools');
    },
  };
}

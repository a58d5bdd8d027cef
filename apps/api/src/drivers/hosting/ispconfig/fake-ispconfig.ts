/**
 * A fake ISPConfig 3.2 panel for tests, written from ../shared/integrations/ispconfig.md: one route
 * `POST /remote/json.php?<method>`, always HTTP 200 with `{code,message,response}`, sessions that end
 * 1800 s after login, per-function rights of remote users, integer ids (rows come back as strings, as
 * PHP's mysqli delivers them), `*_get` by id, -1 or filter, updates that reset unsent pm_* fields and
 * log_retention, and a datalog the server "cron" (`cronTick()`) applies: Let's Encrypt (with failures
 * that flip the flag back), backup actions (with the duplicate-pending error) and the nightly backups.
 * Plain node:http on 127.0.0.1 with a random port.
 */
import http from 'node:http';
import https from 'node:https';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export type Row = Record<string, unknown>;
type Table = 'client' | 'web_domain' | 'web_database' | 'web_database_user' | 'ftp_user' | 'web_backup';

export interface FakeRemoteUser {
  username: string;
  password: string;
  /** Remote functions this user may call; undefined = all. */
  functions?: string[];
}

export interface FakeIspConfigOptions {
  remoteUsers?: FakeRemoteUser[];
  /** Names as the admin typed them under System → Additional PHP Versions. */
  phpVersions?: string[];
  phpMyAdminUrl?: string;
  /** Wall clock (ms) the fake adds its own offset to (advanceClock). */
  now?: () => number;
  /** Serve https with this certificate (the panel's usual self-signed one) instead of plain http. */
  tls?: { cert: Buffer | string; key: Buffer | string };
}

class Fault extends Error {
  constructor(message: string, readonly code: 'remote_fault' | 'invalid_data' | 'invalid_method' = 'remote_fault') {
    super(message);
  }
}

export const FAKE_REMOTE_USER = { username: 'portal', password: 'remote-secret' };
const PM_DEFAULTS_ON_UPDATE = { pm_max_children: 1, pm_start_servers: 1, pm_min_spare_servers: 1, pm_max_spare_servers: 1, log_retention: 30 };
const BACKUP_INTERVAL_S: Record<string, number> = { daily: 86_400, weekly: 7 * 86_400, monthly: 30 * 86_400 };

const hash = (plain: string) => `$fake$${createHash('sha256').update(plain).digest('hex')}`;
/** ISPConfig's validators answer with their language key followed by an HTML line break. */
const validation = (key: string) => new Fault(`${key}<br />\r\n`);

export async function startFakeIspConfig(options: FakeIspConfigOptions = {}) {
  let clockOffset = 0;
  const now = () => (options.now ?? Date.now)() + clockOffset;
  const remoteUsers = new Map<string, FakeRemoteUser>((options.remoteUsers ?? [FAKE_REMOTE_USER]).map((u) => [u.username, u]));
  const sessions = new Map<string, { username: string; expiresAt: number }>();
  const tables: Record<Table, Map<number, Row>> = {
    client: new Map(), web_domain: new Map(), web_database: new Map(), web_database_user: new Map(), ftp_user: new Map(), web_backup: new Map(),
  };
  const nextIds: Record<Table, number> = { client: 1, web_domain: 1, web_database: 1, web_database_user: 1, ftp_user: 1, web_backup: 1 };
  const primaryKey: Record<Table, string> = {
    client: 'client_id', web_domain: 'domain_id', web_database: 'database_id', web_database_user: 'database_user_id', ftp_user: 'ftp_user_id', web_backup: 'backup_id',
  };
  const phpVersions = (options.phpVersions ?? ['PHP 7.4', 'PHP 8.1', 'PHP 8.2', 'PHP 8.3']).map((name, i) => ({ server_php_id: i + 1, server_id: 1, client_id: 0, name, active: 'y' }));
  const systemConfig: Record<string, Record<string, string>> = { sites: { phpmyadmin_url: options.phpMyAdminUrl ?? '/phpmyadmin', dbname_prefix: '', ftpuser_prefix: '' } };
  /** Written changes the server has not applied yet (ISPConfig: sys_datalog rows above server.updated). */
  const datalog: { table: Table; id: number; old: Row | undefined }[] = [];
  const remoteActions: { action_id: number; action_type: string; backup_id: number; state: 'pending' | 'ok' }[] = [];
  const failLetsEncrypt = new Set<string>();
  const issuedCertificates = new Set<string>();
  /** Archives copied into a site's backup/ folder by backup_download, per site id. */
  const downloadedBackups = new Map<number, string[]>();
  const restoredBackups: number[] = [];
  /** What each client's lock switched off, to switch back on unlock (ISPConfig remembers it too). */
  const lockedStates = new Map<number, Map<number, unknown>>();
  const calls: string[] = [];
  let logins = 0;
  let hanging = false;
  /** Remote functions that answer remote_fault with this text instead of running (failCall). */
  const faults = new Map<string, string>();
  let nextActionId = 1;

  const ts = () => Math.floor(now() / 1000);
  const int = (v: unknown) => (typeof v === 'number' ? v : Number.parseInt(String(v ?? ''), 10) || 0);
  const groupOf = (clientId: number) => clientId + 1; // group 1 is the admin's
  const render = (row: Row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));

  function insert(table: Table, row: Row): number {
    const id = nextIds[table]++;
    tables[table].set(id, { [primaryKey[table]]: id, ...row });
    if (table !== 'client' && table !== 'web_backup') datalog.push({ table, id, old: undefined });
    return id;
  }

  function get(table: Table, primary: unknown): Row | Row[] {
    const rows = [...tables[table].values()];
    if (primary === -1 || primary === '-1') return rows.map(render);
    if (primary && typeof primary === 'object') {
      const filter = Object.entries(primary as Row);
      return rows.filter((r) => filter.every(([k, v]) => String(r[k]) === String(v))).map(render);
    }
    const row = rows.find((r) => r[primaryKey[table]] === int(primary));
    return row ? render(row) : [];
  }

  function existing(table: Table, id: unknown, where: (r: Row) => boolean = () => true): Row {
    const row = tables[table].get(int(id));
    if (!row || !where(row)) throw new Fault(`Record ${String(id)} in ${table} does not exist.`);
    return row;
  }

  function update(table: Table, id: unknown, params: Row) {
    const row = tables[table].get(int(id));
    // Like remoting_lib's UPDATE … WHERE id: an unknown id changes nothing and says so only by "0 rows".
    if (!row) return 0;
    const old = { ...row };
    // remoting_lib fills unsent fields from the form's defaults, not from the stored row.
    if (table === 'web_domain') for (const [k, v] of Object.entries(PM_DEFAULTS_ON_UPDATE)) if (!(k in params)) row[k] = v;
    for (const [k, v] of Object.entries(params)) {
      if (k === primaryKey[table]) continue;
      row[k] = /password/.test(k) ? (v ? hash(String(v)) : row[k]) : v;
    }
    if (table !== 'client') datalog.push({ table, id: int(id), old });
    return 1;
  }

  function remove(table: Table, id: unknown) {
    const removed = tables[table].delete(int(id));
    if (removed && table !== 'web_backup') datalog.push({ table, id: int(id), old: undefined });
    return removed ? 1 : 0;
  }

  function unique(table: Table, field: string, value: unknown, key: string, except?: number) {
    for (const [id, row] of tables[table]) if (id !== except && String(row[field]).toLowerCase() === String(value).toLowerCase()) throw validation(key);
  }

  const isVhost = (r: Row) => r.type === 'vhost';
  const str = (v: unknown, fallback = '') => (v === undefined || v === null ? fallback : String(v));

  function addWebDomain(clientId: number, params: Row, type: 'vhost' | 'vhostalias'): number {
    if (!params.domain || !/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(str(params.domain))) throw validation('domain_error_regex');
    unique('web_domain', 'domain', params.domain, 'domain_error_unique');
    const client = existing('client', clientId);
    const row: Row = { ...PM_DEFAULTS_ON_UPDATE, ...params, type, sys_groupid: groupOf(int(client.client_id)), ssl: params.ssl ?? 'n', ssl_letsencrypt: params.ssl_letsencrypt ?? 'n' };
    if (type === 'vhostalias') {
      const parent = existing('web_domain', params.parent_domain_id, isVhost);
      Object.assign(row, { document_root: parent.document_root, system_user: parent.system_user, system_group: parent.system_group, server_id: parent.server_id });
    }
    const id = insert('web_domain', row);
    if (type === 'vhost') Object.assign(tables.web_domain.get(id)!, { document_root: `/var/www/clients/client${clientId}/web${id}`, system_user: `web${id}`, system_group: `client${clientId}`, backup_interval: params.backup_interval ?? 'none', backup_copies: params.backup_copies ?? 1, custom_php_ini: params.custom_php_ini ?? '' });
    return id;
  }

  function setClientLock(clientId: number, locked: boolean) {
    const sites = [...tables.web_domain.values()].filter((r) => r.sys_groupid === groupOf(clientId));
    if (locked && !lockedStates.has(clientId)) {
      lockedStates.set(clientId, new Map(sites.map((s) => [int(s.domain_id), s.active])));
      for (const s of sites) update('web_domain', s.domain_id, { ...s, active: 'n' });
    } else if (!locked && lockedStates.has(clientId)) {
      const states = lockedStates.get(clientId)!;
      lockedStates.delete(clientId);
      for (const s of sites) update('web_domain', s.domain_id, { ...s, active: states.get(int(s.domain_id)) ?? s.active });
    }
  }

  function siteUsage(row: Row) {
    const usedKb = 40_960 + int(row.domain_id) * 1024;
    const hardKb = int(row.hd_quota) > 0 ? int(row.hd_quota) * 1024 : 0;
    return { ...render(row), used: usedKb, soft: hardKb, hard: hardKb, files: 120, used_raw: usedKb * 1024, soft_raw: hardKb > 0 ? hardKb * 1024 : -1, hard_raw: hardKb > 0 ? hardKb * 1024 : -1 };
  }

  const methods: Record<string, (p: Row) => unknown> = {
    logout: (p) => sessions.delete(str(p.session_id)),
    client_templates_get_all: () => [{ template_id: '1', template_name: 'Starter', template_type: 'm' }, { template_id: '2', template_name: 'Professional', template_type: 'm' }],
    client_get: (p) => get('client', p.client_id),
    client_get_groupid: (p) => groupOf(int(existing('client', p.client_id).client_id)),
    client_add: (p) => {
      const params = (p.params ?? {}) as Row;
      if (!/^[a-z0-9_.-]{1,64}$/i.test(str(params.username))) throw validation('username_error_regex');
      unique('client', 'username', params.username, 'username_error_unique');
      return insert('client', { ...params, password: hash(str(params.password)), locked: params.locked ?? 'n', parent_client_id: int(p.reseller_id) });
    },
    client_update: (p) => {
      const params = (p.params ?? {}) as Row;
      const client = existing('client', p.client_id);
      const wasLocked = client.locked === 'y';
      update('client', p.client_id, params);
      if ((client.locked === 'y') !== wasLocked) setClientLock(int(p.client_id), client.locked === 'y');
      return 1;
    },
    client_delete_everything: (p) => {
      const clientId = int(p.client_id);
      if (clientId <= 0) return false;
      for (const table of ['web_backup', 'ftp_user', 'web_database', 'web_database_user', 'web_domain'] as const) {
        for (const [id, row] of tables[table]) if (row.sys_groupid === groupOf(clientId)) remove(table, id);
      }
      tables.client.delete(clientId);
      lockedStates.delete(clientId);
      return true;
    },
    sites_web_domain_add: (p) => addWebDomain(int(p.client_id), (p.params ?? {}) as Row, 'vhost'),
    // Like remoting_lib, the web_domain functions read and write any row of the table, whatever its type.
    sites_web_domain_get: (p) => get('web_domain', p.primary_id),
    sites_web_domain_update: (p) => update('web_domain', p.primary_id, (p.params ?? {}) as Row),
    sites_web_domain_delete: (p) => remove('web_domain', p.primary_id),
    sites_web_vhost_aliasdomain_add: (p) => addWebDomain(int(p.client_id), (p.params ?? {}) as Row, 'vhostalias'),
    sites_web_vhost_aliasdomain_get: (p) => get('web_domain', p.primary_id),
    sites_web_vhost_aliasdomain_update: (p) => update('web_domain', p.primary_id, (p.params ?? {}) as Row),
    sites_web_vhost_aliasdomain_delete: (p) => remove('web_domain', p.primary_id),
    server_get_php_versions: (p) => {
      const rows = phpVersions.filter((v) => v.server_id === int(p.server_id));
      return p.get_full_data ? rows.map(render) : rows.map((v) => v.name);
    },
    system_config_get: (p) => (p.key ? systemConfig[str(p.section)]?.[str(p.key)] ?? '' : systemConfig[str(p.section)] ?? []),
    monitor_jobqueue_count: () => datalog.length,
    sites_database_user_add: (p) => {
      const params = (p.params ?? {}) as Row;
      unique('web_database_user', 'database_user', params.database_user, 'database_user_error_unique');
      return insert('web_database_user', { ...params, database_password: hash(str(params.database_password)), sys_groupid: groupOf(int(existing('client', p.client_id).client_id)) });
    },
    sites_database_user_get: (p) => get('web_database_user', p.primary_id),
    sites_database_user_update: (p) => update('web_database_user', p.primary_id, (p.params ?? {}) as Row),
    // ISPConfig deletes a user that still owns databases and leaves them without a user (database_user_id null).
    sites_database_user_delete: (p) => {
      const removed = remove('web_database_user', p.primary_id);
      if (removed) for (const [id, db] of tables.web_database) if (int(db.database_user_id) === int(p.primary_id)) update('web_database', id, { database_user_id: null });
      return removed;
    },
    sites_database_add: (p) => {
      const params = (p.params ?? {}) as Row;
      if (!/^[a-zA-Z0-9_]{2,64}$/.test(str(params.database_name))) throw validation('database_name_error_regex');
      for (const db of tables.web_database.values()) {
        if (db.database_name === params.database_name && int(db.server_id) === int(params.server_id)) throw new Fault('There is already a database with that name on the same server.');
      }
      return insert('web_database', { ...params, sys_groupid: groupOf(int(existing('client', p.client_id).client_id)) });
    },
    sites_database_get: (p) => get('web_database', p.primary_id),
    sites_database_delete: (p) => remove('web_database', p.primary_id),
    sites_ftp_user_add: (p) => {
      const params = (p.params ?? {}) as Row;
      unique('ftp_user', 'username', params.username, 'username_error_unique');
      return insert('ftp_user', { ...params, password: hash(str(params.password)), sys_groupid: groupOf(int(existing('client', p.client_id).client_id)) });
    },
    sites_ftp_user_get: (p) => get('ftp_user', p.primary_id),
    sites_ftp_user_update: (p) => update('ftp_user', p.primary_id, (p.params ?? {}) as Row),
    sites_web_domain_backup_list: (p) => get('web_backup', p.site_id ? { parent_domain_id: p.site_id } : -1),
    sites_web_domain_backup: (p) => {
      const backup = tables.web_backup.get(int(p.primary_id));
      if (!backup) throw new Fault(`Invalid or non existant backup_id ${str(p.primary_id)}`);
      const type = str(p.action_type);
      if (!['backup_download', 'backup_restore', 'backup_delete'].includes(type)) throw new Fault(`Invalid action_type ${type}`);
      if (remoteActions.some((a) => a.state === 'pending' && a.action_type === type && a.backup_id === int(p.primary_id))) {
        throw new Fault(`There is already a pending ${type} action`);
      }
      remoteActions.push({ action_id: nextActionId++, action_type: type, backup_id: int(p.primary_id), state: 'pending' });
      return true;
    },
    quota_get_by_user: (p) => [...tables.web_domain.values()].filter((r) => isVhost(r) && r.active === 'y' && r.sys_groupid === groupOf(int(p.client_id))).map(siteUsage),
    trafficquota_get_by_user: (p) => {
      const rows = [...tables.web_domain.values()].filter((r) => r.active === 'y' && r.sys_groupid === groupOf(int(p.client_id)));
      return Object.fromEntries(rows.map((r) => [r.domain, { domain_id: String(r.domain_id), this_month: String(isVhost(r) ? 150 * 1024 ** 2 : 25 * 1024 ** 2), last_month: String(400 * 1024 ** 2) }]));
    },
  };

  function makeBackups(site: Row) {
    const every = BACKUP_INTERVAL_S[str(site.backup_interval)];
    if (!every) return;
    const siteId = int(site.domain_id);
    const own = [...tables.web_backup.values()].filter((b) => b.parent_domain_id === siteId);
    if (own.some((b) => ts() - int(b.tstamp) < every)) return;
    const stamp = new Date(now()).toISOString().slice(0, 16).replace(/[-T:]/g, '');
    const databases = [...tables.web_database.values()].filter((d) => int(d.parent_domain_id) === siteId);
    const make = (backupType: 'web' | 'mysql', filename: string, size: number) =>
      tables.web_backup.set(nextIds.web_backup, { backup_id: nextIds.web_backup++, server_id: site.server_id, parent_domain_id: siteId, backup_type: backupType, backup_mode: 'rootgz', tstamp: ts(), filename, filesize: size, backup_password: '' });
    make('web', `web${siteId}_${stamp}.tar.gz`, 48_000_000);
    for (const db of databases) make('mysql', `db_${str(db.database_name)}_${stamp}.sql.gz`, 2_400_000);
    // Keep backup_copies per content, as ISPConfig's backup cron prunes.
    const copies = Math.max(1, int(site.backup_copies));
    const byContent = new Map<string, Row[]>();
    for (const b of tables.web_backup.values()) {
      if (b.parent_domain_id !== siteId) continue;
      const key = `${str(b.backup_type)}:${str(b.filename).replace(/_\d{12}\..*$/, '')}`;
      byContent.set(key, [...(byContent.get(key) ?? []), b]);
    }
    for (const list of byContent.values()) for (const old of list.sort((a, b) => int(b.tstamp) - int(a.tstamp) || int(b.backup_id) - int(a.backup_id)).slice(copies)) tables.web_backup.delete(int(old.backup_id));
  }

  /** The server's minute cron: applies the datalog, runs queued backup actions, makes due backups. */
  function cronTick() {
    for (const entry of datalog.splice(0)) {
      const row = tables[entry.table].get(entry.id);
      if (entry.table !== 'web_domain' || !row) continue;
      const domain = str(row.domain);
      if (row.ssl === 'y' && row.ssl_letsencrypt === 'y' && !issuedCertificates.has(domain)) {
        if (failLetsEncrypt.has(domain)) {
          // The server plugin writes the flag back (and ssl too when it was off before the request).
          row.ssl_letsencrypt = 'n';
          if (entry.old?.ssl !== 'y') row.ssl = 'n';
        } else issuedCertificates.add(domain);
      }
      if (row.ssl_letsencrypt !== 'y') issuedCertificates.delete(domain);
    }
    for (const action of remoteActions.filter((a) => a.state === 'pending')) {
      action.state = 'ok';
      const backup = tables.web_backup.get(action.backup_id);
      if (!backup) continue;
      if (action.action_type === 'backup_restore') restoredBackups.push(action.backup_id);
      if (action.action_type === 'backup_delete') tables.web_backup.delete(action.backup_id);
      if (action.action_type === 'backup_download') {
        const site = int(backup.parent_domain_id);
        downloadedBackups.set(site, [...(downloadedBackups.get(site) ?? []), str(backup.filename)]);
      }
    }
    for (const site of tables.web_domain.values()) if (isVhost(site) && site.active === 'y') makeBackups(site);
  }

  function dispatch(method: string, params: Row): unknown {
    if (method === 'login') {
      const user = remoteUsers.get(str(params.username));
      if (!user || user.password !== params.password) throw new Fault('The login failed. Username or password wrong.');
      logins++;
      const id = randomBytes(16).toString('hex');
      sessions.set(id, { username: user.username, expiresAt: now() + 1800_000 });
      return id;
    }
    if (!params.session_id) throw new Fault('The SessionID is empty.');
    const session = sessions.get(str(params.session_id));
    if (!session || session.expiresAt < now()) throw new Fault('The Session is expired or does not exist.');
    const handler = methods[method];
    if (!handler) throw new Fault(`Method not existing in class: ${method}`, 'invalid_method');
    const functions = remoteUsers.get(session.username)?.functions;
    if (functions && !functions.includes(method) && method !== 'logout') throw new Fault('You do not have the permissions to access this function.');
    const fault = faults.get(method);
    if (fault !== undefined) throw new Fault(fault);
    return handler(params);
  }

  const handle: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (hanging) return; // accepted, never answered: the driver's time budget must end it
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = [...url.searchParams.keys()][0] ?? '';
      let envelope: { code: string; message: string; response: unknown };
      try {
        if (req.method !== 'POST' || url.pathname !== '/remote/json.php') throw new Fault('No method name', 'invalid_method');
        let params: Row;
        try {
          params = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Row;
        } catch {
          throw new Fault('The JSON data sent to the api is invalid', 'invalid_data');
        }
        calls.push(method);
        envelope = { code: 'ok', message: '', response: dispatch(method, params) };
      } catch (err) {
        if (!(err instanceof Fault)) throw err;
        envelope = { code: err.code, message: err.message, response: false };
      }
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(envelope));
    });
  };
  const server = options.tls ? https.createServer(options.tls, handle) : http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    remoteUser: FAKE_REMOTE_USER,
    cronTick,
    /** Names of the remote functions called, in order (login included). */
    calls,
    get loginCount() {
      return logins;
    },
    get pendingChanges() {
      return datalog.length;
    },
    restoredBackups,
    downloadedBackups,
    row: (table: Table, id: number | string): Row | undefined => tables[table].get(int(id)),
    rows: (table: Table): Row[] => [...tables[table].values()],
    passwordMatches: (row: Row | undefined, field: string, plain: string) => row?.[field] === hash(plain),
    failLetsEncryptFor: (domain: string) => failLetsEncrypt.add(domain),
    /** The panel forgets every session (restart, an admin's cleanup) before their 1800 s are up. */
    expireSessions: () => sessions.clear(),
    advanceClock: (ms: number) => (clockOffset += ms),
    setRemoteUser: (user: FakeRemoteUser) => remoteUsers.set(user.username, user),
    setConfig: (section: string, key: string, value: string) => ((systemConfig[section] ??= {})[key] = value),
    /**
     * The remote function refuses every call with remote_fault and this text (as a server plugin or a
     * database error of the panel would), changing nothing, until cleared with null.
     */
    failCall: (method: string, message: string | null = 'Could not add the record: a server plugin refused it.') =>
      (message === null ? faults.delete(method) : faults.set(method, message)),
    /** true: requests are accepted and never answered. */
    setHanging: (on: boolean) => (hanging = on),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeIspConfig = Awaited<ReturnType<typeof startFakeIspConfig>>;

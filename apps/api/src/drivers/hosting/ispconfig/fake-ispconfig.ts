/**
 * A fake ISPConfig 3.2 panel for tests. Its rules come from ISPConfig's own source, written down with file
 * and line in ispconfig-api-table.ts (which functions exist, the permission each checks, their parameters,
 * the form validators of their records, the panel's texts); the operational facts come from
 * ../shared/integrations/ispconfig.md. What it imitates:
 * - json.php: one route `POST /remote/json.php?<method>`, always HTTP 200 with `{code,message,response}`;
 *   an unknown method is `invalid_method`, a body that is no JSON object `invalid_data`, a SoapFault of the
 *   function `remote_fault` with its text. Parameters are taken by the PHP signature's names; one not sent
 *   arrives as null. Unlike ISPConfig, which ignores keys it does not know, the fake refuses them
 *   (`invalid_data`), so a misnamed parameter fails in tests instead of silently arriving as null.
 * - sessions of 1800 s from login; rights by permission name, granted by the function groups of
 *   System → Remote Users (so server_get_php_versions needs `server_get`).
 * - remoting_lib: `*_get` by id (> 0), -1 or filter; `*_add`/`*_update` records validated with the form's
 *   validators and messages (`key<br />\r\n`); updates merge the stored row, password fields sent empty are
 *   left alone, anything else in a password field is hashed — and client_update merges the stored row
 *   (hash included) itself first, so a client_update without `password: ''` hashes the hash and the
 *   customer's panel login stops working (panelLogin shows it).
 * - sites_web_domain_update resets unsent pm_* to 1 and log_retention to 30; client_update runs the lock
 *   function on every call (it remembers only what was off at the last lock).
 * - quota_get_by_user in the layout of the chosen version (used in KiB; used_raw bytes from 3.2.12, KiB before).
 * - a datalog the server "cron" (`cronTick()`) applies: Let's Encrypt (with failures that flip the flag
 *   back), backup actions (with the duplicate-pending error) and the nightly backups.
 * Plain node:http on 127.0.0.1 with a random port.
 */
import http from 'node:http';
import https from 'node:https';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  DRIVER_FUNCTION_GROUPS, FORMS, MIN_PASSWORD_LENGTH, PANEL_TEXTS, REMOTE_FUNCTIONS, WEAK_PASSWORD_TEXT, permissionsOf,
  type FormName, type FunctionGroup, type RemoteFunctionName,
} from './ispconfig-api-table.ts';

export type Row = Record<string, unknown>;
type Table = 'client' | 'web_domain' | 'web_database' | 'web_database_user' | 'ftp_user' | 'web_backup';

export interface FakeRemoteUser {
  username: string;
  password: string;
  /** The function groups ticked under System → Remote Users (default: the ones the driver needs). */
  groups?: FunctionGroup[];
  /**
   * Or the raw permission names of remote_user.remote_functions. A function's own name grants nothing
   * unless it is also the permission it checks.
   */
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
  /**
   * The release whose quota_get_by_user layout to answer with: up to 3.2.11 `used_raw` is the KiB of `used`,
   * from 3.2.12 on bytes (interface/lib/classes/quota_lib.inc.php:43, commit 9741885941 of June 2023).
   */
  version?: '3.2.11' | '3.2.12';
}

class Fault extends Error {
  constructor(message: string, readonly code: 'remote_fault' | 'invalid_data' | 'invalid_method' = 'remote_fault') {
    super(message);
  }
}

/** A PHP fatal error: the panel answers HTTP 500 with PHP's text instead of the JSON envelope. */
class PhpFatal extends Error {}

export const FAKE_REMOTE_USER = { username: 'portal', password: 'remote-secret' };
const PM_DEFAULTS_ON_UPDATE = { pm_max_children: 1, pm_start_servers: 1, pm_min_spare_servers: 1, pm_max_spare_servers: 1 };
const BACKUP_INTERVAL_S: Record<string, number> = { daily: 86_400, weekly: 7 * 86_400, monthly: 30 * 86_400 };
/** The tables func_client_lock switches off and on that the driver creates rows in (interface/lib/classes/functions.inc.php:573). */
const LOCKED_TABLES = ['ftp_user', 'web_database', 'web_domain'] as const;
const PRIMARY_KEY: Record<Table, string> = {
  client: 'client_id', web_domain: 'domain_id', web_database: 'database_id', web_database_user: 'database_user_id', ftp_user: 'ftp_user_id', web_backup: 'backup_id',
};

const hash = (plain: string) => `$fake$${createHash('sha256').update(plain).digest('hex')}`;
const str = (v: unknown, fallback = '') => (v === undefined || v === null ? fallback : String(v));
const isObject = (v: unknown): v is Row => !!v && typeof v === 'object';
/** PHP's is_numeric for what JSON can carry. */
const isNumeric = (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(v));
/** PHP's empty(). */
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || v === 0 || v === '0' || v === false || (Array.isArray(v) && v.length === 0);

export async function startFakeIspConfig(options: FakeIspConfigOptions = {}) {
  let clockOffset = 0;
  const now = () => (options.now ?? Date.now)() + clockOffset;
  const version = options.version ?? '3.2.12';
  const remoteUsers = new Map<string, FakeRemoteUser>((options.remoteUsers ?? [FAKE_REMOTE_USER]).map((u) => [u.username, u]));
  const sessions = new Map<string, { username: string; expiresAt: number }>();
  const tables: Record<Table, Map<number, Row>> = {
    client: new Map(), web_domain: new Map(), web_database: new Map(), web_database_user: new Map(), ftp_user: new Map(), web_backup: new Map(),
  };
  const nextIds: Record<Table, number> = { client: 1, web_domain: 1, web_database: 1, web_database_user: 1, ftp_user: 1, web_backup: 1 };
  /** The panel logins (sys_user) of the clients: remoting_lib::ispconfig_sysuser_add/_update keep them. */
  const sysUsers = new Map<number, { username: string; passwort: string }>();
  const phpVersions = (options.phpVersions ?? ['PHP 7.4', 'PHP 8.1', 'PHP 8.2', 'PHP 8.3']).map((name, i) => {
    const v = /(\d+\.\d+)/.exec(name)?.[1] ?? String(i);
    return {
      server_php_id: i + 1, server_id: 1, client_id: 0, name, active: 'y',
      php_fpm_init_script: `php${v}-fpm`, php_fpm_ini_dir: `/etc/php/${v}/fpm`, php_fpm_pool_dir: `/etc/php/${v}/fpm/pool.d`,
    };
  });
  const systemConfig: Record<string, Record<string, string>> = { sites: { phpmyadmin_url: options.phpMyAdminUrl ?? '/phpmyadmin', dbname_prefix: '', ftpuser_prefix: '' } };
  /** Written changes the server has not applied yet (ISPConfig: sys_datalog rows above server.updated). */
  const datalog: { table: Table; id: number; old: Row | undefined }[] = [];
  const remoteActions: { action_id: number; action_type: string; backup_id: number; state: 'pending' | 'ok' }[] = [];
  const failLetsEncrypt = new Set<string>();
  const issuedCertificates = new Set<string>();
  /** Archives copied into a site's backup/ folder by backup_download, per site id. */
  const downloadedBackups = new Map<number, string[]>();
  const restoredBackups: number[] = [];
  /** client.tmp_data['prev_active'] of func_client_lock: per client, the rows that were already off at the lock. */
  const prevInactive = new Map<number, Set<string>>();
  const calls: string[] = [];
  let logins = 0;
  let hanging = false;
  /** Remote functions that answer remote_fault with this text instead of running (failCall). */
  const faults = new Map<string, string>();
  let nextActionId = 1;

  const ts = () => Math.floor(now() / 1000);
  const int = (v: unknown) => (typeof v === 'number' ? Math.trunc(v) : Number.parseInt(String(v ?? ''), 10) || 0);
  const groupOf = (clientId: number) => clientId + 1; // group 1 is the admin's
  /** mysqli hands every value out as text. */
  const render = (row: Row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));

  function insert(table: Table, row: Row): number {
    const id = nextIds[table]++;
    tables[table].set(id, { [PRIMARY_KEY[table]]: id, ...row });
    if (table !== 'web_backup') datalog.push({ table, id, old: undefined });
    return id;
  }

  function write(table: Table, id: number, values: Row) {
    const row = tables[table].get(id);
    if (!row) return 0;
    const old = { ...row };
    Object.assign(row, values);
    datalog.push({ table, id, old });
    return 1;
  }

  /** remoting_lib::getDataRecord (interface/lib/classes/remoting_lib.inc.php:232-274). */
  function get(table: Table, primary: unknown): Row | Row[] | null {
    const rows = [...tables[table].values()];
    if (isNumeric(primary)) {
      const id = Number(primary);
      if (id > 0) {
        const row = tables[table].get(Math.trunc(id));
        return row ? render(row) : null;
      }
      if (id === -1) return rows.map(render);
      throw new Fault(PANEL_TEXTS.invalidId);
    }
    if (isObject(primary)) {
      const filter = Object.entries(primary).filter(([k]) => k !== '#OFFSET#' && k !== '#LIMIT#');
      const matches = (value: unknown, wanted: unknown) => {
        const w = str(wanted);
        if (!w.includes('%')) return str(value) === w;
        const pattern = w.split('%').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
        return new RegExp(`^${pattern}$`, 'i').test(str(value));
      };
      return rows.filter((r) => filter.every(([k, v]) => matches(r[k], v))).map(render);
    }
    // "The ID must be either an integer or an array." goes to errorMessage, which no caller reads.
    return [];
  }

  /** remoting_lib::loadUserProfile: a client id must have a panel login (sys_user). */
  function profileGroup(clientId: unknown): number {
    const id = int(clientId);
    if (id === 0) return 1;
    if (!sysUsers.has(id)) throw new Fault(PANEL_TEXTS.invalidClientId(id));
    return groupOf(id);
  }

  const webDomainRegex = /^[\w.-]{1,255}\.[a-zA-Z0-9-]{2,63}$/;

  /** tform_base::_encode's validation of one record, with the form's messages in the form's order. */
  function validate(form: FormName, record: Row, primaryId: number): string {
    const def = FORMS[form];
    let errors = '';
    for (const [field, spec] of Object.entries(def.fields)) {
      const raw = record[field];
      const value = spec.lowercase ? str(raw).toLowerCase() : raw;
      const text = str(value);
      for (const v of spec.validators) {
        switch (v.type) {
          case 'NOTEMPTY':
            if (text === '') errors += `${v.errmsg}<br />\r\n`;
            break;
          case 'REGEX':
            if (!v.regex.test(text)) errors += `${v.errmsg}<br />\r\n`;
            break;
          case 'ISINT':
            if (text !== '' && !/^[+-]?\d+$/.test(text)) errors += `${v.errmsg}<br />\r\n`;
            break;
          case 'ISEMAILADDRESS':
            if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) errors += `${v.errmsg}<br />\r\n`;
            break;
          case 'UNIQUE':
            for (const [id, row] of tables[def.table as Table]) if (id !== primaryId && str(row[field]) === text) errors += `${v.errmsg}<br />\r\n`;
            break;
          case 'CUSTOM':
            errors += custom(v.check, v.errmsg, text, record, primaryId);
            break;
        }
      }
    }
    return errors;
  }

  function custom(check: 'password_check' | 'web_domain' | 'username_unique' | 'ftp_dir', errmsg: string, value: string, record: Row, primaryId: number): string {
    switch (check) {
      case 'password_check':
        return value !== '' && value.length < MIN_PASSWORD_LENGTH ? WEAK_PASSWORD_TEXT : '';
      case 'username_unique':
        for (const [clientId, user] of sysUsers) if (clientId !== primaryId && user.username === value) return `${errmsg}<br>\r\n`;
        return '';
      case 'web_domain': {
        if (value === '') return 'domain_error_empty<br>\r\n';
        if (!webDomainRegex.test(value)) return 'domain_error_regex<br>\r\n';
        // validate_domain::_check_unique: the name, or a row's auto subdomain + name, on the same server (ip '*').
        for (const [id, row] of tables.web_domain) {
          if (id === primaryId || (primaryId && int(row.parent_domain_id) === primaryId) || str(row.server_id) !== str(record.server_id)) continue;
          if (str(row.domain) === value || `${str(row.subdomain)}.${str(row.domain)}` === value) return 'domain_error_unique<br>\r\n';
        }
        return '';
      }
      case 'ftp_dir': {
        const parentId = primaryId ? int(tables.ftp_user.get(primaryId)?.parent_domain_id) : int(record.parent_domain_id);
        const root = str(tables.web_domain.get(parentId)?.document_root);
        const inside = root.length >= 4 && (value === root || value.startsWith(`${root}/`)) && !/\.\.|\.\/|\/\./.test(value);
        return inside ? '' : `${errmsg}<br>\r\n`;
      }
    }
  }

  function refuseIfInvalid(errors: string) {
    if (errors) throw new Fault(errors);
  }

  /** Password fields as tform_base::_getSQL stores them: hashed, or left out when sent empty. */
  function stored(form: FormName, record: Row): Row {
    const out: Row = { ...record };
    for (const [field, spec] of Object.entries(FORMS[form].fields)) {
      if (!spec.password) continue;
      if (str(record[field]) === '') delete out[field];
      else out[field] = hash(str(record[field]));
    }
    for (const [field, spec] of Object.entries(FORMS[form].fields)) if (spec.lowercase && field in out) out[field] = str(out[field]).toLowerCase();
    return out;
  }

  /**
   * The record a function got as `params`: null becomes an empty array in PHP. A scalar ends, depending on
   * the function, in a PHP TypeError or a broken INSERT; the fake simplifies both to PHP's fatal error
   * answer (HTTP 500, no envelope), which the driver must treat as an unreadable answer.
   */
  function recordOf(params: unknown): Row {
    if (params === null || params === undefined) return {};
    if (!isObject(params)) throw new PhpFatal(`PHP Fatal error:  Uncaught TypeError: params must be of type array, ${typeof params} given`);
    return { ...params };
  }

  /** remoting::insertQuery: profile, form validation, INSERT, datalog. */
  function insertRecord(form: FormName, table: Table, clientId: unknown, record: Row, extra: Row = {}): number {
    const group = profileGroup(clientId);
    refuseIfInvalid(validate(form, record, 0));
    return insert(table, { ...stored(form, record), sys_groupid: group, ...extra });
  }

  /** remoting::updateQuery: merge the stored row, keep password fields sent empty, validate, UPDATE. */
  function updateRecord(form: FormName, table: Table, clientId: unknown, primaryId: unknown, params: Row): number {
    profileGroup(clientId);
    const id = int(primaryId);
    const old = tables[table].get(id);
    const merged: Row = { ...(old ?? {}), ...params };
    for (const [field, spec] of Object.entries(FORMS[form].fields)) if (spec.password && isEmpty(params[field])) merged[field] = params[field] ?? '';
    refuseIfInvalid(validate(form, merged, id));
    if (!old) return 0; // UPDATE … WHERE id: an unknown id changes nothing and says so only by "0 rows"
    const values = stored(form, merged);
    delete values[PRIMARY_KEY[table]];
    return write(table, id, values);
  }

  function siteRowsOf(group: number) {
    return [...tables.web_domain.values()].filter((r) => r.sys_groupid === group);
  }

  /** functions.inc.php:567 func_client_lock, for the tables the driver fills. */
  function clientLock(clientId: number, locked: string) {
    const group = groupOf(clientId);
    if (locked === 'y') {
      const off = new Set<string>();
      for (const table of LOCKED_TABLES) {
        for (const [id, row] of tables[table]) {
          if (row.sys_groupid !== group) continue;
          if (row.active !== 'y') off.add(`${table}:${id}`);
          write(table, id, { active: 'n' });
        }
      }
      // Overwritten on every lock: locking twice forgets what was on (as the panel does).
      prevInactive.set(clientId, off);
    } else if (locked === 'n') {
      const off = prevInactive.get(clientId) ?? new Set<string>();
      for (const table of LOCKED_TABLES) {
        for (const [id, row] of tables[table]) if (row.sys_groupid === group) write(table, id, { active: off.has(`${table}:${id}`) ? 'n' : 'y' });
      }
      prevInactive.delete(clientId);
    }
  }

  function addWebDomain(clientId: unknown, params: unknown): number {
    const record = recordOf(params);
    // sites.inc.php:430-439 / :504-513: placeholders the interface plugin overwrites, nginx defaults.
    for (const key of ['document_root', 'system_user', 'system_group']) if (str(record[key]) === '') record[key] = '-';
    if (str(record.log_retention) === '') record.log_retention = 30;
    for (const [k, v] of Object.entries(PM_DEFAULTS_ON_UPDATE)) if (str(record[k]) === '') record[k] = v;
    const id = insertRecord('web_vhost_domain', 'web_domain', clientId, record);
    const row = tables.web_domain.get(id)!;
    // The interface plugins (sites_web_vhost_domain_plugin) fill in path and system user right away.
    if (row.type === 'vhost') {
      Object.assign(row, { document_root: `/var/www/clients/client${int(clientId)}/web${id}`, system_user: `web${id}`, system_group: `client${int(clientId)}` });
    } else {
      const parent = tables.web_domain.get(int(row.parent_domain_id));
      if (parent) Object.assign(row, { document_root: parent.document_root, system_user: parent.system_user, system_group: parent.system_group });
    }
    return id;
  }

  function updateWebDomain(clientId: unknown, primaryId: unknown, params: unknown): number {
    const record = recordOf(params);
    // sites.inc.php:455-461: applied to what was sent, before the stored row is merged in.
    if (str(record.log_retention) === '') record.log_retention = 30;
    for (const [k, v] of Object.entries(PM_DEFAULTS_ON_UPDATE)) if (str(record[k]) === '') record[k] = v;
    return updateRecord('web_vhost_domain', 'web_domain', clientId, primaryId, record);
  }

  function deleteRecord(table: Table, primaryId: unknown): number {
    const id = int(primaryId);
    if (!tables[table].delete(id)) return 0;
    if (table !== 'web_backup') datalog.push({ table, id, old: undefined });
    return 1;
  }

  /** Disk use as the monitor cron stores it (KiB per system user), made up per site. */
  function siteUsage(row: Row) {
    const used = 40_960 + int(row.domain_id) * 1024;
    const limit = int(row.hd_quota) > 0 ? int(row.hd_quota) * 1024 : 0;
    const base = { ...render(row), used: String(used), soft: String(limit), hard: String(limit), files: '120' };
    // quota_lib.inc.php:42-46 (3.2.12): converted to bytes, -1 for no limit. Before: the KiB copied as they are.
    if (version === '3.2.12') return { ...base, used_raw: used * 1024, soft_raw: limit > 0 ? limit * 1024 : -1, hard_raw: limit > 0 ? limit * 1024 : -1, files_raw: '120' };
    return { ...base, used_raw: String(used), soft_raw: limit > 0 ? String(limit) : -1, hard_raw: limit > 0 ? String(limit) : -1, files_raw: '120' };
  }

  type Args = Record<string, unknown>;
  const methods: Record<RemoteFunctionName, (a: Args) => unknown> = {
    login: () => undefined, // handled in dispatch
    logout: () => undefined, // handled in dispatch
    client_templates_get_all: () => [{ template_id: '1', template_name: 'Starter', template_type: 'm' }, { template_id: '2', template_name: 'Professional', template_type: 'm' }],
    client_get: (a) => get('client', a.client_id),
    client_get_groupid: (a) => {
      const id = int(a.client_id);
      if (!sysUsers.has(id)) throw new Fault(PANEL_TEXTS.noGroup);
      return groupOf(id);
    },
    client_add: (a) => {
      const record = recordOf(a.params);
      record.parent_client_id = int(record.parent_client_id) || int(a.reseller_id);
      // remoting.inc.php:267-290 klientadd: form messages, then its own check of the panel logins.
      let errors = validate('client', record, 0);
      if ([...sysUsers.values()].some((u) => u.username === str(record.username))) errors += PANEL_TEXTS.duplicateUsername;
      refuseIfInvalid(errors);
      const id = insert('client', { ...stored('client', record), locked: record.locked ?? 'n' });
      sysUsers.set(id, { username: str(record.username), passwort: hash(str(record.password)) });
      return id;
    },
    client_update: (a) => {
      const clientId = int(a.client_id);
      // client.inc.php:200-203: the stored row is merged in here already, password hash included …
      const params: Row = { ...(tables.client.get(clientId) ?? {}), ...recordOf(a.params) };
      if (!params.parent_client_id) params.parent_client_id = a.reseller_id;
      // … so updateQuery (remoting.inc.php:432-436) sees a non-empty password and hashes it again.
      const affected = updateRecord('client', 'client', a.reseller_id, clientId, params);
      // remoting_lib.inc.php:311 ispconfig_sysuser_update: the panel login takes the same "clear" password.
      const user = sysUsers.get(clientId);
      if (user) {
        user.username = str(params.username);
        if (str(params.password)) user.passwort = hash(str(params.password));
      }
      // client.inc.php:252-254: on every update whose merged row has a `locked` value.
      if (params.locked && user) clientLock(clientId, str(params.locked));
      return affected;
    },
    // client.inc.php:537-559: both hashes set directly, no form, no validation, no lock function.
    client_change_password: (a) => {
      const clientId = int(a.client_id);
      const user = sysUsers.get(clientId);
      if (!tables.client.has(clientId)) throw new Fault(PANEL_TEXTS.noClient);
      tables.client.get(clientId)!.password = hash(str(a.new_password));
      if (user) user.passwort = hash(str(a.new_password));
      return true;
    },
    client_delete_everything: (a) => {
      const clientId = int(a.client_id);
      if (clientId > 0) {
        for (const table of ['web_backup', 'ftp_user', 'web_database', 'web_database_user', 'web_domain'] as const) {
          for (const [id, row] of tables[table]) if (row.sys_groupid === groupOf(clientId)) deleteRecord(table, id);
        }
        sysUsers.delete(clientId);
        prevInactive.delete(clientId);
      }
      return deleteRecord('client', clientId);
    },
    sites_web_domain_add: (a) => addWebDomain(a.client_id, a.params),
    // Like remoting_lib, the web_domain functions read and write any row of the table, whatever its type.
    sites_web_domain_get: (a) => get('web_domain', a.primary_id),
    sites_web_domain_update: (a) => updateWebDomain(a.client_id, a.primary_id, a.params),
    sites_web_vhost_aliasdomain_add: (a) => addWebDomain(a.client_id, a.params),
    sites_web_vhost_aliasdomain_get: (a) => get('web_domain', a.primary_id),
    sites_web_vhost_aliasdomain_update: (a) => updateWebDomain(a.client_id, a.primary_id, a.params),
    sites_web_vhost_aliasdomain_delete: (a) => deleteRecord('web_domain', a.primary_id),
    server_get_php_versions: (a) => {
      if (isEmpty(a.server_id) || isEmpty(a.php)) return false;
      if (a.php !== 'php-fpm') return [];
      const rows = phpVersions.filter((v) => v.server_id === int(a.server_id));
      return a.get_full_data ? rows.map(render) : rows.map((v) => `${v.name}:${v.php_fpm_init_script}:${v.php_fpm_ini_dir}:${v.php_fpm_pool_dir}`);
    },
    system_config_get: (a) => {
      if (str(a.section) === '') throw new Fault(PANEL_TEXTS.invalidParameter);
      const section = systemConfig[str(a.section)];
      if (str(a.key) !== '') return section && str(a.key) in section ? section[str(a.key)] : false;
      return section ?? false;
    },
    monitor_jobqueue_count: () => String(datalog.length),
    sites_database_user_add: (a) => insertRecord('database_user', 'web_database_user', a.client_id, recordOf(a.params)),
    sites_database_user_get: (a) => get('web_database_user', a.primary_id),
    sites_database_user_update: (a) => updateRecord('database_user', 'web_database_user', a.client_id, a.primary_id, recordOf(a.params)),
    // ISPConfig deletes a user that still owns databases and leaves them without a user (database_user_id null).
    sites_database_user_delete: (a) => {
      const removed = deleteRecord('web_database_user', a.primary_id);
      for (const [id, db] of tables.web_database) if (removed && int(db.database_user_id) === int(a.primary_id)) write('web_database', id, { database_user_id: null });
      return removed;
    },
    sites_database_add: (a) => {
      const record = recordOf(a.params);
      // sites.inc.php:118: checked before the form is.
      for (const db of tables.web_database.values()) {
        if (str(db.database_name) === str(record.database_name) && str(db.server_id) === str(record.server_id)) throw new Fault(PANEL_TEXTS.duplicateDatabase);
      }
      return insertRecord('database', 'web_database', a.client_id, record);
    },
    sites_database_get: (a) => get('web_database', a.primary_id),
    sites_database_delete: (a) => deleteRecord('web_database', a.primary_id),
    sites_ftp_user_add: (a) => insertRecord('ftp_user', 'ftp_user', a.client_id, recordOf(a.params)),
    sites_ftp_user_get: (a) => get('ftp_user', a.primary_id),
    sites_ftp_user_update: (a) => updateRecord('ftp_user', 'ftp_user', a.client_id, a.primary_id, recordOf(a.params)),
    sites_web_domain_backup_list: (a) => {
      const rows = [...tables.web_backup.values()];
      // `$site_id != null` in PHP: 0 and '' list everything too.
      return (isEmpty(a.site_id) ? rows : rows.filter((b) => str(b.parent_domain_id) === str(a.site_id))).map(render);
    },
    sites_web_domain_backup: (a) => {
      const backup = tables.web_backup.get(int(a.primary_id));
      if (!backup) throw new Fault(PANEL_TEXTS.invalidBackup(a.primary_id));
      const type = str(a.action_type);
      if (!['backup_download', 'backup_restore', 'backup_delete'].includes(type)) throw new Fault(PANEL_TEXTS.invalidAction(type));
      if (remoteActions.some((x) => x.state === 'pending' && x.action_type === type && x.backup_id === int(a.primary_id))) throw new Fault(PANEL_TEXTS.pendingAction(type));
      remoteActions.push({ action_id: nextActionId++, action_type: type, backup_id: int(a.primary_id), state: 'pending' });
      return true;
    },
    // quota_lib.inc.php:17-20: every website of the client, active or not, by domain.
    quota_get_by_user: (a) =>
      [...tables.web_domain.values()].filter((r) => r.type === 'vhost' && r.sys_groupid === groupOf(int(a.client_id)))
        .sort((x, y) => str(x.domain).localeCompare(str(y.domain))).map(siteUsage),
    // quota_lib.inc.php:83: active websites and their alias and sub domains; bytes from web_traffic.
    trafficquota_get_by_user: (a) => {
      const rows = siteRowsOf(groupOf(int(a.client_id))).filter((r) => r.active === 'y' && ['vhost', 'vhostsubdomain', 'vhostalias'].includes(str(r.type)));
      return Object.fromEntries(rows.map((r) => [str(r.domain), {
        domain_id: String(r.domain_id), this_month: String(r.type === 'vhost' ? 150 * 1024 ** 2 : 25 * 1024 ** 2), last_month: String(400 * 1024 ** 2),
      }]));
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
    for (const site of tables.web_domain.values()) if (site.type === 'vhost' && site.active === 'y') makeBackups(site);
  }

  function permissionsOfUser(user: FakeRemoteUser | undefined): Set<string> {
    if (!user) return new Set();
    if (user.functions) return new Set(user.functions);
    return new Set(permissionsOf(user.groups ?? DRIVER_FUNCTION_GROUPS));
  }

  /** remoting::getSession + checkPerm (remoting.inc.php:532-626): session errors first, then the right. */
  function checkPerm(sessionId: unknown, permission: string) {
    if (isEmpty(sessionId)) throw new Fault(PANEL_TEXTS.sessionEmpty);
    if (typeof sessionId !== 'string') throw new Fault(PANEL_TEXTS.sessionNotString);
    const session = sessions.get(sessionId);
    if (!session || session.expiresAt < now()) throw new Fault(PANEL_TEXTS.sessionExpired);
    if (!permissionsOfUser(remoteUsers.get(session.username)).has(permission)) throw new Fault(PANEL_TEXTS.permissionDenied);
  }

  function login(a: Args): string {
    if (isEmpty(a.username)) throw new Fault('The login username is empty.');
    if (isEmpty(a.password)) throw new Fault('The login password is empty.');
    const user = remoteUsers.get(str(a.username));
    if (!user || user.password !== a.password) throw new Fault(PANEL_TEXTS.loginFailed);
    logins++;
    // remoting.inc.php:214: a letter, then 20 random bytes as hex.
    const id = String.fromCharCode(97 + (randomBytes(1)[0]! % 26)) + randomBytes(20).toString('hex');
    sessions.set(id, { username: user.username, expiresAt: now() + 1800_000 });
    return id;
  }

  /** json_handler.inc.php:43-83: method lookup, parameters by name, the function's SoapFault as remote_fault. */
  function dispatch(method: string, body: Row): unknown {
    if (!Object.hasOwn(REMOTE_FUNCTIONS, method)) throw new Fault(PANEL_TEXTS.unknownMethod(method), 'invalid_method');
    const spec = REMOTE_FUNCTIONS[method as RemoteFunctionName];
    const names: readonly string[] = method === 'login' ? spec.params : ['session_id', ...spec.params];
    const unknown = Object.keys(body).filter((k) => !names.includes(k));
    if (unknown.length) {
      throw new Fault(`fake ISPConfig: ${method} has no parameter ${unknown.join(', ')} (its parameters: ${names.join(', ')}); ISPConfig would ignore it`, 'invalid_data');
    }
    const args: Args = Object.fromEntries(names.map((n) => [n, body[n] ?? null]));
    if (method === 'login') return login(args);
    if (method === 'logout') {
      if (isEmpty(args.session_id)) throw new Fault(PANEL_TEXTS.sessionEmpty);
      return sessions.delete(str(args.session_id));
    }
    checkPerm(args.session_id, spec.permission);
    const fault = faults.get(method);
    if (fault !== undefined) throw new Fault(fault);
    const result = methods[method as RemoteFunctionName](args);
    if ('alsoChecks' in spec) checkPerm(args.session_id, spec.alsoChecks);
    return result;
  }

  const handle: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (hanging) return; // accepted, never answered: the driver's time budget must end it
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = [...url.searchParams.keys()][0];
      let envelope: { code: string; message: string; response: unknown };
      try {
        if (url.pathname !== '/remote/json.php') {
          res.writeHead(404, { 'Content-Type': 'text/html' });
          res.end('<h1>Not Found</h1>');
          return;
        }
        if (!method) throw new Fault(PANEL_TEXTS.noMethod, 'invalid_method');
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = undefined;
        }
        // json_decode(…, true) gives an array for objects and lists alike.
        if (!isObject(body)) throw new Fault(PANEL_TEXTS.invalidJson, 'invalid_data');
        calls.push(method);
        envelope = { code: 'ok', message: '', response: dispatch(method, Array.isArray(body) ? {} : body) };
      } catch (err) {
        if (err instanceof PhpFatal) {
          res.writeHead(500, { 'Content-Type': 'text/html' });
          res.end(err.message);
          return;
        }
        if (!(err instanceof Fault)) throw err;
        envelope = { code: err.code, message: err.message, response: false };
      }
      res.writeHead(200, { 'Content-Type': 'application/json; charset="utf-8"' });
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
    /** Whether the customer can log in to the panel (sys_user) with this name and password. */
    panelLogin: (username: string, password: string) => [...sysUsers.values()].some((u) => u.username === username && u.passwort === hash(password)),
    failLetsEncryptFor: (domain: string) => failLetsEncrypt.add(domain),
    /** The panel forgets every session (restart, an admin's cleanup) before their 1800 s are up. */
    expireSessions: () => sessions.clear(),
    advanceClock: (ms: number) => (clockOffset += ms),
    setRemoteUser: (user: FakeRemoteUser) => remoteUsers.set(user.username, user),
    setConfig: (section: string, key: string, value: string | null) => {
      const s = (systemConfig[section] ??= {});
      if (value === null) delete s[key];
      else s[key] = value;
    },
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

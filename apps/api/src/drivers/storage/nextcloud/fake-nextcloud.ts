/**
 * A fake Nextcloud (provisioning API, OCS v2) for tests: its routes, methods and required parameters come
 * from provisioning-api.extract.json (Nextcloud's own OpenAPI file, trimmed), and its answers from the
 * controller and middleware facts in nextcloud-api-table.ts. It refuses what Nextcloud refuses: unknown
 * routes (404), other methods (405), a missing OCS-APIRequest header (412), a bad login (401), a missing
 * required parameter (500), an existing user (102), user ids with other characters (101), passwords the
 * default password policy refuses (107), quotas it cannot read (102), and more than 50 edits in 10
 * minutes (429).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { computerFileSize, humanFileSize } from '../storage.ts';
import { MIDDLEWARE_ANSWERS, OCS, PASSWORD_POLICY, ROUTES, USERS_CONTROLLER, bodyFieldsOf } from './nextcloud-api-table.ts';

/** IUserManager::MAX_PASSWORD_LENGTH. */
const MAX_PASSWORD_LENGTH = 469;
/** FileInfo::SPACE_UNLIMITED: what getStorageInfo answers as quota for "none". */
const SPACE_UNLIMITED = -3;
/** A few of the password policy's common-password lists (lists/list-<length>.php), enough for tests. */
const COMMON_PASSWORDS = new Set(['1234567890', 'qwertyuiop', 'passwort123', 'password123', 'iloveyou123', 'sommer2024!']);

interface FakeUser {
  uid: string;
  passwordHash: string;
  displayName: string;
  email: string;
  enabled: boolean;
  /** As Nextcloud stores it: "none", "default", or humanFileSize text ("10 GB"). */
  quota: string;
  groups: string[];
  isAdmin: boolean;
  /** Seconds, 0 = never. */
  lastLogin: number;
  /** Whether the user's file system was set up (first login): getUser then answers the full storage info. */
  fsReady: boolean;
  usedBytes: number;
}

export interface FakeNextcloudOptions {
  tls?: { cert: Buffer; key: Buffer };
  /** Clock in ms (tests move it for the rate limit). */
  now?: () => number;
  /** files/max_quota in bytes; default unlimited. */
  maxQuotaBytes?: number;
  /** files/allow_unlimited_quota; default true. */
  allowUnlimitedQuota?: boolean;
  /** Free disk space of the data directory (what an unlimited user sees as free). */
  diskFreeBytes?: number;
}

class OcsFailure extends Error {
  constructor(readonly statuscode: number, message: string) {
    super(message);
  }
}

const hash = (password: string) => createHash('sha256').update(`fake-nextcloud:${password}`).digest('hex');
const isNumeric = (s: string) => /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(s);

export const FAKE_ADMIN = { username: 'portal-admin', appPassword: 'Abcde-Fghij-Klmno-Pqrst-Uvwxy' } as const;

export async function startFakeNextcloud(options: FakeNextcloudOptions = {}) {
  let clockOffset = 0;
  const now = () => (options.now ?? Date.now)() + clockOffset;
  const users = new Map<string, FakeUser>();
  const groups = new Set<string>(['admin']);
  const appPasswords = new Map<string, string>();
  const edits = new Map<string, number[]>();
  const calls: { method: string; path: string; operationId: string | null; status: number }[] = [];
  let hanging = false;
  let maintenance = false;

  function addUser(uid: string, password: string, extra: Partial<FakeUser> = {}) {
    const user: FakeUser = {
      uid, passwordHash: hash(password), displayName: uid, email: '', enabled: true, quota: 'default', groups: [], isAdmin: false,
      lastLogin: 0, fsReady: false, usedBytes: 0, ...extra,
    };
    users.set(uid.toLowerCase(), user);
    return user;
  }
  addUser(FAKE_ADMIN.username, 'the-admins-login-password', { isAdmin: true, groups: ['admin'], displayName: 'Portal', fsReady: true });
  appPasswords.set(FAKE_ADMIN.username.toLowerCase(), FAKE_ADMIN.appPassword);

  const find = (uid: string) => users.get(uid.toLowerCase());

  function quotaBytesOf(user: FakeUser): number | 'none' {
    const q = user.quota === 'default' ? 'none' : user.quota;
    if (q === 'none') return 'none';
    const bytes = computerFileSize(q);
    return bytes === false ? 'none' : bytes;
  }

  /** AUserData::fillStorageInfo: before the first login only quota and used; after it the full storage info. */
  function storageInfo(user: FakeUser) {
    const quota = quotaBytesOf(user);
    if (!user.fsReady) return { quota, used: 0 };
    const used = user.usedBytes;
    if (quota === 'none') {
      const free = options.diskFreeBytes ?? 500 * 1024 ** 3;
      return { free, used, total: used + free, relative: Math.round((used / (used + free)) * 10_000) / 100, quota: SPACE_UNLIMITED };
    }
    const free = Math.max(0, quota - used);
    const total = used + free;
    return { free, used, total, relative: total > 0 ? Math.round((used / total) * 10_000) / 100 : 0, quota };
  }

  function userDetails(user: FakeUser) {
    return {
      enabled: user.enabled, storageLocation: `/var/www/nextcloud/data/${user.uid}`, id: user.uid, lastLogin: user.lastLogin * 1000, backend: 'Database',
      subadmin: [], quota: storageInfo(user), manager: '', email: user.email || null, 'additional_mail': [], displayname: user.displayName,
      'display-name': user.displayName, phone: '', address: '', website: '', twitter: '', fediverse: '', organisation: '', role: '', headline: '',
      biography: '', 'profile_enabled': '1', pronouns: '', groups: user.groups, language: 'de', locale: '', 'notify_email': null,
      backendCapabilities: { setDisplayName: true, setPassword: true },
    };
  }

  /** The editUser quota branch, as UsersController does it. */
  function quotaFrom(value: string): string {
    let quota: number | false | string = value;
    if (value !== 'none' && value !== 'default') {
      quota = isNumeric(value) ? Number(value) : computerFileSize(value);
      if (quota === false) throw new OcsFailure(USERS_CONTROLLER.editUser.invalidQuota.statuscode, `Invalid quota value ${value}`);
      if (options.maxQuotaBytes !== undefined && quota > options.maxQuotaBytes) {
        throw new OcsFailure(USERS_CONTROLLER.editUser.invalidQuota.statuscode, `Invalid quota value. ${value} is exceeding the maximum quota`);
      }
      quota = humanFileSize(quota);
    }
    if (quota === 'none' && options.allowUnlimitedQuota === false) {
      throw new OcsFailure(USERS_CONTROLLER.editUser.invalidQuota.statuscode, 'Unlimited quota is forbidden on this instance');
    }
    return quota;
  }

  /** The password policy app with its defaults: a HintException whose message the controller passes on. */
  function policyProblem(password: string): string | null {
    if (password.length < PASSWORD_POLICY.minLength) return PASSWORD_POLICY.tooShort(PASSWORD_POLICY.minLength);
    if (COMMON_PASSWORDS.has(password.toLowerCase())) return PASSWORD_POLICY.common;
    return null;
  }

  /**
   * lib/private/User/Manager.php validateUserId, texts of Nextcloud 26–28 (later versions say "Login"
   * instead of "username"). The length check came with IUser::MAX_USERID_LENGTH; its text is not the one
   * Nextcloud sends (not read), only its code (101) is.
   */
  function userIdProblem(uid: string): string | null {
    if (/[^a-zA-Z0-9 _.@\-']/.test(uid)) return 'Only the following characters are allowed in a username: "a-z", "A-Z", "0-9", and "_.@-\'"';
    if (uid.trim() === '') return 'A valid username must be provided';
    if (uid.trim() !== uid) return 'Username contains whitespace at the beginning or at the end';
    if (uid === '.' || uid === '..') return 'Username must not consist of dots only';
    if (uid.length > 64) return 'User ID is too long';
    return null;
  }

  const str = (v: unknown, fallback = '') => (v === undefined || v === null ? fallback : typeof v === 'string' ? v : JSON.stringify(v));

  const handlers: Record<string, (me: FakeUser, p: Record<string, unknown>) => unknown> = {
    'users-get-users': () => ({ users: [...users.values()].map((u) => u.uid) }),

    'users-add-user': (me, p) => {
      const uid = str(p.userid);
      const password = str(p.password);
      const email = str(p.email);
      const wanted = Array.isArray(p.groups) ? p.groups.map((g) => str(g)) : [];
      if (find(uid)) throw new OcsFailure(USERS_CONTROLLER.addUser.exists.statuscode, USERS_CONTROLLER.addUser.exists.message);
      for (const g of wanted) if (!groups.has(g)) throw new OcsFailure(USERS_CONTROLLER.addUser.groupMissing.statuscode, `group ${g} does not exist`);
      if (!wanted.length && !me.isAdmin) throw new OcsFailure(106, 'no group specified (required for subadmins)');
      if (password.length > MAX_PASSWORD_LENGTH) throw new OcsFailure(USERS_CONTROLLER.addUser.passwordTooLong.statuscode, USERS_CONTROLLER.addUser.passwordTooLong.message);
      if (password === '' && email === '') throw new OcsFailure(USERS_CONTROLLER.addUser.noPasswordNoEmail.statuscode, USERS_CONTROLLER.addUser.noPasswordNoEmail.message);
      const uidProblem = userIdProblem(uid);
      if (uidProblem) throw new OcsFailure(USERS_CONTROLLER.addUser.invalidUserId.statuscode, uidProblem);
      const policy = password === '' ? null : policyProblem(password);
      if (policy) throw new OcsFailure(USERS_CONTROLLER.addUser.weakPassword.statuscode, policy);
      const user = addUser(uid, password || `generated-${now()}`, { groups: wanted });
      if (p.displayName !== undefined && str(p.displayName) !== '') user.displayName = str(p.displayName);
      // The quota is set after the user exists: a refused quota leaves the user (and no email) behind.
      if (p.quota !== undefined && str(p.quota) !== '') user.quota = quotaFrom(str(p.quota));
      if (email !== '') user.email = email;
      return { id: uid };
    },

    'users-get-user': (_me, p) => {
      const user = find(str(p.userId));
      if (!user) throw new OcsFailure(USERS_CONTROLLER.getUser.missing.statuscode, USERS_CONTROLLER.getUser.missing.message);
      return userDetails(user);
    },

    'users-edit-user': (me, p) => {
      const user = find(str(p.userId));
      if (!user) throw new OcsFailure(USERS_CONTROLLER.editUser.missing.statuscode, USERS_CONTROLLER.editUser.missing.message);
      const key = str(p.key);
      const value = str(p.value);
      const permitted = me.isAdmin || user === me
        ? ['display', 'displayname', 'email', 'password', 'language', 'locale', 'quota']
        : [];
      if (!permitted.includes(key)) throw new OcsFailure(USERS_CONTROLLER.editUser.keyNotPermitted.statuscode, '');
      switch (key) {
        case 'display': case 'displayname': user.displayName = value; break;
        case 'quota': user.quota = quotaFrom(value); break;
        case 'password': {
          if (value.length > MAX_PASSWORD_LENGTH) throw new OcsFailure(102, 'Invalid password value');
          const policy = policyProblem(value);
          if (policy) throw new OcsFailure(USERS_CONTROLLER.editUser.weakPassword.statuscode, policy);
          user.passwordHash = hash(value);
          break;
        }
        case 'email':
          if (value !== '' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) throw new OcsFailure(101, '');
          user.email = value;
          break;
        default: throw new OcsFailure(USERS_CONTROLLER.editUser.keyNotPermitted.statuscode, '');
      }
      return [];
    },

    'users-delete-user': (me, p) => {
      const user = find(str(p.userId));
      if (!user) throw new OcsFailure(USERS_CONTROLLER.deleteUser.missing.statuscode, '');
      if (user === me) throw new OcsFailure(USERS_CONTROLLER.deleteUser.self.statuscode, '');
      users.delete(user.uid.toLowerCase());
      return [];
    },

    'users-enable-user': (me, p) => setEnabled(me, str(p.userId), true),
    'users-disable-user': (me, p) => setEnabled(me, str(p.userId), false),
  };

  function setEnabled(me: FakeUser, uid: string, enabled: boolean) {
    const user = find(uid);
    if (!user || user === me) throw new OcsFailure(USERS_CONTROLLER.setEnabled.missingOrSelf.statuscode, '');
    user.enabled = enabled;
    return [];
  }

  /** V2Response::getStatus for an OCS code. */
  function httpStatusOf(code: number): number {
    if (code === OCS.RESPOND_UNAUTHORISED) return 401;
    if (code === OCS.RESPOND_NOT_FOUND) return 404;
    if (code === OCS.RESPOND_SERVER_ERROR || code === OCS.RESPOND_UNKNOWN_ERROR) return 500;
    if (code < 200 || code > 600) return 400;
    return code;
  }

  function xml(value: unknown, key: string, indent: string): string {
    if (value === null || value === undefined) return `${indent}<${key}/>\n`;
    if (typeof value === 'object') {
      const entries = Array.isArray(value) ? value.map((v) => ['element', v] as const) : Object.entries(value);
      return `${indent}<${key}>\n${entries.map(([k, v]) => xml(v, k, `${indent} `)).join('')}${indent}</${key}>\n`;
    }
    return `${indent}<${key}>${String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;')}</${key}>\n`;
  }

  function send(res: http.ServerResponse, status: number, meta: { status: string; statuscode: number; message: string }, data: unknown, json: boolean) {
    if (json) {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ ocs: { meta, data } }));
    } else {
      res.writeHead(status, { 'Content-Type': 'application/xml; charset=utf-8' });
      res.end(`<?xml version="1.0"?>\n${xml({ meta, data }, 'ocs', '')}`);
    }
  }

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (hanging) return;
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = (req.method ?? 'GET').toUpperCase();
      const json = url.searchParams.get('format') === 'json' || (!url.searchParams.has('format') && /json/.test(String(req.headers.accept ?? '')));
      const log = (status: number, operationId: string | null = null) => calls.push({ method, path: url.pathname, operationId, status });

      if (!url.pathname.startsWith('/ocs/v2.php/')) {
        log(404);
        res.writeHead(404, { 'Content-Type': 'text/html' });
        res.end('<!DOCTYPE html><title>Not found</title>');
        return;
      }
      if (maintenance) {
        log(503);
        res.setHeader('X-Nextcloud-Maintenance-Mode', '1');
        send(res, 503, { status: 'failure', statuscode: 503, message: 'Service unavailable' }, [], json);
        return;
      }
      const candidates = ROUTES.map((r) => ({ route: r, params: r.match(url.pathname) })).filter((c) => c.params !== null);
      if (!candidates.length) {
        log(404);
        const a = MIDDLEWARE_ANSWERS.unknownRoute;
        send(res, a.status, { status: 'failure', statuscode: a.statuscode, message: a.message }, [], json);
        return;
      }
      const hit = candidates.find((c) => c.route.method === method);
      if (!hit) {
        log(405);
        res.writeHead(MIDDLEWARE_ANSWERS.methodNotAllowed.status, { 'Content-Type': json ? 'application/json; charset=utf-8' : 'text/xml; charset=UTF-8' });
        res.end();
        return;
      }
      const { route } = hit;
      const operationId = route.operation.operationId;

      // Login (HTTP Basic with an app password), then SecurityMiddleware: logged in, then the CSRF check.
      const [scheme, encoded] = String(req.headers.authorization ?? '').split(' ');
      const [login, ...rest] = scheme === 'Basic' && encoded ? Buffer.from(encoded, 'base64').toString('utf8').split(':') : [];
      const secret = rest.join(':');
      const me = login ? find(login) : undefined;
      const loggedIn = !!me && me.enabled && (appPasswords.get(me.uid.toLowerCase()) === secret || me.passwordHash === hash(secret));
      if (!loggedIn) {
        log(401, operationId);
        const a = MIDDLEWARE_ANSWERS.notLoggedIn;
        res.setHeader('WWW-Authenticate', 'Basic realm="Authorisation Required"');
        send(res, a.status, { status: 'failure', statuscode: a.statuscode, message: a.message }, [], json);
        return;
      }
      if (req.headers['ocs-apirequest'] !== 'true' && !String(req.headers.authorization ?? '').startsWith('Bearer ')) {
        log(412, operationId);
        res.writeHead(MIDDLEWARE_ANSWERS.csrf.status, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(MIDDLEWARE_ANSWERS.csrf.body));
        return;
      }
      if (operationId === 'users-edit-user') {
        const { limit, periodMs } = USERS_CONTROLLER.editUser.rateLimit;
        const key = me.uid.toLowerCase();
        const recent = (edits.get(key) ?? []).filter((t) => t > now() - periodMs);
        if (recent.length >= limit) {
          edits.set(key, recent);
          log(429, operationId);
          res.writeHead(429, { 'Content-Type': 'application/json; charset=utf-8' });
          res.end();
          return;
        }
        edits.set(key, [...recent, now()]);
      }

      // Request::getParam: query, then the body (JSON or a form), then the route's path parameters.
      const params: Record<string, unknown> = Object.fromEntries(url.searchParams.entries());
      const raw = Buffer.concat(chunks).toString('utf8');
      if (raw) {
        if (/json/.test(String(req.headers['content-type'] ?? ''))) {
          try {
            const parsed = JSON.parse(raw) as unknown;
            if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) Object.assign(params, parsed);
          } catch {
            // Nextcloud ignores a body it cannot decode; the parameters are then missing.
          }
        } else {
          const form = new URLSearchParams(raw);
          for (const k of new Set(form.keys())) {
            const all = form.getAll(k);
            if (k.endsWith('[]')) params[k.slice(0, -2)] = all;
            else params[k] = all[all.length - 1];
          }
        }
      }
      Object.assign(params, hit.params);
      const required = [
        ...bodyFieldsOf(route.operation).required,
        ...route.operation.parameters.filter((p) => p.required && p.in !== 'header').map((p) => p.name),
      ];
      if (required.some((name) => params[name] === undefined || params[name] === null)) {
        log(500, operationId);
        const a = MIDDLEWARE_ANSWERS.missingParameter;
        send(res, a.status, { status: 'failure', statuscode: a.statuscode, message: a.message }, [], json);
        return;
      }
      const handler = handlers[operationId];
      if (!handler) {
        log(500, operationId);
        send(res, 500, { status: 'failure', statuscode: 500, message: `fake-nextcloud: ${operationId} is not modelled` }, [], json);
        return;
      }
      try {
        const data = handler(me, params);
        log(200, operationId);
        send(res, 200, { status: 'ok', statuscode: 200, message: 'OK' }, data, json);
      } catch (err) {
        if (!(err instanceof OcsFailure)) throw err;
        const status = httpStatusOf(err.statuscode);
        log(status, operationId);
        send(res, status, { status: 'failure', statuscode: err.statuscode, message: err.message }, [], json);
      }
    });
  };

  const server = options.tls ? https.createServer(options.tls, handle) : http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    admin: FAKE_ADMIN,
    calls,
    user: (uid: string): Readonly<FakeUser> | undefined => find(uid),
    passwordMatches: (uid: string, password: string) => find(uid)?.passwordHash === hash(password),
    /** Another user (not an admin) with an app password. */
    addPlainUser: (uid: string, appPassword: string) => {
      addUser(uid, 'a-login-password-1');
      appPasswords.set(uid.toLowerCase(), appPassword);
    },
    addGroup: (gid: string) => groups.add(gid),
    /** The user logs in for the first time (their file system is set up) and holds this many bytes. */
    setUsage: (uid: string, usedBytes: number) => {
      const u = find(uid);
      if (!u) throw new Error(`no user ${uid}`);
      u.fsReady = true;
      u.usedBytes = usedBytes;
      u.lastLogin = Math.floor(now() / 1000);
    },
    advanceClock: (ms: number) => (clockOffset += ms),
    setHanging: (on: boolean) => (hanging = on),
    setMaintenance: (on: boolean) => (maintenance = on),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeNextcloud = Awaited<ReturnType<typeof startFakeNextcloud>>;

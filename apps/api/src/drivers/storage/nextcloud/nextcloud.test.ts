import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStorageContract } from '../storage.contract.ts';
import { StorageError, type CreateStorageAccountSpec, type StorageDriver } from '../storage.ts';
import { startFakeNextcloud, type FakeNextcloud, type FakeNextcloudOptions } from './fake-nextcloud.ts';
import { MIDDLEWARE_ANSWERS, NEXTCLOUD_SOURCE, PASSWORD_POLICY, ROUTES, USERS_CONTROLLER, provisioningExtract } from './nextcloud-api-table.ts';
import { createNextcloudClient } from './nextcloud-client.ts';
import { createNextcloudStorage, type NextcloudConfig } from './nextcloud.ts';

const GIB = 1024 ** 3;

describeStorageContract('nextcloud (fake server)', async () => {
  const fake = await startFakeNextcloud();
  return {
    driver: createNextcloudStorage({ url: fake.url, username: fake.admin.username, appPassword: fake.admin.appPassword, fingerprint: '', timeoutMs: 2000 }),
    server: { url: fake.url },
    firstLogin: async (ref) => fake.setUsage(ref.userId, 700 * 1024 ** 2),
    cleanup: () => fake.close(),
  };
});

let fake: FakeNextcloud;
let counter = 0;

beforeAll(async () => {
  fake = await startFakeNextcloud();
});
afterAll(async () => {
  await fake.close();
});

function driver(config: Partial<NextcloudConfig> = {}, on: FakeNextcloud = fake): StorageDriver {
  return createNextcloudStorage({ url: on.url, username: on.admin.username, appPassword: on.admin.appPassword, fingerprint: '', timeoutMs: 2000, ...config });
}

function spec(over: Partial<CreateStorageAccountSpec> = {}, on: FakeNextcloud = fake): CreateStorageAccountSpec {
  const userId = `nc${Date.now().toString(36).slice(-5)}${counter++}`;
  return { server: { url: on.url }, userId, password: 'Kunden!Passw0rt', displayName: 'Max Mustermann', email: `${userId}@example.net`, quotaBytes: 50 * GIB, ...over };
}

async function rejection(promise: Promise<unknown>): Promise<StorageError> {
  const err = await promise.then(() => {
    throw new Error('expected a rejection');
  }, (e: unknown) => e);
  expect(err).toBeInstanceOf(StorageError);
  return err as StorageError;
}

interface RawAnswer {
  ocs?: { meta: { status: string; statuscode: number; message: string }; data: unknown };
  message?: string;
}

/** A raw OCS request as a client would send it; defaults are the ones Nextcloud needs. */
async function raw(method: string, pathAndQuery: string, opts: { body?: unknown; headers?: Record<string, string>; auth?: string | null } = {}) {
  const headers: Record<string, string> = { 'OCS-APIRequest': 'true', Accept: 'application/json', ...opts.headers };
  const auth = opts.auth === undefined ? `${fake.admin.username}:${fake.admin.appPassword}` : opts.auth;
  if (auth !== null) headers.Authorization = `Basic ${Buffer.from(auth).toString('base64')}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${fake.url}/ocs/v2.php${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}format=json`, {
    method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let json: RawAnswer | null = null;
  try {
    json = JSON.parse(text) as RawAnswer;
  } catch {
    json = null;
  }
  return { status: res.status, json, text };
}

describe('nextcloud driver against the fake server', () => {
  it('creates the user with one addUser call: OCS header, JSON, Basic auth with the app password, quota as bytes', async () => {
    const s = spec();
    await driver().createAccount(s);
    const user = fake.user(s.userId)!;
    expect(user).toMatchObject({ uid: s.userId, displayName: 'Max Mustermann', email: s.email, quota: '50 GB', enabled: true });
    expect(fake.passwordMatches(s.userId, s.password)).toBe(true);
    expect(fake.calls.filter((c) => c.operationId === 'users-add-user').at(-1)).toMatchObject({ method: 'POST', path: '/ocs/v2.php/cloud/users', status: 200 });
  });

  it('puts every portal user into NEXTCLOUD_GROUP; a group missing on the server is a configuration error', async () => {
    fake.addGroup('portal');
    const s = spec();
    await driver({ group: 'portal' }).createAccount(s);
    expect(fake.user(s.userId)?.groups).toEqual(['portal']);
    const err = await rejection(driver({ group: 'gibt-es-nicht' }).createAccount(spec()));
    expect(err.kind).toBe('auth');
    expect(err.detail).toMatch(/OCS 104/);
  });

  it('a quota the server refuses at creation removes the half-made user and reports invalid', async () => {
    const small = await startFakeNextcloud({ maxQuotaBytes: 10 * GIB });
    try {
      const s = spec({ quotaBytes: 20 * GIB }, small);
      const err = await rejection(driver({}, small).createAccount(s));
      expect(err.kind).toBe('invalid');
      expect(err.message).toMatch(/Speicherkontingent/);
      expect(small.user(s.userId)).toBeUndefined();
      await driver({}, small).createAccount({ ...s, quotaBytes: 10 * GIB });
      expect(small.user(s.userId)?.quota).toBe('10 GB');
    } finally {
      await small.close();
    }
  });

  it('unlimited quota where the server forbids it is invalid', async () => {
    const strict = await startFakeNextcloud({ allowUnlimitedQuota: false });
    try {
      const ref = await driver({}, strict).createAccount(spec({}, strict));
      expect((await rejection(driver({}, strict).setQuota(ref, null))).kind).toBe('invalid');
    } finally {
      await strict.close();
    }
  });

  it('a weak password names the minimum length in German; no password appears in any detail', async () => {
    const s = spec({ password: 'Kurz!1' });
    const err = await rejection(driver().createAccount(s));
    expect(err.kind).toBe('weak_password');
    expect(err.message).toBe('Das Passwort ist dem Speicher-Server zu kurz. Es muss mindestens 10 Zeichen lang sein.');
    expect(err.detail).not.toContain('Kurz!1');
    expect(err.detail).not.toContain(fake.admin.appPassword);
  });

  it('wrong credentials are auth', async () => {
    const err = await rejection(driver({ appPassword: 'falsch' }).getAccount({ server: { url: fake.url }, userId: 'x' }));
    expect(err.kind).toBe('auth');
    expect(err.detail).toMatch(/HTTP 401 OCS 997/);
    expect(err.detail).not.toContain('falsch');
  });

  it('a server in maintenance, one that never answers and a closed port are unavailable', async () => {
    fake.setMaintenance(true);
    try {
      expect((await rejection(driver().getAccount({ server: { url: fake.url }, userId: 'x' }))).kind).toBe('unavailable');
    } finally {
      fake.setMaintenance(false);
    }
    fake.setHanging(true);
    try {
      const started = Date.now();
      const err = await rejection(driver({ timeoutMs: 300 }).getAccount({ server: { url: fake.url }, userId: 'x' }));
      expect(err.kind).toBe('unavailable');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      fake.setHanging(false);
    }
    expect((await rejection(driver().getAccount({ server: { url: 'http://127.0.0.1:1' }, userId: 'x' }))).kind).toBe('unavailable');
  });

  it('an address that is no Nextcloud (a web server\'s HTML 404) is unavailable', async () => {
    const err = await rejection(driver().getAccount({ server: { url: `${fake.url}/unterordner` }, userId: 'x' }));
    expect(err.kind).toBe('unavailable');
  });

  it('a server without the provisioning API (OCS "Invalid query", no such route) is a configuration error', async () => {
    const client = createNextcloudClient({ url: fake.url, username: fake.admin.username, appPassword: fake.admin.appPassword, fingerprint: '' });
    const err = await rejection(client.call(undefined, 'GET', '/cloud/benutzer/x'));
    expect(err.kind).toBe('auth');
    expect(err.detail).toMatch(/provisioning_api/);
  });

  it('more than 50 edits in 10 minutes are rate limited (unavailable); after the period they go through', async () => {
    const limited = await startFakeNextcloud();
    try {
      const d = driver({}, limited);
      const ref = await d.createAccount(spec({}, limited));
      for (let i = 0; i < USERS_CONTROLLER.editUser.rateLimit.limit; i++) await d.setQuota(ref, GIB * (i + 1));
      const err = await rejection(d.setQuota(ref, GIB));
      expect(err.kind).toBe('unavailable');
      expect(err.detail).toMatch(/429/);
      limited.advanceClock(USERS_CONTROLLER.editUser.rateLimit.periodMs);
      await d.setQuota(ref, GIB);
    } finally {
      await limited.close();
    }
  });

  it('an account before and after the first login: quota "none" and SPACE_UNLIMITED both read as unlimited', async () => {
    const ref = await driver().createAccount(spec({ quotaBytes: null }));
    expect(fake.user(ref.userId)?.quota).toBe('none');
    expect(await driver().getAccount(ref)).toMatchObject({ quotaBytes: null, usedBytes: 0, freeBytes: null, lastLoginAt: null });
    fake.setUsage(ref.userId, 3 * GIB);
    expect(await driver().getAccount(ref)).toMatchObject({ quotaBytes: null, usedBytes: 3 * GIB, freeBytes: null, usedPercent: 0 });
  });

  it('never disables or deletes the admin it logs in with', async () => {
    const ref = { server: { url: fake.url }, userId: fake.admin.username.toUpperCase() };
    expect((await rejection(driver().disable(ref))).kind).toBe('invalid');
    expect((await rejection(driver().deleteAccount(ref))).kind).toBe('invalid');
    expect(fake.user(fake.admin.username)?.enabled).toBe(true);
  });
});

describe('the fake answers as Nextcloud does (nextcloud-api-table.ts, provisioning-api.extract.json)', () => {
  it('reads its routes from the OpenAPI extract of the commit it names', () => {
    expect(provisioningExtract['x-source']).toMatchObject({ repository: 'nextcloud/server', path: 'apps/provisioning_api/openapi.json', commit: NEXTCLOUD_SOURCE.openapi.commit });
    const ops = ROUTES.map((r) => `${r.method} ${r.template} ${r.operation.operationId}`);
    expect(ops).toContain('POST /ocs/v2.php/cloud/users users-add-user');
    expect(ops).toContain('PUT /ocs/v2.php/cloud/users/{userId} users-edit-user');
    expect(ops).toContain('PUT /ocs/v2.php/cloud/users/{userId}/disable users-disable-user');
    // Every operation requires the OCS-APIRequest header (the extract's parameters say so).
    expect(ROUTES.every((r) => r.operation.parameters.some((p) => p.name === 'OCS-APIRequest' && p.in === 'header' && p.required))).toBe(true);
  });

  it('without OCS-APIRequest: true the CSRF check refuses with 412 and no OCS envelope', async () => {
    const answer = await raw('GET', `/cloud/users/${fake.admin.username}`, { headers: { 'OCS-APIRequest': 'false' } });
    expect(answer.status).toBe(412);
    expect(answer.json).toEqual(MIDDLEWARE_ANSWERS.csrf.body);
  });

  it('a wrong app password or none: 401 with OCS 997', async () => {
    for (const auth of [`${fake.admin.username}:falsch`, null]) {
      const answer = await raw('GET', `/cloud/users/${fake.admin.username}`, { auth });
      expect(answer.status).toBe(401);
      expect(answer.json?.ocs?.meta).toMatchObject({ status: 'failure', statuscode: 997 });
    }
  });

  it('an unknown route is 404 with the OCS text; a known path with another method is 405 without a body', async () => {
    const unknown = await raw('GET', '/cloud/benutzer');
    expect(unknown.status).toBe(404);
    expect(unknown.json?.ocs?.meta).toEqual({ status: 'failure', statuscode: 404, message: MIDDLEWARE_ANSWERS.unknownRoute.message });
    const wrongMethod = await raw('PATCH', '/cloud/users/someone');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.text).toBe('');
  });

  it('a missing required parameter (userid; key and value) fails inside PHP: 500', async () => {
    const noUserId = await raw('POST', '/cloud/users', { body: { password: 'Lang!Genug-123' } });
    expect(noUserId.status).toBe(500);
    expect(noUserId.json?.ocs?.meta.statuscode).toBe(500);
    const noValue = await raw('PUT', `/cloud/users/${fake.admin.username}`, { body: { key: 'quota' } });
    expect(noValue.status).toBe(500);
  });

  it('addUser: an existing user (in any case) is 102, invalid characters 101, a short or common password 107 with the policy text', async () => {
    const uid = `raw${counter++}`;
    const ok = await raw('POST', '/cloud/users', { body: { userid: uid, password: 'Lang!Genug-123' } });
    expect(ok.status).toBe(200);
    expect(ok.json?.ocs).toEqual({ meta: { status: 'ok', statuscode: 200, message: 'OK' }, data: { id: uid } });
    const again = await raw('POST', '/cloud/users', { body: { userid: uid.toUpperCase(), password: 'Lang!Genug-123' } });
    expect(again.status).toBe(400);
    expect(again.json?.ocs?.meta).toMatchObject({ statuscode: 102, message: 'User already exists' });
    const bad = await raw('POST', '/cloud/users', { body: { userid: 'max/muster', password: 'Lang!Genug-123' } });
    expect(bad.json?.ocs?.meta.statuscode).toBe(101);
    const short = await raw('POST', '/cloud/users', { body: { userid: `raw${counter++}`, password: 'kurz' } });
    expect(short.json?.ocs?.meta).toMatchObject({ statuscode: 107, message: PASSWORD_POLICY.tooShort(10) });
    const common = await raw('POST', '/cloud/users', { body: { userid: `raw${counter++}`, password: '1234567890' } });
    expect(common.json?.ocs?.meta).toMatchObject({ statuscode: 107, message: PASSWORD_POLICY.common });
  });

  it('editUser quota: bytes and human sizes are kept as humanFileSize text; text it cannot read is 102', async () => {
    const uid = `quota${counter++}`;
    await raw('POST', '/cloud/users', { body: { userid: uid, password: 'Lang!Genug-123' } });
    for (const [value, kept] of [['1073741824', '1 GB'], ['100 GB', '100 GB'], ['1500000000', '1.4 GB'], ['none', 'none'], ['5g', '5 GB']] as const) {
      expect((await raw('PUT', `/cloud/users/${uid}`, { body: { key: 'quota', value } })).status).toBe(200);
      expect(fake.user(uid)?.quota).toBe(kept);
    }
    const refused = await raw('PUT', `/cloud/users/${uid}`, { body: { key: 'quota', value: 'viel' } });
    expect(refused.status).toBe(400);
    expect(refused.json?.ocs?.meta).toMatchObject({ statuscode: 102, message: 'Invalid quota value viel' });
    const unknownKey = await raw('PUT', `/cloud/users/${uid}`, { body: { key: 'frobnicate', value: 'x' } });
    expect(unknownKey.json?.ocs?.meta.statuscode).toBe(113);
  });

  it('getUser of a missing user is 404 "User does not exist"; enable/disable of one is 101 (HTTP 400); delete of one is 404', async () => {
    const get = await raw('GET', '/cloud/users/gibtsnicht');
    expect(get.status).toBe(404);
    expect(get.json?.ocs?.meta).toMatchObject({ statuscode: 404, message: 'User does not exist' });
    const disable = await raw('PUT', '/cloud/users/gibtsnicht/disable');
    expect(disable.status).toBe(400);
    expect(disable.json?.ocs?.meta.statuscode).toBe(101);
    const del = await raw('DELETE', '/cloud/users/gibtsnicht');
    expect(del.status).toBe(404);
    expect(del.json?.ocs?.meta.statuscode).toBe(998);
  });

  it('without format=json (and no JSON Accept) Nextcloud answers XML', async () => {
    const res = await fetch(`${fake.url}/ocs/v2.php/cloud/users/${fake.admin.username}`, {
      headers: { 'OCS-APIRequest': 'true', Authorization: `Basic ${Buffer.from(`${fake.admin.username}:${fake.admin.appPassword}`).toString('base64')}` },
    });
    expect(res.headers.get('content-type')).toMatch(/xml/);
    expect(await res.text()).toMatch(/^<\?xml version="1.0"\?>\n<ocs>/);
  });
});

describe('certificate pinning', () => {
  let dir: string | undefined;
  let tlsFake: FakeNextcloud | undefined;
  let fingerprint = '';

  beforeAll(async () => {
    // Node cannot self-sign without a package; use the openssl CLI when present, otherwise skip.
    try {
      dir = mkdtempSync(path.join(tmpdir(), 'nc-tls-'));
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=cloud', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    } catch {
      return;
    }
    const cert = readFileSync(path.join(dir, 'cert.pem'));
    fingerprint = new X509Certificate(cert).fingerprint256;
    const options: FakeNextcloudOptions = { tls: { cert, key: readFileSync(path.join(dir, 'key.pem')) } };
    tlsFake = await startFakeNextcloud(options);
  });
  afterAll(async () => {
    await tlsFake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('talks to a server whose certificate matches the pinned fingerprint', async (ctx) => {
    if (!tlsFake) return ctx.skip();
    const d = driver({ fingerprint: fingerprint.toLowerCase() }, tlsFake);
    expect(await d.isNameAvailable({ url: tlsFake.url }, 'frei')).toBe(true);
  });

  it('refuses a mismatching certificate before the app password leaves', async (ctx) => {
    if (!tlsFake) return ctx.skip();
    const callsBefore = tlsFake.calls.length;
    const wrong = fingerprint.replace(/^[0-9A-F]{2}/, (b) => (b === '00' ? '01' : '00'));
    const err = await rejection(driver({ fingerprint: wrong }, tlsFake).isNameAvailable({ url: tlsFake.url }, 'frei'));
    expect(err.kind).toBe('auth');
    expect(err.detail).toMatch(/FINGERPRINT_MISMATCH/);
    expect(tlsFake.calls.length).toBe(callsBefore);
  });

  it("a storage server's own fingerprint wins over the default one", async (ctx) => {
    if (!tlsFake) return ctx.skip();
    const wrong = fingerprint.replace(/^[0-9A-F]{2}/, (b) => (b === '00' ? '01' : '00'));
    const d = driver({ fingerprint: wrong }, tlsFake);
    expect(await d.isNameAvailable({ url: tlsFake.url, fingerprint }, 'frei')).toBe(true);
    expect((await rejection(d.isNameAvailable({ url: tlsFake.url }, 'frei'))).kind).toBe('auth');
  });

  it('without a fingerprint the certificate must be valid under the system CAs: a self-signed one is refused', async (ctx) => {
    if (!tlsFake) return ctx.skip();
    const err = await rejection(driver({ fingerprint: '' }, tlsFake).isNameAvailable({ url: tlsFake.url }, 'frei'));
    expect(err.kind).toBe('unavailable');
    expect(err.detail).toMatch(/SELF_SIGNED|self.signed|CERT/i);
  });
});

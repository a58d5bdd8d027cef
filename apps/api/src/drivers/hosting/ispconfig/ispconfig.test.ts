import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeHostingContract } from '../hosting.contract.ts';
import { HostingError, hostingMessages, type CreateAccountSpec, type HostingDriver } from '../hosting.ts';
import { startFakeIspConfig, type FakeIspConfig } from './fake-ispconfig.ts';
import { DRIVER_FUNCTION_GROUPS, REMOTE_FUNCTIONS, WEAK_PASSWORD_TEXT, permissionsOf } from './ispconfig-api-table.ts';
import { createIspConfigHosting, setIniValues, type IspConfigConfig } from './ispconfig.ts';
import type { IspConfigClientOptions } from './ispconfig-client.ts';

describeHostingContract('ispconfig (fake panel)', async () => {
  const panel = await startFakeIspConfig();
  return {
    driver: createIspConfigHosting({ url: panel.url, ...panel.remoteUser, fingerprint: '', timeoutMs: 2000 }),
    server: { serverId: '1' },
    settle: async () => panel.cronTick(),
    cleanup: () => panel.close(),
    // ISPConfig 3.2's remote API has no call that counts a database's tables.
    reportsTables: false,
  };
});

let fake: FakeIspConfig;
let counter = 0;

beforeAll(async () => {
  fake = await startFakeIspConfig();
});
afterAll(async () => {
  await fake.close();
});

function driver(config: Partial<IspConfigConfig> = {}, options: IspConfigClientOptions = {}): HostingDriver {
  return createIspConfigHosting({ url: fake.url, ...fake.remoteUser, fingerprint: '', timeoutMs: 2000, ...config }, options);
}

function spec(over: Partial<CreateAccountSpec> = {}): CreateAccountSpec {
  const username = `fault${Date.now().toString(36).slice(-5)}${counter++}`;
  return {
    serverId: '1', username, password: 'Kunden!Passw0rt', contactName: 'Max Mustermann', email: `${username}@example.net`,
    plan: { name: 'Starter', storageMb: 2048, trafficMb: 20_480, databases: 2, domains: 2 },
    primaryDomain: `${username}.example.net`, phpVersion: '8.1', ...over,
  };
}

async function rejection(promise: Promise<unknown>): Promise<HostingError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HostingError);
  return err as HostingError;
}

describe('ispconfig driver against the fake panel', () => {
  it('creates client, site and FTP user the way the panel wants them', async () => {
    const s = spec();
    const ref = await driver().createAccount(s);
    const client = fake.row('client', ref.clientId)!;
    expect(client).toMatchObject({ username: s.username, contact_name: s.contactName, template_master: 1, limit_web_quota: 2048, locked: 'n' });
    expect(fake.passwordMatches(client, 'password', s.password)).toBe(true);
    const site = fake.row('web_domain', ref.siteId)!;
    expect(site).toMatchObject({ domain: s.primaryDomain, type: 'vhost', php: 'php-fpm', server_php_id: 2, hd_quota: 2048, traffic_quota: 20_480, ip_address: '*', active: 'y' });
    const [ftp] = fake.rows('ftp_user').filter((f) => String(f.parent_domain_id) === ref.siteId);
    expect(ftp).toMatchObject({ username: s.username, uid: site.system_user, gid: site.system_group, dir: site.document_root });
  });

  it('two parallel createAccount calls for one username end with one client, one site, one FTP user', async () => {
    const s = spec();
    const [a, b] = await Promise.all([driver().createAccount(s), driver().createAccount(s)]);
    expect(b).toEqual(a);
    expect(fake.rows('client').filter((c) => c.username === s.username)).toHaveLength(1);
    expect(fake.rows('web_domain').filter((d) => d.domain === s.primaryDomain)).toHaveLength(1);
    expect(fake.rows('ftp_user').filter((f) => f.username === s.username)).toHaveLength(1);
  });

  it('a primary domain held by another client is DUPLICATE', async () => {
    const taken = spec();
    await driver().createAccount(taken);
    const err = await rejection(driver().createAccount(spec({ primaryDomain: taken.primaryDomain })));
    expect(err.code).toBe('DUPLICATE');
  });

  it('a session the panel dropped is renewed with exactly one login and the call succeeds', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    fake.expireSessions();
    const before = fake.loginCount;
    expect((await hosting.getSite(ref)).active).toBe(true);
    expect(fake.loginCount).toBe(before + 1);
  });

  it('after 1800 s on the panel clock the call logs in once more and goes through', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    const before = fake.loginCount;
    fake.advanceClock(1801_000);
    try {
      await hosting.getSite(ref);
      expect(fake.loginCount).toBe(before + 1);
    } finally {
      fake.advanceClock(-1801_000);
    }
  });

  it('renews the session shortly before its fixed lifetime ends, without running into the error', async () => {
    let clock = Date.now();
    const hosting = driver({}, { now: () => clock });
    const ref = await hosting.createAccount(spec());
    const before = fake.loginCount;
    clock += 1750_000;
    await hosting.getSite(ref);
    expect(fake.loginCount).toBe(before + 1);
    await hosting.getSite(ref);
    expect(fake.loginCount).toBe(before + 1);
  });

  it('parallel calls share one login', async () => {
    const ref = await driver().createAccount(spec());
    const hosting = driver();
    const before = fake.loginCount;
    await Promise.all(Array.from({ length: 8 }, () => hosting.getSite(ref)));
    expect(fake.loginCount).toBe(before + 1);
  });

  it('a remote_fault becomes REMOTE_FAULT with a German message and the panel text as detail', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    const err = await rejection(hosting.addDomain(ref, 'kein domainname'));
    expect(err.code).toBe('REMOTE_FAULT');
    expect(err.message).toBe(hostingMessages.REMOTE_FAULT);
    expect(err.detail).toMatch(/domain_error_regex/);

    const user = await hosting.createDatabaseUser(ref, `u${counter++}x${Date.now().toString(36).slice(-4)}`, 'Db!Passw0rd');
    const dbErr = await rejection(hosting.createDatabase(ref, 'bad-name!', user.id));
    expect(dbErr.code).toBe('REMOTE_FAULT');
    expect(dbErr.message).toMatch(/Datenbank/);
    expect(dbErr.detail).toMatch(/database_name_error_regex/);
  });

  it('an unreachable panel (closed port) is UNAVAILABLE within the time budget', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const started = Date.now();
    const err = await rejection(driver({ url: `http://127.0.0.1:${port}`, timeoutMs: 1000 }).phpVersions({ serverId: '1' }));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.message).toBe(hostingMessages.UNAVAILABLE);
    expect(err.detail).toMatch(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(1000 + 500);
  });

  it('a panel that accepts but never answers is UNAVAILABLE after timeoutMs', async () => {
    fake.setHanging(true);
    try {
      const started = Date.now();
      const err = await rejection(driver({ timeoutMs: 300 }).phpVersions({ serverId: '1' }));
      const elapsed = Date.now() - started;
      expect(err.code).toBe('UNAVAILABLE');
      expect(err.detail).toMatch(/no answer within 300 ms/);
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(300 + 700);
    } finally {
      fake.setHanging(false);
    }
  });

  it('wrong credentials are AUTH', async () => {
    const err = await rejection(driver({ password: 'falsch' }).phpVersions({ serverId: '1' }));
    expect(err.code).toBe('AUTH');
    expect(err.message).toBe(hostingMessages.AUTH);
    expect(err.detail).toBe('The login failed. Username or password wrong.');
  });

  it('a function the remote user may not call is AUTH with the panel text', async () => {
    fake.setRemoteUser({ username: 'readonly', password: 'nur-lesen', groups: ['Server functions'] });
    const limited = driver({ username: 'readonly', password: 'nur-lesen' });
    expect(await limited.phpVersions({ serverId: '1' })).toEqual(['7.4', '8.1', '8.2', '8.3']);
    const err = await rejection(limited.createAccount(spec()));
    expect(err.code).toBe('AUTH');
    expect(err.detail).toBe('You do not have the permissions to access this function.');
  });

  it('rights go by the permission a function checks: server_get_php_versions needs server_get, a right of its own name is none', async () => {
    fake.setRemoteUser({ username: 'own-name', password: 'eigener-name', functions: ['server_get_php_versions'] });
    const err = await rejection(driver({ username: 'own-name', password: 'eigener-name' }).phpVersions({ serverId: '1' }));
    expect(err.code).toBe('AUTH');
    fake.setRemoteUser({ username: 'server-get', password: 'server-get-1', functions: ['server_get'] });
    expect(await driver({ username: 'server-get', password: 'server-get-1' }).phpVersions({ serverId: '1' })).toEqual(['7.4', '8.1', '8.2', '8.3']);
  });

  it('the function groups the driver documents grant every permission the driver needs, and a panel with only them serves a whole account', async () => {
    const needed = Object.values(REMOTE_FUNCTIONS).flatMap((f) => [f.permission, 'alsoChecks' in f ? f.alsoChecks : '']).filter(Boolean);
    expect(needed.filter((p) => !permissionsOf(DRIVER_FUNCTION_GROUPS).includes(p))).toEqual([]);
    fake.setRemoteUser({ username: 'groups-only', password: 'nur-gruppen', groups: [...DRIVER_FUNCTION_GROUPS] });
    const hosting = driver({ username: 'groups-only', password: 'nur-gruppen' });
    const ref = await hosting.createAccount(spec());
    await hosting.addDomain(ref, `gruppen-${counter++}.example.org`);
    await hosting.suspend(ref);
    await hosting.unsuspend(ref);
    await hosting.usage(ref);
    await hosting.listBackups(ref);
    await hosting.deleteAccount(ref);
  });

  it('updates never reset pm_* or log_retention and keep foreign php.ini lines', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    const row = fake.row('web_domain', ref.siteId)!;
    expect(row).toMatchObject({ pm_max_children: 10, pm_start_servers: 2, pm_min_spare_servers: 1, pm_max_spare_servers: 5, log_retention: 10 });
    row.custom_php_ini = 'upload_max_filesize = 64M\nmemory_limit = 128M';

    await hosting.setPhp(ref, { memoryLimitMb: 256, maxExecutionTimeS: 120 });
    await hosting.setPhp(ref, { phpVersion: '8.3' });
    await hosting.setBackupSchedule(ref, { interval: 'daily', copies: 7 });
    await hosting.requestSsl(ref, ref.siteId);

    // The driver sends back what it read, so numbers arrive as text, as MySQL would take them.
    const stored = Object.fromEntries(Object.entries(fake.row('web_domain', ref.siteId)!).map(([k, v]) => [k, String(v)]));
    expect(stored).toMatchObject({
      pm_max_children: '10', pm_start_servers: '2', pm_min_spare_servers: '1', pm_max_spare_servers: '5', log_retention: '10',
      server_php_id: '4', backup_interval: 'daily', backup_copies: '7', ssl: 'y', ssl_letsencrypt: 'y',
      custom_php_ini: 'upload_max_filesize = 64M\nmemory_limit = 256M\nmax_execution_time = 120',
    });
  });

  it("after suspend and unsuspend the customer's panel password still works", async () => {
    const s = spec();
    const hosting = driver();
    const ref = await hosting.createAccount(s);
    expect(fake.panelLogin(s.username, s.password)).toBe(true);
    await hosting.suspend(ref);
    expect(fake.row('client', ref.clientId)).toMatchObject({ locked: 'y' });
    expect(fake.row('web_domain', ref.siteId)).toMatchObject({ active: 'n' });
    await hosting.unsuspend(ref);
    expect(fake.row('web_domain', ref.siteId)).toMatchObject({ active: 'y' });
    expect(fake.panelLogin(s.username, s.password)).toBe(true);
    expect(fake.passwordMatches(fake.row('client', ref.clientId), 'password', s.password)).toBe(true);
  });

  it('an object that was off before the suspension stays off, also when unsuspend runs twice', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    const ftp = await hosting.getFtpAccount(ref);
    fake.row('ftp_user', ftp.id)!.active = 'n'; // switched off by the panel admin
    await hosting.suspend(ref);
    await hosting.unsuspend(ref);
    await hosting.unsuspend(ref);
    expect(fake.row('web_domain', ref.siteId)).toMatchObject({ active: 'y' });
    expect(fake.row('ftp_user', ftp.id)).toMatchObject({ active: 'n' });
  });

  it('a panel password changed while suspended works afterwards, and unsuspend still switches the site back on', async () => {
    const s = spec();
    const hosting = driver();
    const ref = await hosting.createAccount(s);
    await hosting.suspend(ref);
    await hosting.setPanelPassword(ref, 'Neu!Gesperrt-1');
    await hosting.unsuspend(ref);
    expect(fake.row('web_domain', ref.siteId)).toMatchObject({ active: 'y' });
    expect(fake.panelLogin(s.username, 'Neu!Gesperrt-1')).toBe(true);
    expect((await rejection(driver().setPanelPassword({ ...ref, clientId: '999999' }, 'Neu!Passw0rt-9'))).code).toBe('NOT_FOUND');
  });

  it('suspending twice (a retried job) and unsuspending once leaves the site and the FTP user on', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    await hosting.suspend(ref);
    await hosting.suspend(ref);
    await hosting.unsuspend(ref);
    expect(fake.row('web_domain', ref.siteId)).toMatchObject({ active: 'y' });
    const ftp = await hosting.getFtpAccount(ref);
    expect(fake.row('ftp_user', ftp.id)).toMatchObject({ active: 'y' });
  });

  it('password changes reach the panel for the panel login, FTP and database users', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    await hosting.setPanelPassword(ref, 'Neu!Panel-1');
    expect(fake.passwordMatches(fake.row('client', ref.clientId), 'password', 'Neu!Panel-1')).toBe(true);
    expect(fake.row('client', ref.clientId)).toMatchObject({ locked: 'n' });
    await hosting.setFtpPassword(ref, 'Neu!Ftp-1');
    const ftp = await hosting.getFtpAccount(ref);
    expect(fake.passwordMatches(fake.row('ftp_user', ftp.id), 'password', 'Neu!Ftp-1')).toBe(true);
    const user = await hosting.createDatabaseUser(ref, `pw${counter++}${Date.now().toString(36).slice(-4)}`, 'Alt!Db-1');
    await hosting.setDatabaseUserPassword(ref, user.id, 'Neu!Db-2');
    expect(fake.passwordMatches(fake.row('web_database_user', user.id), 'database_password', 'Neu!Db-2')).toBe(true);
  });

  it("a failed Let's Encrypt issuance (flag flipped back by the cron) shows as failed", async () => {
    const s = spec();
    const hosting = driver();
    const ref = await hosting.createAccount(s);
    fake.cronTick();
    fake.failLetsEncryptFor(s.primaryDomain);
    await hosting.requestSsl(ref, ref.siteId);
    expect((await hosting.getSite(ref)).ssl).toBe('pending');
    fake.cronTick();
    expect(fake.row('web_domain', ref.siteId)).toMatchObject({ ssl: 'n', ssl_letsencrypt: 'n' });
    expect((await hosting.getSite(ref)).ssl).toBe('failed');
  });

  it('a password the panel finds too weak is REMOTE_FAULT with a German message naming the minimum length', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    const err = await rejection(hosting.setFtpPassword(ref, 'kurz'));
    expect(err.code).toBe('REMOTE_FAULT');
    expect(err.message).toBe('Das Hosting-Panel lehnt das Passwort als zu schwach ab. Es muss mindestens 8 Zeichen lang sein.');
  });

  it('an account whose client was deleted in the panel is NOT_FOUND, not a generic refusal', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    await driver().deleteAccount(ref);
    expect((await rejection(hosting.listDatabaseUsers(ref))).code).toBe('NOT_FOUND');
    expect((await rejection(driver().createDatabaseUser(ref, `gone${counter++}`, 'Db!Passw0rd-1'))).code).toBe('NOT_FOUND');
  });

  it('a backup download is queued in the panel and lands in backup/ of the site', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    await hosting.setBackupSchedule(ref, { interval: 'daily', copies: 1 });
    fake.cronTick();
    const [backup] = await hosting.listBackups(ref);
    const download = await hosting.downloadBackup(ref, backup!.id);
    expect(download).toEqual({ kind: 'ftp', path: `backup/${backup!.filename}` });
    expect(await hosting.downloadBackup(ref, backup!.id)).toEqual(download);
    fake.cronTick();
    expect(fake.downloadedBackups.get(Number(ref.siteId))).toEqual([backup!.filename]);
  });

  it('phpMyAdmin: the relative default is made absolute on the panel host; absolute settings stay', async () => {
    const hosting = driver();
    expect(await hosting.phpMyAdminUrl({ serverId: '1' })).toBe(`${fake.url}/phpmyadmin`);
    fake.setConfig('sites', 'phpmyadmin_url', 'https://db.example.net/pma/');
    try {
      expect(await hosting.phpMyAdminUrl({ serverId: '1' })).toBe('https://db.example.net/pma/');
    } finally {
      fake.setConfig('sites', 'phpmyadmin_url', '/phpmyadmin');
    }
    expect(await hosting.panelLoginUrl({ serverId: '1' })).toBe(`${fake.url}/`);
  });

  it('phpMyAdmin: an unset setting (the panel answers false) is the default address', async () => {
    fake.setConfig('sites', 'phpmyadmin_url', null);
    try {
      expect(await driver().phpMyAdminUrl({ serverId: '1' })).toBe(`${fake.url}/phpmyadmin`);
    } finally {
      fake.setConfig('sites', 'phpmyadmin_url', '/phpmyadmin');
    }
  });

  it('an addon domain carries the quotas, ports and PHP-FPM numbers of its site, as the website form requires', async () => {
    const hosting = driver();
    const ref = await hosting.createAccount(spec());
    const added = await hosting.addDomain(ref, `addon-${counter++}.example.org`);
    const site = fake.row('web_domain', ref.siteId)!;
    const alias = fake.row('web_domain', added.id)!;
    for (const key of ['hd_quota', 'traffic_quota', 'allow_override', 'http_port', 'https_port', 'pm_max_children', 'pm_process_idle_timeout', 'pm_max_requests', 'log_retention']) {
      expect(String(alias[key]), key).toBe(String(site[key]));
    }
  });

  it('setIniValues replaces known keys in place and appends new ones', () => {
    expect(setIniValues('', { memory_limit: '256M' })).toBe('memory_limit = 256M');
    expect(setIniValues('a = 1\r\nMemory_Limit=64M\n', { memory_limit: '256M', max_execution_time: '60' })).toBe('a = 1\nmemory_limit = 256M\nmax_execution_time = 60');
  });
});

interface Envelope {
  code: string;
  message: string;
  response: unknown;
}

/** One call of json.php as any client would make it; the answer is always HTTP 200 with the envelope. */
async function raw(panel: FakeIspConfig, method: string | null, body: unknown): Promise<Envelope> {
  const res = await fetch(`${panel.url}/remote/json.php${method === null ? '' : `?${method}`}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope;
}

async function sessionOf(panel: FakeIspConfig, user: { username: string; password: string } = panel.remoteUser): Promise<string> {
  const answer = await raw(panel, 'login', { username: user.username, password: user.password, client_login: false });
  expect(answer.code).toBe('ok');
  return answer.response as string;
}

/** A client record as the driver sends it, all required fields included. */
function clientParams(username: string, over: Record<string, unknown> = {}) {
  return {
    contact_name: 'Max Mustermann', email: `${username}@example.net`, username, password: 'Kunden!Passw0rt', language: 'de', locked: 'n', template_master: 0,
    web_php_options: 'php-fpm', ssh_chroot: 'no', limit_web_domain: 1, limit_web_quota: 1024, limit_traffic_quota: 1024, limit_database: 1, ...over,
  };
}

describe('the fake panel answers as ISPConfig 3.2.12 does (ispconfig-api-table.ts)', () => {
  it('a client_update without password hashes the stored hash again and the panel login breaks; an empty password keeps it', async () => {
    const broken = spec();
    const ref = await driver().createAccount(broken);
    const sessionId = await sessionOf(fake);
    const answer = await raw(fake, 'client_update', { session_id: sessionId, client_id: Number(ref.clientId), reseller_id: 0, params: { locked: 'n' } });
    expect(answer).toEqual({ code: 'ok', message: '', response: 1 });
    expect(fake.panelLogin(broken.username, broken.password)).toBe(false);
    expect(fake.passwordMatches(fake.row('client', ref.clientId), 'password', broken.password)).toBe(false);

    const kept = spec();
    const keptRef = await driver().createAccount(kept);
    await raw(fake, 'client_update', { session_id: sessionId, client_id: Number(keptRef.clientId), reseller_id: 0, params: { locked: 'n', password: '' } });
    expect(fake.panelLogin(kept.username, kept.password)).toBe(true);
  });

  it('an unknown function, a missing method, a body that is no JSON object: json.php\'s codes and texts', async () => {
    expect(await raw(fake, 'sites_web_domain_frobnicate', {})).toEqual({ code: 'invalid_method', message: 'Method sites_web_domain_frobnicate does not exist', response: false });
    expect(await raw(fake, null, {})).toEqual({ code: 'invalid_method', message: 'Method not provided in json call', response: false });
    expect(await raw(fake, 'login', 'kein json')).toEqual({ code: 'invalid_data', message: 'The JSON data sent to the api is invalid', response: false });
  });

  it('sessions: a letter and 40 hex digits; an empty or unknown one is refused with the panel texts', async () => {
    expect(await sessionOf(fake)).toMatch(/^[a-z][0-9a-f]{40}$/);
    expect(await raw(fake, 'client_get', { client_id: 1 })).toEqual({ code: 'remote_fault', message: 'The SessionID is empty.', response: false });
    expect(await raw(fake, 'client_get', { session_id: 'x123', client_id: 1 })).toMatchObject({ code: 'remote_fault', message: 'The Session is expired or does not exist.' });
  });

  it('a missing permission is remote_fault with the exact text; the group grants it', async () => {
    fake.setRemoteUser({ username: 'clients-only', password: 'nur-kunden', groups: ['Client functions'] });
    const sessionId = await sessionOf(fake, { username: 'clients-only', password: 'nur-kunden' });
    const denied = await raw(fake, 'server_get_php_versions', { session_id: sessionId, server_id: 1, php: 'php-fpm', get_full_data: true });
    expect(denied).toEqual({ code: 'remote_fault', message: 'You do not have the permissions to access this function.', response: false });
    expect((await raw(fake, 'client_get', { session_id: sessionId, client_id: -1 })).code).toBe('ok');
  });

  it('parameters go by the PHP names: one it does not have is refused, one not sent arrives as null', async () => {
    const sessionId = await sessionOf(fake);
    const misnamed = await raw(fake, 'sites_web_domain_get', { session_id: sessionId, domain_id: 1 });
    expect(misnamed.code).toBe('invalid_data');
    expect(misnamed.message).toMatch(/no parameter domain_id.*primary_id/);
    // primary_id null: remoting_lib answers an empty list, not an error.
    expect(await raw(fake, 'sites_web_domain_get', { session_id: sessionId })).toEqual({ code: 'ok', message: '', response: [] });
    expect(await raw(fake, 'sites_web_domain_get', { session_id: sessionId, primary_id: 0 })).toMatchObject({ code: 'remote_fault', message: 'The ID has to be > 0 or -1.' });
    expect(await raw(fake, 'sites_web_domain_get', { session_id: sessionId, primary_id: 999_999 })).toEqual({ code: 'ok', message: '', response: null });
    // A record that is no object: the fake answers as PHP's fatal errors do, HTTP 500 and no envelope.
    const fatal = await fetch(`${fake.url}/remote/json.php?sites_database_user_add`, {
      method: 'POST', body: JSON.stringify({ session_id: sessionId, client_id: 0, params: 'database_user=x' }),
    });
    expect(fatal.status).toBe(500);
    expect(await fatal.text()).toMatch(/PHP Fatal error/);
  });

  it("client records: the client form's messages, the duplicate panel login, the weak password", async () => {
    const sessionId = await sessionOf(fake);
    const name = `formtest${counter++}`;
    const { ssh_chroot: _omitted, ...withoutChroot } = clientParams(name);
    expect(await raw(fake, 'client_add', { session_id: sessionId, reseller_id: 0, params: withoutChroot }))
      .toEqual({ code: 'remote_fault', message: 'ssh_chroot_notempty<br />\r\n', response: false });
    expect(await raw(fake, 'client_add', { session_id: sessionId, reseller_id: 0, params: clientParams(name, { password: 'kurz' }) }))
      .toMatchObject({ code: 'remote_fault', message: WEAK_PASSWORD_TEXT });
    expect((await raw(fake, 'client_add', { session_id: sessionId, reseller_id: 0, params: clientParams(name) })).code).toBe('ok');
    expect(await raw(fake, 'client_add', { session_id: sessionId, reseller_id: 0, params: clientParams(name) }))
      .toMatchObject({ code: 'remote_fault', message: 'username_error_unique<br>\r\nDuplicate username<br />' });
    expect(await raw(fake, 'sites_web_domain_add', { session_id: sessionId, client_id: 999_999, params: {} })).toMatchObject({ message: 'Invalid client_id 999999' });
  });

  it('an alias domain is validated with the website form: quotas, AllowOverride, PHP-FPM numbers and ports are required', async () => {
    const ref = await driver().createAccount(spec());
    const sessionId = await sessionOf(fake);
    const answer = await raw(fake, 'sites_web_vhost_aliasdomain_add', {
      session_id: sessionId, client_id: Number(ref.clientId),
      params: { server_id: 1, parent_domain_id: Number(ref.siteId), domain: `alias-${counter++}.example.org`, web_folder: 'alias', type: 'vhostalias' },
    });
    expect(answer).toEqual({
      code: 'remote_fault',
      message: [
        'hd_quota_error_empty', 'hd_quota_error_regex', 'traffic_quota_error_empty', 'traffic_quota_error_regex', 'allow_override_error_empty',
        'pm_process_idle_timeout_error_regex', 'pm_max_requests_error_regex', 'http_port_error_regex', 'https_port_error_regex',
      ].map((key) => `${key}<br />\r\n`).join(''),
      response: false,
    });
  });
});

describe('disk usage from quota_get_by_user', () => {
  for (const version of ['3.2.11', '3.2.12'] as const) {
    it(`is the KiB of "used" in MB on a ${version} panel`, async () => {
      const panel = await startFakeIspConfig({ version });
      try {
        const hosting = createIspConfigHosting({ url: panel.url, ...panel.remoteUser, fingerprint: '', timeoutMs: 2000 });
        const ref = await hosting.createAccount(spec());
        const answer = await raw(panel, 'quota_get_by_user', { session_id: await sessionOf(panel), client_id: Number(ref.clientId) });
        const [row] = answer.response as Record<string, unknown>[];
        const usedKib = Number(row!.used);
        // quota_lib.inc.php:43: bytes from 3.2.12 on, the KiB themselves before.
        expect(Number(row!.used_raw)).toBe(version === '3.2.12' ? usedKib * 1024 : usedKib);
        expect(usedKib).toBeGreaterThan(10 * 1024);
        expect((await hosting.usage(ref)).diskUsedMb).toBe(Math.round((usedKib / 1024) * 10) / 10);
      } finally {
        await panel.close();
      }
    });
  }
});

describe('certificate pinning', () => {
  let dir: string | undefined;
  let tlsFake: FakeIspConfig | undefined;
  let fingerprint = '';

  beforeAll(async () => {
    // Node cannot self-sign without a package; use the openssl CLI when present, otherwise skip.
    try {
      dir = mkdtempSync(path.join(tmpdir(), 'isp-tls-'));
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=panel', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    } catch {
      return;
    }
    const cert = readFileSync(path.join(dir, 'cert.pem'));
    fingerprint = new X509Certificate(cert).fingerprint256;
    tlsFake = await startFakeIspConfig({ tls: { cert, key: readFileSync(path.join(dir, 'key.pem')) } });
  });
  afterAll(async () => {
    await tlsFake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('talks to a panel whose certificate matches the pinned fingerprint', async (ctx) => {
    if (!tlsFake) return ctx.skip();
    const hosting = createIspConfigHosting({ url: tlsFake.url, ...tlsFake.remoteUser, fingerprint: fingerprint.toLowerCase(), timeoutMs: 2000 });
    expect(await hosting.phpVersions({ serverId: '1' })).toContain('8.2');
  });

  it('refuses a mismatching certificate before the password leaves', async (ctx) => {
    if (!tlsFake) return ctx.skip();
    const callsBefore = tlsFake.calls.length;
    const wrong = fingerprint.replace(/^[0-9A-F]{2}/, (b) => (b === '00' ? '01' : '00'));
    const hosting = createIspConfigHosting({ url: tlsFake.url, ...tlsFake.remoteUser, fingerprint: wrong, timeoutMs: 2000 });
    const err = await rejection(hosting.phpVersions({ serverId: '1' }));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.detail).toMatch(/FINGERPRINT_MISMATCH/);
    expect(tlsFake.calls.length).toBe(callsBefore);
  });
});

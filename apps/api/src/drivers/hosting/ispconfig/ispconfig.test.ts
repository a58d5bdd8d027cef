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
    fake.setRemoteUser({ username: 'readonly', password: 'nur-lesen', functions: ['server_get_php_versions'] });
    const limited = driver({ username: 'readonly', password: 'nur-lesen' });
    expect(await limited.phpVersions({ serverId: '1' })).toEqual(['7.4', '8.1', '8.2', '8.3']);
    const err = await rejection(limited.createAccount(spec()));
    expect(err.code).toBe('AUTH');
    expect(err.detail).toBe('You do not have the permissions to access this function.');
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

  it('suspending sends no password back, so the customer can still log in afterwards', async () => {
    const s = spec();
    const hosting = driver();
    const ref = await hosting.createAccount(s);
    await hosting.suspend(ref);
    expect(fake.row('client', ref.clientId)).toMatchObject({ locked: 'y' });
    expect(fake.row('web_domain', ref.siteId)).toMatchObject({ active: 'n' });
    await hosting.unsuspend(ref);
    expect(fake.row('web_domain', ref.siteId)).toMatchObject({ active: 'y' });
    expect(fake.passwordMatches(fake.row('client', ref.clientId), 'password', s.password)).toBe(true);
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

  it('setIniValues replaces known keys in place and appends new ones', () => {
    expect(setIniValues('', { memory_limit: '256M' })).toBe('memory_limit = 256M');
    expect(setIniValues('a = 1\r\nMemory_Limit=64M\n', { memory_limit: '256M', max_execution_time: '60' })).toBe('a = 1\nmemory_limit = 256M\nmax_execution_time = 60');
  });
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

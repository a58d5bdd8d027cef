/**
 * The contract every HostingDriver passes: the simulated driver and the ISPConfig driver (against the fake
 * panel, and a real panel where available). Everything is observed through the port only, so the same
 * test proves the same behaviour on every backend. Work the panel applies later (certificates, backup
 * actions, the nightly backup) becomes visible after `settle()`.
 *
 * Usage (in a *.test.ts):
 *   describeHostingContract('ispconfig (fake panel)', async () => ({ driver, server: { serverId: '1' }, settle: async () => fake.cronTick() }));
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HostingError,
  type CreateAccountSpec, type HostingAccountRef, type HostingDriver, type HostingErrorCode, type PanelServerRef,
} from './hosting.ts';

export interface HostingContractSetup {
  driver: HostingDriver;
  server: PanelServerRef;
  /**
   * Applies pending panel work (fake: cronTick; simulated: waits). After it, a backup schedule other than
   * 'none' has produced at least one backup (the panel's nightly run).
   */
  settle: () => Promise<void>;
  cleanup?: () => Promise<void>;
  /** Whether the backend reports a database's table count (simulated: yes; ISPConfig's remote API: no, so null). */
  reportsTables: boolean;
}

const PASSWORD = 'Contract!Passw0rd';

async function expectHostingError(promise: Promise<unknown>, code: HostingErrorCode) {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error, `expected a HostingError ${code}`).toBeInstanceOf(HostingError);
  expect((error as HostingError).code).toBe(code);
  // The message is for the customer: German, never the panel's English text (that belongs in detail).
  expect((error as HostingError).message).toMatch(/\S/);
  expect((error as HostingError).message).not.toMatch(/_error_|remote_fault|There is already|permission|session/i);
  return error as HostingError;
}

export function describeHostingContract(name: string, setup: () => Promise<HostingContractSetup>) {
  describe(`Hosting contract: ${name}`, () => {
    let ctx: HostingContractSetup;
    let hosting: HostingDriver;
    let mainAccount: Promise<HostingAccountRef> | undefined;
    const run = Date.now().toString(36).slice(-6);
    let counter = 0;

    beforeAll(async () => {
      ctx = await setup();
      hosting = ctx.driver;
    });
    afterAll(async () => {
      await ctx?.cleanup?.();
    });

    function specFor(over: Partial<CreateAccountSpec> = {}): CreateAccountSpec {
      const username = `ct${run}${(counter++).toString(36)}`;
      return {
        serverId: ctx.server.serverId, username, password: PASSWORD, contactName: 'Erika Mustermann', email: `${username}@example.net`,
        plan: { name: 'Professional', storageMb: 10_240, trafficMb: 102_400, databases: 10, domains: 5 },
        primaryDomain: `${username}.example.net`, phpVersion: null, ...over,
      };
    }

    /** One account shared by the tests that only need some account. */
    const main = () => (mainAccount ??= hosting.createAccount(specFor()));

    it('creates an account idempotently: the same username twice gives the same ref', async () => {
      const spec = specFor();
      const first = await hosting.createAccount(spec);
      const second = await hosting.createAccount(spec);
      expect(second).toEqual(first);
      expect(first.serverId).toBe(ctx.server.serverId);
      expect(first.clientId).toMatch(/\S/);
      expect(first.siteId).toMatch(/\S/);
    });

    it('a new site has the defaults: active, no SSL, default PHP, no backups scheduled, nothing pending once settled', async () => {
      const spec = specFor();
      const ref = await hosting.createAccount(spec);
      await ctx.settle();
      const site = await hosting.getSite(ref);
      expect(site).toMatchObject({ primaryDomain: spec.primaryDomain, active: true, ssl: 'none', phpVersion: null, backupInterval: 'none', pendingChanges: false });
      expect(site.documentRoot).toMatch(/^\//);
      expect(site.memoryLimitMb).toBeGreaterThan(0);
      expect(site.maxExecutionTimeS).toBeGreaterThan(0);
    });

    it('setPhp changes only what it is given: memory, then time, then version keep each other', async () => {
      const ref = await main();
      const versions = await hosting.phpVersions(ctx.server);
      expect(versions.length).toBeGreaterThan(0);
      for (const v of versions) expect(v).toMatch(/^\d+\.\d+$/);

      await hosting.setPhp(ref, { memoryLimitMb: 256 });
      await hosting.setPhp(ref, { maxExecutionTimeS: 120 });
      let site = await hosting.getSite(ref);
      expect(site.memoryLimitMb).toBe(256);
      expect(site.maxExecutionTimeS).toBe(120);

      const version = versions.at(-1)!;
      await hosting.setPhp(ref, { phpVersion: version });
      site = await hosting.getSite(ref);
      expect(site).toMatchObject({ phpVersion: version, memoryLimitMb: 256, maxExecutionTimeS: 120 });

      await hosting.setPhp(ref, { phpVersion: null });
      expect((await hosting.getSite(ref)).phpVersion).toBeNull();
    });

    it('an account can start on a chosen PHP version', async () => {
      const version = (await hosting.phpVersions(ctx.server))[0]!;
      const ref = await hosting.createAccount(specFor({ phpVersion: version }));
      expect((await hosting.getSite(ref)).phpVersion).toBe(version);
    });

    it('domains: primary first, addons after; a taken name is DUPLICATE; an addon can be removed', async () => {
      const ref = await main();
      const site = await hosting.getSite(ref);
      const addon = `addon-${run}.example.org`;
      const added = await hosting.addDomain(ref, addon);
      expect(added).toMatchObject({ domain: addon, type: 'addon', ssl: 'none' });
      expect(added.documentRoot).toMatch(/^\//);

      const domains = await hosting.listDomains(ref);
      expect(domains[0]).toMatchObject({ domain: site.primaryDomain, type: 'primary', documentRoot: site.documentRoot });
      expect(domains.slice(1).map((d) => d.domain)).toContain(addon);
      expect(domains.slice(1).every((d) => d.type === 'addon')).toBe(true);

      await expectHostingError(hosting.addDomain(ref, addon), 'DUPLICATE');
      await expectHostingError(hosting.addDomain(ref, site.primaryDomain), 'DUPLICATE');

      // An addon's id is no site of its own.
      await expectHostingError(hosting.getSite({ ...ref, siteId: added.id }), 'NOT_FOUND');

      await hosting.deleteDomain(ref, added.id);
      expect((await hosting.listDomains(ref)).map((d) => d.domain)).not.toContain(addon);
      await expectHostingError(hosting.deleteDomain(ref, added.id), 'NOT_FOUND');
      await expectHostingError(hosting.requestSsl(ref, added.id), 'NOT_FOUND');
    });

    it("Let's Encrypt: pending right after the request, active once the panel applied it", async () => {
      const ref = await hosting.createAccount(specFor());
      await ctx.settle();
      await hosting.requestSsl(ref, ref.siteId);
      expect((await hosting.getSite(ref)).ssl).toBe('pending');
      await ctx.settle();
      expect((await hosting.getSite(ref)).ssl).toBe('active');
      expect((await hosting.listDomains(ref))[0]!.ssl).toBe('active');

      const addon = await hosting.addDomain(ref, `ssl-${run}.example.org`);
      await hosting.requestSsl(ref, addon.id);
      expect((await hosting.listDomains(ref)).find((d) => d.id === addon.id)!.ssl).toBe('pending');
      await ctx.settle();
      expect((await hosting.listDomains(ref)).find((d) => d.id === addon.id)!.ssl).toBe('active');
    });

    it('databases and users: create, list, change password, refuse a taken name, delete', async () => {
      const ref = await main();
      const user = await hosting.createDatabaseUser(ref, `u${run}a`, 'Db!Passw0rd-1');
      expect(user.name).toBe(`u${run}a`);
      expect((await hosting.listDatabaseUsers(ref)).map((u) => u.id)).toContain(user.id);
      await expectHostingError(hosting.createDatabaseUser(ref, `u${run}a`, 'Db!Passw0rd-1'), 'DUPLICATE');

      const db = await hosting.createDatabase(ref, `db${run}a`, user.id);
      expect(db).toMatchObject({ name: `db${run}a`, userId: user.id, userName: user.name });
      const listed = (await hosting.listDatabases(ref)).find((d) => d.id === db.id);
      expect(listed).toMatchObject({ name: db.name, userId: user.id, userName: user.name });
      await expectHostingError(hosting.createDatabase(ref, `db${run}a`, user.id), 'DUPLICATE');

      await hosting.setDatabaseUserPassword(ref, user.id, 'Db!Passw0rd-2');

      await hosting.deleteDatabase(ref, db.id);
      expect((await hosting.listDatabases(ref)).some((d) => d.id === db.id)).toBe(false);
      await hosting.deleteDatabaseUser(ref, user.id);
      expect((await hosting.listDatabaseUsers(ref)).some((u) => u.id === user.id)).toBe(false);
      await expectHostingError(hosting.deleteDatabase(ref, db.id), 'NOT_FOUND');
    });

    it('a user without a database is listed; it can own two databases; tables is a count where reported, else null', async () => {
      const ref = await main();
      const user = await hosting.createDatabaseUser(ref, `u${run}t`, 'Db!Passw0rd-1');
      expect((await hosting.listDatabaseUsers(ref)).find((u) => u.id === user.id)).toEqual({ id: user.id, name: user.name });
      expect((await hosting.listDatabases(ref)).some((d) => d.userId === user.id)).toBe(false);

      const first = await hosting.createDatabase(ref, `db${run}t1`, user.id);
      const second = await hosting.createDatabase(ref, `db${run}t2`, user.id);
      const listed = (await hosting.listDatabases(ref)).filter((d) => d.userId === user.id);
      expect(listed.map((d) => d.id).sort()).toEqual([first.id, second.id].sort());
      for (const db of [first, second, ...listed]) {
        // A new database is empty; a backend that cannot count says null, never a made-up number.
        expect(db.tables).toBe(ctx.reportsTables ? 0 : null);
      }
      await hosting.deleteDatabase(ref, first.id);
      await hosting.deleteDatabase(ref, second.id);
      await hosting.deleteDatabaseUser(ref, user.id);
      expect((await hosting.listDatabaseUsers(ref)).some((u) => u.id === user.id)).toBe(false);
    });

    it("another account's database user and database are NOT_FOUND, not usable", async () => {
      const ref = await main();
      const other = await hosting.createAccount(specFor());
      const user = await hosting.createDatabaseUser(other, `u${run}o`, 'Db!Passw0rd-1');
      const db = await hosting.createDatabase(other, `db${run}o`, user.id);
      await expectHostingError(hosting.createDatabase(ref, `db${run}x`, user.id), 'NOT_FOUND');
      await expectHostingError(hosting.setDatabaseUserPassword(ref, user.id, 'Stolen!Passw0rd'), 'NOT_FOUND');
      await expectHostingError(hosting.deleteDatabase(ref, db.id), 'NOT_FOUND');
      expect((await hosting.listDatabases(other)).map((d) => d.id)).toContain(db.id);
    });

    it('FTP: the account has an FTP user on its document root; its password can be changed', async () => {
      const spec = specFor();
      const ref = await hosting.createAccount(spec);
      const ftp = await hosting.getFtpAccount(ref);
      expect(ftp.username).toBe(spec.username);
      expect(ftp.host).toMatch(/\S/);
      expect(ftp.port).toBe(21);
      expect(ftp.directory).toBe((await hosting.getSite(ref)).documentRoot);
      await hosting.setFtpPassword(ref, 'Ftp!Passw0rd-2');
      expect(await hosting.getFtpAccount(ref)).toEqual(ftp);
    });

    it('backup schedule round trip, and it leaves the PHP settings alone', async () => {
      const ref = await main();
      await hosting.setPhp(ref, { memoryLimitMb: 512 });
      await hosting.setBackupSchedule(ref, { interval: 'weekly', copies: 4 });
      let site = await hosting.getSite(ref);
      expect(site).toMatchObject({ backupInterval: 'weekly', backupCopies: 4, memoryLimitMb: 512 });
      await hosting.setBackupSchedule(ref, { interval: 'none', copies: 1 });
      site = await hosting.getSite(ref);
      expect(site).toMatchObject({ backupInterval: 'none', backupCopies: 1 });
    });

    it('backups: listed after the scheduled run; a second restore while one is queued is PENDING; download gives a place', async () => {
      const ref = await hosting.createAccount(specFor());
      await hosting.setBackupSchedule(ref, { interval: 'daily', copies: 3 });
      await ctx.settle();
      const backups = await hosting.listBackups(ref);
      expect(backups.length).toBeGreaterThan(0);
      const backup = backups.find((b) => b.content === 'web') ?? backups[0]!;
      expect(backup.sizeBytes).toBeGreaterThan(0);
      expect(backup.filename).toMatch(/\S/);
      expect(Number.isNaN(Date.parse(backup.createdAt))).toBe(false);
      for (let i = 1; i < backups.length; i++) expect(Date.parse(backups[i - 1]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(backups[i]!.createdAt));

      await hosting.restoreBackup(ref, backup.id);
      await expectHostingError(hosting.restoreBackup(ref, backup.id), 'PENDING');
      await ctx.settle();
      await hosting.restoreBackup(ref, backup.id);
      await ctx.settle();

      const download = await hosting.downloadBackup(ref, backup.id);
      if (download.kind === 'ftp') expect(download.path).toContain(backup.filename);
      else expect(download.url).toMatch(/^https?:\/\//);

      await expectHostingError(hosting.restoreBackup(ref, '999999999'), 'NOT_FOUND');
    });

    it('backupNow and one-click apps follow the capabilities', async () => {
      const ref = await main();
      if (hosting.capabilities.backupNow) await hosting.backupNow(ref);
      else await expectHostingError(hosting.backupNow(ref), 'UNSUPPORTED');
      if (hosting.capabilities.apps) {
        await hosting.installApp(ref, 'wordpress');
        await ctx.settle();
        expect((await hosting.getApp(ref))?.kind).toBe('wordpress');
      } else {
        await expectHostingError(hosting.installApp(ref, 'wordpress'), 'UNSUPPORTED');
        await expectHostingError(hosting.updateApp(ref), 'UNSUPPORTED');
        expect(await hosting.getApp(ref)).toBeNull();
      }
    });

    it('application tools, plugins and themes follow the capabilities: results in getApp, one job at a time, unknown names NOT_FOUND', async () => {
      const ref = await hosting.createAccount(specFor());
      if (!hosting.capabilities.apps) {
        await expectHostingError(hosting.runAppTool(ref, 'security-check'), 'UNSUPPORTED');
        await expectHostingError(hosting.runAppTool(ref, 'optimize-database'), 'UNSUPPORTED');
        await expectHostingError(hosting.runAppTool(ref, 'update-all'), 'UNSUPPORTED');
        await expectHostingError(hosting.updatePlugin(ref, 'akismet'), 'UNSUPPORTED');
        await expectHostingError(hosting.setPluginActive(ref, 'akismet', false), 'UNSUPPORTED');
        await expectHostingError(hosting.activateTheme(ref, 'twentytwentythree'), 'UNSUPPORTED');
        return;
      }
      await hosting.installApp(ref, 'wordpress');
      await ctx.settle();
      let app = (await hosting.getApp(ref))!;
      expect(app).toMatchObject({ state: 'installed', job: null, lastSecurityCheck: null, lastOptimized: null });
      const outdated = app.plugins.find((p) => p.update !== 'none')!;
      const inactiveTheme = app.themes.find((t) => !t.active)!;
      expect(outdated.latestVersion).not.toBe(outdated.version);
      expect(app.themes.filter((t) => t.active)).toHaveLength(1);

      // Security check: runs a while, blocks a second job, then reports findings from the state.
      await hosting.runAppTool(ref, 'security-check');
      expect((await hosting.getApp(ref))!.job).toMatchObject({ kind: 'security-check' });
      await expectHostingError(hosting.runAppTool(ref, 'optimize-database'), 'PENDING');
      await expectHostingError(hosting.updatePlugin(ref, outdated.slug), 'PENDING');
      await expectHostingError(hosting.updateApp(ref), 'PENDING');
      await ctx.settle();
      app = (await hosting.getApp(ref))!;
      expect(app.job).toBeNull();
      expect(Number.isNaN(Date.parse(app.lastSecurityCheck!.at))).toBe(false);
      expect(app.lastSecurityCheck!.findings.some((f) => f.text.includes(outdated.name))).toBe(true);
      expect(app.lastSecurityCheck!.findings.some((f) => f.text.includes(app.latestVersion))).toBe(true);

      await hosting.runAppTool(ref, 'optimize-database');
      await ctx.settle();
      app = (await hosting.getApp(ref))!;
      expect(app.lastOptimized!.savedMb).toBeGreaterThan(0);

      // One plugin: its version moves to the latest; the others stay.
      await hosting.updatePlugin(ref, outdated.slug);
      expect((await hosting.getApp(ref))!.state).toBe('updating');
      await ctx.settle();
      app = (await hosting.getApp(ref))!;
      expect(app.plugins.find((p) => p.slug === outdated.slug)).toMatchObject({ version: outdated.latestVersion, update: 'none' });
      expect(app.version).not.toBe(app.latestVersion);

      await hosting.setPluginActive(ref, outdated.slug, false);
      expect((await hosting.getApp(ref))!.plugins.find((p) => p.slug === outdated.slug)!.active).toBe(false);
      await hosting.setPluginActive(ref, outdated.slug, true);
      expect((await hosting.getApp(ref))!.plugins.find((p) => p.slug === outdated.slug)!.active).toBe(true);

      await hosting.activateTheme(ref, inactiveTheme.slug);
      expect((await hosting.getApp(ref))!.themes.filter((t) => t.active).map((t) => t.slug)).toEqual([inactiveTheme.slug]);

      await expectHostingError(hosting.updatePlugin(ref, 'gibt-es-nicht'), 'NOT_FOUND');
      await expectHostingError(hosting.setPluginActive(ref, 'gibt-es-nicht', true), 'NOT_FOUND');
      await expectHostingError(hosting.activateTheme(ref, 'gibt-es-nicht'), 'NOT_FOUND');

      // Everything: core, plugins and themes end on their latest versions.
      await hosting.runAppTool(ref, 'update-all');
      expect((await hosting.getApp(ref))!.state).toBe('updating');
      await ctx.settle();
      app = (await hosting.getApp(ref))!;
      expect(app.version).toBe(app.latestVersion);
      for (const x of [...app.plugins, ...app.themes]) expect(x, x.slug).toMatchObject({ version: x.latestVersion, update: 'none' });
    });

    it('usage numbers are sane and the quotas are the plan', async () => {
      const ref = await main();
      const usage = await hosting.usage(ref);
      for (const key of ['diskUsedMb', 'diskQuotaMb', 'trafficThisMonthMb', 'trafficQuotaMb'] as const) {
        expect(Number.isFinite(usage[key]), key).toBe(true);
        expect(usage[key], key).toBeGreaterThanOrEqual(0);
      }
      expect(usage.diskQuotaMb).toBe(10_240);
      expect(usage.trafficQuotaMb).toBe(102_400);
      expect(usage.diskUsedMb).toBeLessThanOrEqual(usage.diskQuotaMb);
    });

    it('phpMyAdmin and the panel login are absolute addresses', async () => {
      expect(new URL(await hosting.phpMyAdminUrl(ctx.server)).protocol).toMatch(/^https?:$/);
      expect(new URL(await hosting.panelLoginUrl(ctx.server)).protocol).toMatch(/^https?:$/);
    });

    it('suspend makes the site inactive, unsuspend active again', async () => {
      const ref = await hosting.createAccount(specFor());
      await hosting.suspend(ref);
      expect((await hosting.getSite(ref)).active).toBe(false);
      await hosting.unsuspend(ref);
      expect((await hosting.getSite(ref)).active).toBe(true);
    });

    it('deleteAccount removes everything; deleting again is harmless', async () => {
      const spec = specFor();
      const ref = await hosting.createAccount(spec);
      await hosting.deleteAccount(ref);
      await expectHostingError(hosting.getSite(ref), 'NOT_FOUND');
      await hosting.deleteAccount(ref);
      // The username and domain are free again.
      const again = await hosting.createAccount(spec);
      expect((await hosting.getSite(again)).primaryDomain).toBe(spec.primaryDomain);
    });
  });
}

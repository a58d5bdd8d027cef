import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { HOSTING_PLANS, retentionCopies } from '@hp/contract';
import { createTestContext, createUser, type TestContext } from '../../../test/harness.ts';
import { buyHosting, postHostingCheckout, unique } from '../../../test/hosting.ts';
import { drainJobs, paySimulated } from '../../../test/shop.ts';
import { freePort } from '../../../test/net.ts';
import { hostingPackages, hostingServers, invoices, jobs, orders, simCheckoutSessions } from '../../db/schema/index.ts';
import { hostingMessages, type HostingDriver } from '../../drivers/hosting/hosting.ts';
import { startFakeIspConfig, type FakeIspConfig } from '../../drivers/hosting/ispconfig/fake-ispconfig.ts';
import { createIspConfigHosting } from '../../drivers/hosting/ispconfig/ispconfig.ts';
import { DRIVER_FUNCTION_GROUPS } from '../../drivers/hosting/ispconfig/ispconfig-api-table.ts';

/**
 * The whole app (HTTP API, services, jobs) on the ISPConfig driver against the fake panel: what the
 * customer sees through the API is what the panel holds, panel refusals and outages reach the customer
 * as German messages with the right status, and nothing is left half-made on the panel.
 */

/**
 * The function groups a panel admin ticks for our remote user (System → Remote Users): nothing else.
 * ISPConfig grants rights by group, and a function checks the permission of its group, not its own name.
 */
const REMOTE_USER = { username: 'hostportal', password: 'Remote!Secret-42', groups: [...DRIVER_FUNCTION_GROUPS] };
const FAST_TIMEOUT_MS = 300;
/** Provisioning's default: weekly backups kept 30 days, as the panel's copy count. */
const WEEKLY_COPIES = retentionCopies('weekly', 30);
const PASSWORD = 'Geheim!Passw0rt';
/** No English panel text and no panel internals may reach the customer. */
const PANEL_ENGLISH = /Could not|server plugin|Session|login failed|permission|Record \d|_error_|<br|no answer|json\.php/i;
/** The panel's rows come back with every value as text (PHP's mysqli); compare them that way. */
const asText = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));

describe('web hosting on ISPConfig (fake panel) through the whole app [pglite]', () => {
  let fake: FakeIspConfig;
  let ctx: TestContext & { close: () => Promise<void> };
  /** The app's driver: the normal one; a test may swap in one with a tiny time budget or a dead URL. */
  let normal: HostingDriver;
  let current: HostingDriver;
  const driverWith = (over: { url?: string; timeoutMs?: number }) =>
    createIspConfigHosting({ url: fake.url, username: REMOTE_USER.username, password: REMOTE_USER.password, fingerprint: '', timeoutMs: 5000, ...over });
  let customer: Awaited<ReturnType<typeof createUser>>;
  let packageId: string;

  beforeAll(async () => {
    fake = await startFakeIspConfig({ remoteUsers: [REMOTE_USER] });
    normal = driverWith({});
    current = normal;
    // Every property read goes to the driver of the moment; `kind` and `capabilities` included.
    const switchable = new Proxy({} as HostingDriver, { get: (_, prop) => Reflect.get(current, prop) as unknown });
    ctx = await createTestContext('pglite', { hosting: () => switchable });
    // The fake panel's only server has id 1 (System → Server); slots enough for every test here.
    await ctx.database.db.insert(hostingServers).values({ name: 'web-ispconfig', hostname: 'web1.example.net', panelServerId: '1', slots: 20 });
    customer = await createUser(ctx);
    ({ packageId } = await buyHosting(ctx, customer, { plan: 'professional' }));
  }, 60_000);
  afterAll(async () => {
    current = normal;
    await ctx?.close();
    await fake?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', suffix: string, payload?: Record<string, unknown>) =>
    ctx.app.inject({ method, url: `/api/hosting/${packageId}${suffix}`, headers: customer.auth, ...(payload ? { payload } : {}) });
  const pkgRow = async () => (await ctx.database.db.select().from(hostingPackages).where(eq(hostingPackages.id, packageId)))[0]!;

  it('buying a package makes it active: the panel holds client, site and FTP user with the plan\'s quotas; SSL is active after the cron', async () => {
    const pkg = await pkgRow();
    expect(pkg).toMatchObject({ status: 'active', plan: 'professional' });
    const [order] = await ctx.database.db.select().from(orders).where(eq(orders.subscriptionId, packageId));
    expect(order!.status).toBe('completed');
    const plan = HOSTING_PLANS.professional;

    const client = fake.row('client', pkg.panelClientId!)!;
    expect(client).toMatchObject({
      username: pkg.panelUsername, email: customer.email, template_master: 2, limit_web_quota: plan.storageMb, limit_traffic_quota: plan.trafficMb,
      limit_database: plan.databases, limit_web_aliasdomain: plan.domains - 1, locked: 'n',
    });
    const site = fake.row('web_domain', pkg.panelSiteId!)!;
    expect(asText(site)).toMatchObject({ domain: pkg.primaryDomain, type: 'vhost', server_id: '1', hd_quota: String(plan.storageMb), traffic_quota: String(plan.trafficMb), active: 'y', ssl: 'y', ssl_letsencrypt: 'y' });
    // The product defaults of provisioning (weekly backups kept 30 days; 256 MB, 60 s) are on the panel.
    expect(asText(site)).toMatchObject({ backup_interval: 'weekly', backup_copies: String(WEEKLY_COPIES) });
    expect(String(site.custom_php_ini)).toMatch(/memory_limit = 256M/);
    expect(String(site.custom_php_ini)).toMatch(/max_execution_time = 60/);
    expect(fake.rows('client').filter((c) => c.username === pkg.panelUsername)).toHaveLength(1);
    expect(fake.rows('ftp_user').filter((f) => String(f.parent_domain_id) === pkg.panelSiteId)).toHaveLength(1);

    const detail = await call('GET', '');
    expect(detail.statusCode, detail.body).toBe(200);
    const d = detail.json();
    expect(d).toMatchObject({ status: 'active', panelName: 'ISPConfig', panelError: null, capabilities: { backupNow: false, apps: false } });
    expect(d.phpVersions).toEqual(['7.4', '8.1', '8.2']);
    // The version provisioning chose is the one the panel's site row points to (fake: server_php_id 1..4 = 7.4, 8.1, 8.2, 8.3).
    const chosen = ['7.4', '8.1', '8.2', '8.3'][Number(site.server_php_id) - 1];
    expect(d.phpVersions).toContain(chosen);
    expect(d.site).toMatchObject({ phpVersion: chosen, memoryLimitMb: 256, maxExecutionTimeS: 60, backupFrequency: 'weekly', backupCopies: WEEKLY_COPIES });
    // The certificate request waits in the panel's datalog until the server's cron ran it.
    expect(d.site.ssl).toBe('pending');
    expect(d.site.pendingChanges).toBe(true);
    fake.cronTick();
    const after = (await call('GET', '')).json();
    expect(after.site.ssl).toBe('active');
    expect(after.site.domains[0]).toMatchObject({ type: 'primary', domain: pkg.primaryDomain, ssl: 'active' });
    expect(after.site.pendingChanges).toBe(false);
  });

  it('a PHP change goes get → merge → update through the whole stack: the site keeps its pm_* values and the rest of php.ini', async () => {
    const pkg = await pkgRow();
    const before = asText(fake.row('web_domain', pkg.panelSiteId!)!);
    // What provisioning set (addSite: 10/2/1/5, log_retention 10), not the panel's update defaults (1/1/1/1, 30).
    const pm = { pm_max_children: '10', pm_start_servers: '2', pm_min_spare_servers: '1', pm_max_spare_servers: '5', log_retention: '10' };
    expect(before).toMatchObject(pm);
    const res = await call('PUT', '/php', { phpVersion: '8.1', memoryLimitMb: 512, maxExecutionTimeS: 120 });
    expect(res.statusCode, res.body).toBe(200);
    const site = asText(fake.row('web_domain', pkg.panelSiteId!)!);
    expect(site).toMatchObject({
      ...pm, server_php_id: '2', php: 'php-fpm', backup_interval: 'weekly', backup_copies: String(WEEKLY_COPIES), ssl: 'y', ssl_letsencrypt: 'y',
      hd_quota: before.hd_quota, traffic_quota: before.traffic_quota, domain: before.domain, document_root: before.document_root, active: 'y',
    });
    expect(String(site.custom_php_ini).split('\n').sort()).toEqual(['max_execution_time = 120', 'memory_limit = 512M']);
    expect((await call('GET', '')).json().site).toMatchObject({ phpVersion: '8.1', memoryLimitMb: 512, maxExecutionTimeS: 120 });
    // Only memory: the version and the execution time stay.
    expect((await call('PUT', '/php', { memoryLimitMb: 128 })).statusCode).toBe(200);
    expect(asText(fake.row('web_domain', pkg.panelSiteId!)!)).toMatchObject({ ...pm, server_php_id: '2' });
    expect((await call('GET', '')).json().site).toMatchObject({ phpVersion: '8.1', memoryLimitMb: 128, maxExecutionTimeS: 120 });
  });

  it('parallel changes of the site (PHP, backups, PHP again) lose nothing, although each sends the whole row back', async () => {
    const pkg = await pkgRow();
    try {
      const results = await Promise.all([
        call('PUT', '/php', { memoryLimitMb: 512 }),
        call('PUT', '/backup-schedule', { frequency: 'daily', retentionDays: 14 }),
        call('PUT', '/php', { maxExecutionTimeS: 300 }),
        call('PUT', '/php', { phpVersion: '8.2' }),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      const site = asText(fake.row('web_domain', pkg.panelSiteId!)!);
      expect(String(site.custom_php_ini).split('\n').sort()).toEqual(['max_execution_time = 300', 'memory_limit = 512M']);
      expect(site).toMatchObject({ server_php_id: '3', backup_interval: 'daily', backup_copies: '15', pm_max_children: '10', ssl_letsencrypt: 'y' });
      expect((await call('GET', '')).json().site).toMatchObject({ phpVersion: '8.2', memoryLimitMb: 512, maxExecutionTimeS: 300, backupFrequency: 'daily', backupCopies: 15, retentionDays: 14 });
    } finally {
      // Back to what the later tests expect.
      expect((await call('PUT', '/php', { phpVersion: '8.1', memoryLimitMb: 128, maxExecutionTimeS: 120 })).statusCode).toBe(200);
      expect((await call('PUT', '/backup-schedule', { frequency: 'weekly', retentionDays: 30 })).statusCode).toBe(200);
    }
  });

  it('the panel refuses sites_database_add: 409 in German, the database user made before is removed again, our database unchanged', async () => {
    const pkg = await pkgRow();
    const name = `${'c'}${pkg.number}_shop`;
    const jobsBefore = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(jobs);
    fake.failCall('sites_database_add', 'Could not add the record: a server plugin refused it.<br />\r\n');
    let res;
    try {
      res = await call('POST', '/databases', { name: 'shop', password: PASSWORD, confirmPassword: PASSWORD });
    } finally {
      fake.failCall('sites_database_add', null);
    }
    expect(res.statusCode, res.body).toBe(409);
    const body = res.json() as { error: { code: string; message: string } };
    expect(body.error.code).toBe('HOSTING_REMOTE_FAULT');
    expect(body.error.message).toBe('Das Hosting-Panel hat die Datenbank-Änderung abgelehnt. Bitte prüfen Sie Name und Passwort.');
    expect(res.body).not.toMatch(PANEL_ENGLISH);
    // The user was created on the panel (the call ran) and deleted again after the refusal.
    const callsOfCreate = fake.calls.filter((c) => c === 'sites_database_user_add' || c === 'sites_database_user_delete');
    expect(callsOfCreate.slice(-2)).toEqual(['sites_database_user_add', 'sites_database_user_delete']);
    expect(fake.rows('web_database_user').filter((u) => u.database_user === name)).toEqual([]);
    expect(fake.rows('web_database').filter((d) => d.database_name === name)).toEqual([]);
    expect(await pkgRow()).toEqual(pkg);
    expect(await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(jobs)).toEqual(jobsBefore);
    const listed = (await call('GET', '/databases')).json();
    expect(listed).toMatchObject({ databases: [], users: [] });

    // Control: with the panel willing, the same request creates database and user.
    const ok = await call('POST', '/databases', { name: 'shop', password: PASSWORD, confirmPassword: PASSWORD });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(fake.rows('web_database_user').filter((u) => u.database_user === name)).toHaveLength(1);
    expect(fake.rows('web_database').filter((d) => d.database_name === name)).toHaveLength(1);
  });

  it('a hanging panel: PUT php → 503 German within timeoutMs + 1 s; the detail page answers 200 with site null and a German panelError', async () => {
    current = driverWith({ timeoutMs: FAST_TIMEOUT_MS });
    fake.setHanging(true);
    try {
      let started = Date.now();
      const put = await call('PUT', '/php', { memoryLimitMb: 256 });
      expect(Date.now() - started).toBeLessThan(FAST_TIMEOUT_MS + 1000);
      expect(put.statusCode, put.body).toBe(503);
      expect(put.json().error).toMatchObject({ code: 'HOSTING_UNAVAILABLE', message: hostingMessages.UNAVAILABLE });
      expect(put.body).not.toMatch(PANEL_ENGLISH);

      started = Date.now();
      const detail = await call('GET', '');
      expect(Date.now() - started).toBeLessThan(FAST_TIMEOUT_MS + 1000);
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json()).toMatchObject({ status: 'active', site: null, panelError: hostingMessages.UNAVAILABLE });
      expect(detail.body).not.toMatch(PANEL_ENGLISH);
    } finally {
      fake.setHanging(false);
      current = normal;
    }
    // Nothing was written while it hung, and the panel answers again.
    expect((await call('GET', '')).json().site).toMatchObject({ memoryLimitMb: 128 });
  });

  it('a panel that refuses connections (closed port): 503 German at once; the detail page degrades to panelError', async () => {
    current = driverWith({ url: `http://127.0.0.1:${await freePort()}`, timeoutMs: FAST_TIMEOUT_MS });
    try {
      const put = await call('PUT', '/php', { memoryLimitMb: 256 });
      expect(put.statusCode, put.body).toBe(503);
      expect(put.json().error.message).toBe(hostingMessages.UNAVAILABLE);
      const detail = await call('GET', '');
      expect(detail.statusCode).toBe(200);
      expect(detail.json()).toMatchObject({ site: null, panelError: hostingMessages.UNAVAILABLE });
      const dbs = await call('POST', '/databases', { name: 'zwei', password: PASSWORD, confirmPassword: PASSWORD });
      expect(dbs.statusCode).toBe(503);
      expect(dbs.body).not.toMatch(PANEL_ENGLISH);
    } finally {
      current = normal;
    }
  });

  it('a panel session that ended between requests: the next request succeeds with exactly one extra login', async () => {
    // Warm: a request with a live session logs in not at all.
    expect((await call('GET', '')).statusCode).toBe(200);
    let logins = fake.loginCount;
    expect((await call('GET', '')).json().site).not.toBeNull();
    expect(fake.loginCount).toBe(logins);

    // The panel forgot every session (restart, an admin's cleanup): the page's ~20 parallel calls share one login.
    fake.expireSessions();
    const detail = await call('GET', '');
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({ panelError: null, site: { phpVersion: '8.1' } });
    expect(fake.loginCount).toBe(logins + 1);

    // The panel's clock ran past its 1800 s while ours did not: a write is repeated once after one login.
    logins = fake.loginCount;
    fake.advanceClock(1801_000);
    const put = await call('PUT', '/php', { maxExecutionTimeS: 300 });
    expect(put.statusCode, put.body).toBe(200);
    expect(fake.loginCount).toBe(logins + 1);
    expect((await call('GET', '')).json().site).toMatchObject({ maxExecutionTimeS: 300 });
    expect(fake.loginCount).toBe(logins + 1);
  });

  it('backup now and the app installer are not offered on ISPConfig: 400 with the German "nicht angeboten"', async () => {
    const backup = await call('POST', '/backups');
    expect(backup.statusCode, backup.body).toBe(400);
    expect(backup.json().error).toMatchObject({ code: 'HOSTING_UNSUPPORTED', message: hostingMessages.UNSUPPORTED });
    expect(backup.json().error.message).toContain('nicht angeboten');
    const app = await call('POST', '/app', { kind: 'wordpress' });
    expect(app.statusCode, app.body).toBe(400);
    expect(app.json().error.message).toContain('nicht angeboten');
    const update = await call('POST', '/app/update');
    expect(update.statusCode).toBe(400);
    expect(update.json().error.message).toContain('nicht angeboten');
    expect((await pkgRow()).websiteType).not.toBe('wordpress');
  });

  it('the WordPress tools, plugin and theme actions are not offered on ISPConfig: 400 with the German "nicht angeboten"', async () => {
    for (const [method, suffix, body] of [
      ['POST', '/app/tools', { tool: 'security-check' }], ['POST', '/app/tools', { tool: 'optimize-database' }], ['POST', '/app/tools', { tool: 'update-all' }],
      ['POST', '/app/plugins/akismet/update', undefined], ['PUT', '/app/plugins/akismet', { active: false }], ['POST', '/app/themes/twentytwentythree/activate', undefined],
    ] as const) {
      const res = await call(method, suffix, body);
      expect(res.statusCode, `${suffix} ${res.body}`).toBe(400);
      expect(res.json().error.code).toBe('HOSTING_UNSUPPORTED');
      expect(res.json().error.message).toContain('nicht angeboten');
    }
  });

  it('provisioning while the panel hangs fails retryably (package provisioning, order processing); once it answers, it completes once', { timeout: 60_000 }, async () => {
    const buyer = await createUser(ctx);
    const subdomain = unique('later');
    const res = await postHostingCheckout(ctx, buyer.auth, { plan: 'starter', months: 1, domainType: 'subdomain', subdomain, acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    const db = ctx.database.db;
    const provisionJob = async () => (await db.select().from(jobs).where(and(eq(jobs.kind, 'provision-hosting'), sql`${jobs.payload}->>'orderId' = ${orderId}`)))[0];

    current = driverWith({ timeoutMs: FAST_TIMEOUT_MS });
    fake.setHanging(true);
    try {
      await paySimulated(ctx, sessionId);
      // Due jobs only (no skipping of backoff): webhook, sync, invoice, and one provisioning attempt.
      await ctx.app.jobs.drain();
      let job = await provisionJob();
      expect(job).toMatchObject({ status: 'queued', attempts: 1 });
      expect(job!.lastError).toBeTruthy();
      expect(job!.runAt.getTime()).toBeGreaterThan(Date.now());
      // A second attempt while it still hangs: retried again, nothing failed for good.
      await db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, job!.id));
      await ctx.app.jobs.drain();
      job = await provisionJob();
      expect(job).toMatchObject({ status: 'queued', attempts: 2 });
      const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
      expect(order!.status).toBe('processing');
      const [pkg] = await db.select().from(hostingPackages).where(eq(hostingPackages.id, order!.subscriptionId!));
      expect(pkg).toMatchObject({ status: 'provisioning', panelClientId: null, panelSiteId: null });
      // The customer sees the package as being set up, with no panel data and no error.
      const detail = await ctx.app.inject({ method: 'GET', url: `/api/hosting/${pkg!.id}`, headers: buyer.auth });
      expect(detail.json()).toMatchObject({ status: 'provisioning', site: null, panelError: null });
      expect(fake.rows('client').filter((c) => c.username === pkg!.panelUsername)).toEqual([]);
    } finally {
      fake.setHanging(false);
      current = normal;
    }

    // The panel answers again: the retry (backoff skipped) builds the account once.
    for (let i = 0; i < 5 && (await provisionJob())?.status !== 'done'; i++) await ctx.app.jobs.drain({ ignoreRunAt: true });
    expect(await provisionJob()).toMatchObject({ status: 'done' });
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).toBe('completed');
    const [pkg] = await db.select().from(hostingPackages).where(eq(hostingPackages.id, order!.subscriptionId!));
    expect(pkg).toMatchObject({ status: 'active', statusMessage: null });
    expect(fake.rows('client').filter((c) => c.username === pkg!.panelUsername)).toHaveLength(1);
    expect(fake.rows('web_domain').filter((d) => d.domain === pkg!.primaryDomain)).toHaveLength(1);
    expect(asText(fake.row('client', pkg!.panelClientId!)!)).toMatchObject({ template_master: '1', limit_web_quota: String(HOSTING_PLANS.starter.storageMb) });
    const detail = await ctx.app.inject({ method: 'GET', url: `/api/hosting/${pkg!.id}`, headers: buyer.auth });
    expect(detail.json()).toMatchObject({ status: 'active', panelError: null, site: { memoryLimitMb: 256 } });
  });

  it('a panel that refuses the new account fails the package for good, refunds the order automatically, with a German message and nothing left on the panel', { timeout: 60_000 }, async () => {
    const buyer = await createUser(ctx);
    const res = await postHostingCheckout(ctx, buyer.auth, { plan: 'starter', months: 1, domainType: 'subdomain', subdomain: unique('abgelehnt'), acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    fake.failCall('sites_web_domain_add', 'domain_error_regex<br />\r\n');
    try {
      await paySimulated(ctx, sessionId);
      await drainJobs(ctx);
    } finally {
      fake.failCall('sites_web_domain_add', null);
    }
    const db = ctx.database.db;
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    // Paid but never delivered: paid back at the provider, the invoice (if issued first) credited, the customer told (decision 023).
    expect(order).toMatchObject({ status: 'refunded', refundId: expect.stringMatching(/^re_sim_/) });
    expect(order!.refundedAt).not.toBeNull();
    expect(order!.failureReason).toContain('REMOTE_FAULT');
    const [session] = await db.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.id, sessionId));
    expect(session).toMatchObject({ refundId: order!.refundId, refundedCents: order!.amountCents });
    const orderInvoices = await db.select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(orderInvoices.filter((i) => i.kind === 'credit_note')).toHaveLength(orderInvoices.filter((i) => i.kind === 'invoice').length);
    expect(ctx.mail.sent.filter((m) => m.to === buyer.email && m.subject === `Ihre Bestellung ${order!.number} wurde erstattet`)).toHaveLength(1);
    const [pkg] = await db.select().from(hostingPackages).where(eq(hostingPackages.id, order!.subscriptionId!));
    expect(pkg).toMatchObject({ status: 'failed', statusMessage: hostingMessages.REMOTE_FAULT, panelClientId: null });
    // A refusal is final: the job is done, not retried, not failed.
    const [job] = await db.select().from(jobs).where(and(eq(jobs.kind, 'provision-hosting'), sql`${jobs.payload}->>'orderId' = ${orderId}`));
    expect(job).toMatchObject({ status: 'done', attempts: 1 });
    // The customer sees the package as failed with the German message; no panel text.
    const detail = await ctx.app.inject({ method: 'GET', url: `/api/hosting/${pkg!.id}`, headers: buyer.auth });
    expect(detail.json()).toMatchObject({ status: 'failed', statusMessage: hostingMessages.REMOTE_FAULT, site: null });
    expect(detail.body).not.toMatch(PANEL_ENGLISH);
    // A failed package is not renewed: the shop's prefill refuses it like the checkout does.
    const renewal = await ctx.app.inject({ method: 'GET', url: `/api/shop/webhosting/renewal/${pkg!.id}`, headers: buyer.auth });
    expect(renewal.statusCode).toBe(409);
    expect(renewal.json().error.message).toBe('Dieses Hosting-Paket kann derzeit nicht verlängert werden.');
    expect(fake.rows('web_domain').filter((d) => d.domain === pkg!.primaryDomain)).toEqual([]);
    // Not asserted: the panel client made before the refused site stays there without a package (staff cleans up).
  });
  // ── Database users without a database, tables, domain details (Datenbanken "Benutzer erstellen", domains "Verwalten") ──

  it('"Benutzer erstellen" makes a panel user without a database; tables are null (not reported); a user in use is refused here although ISPConfig would detach it', async () => {
    const owner = await createUser(ctx);
    const { packageId: ownId } = await buyHosting(ctx, owner, { plan: 'professional' });
    const own = (method: 'GET' | 'POST' | 'DELETE', suffix: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url: `/api/hosting/${ownId}${suffix}`, headers: owner.auth, ...(payload ? { payload } : {}) });
    const [pkg] = await ctx.database.db.select().from(hostingPackages).where(eq(hostingPackages.id, ownId));

    const created = await own('POST', '/database-users', { name: 'leser', password: PASSWORD, confirmPassword: PASSWORD });
    expect(created.statusCode, created.body).toBe(201);
    const userRow = fake.row('web_database_user', created.json().id);
    expect(userRow).toMatchObject({ database_user: `${pkg!.panelUsername}_leser` });
    expect(fake.passwordMatches(userRow, 'database_password', PASSWORD)).toBe(true);
    expect(fake.rows('web_database').filter((d) => String(d.database_user_id) === created.json().id)).toEqual([]);

    const db = await own('POST', '/databases', { name: 'daten', userId: created.json().id });
    expect(db.statusCode, db.body).toBe(201);
    expect(db.json()).toMatchObject({ user: `${pkg!.panelUsername}_leser`, sizeMb: null, tables: null });
    expect(fake.row('web_database', db.json().id)).toMatchObject({ database_name: `${pkg!.panelUsername}_daten`, database_user_id: Number(created.json().id) });
    expect((await own('GET', '/databases')).json().databases).toEqual([expect.objectContaining({ tables: null, sizeMb: null })]);

    const refused = await own('DELETE', `/database-users/${created.json().id}`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.code).toBe('DATABASE_USER_IN_USE');
    expect(fake.row('web_database_user', created.json().id)).toBeDefined();

    // Why the rule is ours: the panel itself deletes the user and leaves the database without one.
    const ref = { serverId: '1', clientId: pkg!.panelClientId!, siteId: pkg!.panelSiteId! };
    await normal.deleteDatabaseUser(ref, created.json().id);
    expect(fake.row('web_database', db.json().id)).toMatchObject({ database_user_id: null });
    expect((await own('GET', '/databases')).json().databases).toEqual([expect.objectContaining({ userId: null, user: null })]);
  });

  it('domains on ISPConfig: the addon lives in a folder below the site\'s web/, the detail names the hosting server for DNS', async () => {
    const addon = `${unique('verwalten')}.de`;
    const added = await call('POST', '/domains', { domain: addon });
    expect(added.statusCode, added.body).toBe(201);
    const detail = (await call('GET', '')).json();
    expect(detail.serverHostname).toBe('web1.example.net');
    const primary = detail.site.domains[0];
    const site = fake.row('web_domain', primary.id)!;
    expect(primary).toMatchObject({ type: 'primary', documentRoot: site.document_root, directory: `${String(site.document_root)}/web` });
    expect(detail.site.domains.find((d: { domain: string }) => d.domain === addon)).toMatchObject({
      type: 'addon', dnsManaged: false, documentRoot: `${String(site.document_root)}/web/${addon}`, directory: `${String(site.document_root)}/web/${addon}`,
    });
    expect(detail.site.ftp.directory).toBe(site.document_root);
    expect((await call('DELETE', `/domains/${added.json().id}`)).statusCode).toBe(200);
  });
});

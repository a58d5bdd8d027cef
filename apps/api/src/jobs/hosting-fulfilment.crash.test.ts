import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { hostingPackages, hostingServers, invoices, jobs, orders, simHostingAccounts } from '../db/schema/index.ts';
import { createUser, describeEachDatabase } from '../../test/harness.ts';
import { postHostingCheckout, seedHostingServer, unique } from '../../test/hosting.ts';
import { drainJobs, paySimulated } from '../../test/shop.ts';
import { buyThroughCrash, crashCleanups, createCrashCustomer, expectInvoiceMails, expectJobsSettled, openCrashScenario } from '../../test/crash.ts';

/**
 * SIGKILL at each step of a web hosting sale (decision 022, like fulfilment.crash.test.ts for the root
 * server): a real server process on PostgreSQL is killed right after a job did its work but before the
 * job was marked done, so the work runs again after the restart. Every order must end with exactly one
 * package, one account on the (simulated) panel and one invoice, and no job may stay stuck or fail.
 */
const base = process.env.TEST_DATABASE_URL;

/** The job kinds of a hosting sale, in order (payments/simulated.ts, payments.service.ts, hosting.product.ts, invoices.service.ts). */
const killPoints = ['deliver-sim-webhook', 'sync-checkout', 'provision-hosting', 'issue-invoice', 'mail-invoice'];

// The scenarios are independent (own database, port, data directory) and mostly wait for leases and
// process starts: they run side by side so the file stays well under a minute on two cores.
describe.skipIf(!base).concurrent('web hosting fulfilment survives SIGKILL at every step [postgres]', () => {
  const cleanups = crashCleanups();

  it.each(killPoints)('killed after %s → exactly one package, panel account and invoice after restart', async (killAfter) => {
    const crash = await openCrashScenario(cleanups, 'hp-hosting-crash-');
    const { db } = crash;
    const [server] = await db.insert(hostingServers).values({ name: 'web-crash', hostname: 'web-crash.example.net', panelServerId: '1', slots: 5 }).returning();
    const { user, auth } = await createCrashCustomer(db);

    const subdomain = `crash${killAfter.replace(/[^a-z]/g, '')}`.slice(0, 30);
    const { orderId } = await buyThroughCrash(crash, killAfter, auth, '/api/shop/webhosting/checkout', { plan: 'professional', months: 1, domainType: 'subdomain', subdomain, acceptTerms: true });

    const packages = await db.select().from(hostingPackages).where(eq(hostingPackages.ownerId, user.id));
    expect(packages).toHaveLength(1);
    const pkg = packages[0]!;
    expect(pkg).toMatchObject({ status: 'active', plan: 'professional', hostingServerId: server!.id, primaryDomain: expect.stringMatching(new RegExp(`^${subdomain}\\.`)) });
    expect(pkg.panelClientId).toBeTruthy();
    expect(pkg.panelSiteId).toBeTruthy();
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ status: 'completed', product: 'webhosting', subscriptionId: pkg.id });
    const accounts = await db.select().from(simHostingAccounts);
    expect(accounts.filter((a) => a.username === pkg.panelUsername)).toHaveLength(1);
    expect(accounts).toHaveLength(1);
    expect((accounts[0]!.state as { siteId?: string }).siteId).toBe(pkg.panelSiteId);

    const allInvoices = await db.select().from(invoices);
    expect(allInvoices).toHaveLength(1);
    expect(allInvoices[0]).toMatchObject({ orderId, sequence: 1 });
    expect(allInvoices[0]!.document.lines[0]!.name).toBe('Webhosting Professional');

    await expectJobsSettled(db, 20_000);
    // Provisioning ran exactly once as a job (one dedupe key), however often it was attempted.
    expect(await db.select().from(jobs).where(eq(jobs.kind, 'provision-hosting'))).toHaveLength(1);
    await expectInvoiceMails(db, crash.dataDir);

    await crash.stop();
  }, 150_000);
});

/**
 * A death *inside* the provisioning job: the simulated panel creates an account as a row and then its
 * state. A process that dies between the two (or a failing second statement) must leave nothing a
 * retry would take for a finished account. The moment is too short to hit with SIGKILL reliably, so a
 * trigger fails the second statement instead, once, exactly there.
 */
describeEachDatabase('web hosting provisioning: a failure between the panel account row and its state', (ctx) => {
  it('leaves no half-made account; the retry provisions the package, and other customers can still buy', { timeout: 60_000 }, async () => {
    const db = ctx().database.db;
    await seedHostingServer(ctx(), 10);
    const customer = await createUser(ctx());
    const res = await postHostingCheckout(ctx(), customer.auth, { plan: 'starter', months: 1, domainType: 'subdomain', subdomain: unique('halb'), acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };

    await db.execute(sql`create or replace function hp_test_die_before_state() returns trigger language plpgsql as $$ begin raise exception 'injected: the process died here'; end $$`);
    await db.execute(sql`create trigger hp_test_die_before_state before update on sim_hosting_accounts for each row when (old.state = '{}'::jsonb) execute function hp_test_die_before_state()`);
    try {
      await paySimulated(ctx(), sessionId);
      // Due jobs only: one provisioning attempt, which dies between row and state.
      await ctx().app.jobs.drain();
      const [job] = await db.select().from(jobs).where(sql`${jobs.kind} = 'provision-hosting' and ${jobs.payload}->>'orderId' = ${orderId}`);
      expect(job).toMatchObject({ status: 'queued', attempts: 1 });
      expect(job!.lastError).toContain('update "sim_hosting_accounts" set "state"');
      // Nothing half-made on the panel that a retry could mistake for the account.
      expect(await db.select().from(simHostingAccounts).where(sql`${simHostingAccounts.state} = '{}'::jsonb`)).toEqual([]);
    } finally {
      await db.execute(sql`drop trigger if exists hp_test_die_before_state on sim_hosting_accounts`);
      await db.execute(sql`drop function if exists hp_test_die_before_state()`);
    }

    await drainJobs(ctx());
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).toBe('completed');
    const [pkg] = await db.select().from(hostingPackages).where(eq(hostingPackages.id, order!.subscriptionId!));
    expect(pkg).toMatchObject({ status: 'active', statusMessage: null });
    const accounts = await db.select().from(simHostingAccounts).where(eq(simHostingAccounts.username, pkg!.panelUsername));
    expect(accounts).toHaveLength(1);
    expect((accounts[0]!.state as { siteId?: string }).siteId).toBe(pkg!.panelSiteId);
    const detail = await ctx().app.inject({ method: 'GET', url: `/api/hosting/${pkg!.id}`, headers: customer.auth });
    expect(detail.json()).toMatchObject({ status: 'active', panelError: null, site: { memoryLimitMb: 256 } });

    // The next customer's provisioning reads every account's domains: it must not trip over anything left behind.
    const next = await createUser(ctx());
    const second = await postHostingCheckout(ctx(), next.auth, { plan: 'starter', months: 1, domainType: 'subdomain', subdomain: unique('danach'), acceptTerms: true });
    await paySimulated(ctx(), second.json().sessionId);
    await drainJobs(ctx());
    const [secondOrder] = await db.select().from(orders).where(eq(orders.id, second.json().orderId));
    expect(secondOrder!.status).toBe('completed');
  });
});

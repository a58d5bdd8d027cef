import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { GIB } from '@hp/contract';
import { invoices, jobs, orders, simStorageAccounts, storageAccounts, storageServers } from '../db/schema/index.ts';
import { createUser, describeEachDatabase } from '../../test/harness.ts';
import { drainJobs, paySimulated } from '../../test/shop.ts';
import { postStorageCheckout, seedStorageServer, storageName } from '../../test/storage.ts';
import { buyThroughCrash, crashCleanups, createCrashCustomer, expectInvoiceMails, expectJobsSettled, openCrashScenario } from '../../test/crash.ts';

/**
 * SIGKILL at each step of a cloud storage sale (decision 034, like hosting-fulfilment.crash.test.ts):
 * a real server process on PostgreSQL is killed (FAULT_KILL_AFTER_JOB) right after a job did its work
 * but before the job was marked done, so the work runs again after the restart. Every order must end
 * with exactly one storage account, one Nextcloud user on the (simulated) storage server and one
 * invoice, and no job may stay stuck or fail.
 */
const base = process.env.TEST_DATABASE_URL;

/** The job kinds of a storage sale, in order (payments/simulated.ts, payments.service.ts, storage.product.ts, invoices.service.ts). */
const killPoints = ['deliver-sim-webhook', 'sync-checkout', 'provision-storage', 'issue-invoice', 'mail-invoice'];

// Independent scenarios (own database, port, data directory) that mostly wait for leases and process
// starts: side by side, as the hosting crash test.
describe.skipIf(!base).concurrent('cloud storage fulfilment survives SIGKILL at every step [postgres]', () => {
  const cleanups = crashCleanups();

  it.each(killPoints)('killed after %s → exactly one storage account, Nextcloud user and invoice after restart', async (killAfter) => {
    const crash = await openCrashScenario(cleanups, 'hp-storage-crash-');
    const { db } = crash;
    const [server] = await db.insert(storageServers).values({ name: 'cloud-crash', url: 'https://cloud-crash.example.net', capacityGb: 1000 }).returning();
    const { user, auth } = await createCrashCustomer(db);

    const accountName = `crash${killAfter.replace(/[^a-z]/g, '')}`.slice(0, 32);
    const { orderId } = await buyThroughCrash(crash, killAfter, auth, '/api/shop/cloud-storage/checkout', { plan: '500gb', months: 1, accountName, acceptTerms: true });

    const accounts = await db.select().from(storageAccounts).where(eq(storageAccounts.ownerId, user.id));
    expect(accounts).toHaveLength(1);
    const account = accounts[0]!;
    expect(account).toMatchObject({ status: 'active', statusMessage: null, plan: '500gb', quotaGb: 500, accountName, storageServerId: server!.id, deletedAt: null });
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ status: 'completed', product: 'cloud_storage', subscriptionId: account.id });
    // One Nextcloud user in the whole simulated storage: the customer's, with the plan's quota.
    const users = await db.select().from(simStorageAccounts);
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ serverId: 'https://cloud-crash.example.net', userId: accountName, email: user.email, enabled: true, quotaBytes: 500 * GIB });

    const allInvoices = await db.select().from(invoices);
    expect(allInvoices).toHaveLength(1);
    expect(allInvoices[0]).toMatchObject({ orderId, sequence: 1 });
    expect(allInvoices[0]!.document.lines[0]!.name).toBe('Cloud-Speicher 500 GB');

    await expectJobsSettled(db, 20_000);
    // Provisioning ran exactly once as a job (one dedupe key), however often it was attempted.
    expect(await db.select().from(jobs).where(eq(jobs.kind, 'provision-storage'))).toHaveLength(1);
    await expectInvoiceMails(db, crash.dataDir);

    await crash.stop();
  }, 150_000);
});

/**
 * A death *inside* the provisioning job: the Nextcloud user is made first, then the account and the
 * order are marked done in one transaction. A process that dies between the two (too short a moment to
 * hit with SIGKILL reliably, so a trigger fails the transaction instead, once, exactly there) leaves a
 * user on the storage server that the retry must take for its own, not refuse as "name taken".
 */
describeEachDatabase('cloud storage provisioning: a failure between the Nextcloud user and the account row', (ctx) => {
  it('the retry finds its own user: one account, one Nextcloud user with the quota, the order completed and invoiced once', { timeout: 60_000 }, async () => {
    const db = ctx().database.db;
    const server = await seedStorageServer(ctx());
    const customer = await createUser(ctx());
    const accountName = storageName('halb');
    const res = await postStorageCheckout(ctx(), customer.auth, { plan: '1tb', months: 1, accountName, acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };

    await db.execute(sql`create or replace function hp_test_die_before_active() returns trigger language plpgsql as $$ begin raise exception 'injected: the process died here'; end $$`);
    await db.execute(sql`create trigger hp_test_die_before_active before update on storage_accounts for each row when (old.status = 'provisioning' and new.status = 'active') execute function hp_test_die_before_active()`);
    try {
      await paySimulated(ctx(), sessionId);
      // Due jobs only: one provisioning attempt, which dies after creating the user.
      await ctx().app.jobs.drain();
      const [job] = await db.select().from(jobs).where(and(eq(jobs.kind, 'provision-storage'), sql`${jobs.payload}->>'orderId' = ${orderId}`));
      expect(job).toMatchObject({ status: 'queued', attempts: 1 });
      expect(job!.lastError).toContain('storage_accounts');
      const [half] = await db.select().from(storageAccounts).where(eq(storageAccounts.accountName, accountName));
      expect(half).toMatchObject({ status: 'provisioning' });
      expect(await db.select().from(simStorageAccounts).where(eq(simStorageAccounts.userId, accountName))).toHaveLength(1);
      const [processing] = await db.select().from(orders).where(eq(orders.id, orderId));
      expect(processing!.status).toBe('processing');
    } finally {
      await db.execute(sql`drop trigger if exists hp_test_die_before_active on storage_accounts`);
      await db.execute(sql`drop function if exists hp_test_die_before_active()`);
    }

    await drainJobs(ctx());
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).toBe('completed');
    const accounts = await db.select().from(storageAccounts).where(eq(storageAccounts.ownerId, customer.user.id));
    expect(accounts).toEqual([expect.objectContaining({ id: order!.subscriptionId, status: 'active', statusMessage: null, quotaGb: 1024, storageServerId: server.id })]);
    const users = await db.select().from(simStorageAccounts).where(eq(simStorageAccounts.userId, accountName));
    expect(users).toEqual([expect.objectContaining({ email: customer.email, enabled: true, quotaBytes: 1024 * GIB })]);
    expect(await db.select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice')))).toHaveLength(1);
    const [job] = await db.select().from(jobs).where(and(eq(jobs.kind, 'provision-storage'), sql`${jobs.payload}->>'orderId' = ${orderId}`));
    expect(job).toMatchObject({ status: 'done', attempts: 2 });
  });
});

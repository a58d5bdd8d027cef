import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ipAddresses, invoices, nodes, orders, servers, simVms } from '../db/schema/index.ts';
import { waitFor } from '../../test/processes.ts';
import { crashCleanups, createCrashCustomer, expectInvoiceMails, expectJobsSettled, openCrashScenario, payOnSimulatedPage, waitForCompletedOrder } from '../../test/crash.ts';

/**
 * SIGKILL at each step of fulfilment (security-and-reliability.md, "Payments"): a real server process
 * on PostgreSQL is killed right after a job did its work but before the job was marked done (the worst
 * moment: the work will run again), or at a random moment while the VM is being built. After a restart
 * every order must end with exactly one server, one IP and one invoice, and nothing may stay stuck.
 */
const base = process.env.TEST_DATABASE_URL;

const scenarios: { name: string; env: Record<string, string>; killAfterMs?: number }[] = [
  { name: 'after the webhook delivery', env: { FAULT_KILL_AFTER_JOB: 'deliver-sim-webhook' } },
  { name: 'after the paid transaction (sync)', env: { FAULT_KILL_AFTER_JOB: 'sync-checkout' } },
  { name: 'after provisioning', env: { FAULT_KILL_AFTER_JOB: 'provision-order' } },
  { name: 'after issuing the invoice', env: { FAULT_KILL_AFTER_JOB: 'issue-invoice' } },
  { name: 'after mailing the invoice', env: { FAULT_KILL_AFTER_JOB: 'mail-invoice' } },
  { name: 'while the VM is being built', env: {}, killAfterMs: 700 },
];

describe.skipIf(!base)('fulfilment survives SIGKILL at every step [postgres]', () => {
  const cleanups = crashCleanups();

  it.each(scenarios)('killed $name → exactly one server, IP and invoice after restart', async (scenario) => {
    const crash = await openCrashScenario(cleanups, 'hp-crash-');
    const { db, origin } = crash;
    await db.insert(nodes).values({ name: 'pve-crash', host: '10.9.0.1', cpuCores: 32, ramGb: 128, storageGb: 2000, status: 'online' });
    await db.insert(ipAddresses).values([{ address: '198.51.100.10', version: 'IPv4', subnet: '24', gateway: '198.51.100.1' }, { address: '198.51.100.11', version: 'IPv4', subnet: '24', gateway: '198.51.100.1' }]);
    const { user, auth } = await createCrashCustomer(db);

    await crash.start(scenario.env);
    const checkout = await fetch(`${origin}/api/shop/checkout`, { method: 'POST', headers: auth, body: JSON.stringify({ os: 'linux', distro: 'Debian 12', cpu: 2, ram: 4, storage: 50, months: 1, acceptTerms: true }) });
    expect(checkout.status).toBe(201);
    const { orderId, sessionId } = (await checkout.json()) as { orderId: string; sessionId: string };
    await payOnSimulatedPage(origin, sessionId);

    if (scenario.killAfterMs !== undefined) {
      await waitFor('provisioning to start', async () => (await db.select().from(orders).where(eq(orders.id, orderId)))[0]?.status === 'processing', 20_000);
      await new Promise((r) => setTimeout(r, scenario.killAfterMs));
      crash.kill();
    }
    await crash.expectKilled('the process should have been killed');

    await crash.restart();
    await waitForCompletedOrder(db, orderId);

    const owned = await db.select().from(servers).where(eq(servers.ownerId, user.id));
    expect(owned).toHaveLength(1);
    expect(owned[0]!.status).toBe('online');
    const ips = await db.select().from(ipAddresses).where(eq(ipAddresses.serverId, owned[0]!.id));
    expect(ips).toHaveLength(1);
    expect(await db.select().from(simVms).where(eq(simVms.vmid, owned[0]!.vmid))).toHaveLength(1);
    const allInvoices = await db.select().from(invoices);
    expect(allInvoices).toHaveLength(1);
    expect(allInvoices[0]!.sequence).toBe(1);
    // A job the killed process held is claimed again once its lease (1.5 s) ran out; on a loaded 2-core
    // machine the restarted process took longer than 15 s to get to it (session 13), so the bound is 45 s.
    await expectJobsSettled(db, 45_000);
    await expectInvoiceMails(db, crash.dataDir);

    await crash.stop();
  }, 150_000);
});

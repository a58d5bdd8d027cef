import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/client.ts';
import { ipAddresses, invoices, jobs, nodes, orders, servers, simVms, users } from '../db/schema/index.ts';
import { loadSecrets } from '../lib/secrets.ts';
import { hashPassword } from '../lib/passwords.ts';
import { openSession } from '../modules/auth/sessions.ts';
import { freePort } from '../../test/net.ts';
import { freshPg, startServer, waitFor, waitForHealth } from '../../test/processes.ts';

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
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it.each(scenarios)('killed $name → exactly one server, IP and invoice after restart', async (scenario) => {
    const { url, drop } = await freshPg();
    cleanups.push(drop);
    const database: Database = await openDatabase({ url });
    cleanups.push(() => database.close());
    const db = database.db;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-crash-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));

    await db.insert(nodes).values({ name: 'pve-crash', host: '10.9.0.1', cpuCores: 32, ramGb: 128, storageGb: 2000, status: 'online' });
    await db.insert(ipAddresses).values([{ address: '198.51.100.10', version: 'IPv4', subnet: '24', gateway: '198.51.100.1' }, { address: '198.51.100.11', version: 'IPv4', subnet: '24', gateway: '198.51.100.1' }]);
    const [user] = await db.insert(users).values({ username: 'crashkunde', email: 'crash@example.com', role: 'customer', passwordHash: await hashPassword('Sicher!Passwort1'), emailVerifiedAt: new Date() }).returning();
    const secrets = await loadSecrets(db, undefined);
    const { token } = await openSession(db, secrets, user!, 'crash-test');

    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env = { DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, DATA_DIR: dataDir, JOB_LEASE_MS: '1500', SIMULATED_SPEED: '20', BILLING_TICK_MS: '600000' };

    let run = startServer({ ...env, ...scenario.env });
    cleanups.push(async () => void run.child.kill('SIGKILL'));
    await waitForHealth(run, origin);

    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const checkout = await fetch(`${origin}/api/shop/checkout`, { method: 'POST', headers: auth, body: JSON.stringify({ os: 'linux', distro: 'Debian 12', cpu: 2, ram: 4, storage: 50, months: 1, acceptTerms: true }) });
    expect(checkout.status).toBe(201);
    const { orderId, sessionId } = (await checkout.json()) as { orderId: string; sessionId: string };
    const form = new URLSearchParams({ card: '4242424242424242', exp: '12/39', cvc: '123', name: 'Erika Muster', street: 'Weg 1', zip: '10115', city: 'Berlin', country: 'DE', action: 'pay' });
    const pay = await fetch(`${origin}/pay/sim/${sessionId}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(), redirect: 'manual' });
    expect(pay.status).toBe(303);

    if (scenario.killAfterMs !== undefined) {
      await waitFor('provisioning to start', async () => (await db.select().from(orders).where(eq(orders.id, orderId)))[0]?.status === 'processing', 20_000);
      await new Promise((r) => setTimeout(r, scenario.killAfterMs));
      run.child.kill('SIGKILL');
    }
    const code = await Promise.race([run.exited, new Promise<'alive'>((r) => setTimeout(() => r('alive'), 30_000))]);
    expect(code, `the process should have been killed; output:\n${run.output()}`).toBe(-1);

    run = startServer(env);
    await waitFor('order completed and invoice mailed', async () => {
      const [o] = await db.select().from(orders).where(eq(orders.id, orderId));
      const [inv] = await db.select().from(invoices).where(eq(invoices.orderId, orderId));
      return o?.status === 'completed' && inv?.mailedAt ? true : undefined;
    }, 60_000);

    const owned = await db.select().from(servers).where(eq(servers.ownerId, user!.id));
    expect(owned).toHaveLength(1);
    expect(owned[0]!.status).toBe('online');
    const ips = await db.select().from(ipAddresses).where(eq(ipAddresses.serverId, owned[0]!.id));
    expect(ips).toHaveLength(1);
    expect(await db.select().from(simVms).where(eq(simVms.vmid, owned[0]!.vmid))).toHaveLength(1);
    const allInvoices = await db.select().from(invoices);
    expect(allInvoices).toHaveLength(1);
    expect(allInvoices[0]!.sequence).toBe(1);
    const open = await db.select({ n: sql<number>`count(*)::int` }).from(jobs).where(sql`status in ('queued', 'running')`);
    await waitFor('no job left', async () => Number((await db.select({ n: sql<number>`count(*)::int` }).from(jobs).where(sql`status in ('queued', 'running')`))[0]!.n) === 0, 15_000)
      .catch(() => expect(open[0]!.n).toBe(0));
    expect(await db.select().from(jobs).where(eq(jobs.status, 'failed'))).toHaveLength(0);
    // Mail is at-least-once: a kill right after sending may send the invoice a second time, never zero.
    const mails = fs.readdirSync(path.join(dataDir, 'outbox')).map((f) => fs.readFileSync(path.join(dataDir, 'outbox', f), 'utf8')).filter((t) => t.includes('Ihre Rechnung'));
    expect(mails.length).toBeGreaterThanOrEqual(1);
    expect(mails.length).toBeLessThanOrEqual(scenario.env.FAULT_KILL_AFTER_JOB === 'mail-invoice' ? 2 : 1);

    run.child.kill('SIGTERM');
    await run.exited;
  }, 150_000);
});

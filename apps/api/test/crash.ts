import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, inject } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/db/client.ts';
import { invoices, jobs, orders, users } from '../src/db/schema/index.ts';
import { loadSecrets } from '../src/lib/secrets.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { openSession } from '../src/modules/auth/sessions.ts';
import { freePort } from './net.ts';
import { freshPg, startServer, waitFor, waitForHealth } from './processes.ts';

/**
 * The harness of the SIGKILL tests (fulfilment.crash.test.ts, hosting-fulfilment.crash.test.ts): each
 * scenario gets its own PostgreSQL database, data directory and port, and a real API process that a
 * fault variable (`FAULT_KILL_AFTER_JOB`) or the test kills, then restarts without the fault.
 */

export type Cleanups = (() => Promise<void>)[];

/** Undo lists for a describe block, run newest first after all its tests (also when one failed). */
export function crashCleanups(): Cleanups {
  const cleanups: Cleanups = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });
  return cleanups;
}

export type CrashScenario = Awaited<ReturnType<typeof openCrashScenario>>;

export async function openCrashScenario(cleanups: Cleanups, dataDirPrefix: string) {
  const { url, drop } = await freshPg();
  cleanups.push(drop);
  const database: Database = await openDatabase({ url });
  cleanups.push(() => database.close());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), dataDirPrefix));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, DATA_DIR: dataDir, JOB_LEASE_MS: '1500', SIMULATED_SPEED: '20', BILLING_TICK_MS: '600000' };
  let run: ReturnType<typeof startServer> | undefined;
  cleanups.push(async () => void run?.child.kill('SIGKILL'));
  const current = () => {
    if (!run) throw new Error('the server was not started');
    return run;
  };

  return {
    db: database.db,
    dataDir,
    origin,
    /** Starts the API process with the fault's variables and waits until it answers. */
    async start(fault: Record<string, string> = {}) {
      run = startServer({ ...env, ...fault }, { build: inject('apiBuild') });
      await waitForHealth(run, origin);
    },
    kill: () => void current().child.kill('SIGKILL'),
    /** The process must die by SIGKILL (its own fault or `kill`) within 30 seconds. */
    async expectKilled(message: string) {
      const code = await Promise.race([current().exited, new Promise<'alive'>((r) => setTimeout(() => r('alive'), 30_000))]);
      expect(code, `${message}; output:\n${current().output()}`).toBe(-1);
    },
    /** A new process without the fault; `healthy` waits for it to answer. */
    async restart({ healthy = false } = {}) {
      run = startServer(env, { build: inject('apiBuild') });
      if (healthy) await waitForHealth(run, origin);
    },
    async stop() {
      current().child.kill('SIGTERM');
      await current().exited;
    },
  };
}

/** A verified customer with a session, inserted straight into the database. */
export async function createCrashCustomer(db: Database['db']) {
  const [user] = await db.insert(users).values({ username: 'crashkunde', email: 'crash@example.com', role: 'customer', passwordHash: await hashPassword('Sicher!Passwort1'), emailVerifiedAt: new Date() }).returning();
  const secrets = await loadSecrets(db, undefined);
  const { token } = await openSession(db, secrets, user!, 'crash-test');
  return { user: user!, auth: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
}

/** Pays a checkout on the simulated provider's card page, as the browser would post it. */
export async function payOnSimulatedPage(origin: string, sessionId: string) {
  const form = new URLSearchParams({ card: '4242424242424242', exp: '12/39', cvc: '123', name: 'Erika Muster', street: 'Weg 1', zip: '10115', city: 'Berlin', country: 'DE', action: 'pay' });
  const pay = await fetch(`${origin}/pay/sim/${sessionId}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(), redirect: 'manual' });
  expect(pay.status).toBe(303);
}

export async function waitForCompletedOrder(db: Database['db'], orderId: string) {
  await waitFor('order completed and invoice mailed', async () => {
    const [o] = await db.select().from(orders).where(eq(orders.id, orderId));
    const [inv] = await db.select().from(invoices).where(eq(invoices.orderId, orderId));
    return o?.status === 'completed' && inv?.mailedAt ? true : undefined;
  }, 60_000);
}

/**
 * A purchase through a product's shop route while the process is set to die after the job `killAfter`:
 * checkout, payment on the simulated card page, the kill (that job still claimed, so the restart must run
 * it again), the restart, and the order completed and its invoice mailed. Returns the order.
 */
export async function buyThroughCrash(crash: CrashScenario, killAfter: string, auth: Record<string, string>, checkoutPath: string, body: object) {
  const { db, origin } = crash;
  await crash.start({ FAULT_KILL_AFTER_JOB: killAfter });
  const checkout = await fetch(`${origin}${checkoutPath}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  expect(checkout.status, await checkout.clone().text()).toBe(201);
  const { orderId, sessionId } = (await checkout.json()) as { orderId: string; sessionId: string };
  await payOnSimulatedPage(origin, sessionId);

  await crash.expectKilled(`the process should have been killed after ${killAfter}`);
  const [killedJob] = await db.select().from(jobs).where(eq(jobs.kind, killAfter));
  expect(killedJob?.status).toBe('running');

  // Killed after the last step, the order already looks done: wait for the new process itself.
  await crash.restart({ healthy: true });
  await waitForCompletedOrder(db, orderId);
  return { orderId };
}

/** Every job settles (none queued or running after `timeoutMs`) and none failed. */
export async function expectJobsSettled(db: Database['db'], timeoutMs: number) {
  const openJobs = async () => (await db.select({ kind: jobs.kind, status: jobs.status }).from(jobs).where(sql`status in ('queued', 'running')`)).map((j) => `${j.kind}:${j.status}`);
  await waitFor('no job left', async () => (await openJobs()).length === 0, timeoutMs).catch(async () => expect(await openJobs()).toEqual([]));
  expect(await db.select().from(jobs).where(eq(jobs.status, 'failed'))).toHaveLength(0);
}

/**
 * Mail is at-least-once: every run of a mail-invoice job may send, and a run can end without being
 * recorded (a kill after sending, or an error between sending and noting `mailedAt`, which queues a retry).
 * So the invoice goes out at least once and at most once per attempt, as the job table counts them. A run
 * without any fault has one attempt, so exactly one mail.
 */
export async function expectInvoiceMails(db: Database['db'], dataDir: string) {
  const mails = fs.readdirSync(path.join(dataDir, 'outbox')).map((f) => fs.readFileSync(path.join(dataDir, 'outbox', f), 'utf8')).filter((t) => t.includes('Ihre Rechnung'));
  const runs = await db.select({ attempts: jobs.attempts }).from(jobs).where(eq(jobs.kind, 'mail-invoice'));
  const attempts = runs.reduce((n, r) => n + r.attempts, 0);
  expect(mails.length).toBeGreaterThanOrEqual(1);
  expect(mails.length, `${mails.length} invoice mails from ${attempts} attempt(s) of mail-invoice`).toBeLessThanOrEqual(attempts);
}

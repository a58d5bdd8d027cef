import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { domains, invoices, jobs, orders, registrarContacts, simDomainRegistry, simRegistrarContacts, users } from '../db/schema/index.ts';
import { crashCleanups, createCrashCustomer, expectInvoiceMails, expectJobsSettled, openCrashScenario, payOnSimulatedPage, waitForCompletedOrder } from '../../test/crash.ts';

/**
 * SIGKILL at each step of a domain sale (decision 024, like the server and hosting crash tests): a real
 * API process on PostgreSQL is killed right after a job did its work but before the job was marked
 * done, so the work runs again after the restart. Every order must end with exactly one domain, one
 * registration at the (simulated) registry, one registrant contact and one invoice.
 */
const base = process.env.TEST_DATABASE_URL;

/** The job kinds of a domain sale, in order (payments/simulated.ts, payments.service.ts, domain-lifecycle.ts, invoices.service.ts). */
const killPoints = ['deliver-sim-webhook', 'sync-checkout', 'deliver-domain', 'issue-invoice', 'mail-invoice'];

describe.skipIf(!base).concurrent('domain registration survives SIGKILL at every step [postgres]', () => {
  const cleanups = crashCleanups();

  it.each(killPoints)('killed after %s → exactly one domain, registration, contact and invoice after restart', async (killAfter) => {
    const crash = await openCrashScenario(cleanups, 'hp-domain-crash-');
    const { db, origin } = crash;
    const { user, auth } = await createCrashCustomer(db);
    await db.update(users).set({ street: 'Weg 1', zipCode: '10115', city: 'Berlin', phone: '+49 30 1234' }).where(eq(users.id, user.id));

    await crash.start({ FAULT_KILL_AFTER_JOB: killAfter });
    const name = `crash-${killAfter.replace(/[^a-z]/g, '')}.de`;
    const checkout = await fetch(`${origin}/api/shop/domain/checkout`, {
      method: 'POST', headers: auth, body: JSON.stringify({ domain: name, action: 'register', years: 1, acceptTerms: true }),
    });
    expect(checkout.status, await checkout.clone().text()).toBe(201);
    const { orderId, sessionId } = (await checkout.json()) as { orderId: string; sessionId: string };
    await payOnSimulatedPage(origin, sessionId);

    await crash.expectKilled(`the process should have been killed after ${killAfter}`);
    const [killedJob] = await db.select().from(jobs).where(eq(jobs.kind, killAfter));
    expect(killedJob?.status).toBe('running');

    await crash.restart({ healthy: true });
    await waitForCompletedOrder(db, orderId);

    const owned = await db.select().from(domains).where(eq(domains.ownerId, user.id));
    expect(owned).toHaveLength(1);
    expect(owned[0]).toMatchObject({ domain: name, status: 'active' });
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ status: 'completed', product: 'domain', subscriptionId: owned[0]!.id });
    const registry = await db.select().from(simDomainRegistry).where(eq(simDomainRegistry.domain, name));
    expect(registry).toHaveLength(1);
    expect(registry[0]).toMatchObject({ ours: true, status: 'active' });
    expect(owned[0]!.expiresAt!.toISOString()).toBe(registry[0]!.expiresAt.toISOString());
    // One contact at the registry for the customer, however often delivery ran.
    expect(await db.select().from(registrarContacts)).toHaveLength(1);
    expect(await db.select().from(simRegistrarContacts)).toHaveLength(1);

    const allInvoices = await db.select().from(invoices);
    expect(allInvoices).toHaveLength(1);
    expect(allInvoices[0]).toMatchObject({ orderId, sequence: 1 });
    expect(allInvoices[0]!.document.lines[0]).toMatchObject({ name: `Domain ${name} – Registrierung`, quantity: 1, unitCode: 'ANN' });

    await expectJobsSettled(db, 20_000);
    expect(await db.select().from(jobs).where(eq(jobs.kind, 'deliver-domain'))).toHaveLength(1);
    await expectInvoiceMails(db, crash.dataDir);

    await crash.stop();
  }, 150_000);
});

/**
 * Registrar faults around a domain order (issue 13, decision 024): an unreachable registrar during
 * delivery (retried, delivered once), a busy registrar at checkout (German 503, no order left behind),
 * a pending transfer picked up again from its durable poll job, and a transfer past our deadline.
 * Faults are injected by replacing a method of ctx().app.deps.registrar for the duration of a test,
 * as domain-search.test.ts does.
 */
import { expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { describeEachDatabase } from '../../../test/harness.ts';
import { drainJobs, paySimulated } from '../../../test/shop.ts';
import { createDomainCustomer, freeName, postDomainCheckout } from '../../../test/domains.ts';
import { domains, invoices, jobs, orders, simDomainRegistry } from '../../db/schema/index.ts';
import { RegistrarError, registrarMessages, type RegistrarDriver } from '../../drivers/registrar/registrar.ts';
import { transferMessages } from './domain-lifecycle.ts';

describeEachDatabase('domains: registrar faults, retries, pending transfers', (ctx) => {
  /** Replaces one registrar method while body runs; restores it afterwards. */
  const withFault = async <K extends keyof RegistrarDriver, T>(method: K, fake: RegistrarDriver[K], body: () => Promise<T>) => {
    const registrar = ctx().app.deps.registrar;
    const original = registrar[method];
    registrar[method] = fake;
    try {
      return await body();
    } finally {
      registrar[method] = original;
    }
  };
  const jobsOf = (kind: string, orderId: string) =>
    ctx().database.db.select().from(jobs).where(and(eq(jobs.kind, kind), sql`${jobs.payload}->>'orderId' = ${orderId}`));

  it('registrar unreachable during delivery: the job is retried, the order stays processing, and the name is registered exactly once when it is back', { timeout: 120_000 }, async () => {
    const customer = await createDomainCustomer(ctx());
    const name = freeName();
    const res = await postDomainCheckout(ctx(), customer.auth, { domain: name, action: 'register', years: 1, acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    const registrar = ctx().app.deps.registrar;
    const realRegister = registrar.register.bind(registrar);
    let failed = 0;
    await withFault('register', async () => {
      failed++;
      throw new RegistrarError('UNAVAILABLE', undefined, 'connect ECONNREFUSED (test)');
    }, async () => {
      await paySimulated(ctx(), sessionId);
      // Only due jobs: the first attempt fails and is put back with a backoff.
      await ctx().app.jobs.drain();
    });
    expect(failed).toBe(1);
    const [delivery] = await jobsOf('deliver-domain', orderId);
    expect(delivery).toMatchObject({ status: 'queued', attempts: 1 });
    expect(delivery!.lastError).toBeTruthy();
    expect(delivery!.runAt.getTime()).toBeGreaterThan(Date.now() - 1000);
    expect((await ctx().database.db.select().from(orders).where(eq(orders.id, orderId)))[0]).toMatchObject({ status: 'processing' });
    expect((await ctx().database.db.select().from(domains).where(eq(domains.domain, name)))[0]).toMatchObject({ status: 'registering' });

    // Back: the retry registers it, exactly once.
    let registered = 0;
    await withFault('register', async (input) => {
      registered++;
      return realRegister(input);
    }, () => drainJobs(ctx()));
    expect(registered).toBe(1);
    expect((await ctx().database.db.select().from(domains).where(eq(domains.domain, name)))[0]).toMatchObject({ status: 'active', ownerId: customer.user.id });
    expect((await ctx().database.db.select().from(orders).where(eq(orders.id, orderId)))[0]).toMatchObject({ status: 'completed' });
    expect(await jobsOf('deliver-domain', orderId)).toEqual([expect.objectContaining({ status: 'done', attempts: 2 })]);
    expect(ctx().mail.sent.filter((m) => m.subject === `Ihre Domain ${name} ist registriert`)).toHaveLength(1);
    expect(await ctx().database.db.select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice')))).toHaveLength(1);
  });

  it('registrar busy at checkout: German 503 "später", no order and no hold left behind; the quote answers the same', async () => {
    const customer = await createDomainCustomer(ctx());
    const name = freeName();
    await withFault('check', async () => {
      throw new RegistrarError('TRY_LATER', undefined, 'rate limited (test)');
    }, async () => {
      const res = await postDomainCheckout(ctx(), customer.auth, { domain: name, action: 'register', years: 1, acceptTerms: true });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error).toEqual({ code: 'REGISTRAR_TRY_LATER', message: registrarMessages.TRY_LATER });
      expect(res.json().error.message).toContain('später');
      const quote = await ctx().app.inject({ method: 'GET', url: `/api/shop/domain?domain=${name}`, headers: customer.auth });
      expect(quote.statusCode).toBe(503);
      expect(quote.json().error.message).toBe(registrarMessages.TRY_LATER);
    });
    expect(await ctx().database.db.select().from(orders).where(eq(orders.userId, customer.user.id))).toEqual([]);
    // Nothing holds the name: another customer orders it right away.
    const other = await createDomainCustomer(ctx());
    const res = await postDomainCheckout(ctx(), other.auth, { domain: name, action: 'register', years: 1, acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('a transfer still pending is finished from its durable poll job (as after a restart)', { timeout: 120_000 }, async () => {
    const customer = await createDomainCustomer(ctx());
    const res = await postDomainCheckout(ctx(), customer.auth, { domain: 'beispiel.de', action: 'transfer', years: 1, authCode: 'Beispiel-De-77', acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    await paySimulated(ctx(), sessionId);
    // The registry keeps it pending for a long time.
    await ctx().app.jobs.drain();
    await ctx().database.db.update(simDomainRegistry).set({ pendingUntil: new Date(Date.now() + 3_600_000) }).where(eq(simDomainRegistry.domain, 'beispiel.de'));
    await ctx().app.jobs.drain();
    expect((await ctx().database.db.select().from(domains).where(eq(domains.domain, 'beispiel.de')))[0]).toMatchObject({ status: 'transferring' });
    // What survives a restart is the row in `jobs`: a queued poll job for this order (nothing in memory).
    const polls = await jobsOf('poll-domain-transfer', orderId);
    const queued = polls.filter((j) => j.status === 'queued');
    expect(queued).toHaveLength(1);
    expect(JSON.stringify(queued[0]!.payload)).not.toContain('Beispiel-De-77');
    // The registry finishes; the queued row, once due, is picked up by a plain drain (as by any instance after a restart).
    await ctx().database.db.update(simDomainRegistry).set({ pendingUntil: new Date(Date.now() - 1000) }).where(eq(simDomainRegistry.domain, 'beispiel.de'));
    await ctx().database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.id, queued[0]!.id));
    await ctx().app.jobs.drain();
    expect((await ctx().database.db.select().from(domains).where(eq(domains.domain, 'beispiel.de')))[0]).toMatchObject({ status: 'active', ownerId: customer.user.id });
    expect((await ctx().database.db.select().from(orders).where(eq(orders.id, orderId)))[0]).toMatchObject({ status: 'completed' });
    await drainJobs(ctx());
    expect(ctx().mail.sent.filter((m) => m.subject === 'Der Transfer von beispiel.de ist abgeschlossen')).toHaveLength(1);
  });

  it('a transfer past our deadline fails with the German message and is refunded', { timeout: 120_000 }, async () => {
    const customer = await createDomainCustomer(ctx());
    const res = await postDomainCheckout(ctx(), customer.auth, { domain: 'heise.de', action: 'transfer', years: 1, authCode: 'Heise-De-2025', acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    await paySimulated(ctx(), sessionId);
    await ctx().app.jobs.drain();
    await ctx().database.db.update(simDomainRegistry).set({ pendingUntil: new Date(Date.now() + 30 * 86_400_000) }).where(eq(simDomainRegistry.domain, 'heise.de'));
    const [transferring] = await ctx().database.db.select().from(domains).where(eq(domains.domain, 'heise.de'));
    expect(transferring).toMatchObject({ status: 'transferring' });
    expect(transferring!.pendingDeadline!.getTime()).toBeGreaterThan(Date.now() + 9 * 86_400_000);
    // Ten days later the registry still has not finished.
    await ctx().database.db.update(domains).set({ pendingDeadline: new Date(Date.now() - 1000) }).where(eq(domains.id, transferring!.id));
    await drainJobs(ctx());
    const [failed] = await ctx().database.db.select().from(domains).where(eq(domains.id, transferring!.id));
    expect(failed).toMatchObject({ status: 'failed', statusMessage: transferMessages.timedOut, pendingDeadline: null });
    expect(failed!.statusMessage).toBe('Der bisherige Anbieter hat den Transfer nicht rechtzeitig freigegeben. Die Zahlung wird erstattet; Sie können den Transfer mit einem neuen Auth-Code erneut beauftragen.');
    const [order] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ status: 'refunded' });
    expect(order!.refundId).toBeTruthy();
    expect(ctx().mail.sent.map((m) => m.subject)).toContain(`Ihre Bestellung ${order!.number} wurde erstattet`);
    // The transfer had started, so the invoice had been issued; the refund corrects it with a credit note (decision 023).
    const [invoice] = await ctx().database.db.select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice')));
    expect(invoice!.creditedAt).not.toBeNull();
    const credits = await ctx().database.db.select().from(invoices).where(eq(invoices.correctsInvoiceId, invoice!.id));
    expect(credits).toHaveLength(1);
    expect(credits[0]!.kind).not.toBe('invoice');
    // No poll job is left waiting.
    expect((await jobsOf('poll-domain-transfer', orderId)).filter((j) => j.status === 'queued')).toEqual([]);
  });
});

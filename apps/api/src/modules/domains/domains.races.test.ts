/**
 * Who gets a name when several want it (issue 13, decision 024), and parallel portal requests. The
 * checkout hold and the fulfilment are serialised by an advisory lock per name; the races are real only
 * on PostgreSQL (PGlite has one connection), so every test runs on both.
 */
import { expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { domainOrderMessages } from '@hp/contract';
import { describeEachDatabase } from '../../../test/harness.ts';
import { drainJobs, paySimulated } from '../../../test/shop.ts';
import { buyDomain, createDomainCustomer, freeName, postDomainCheckout } from '../../../test/domains.ts';
import { domains, invoices, orders, simDomainRegistry } from '../../db/schema/index.ts';
import { resetCounter } from '../../lib/rate-limit.ts';

describeEachDatabase('domains: races for a name, parallel portal requests', (ctx) => {
  it('ten customers order the same free name at once: exactly one order, nine German 409 "held", nobody else has an order', { timeout: 120_000 }, async () => {
    const name = freeName();
    const customers = await Promise.all(Array.from({ length: 10 }, () => createDomainCustomer(ctx())));
    const answers = await Promise.all(customers.map((c) => postDomainCheckout(ctx(), c.auth, { domain: name, action: 'register', years: 1, acceptTerms: true })));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses, answers.map((r) => r.body).join('\n')).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.statusCode === 409)) {
      expect(r.json().error).toEqual({ code: 'DOMAIN_HELD', message: domainOrderMessages.held });
      expect(r.json().error.message).toContain('wird gerade von einem anderen Kunden bestellt');
    }
    const rows = await ctx().database.db.select().from(orders).where(inArray(orders.userId, customers.map((c) => c.user.id)));
    expect(rows).toHaveLength(1);
    const winner = answers.findIndex((a) => a.statusCode === 201);
    expect(rows[0]).toMatchObject({ userId: customers[winner]!.user.id, status: 'pending', product: 'domain' });
    // The winner pays and gets the name; the others were never charged.
    await paySimulated(ctx(), answers[winner]!.json().sessionId);
    await drainJobs(ctx());
    expect(await ctx().database.db.select({ ownerId: domains.ownerId, status: domains.status }).from(domains).where(eq(domains.domain, name)))
      .toEqual([{ ownerId: customers[winner]!.user.id, status: 'active' }]);
    const paid = await ctx().database.db.select().from(orders).where(and(inArray(orders.userId, customers.map((c) => c.user.id)), eq(orders.status, 'completed')));
    expect(paid).toHaveLength(1);
  });

  it('the hold ran out and another customer paid first: one domain, the late payment is refunded with a mail and no invoice', { timeout: 120_000 }, async () => {
    const name = freeName();
    const a = await createDomainCustomer(ctx());
    const b = await createDomainCustomer(ctx());
    const first = await postDomainCheckout(ctx(), a.auth, { domain: name, action: 'register', years: 1, acceptTerms: true });
    expect(first.statusCode, first.body).toBe(201);
    // While A's hold is valid, B is refused.
    const refused = await postDomainCheckout(ctx(), b.auth, { domain: name, action: 'register', years: 1, acceptTerms: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(domainOrderMessages.held);
    // A leaves the payment page open past the hold (30 minutes): the name is free to order again …
    await ctx().database.db.update(orders).set({ holdUntil: new Date(Date.now() - 60_000) }).where(eq(orders.id, first.json().orderId));
    const second = await postDomainCheckout(ctx(), b.auth, { domain: name, action: 'register', years: 1, acceptTerms: true });
    expect(second.statusCode, second.body).toBe(201);
    // … B pays and is delivered first; then A finally pays on the still-open page of the provider.
    await paySimulated(ctx(), second.json().sessionId);
    await drainJobs(ctx());
    const late = await paySimulated(ctx(), first.json().sessionId);
    expect(late.statusCode, late.body).toBeLessThan(400);
    await drainJobs(ctx());

    const rows = await ctx().database.db.select().from(domains).where(eq(domains.domain, name));
    expect(rows).toEqual([expect.objectContaining({ ownerId: b.user.id, status: 'active' })]);
    const [orderA] = await ctx().database.db.select().from(orders).where(eq(orders.id, first.json().orderId));
    expect(orderA).toMatchObject({ status: 'refunded', subscriptionId: null });
    expect(orderA!.refundId).toBeTruthy();
    expect(await ctx().database.db.select().from(invoices).where(and(eq(invoices.orderId, orderA!.id), eq(invoices.kind, 'invoice')))).toEqual([]);
    expect(ctx().mail.sent.filter((m) => m.to === a.user.email).map((m) => m.subject)).toContain(`Ihre Bestellung ${orderA!.number} wurde erstattet`);
    expect(ctx().mail.sent.some((m) => m.to === a.user.email && m.subject === `Ihre Domain ${name} ist registriert`)).toBe(false);
    const [orderB] = await ctx().database.db.select().from(orders).where(eq(orders.id, second.json().orderId));
    expect(orderB).toMatchObject({ status: 'completed', subscriptionId: rows[0]!.id });
  });

  it('someone else registers the name at the registry between check and delivery: TAKEN → domain failed in German, order refunded', { timeout: 120_000 }, async () => {
    const name = freeName();
    const customer = await createDomainCustomer(ctx());
    const res = await postDomainCheckout(ctx(), customer.auth, { domain: name, action: 'register', years: 1, acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    await paySimulated(ctx(), res.json().sessionId);
    await ctx().database.db.insert(simDomainRegistry).values({
      domain: name, ours: false, status: 'active', authCode: 'Fremd-Code-1', expiresAt: new Date(Date.now() + 365 * 86_400_000), nameservers: ['ns1.anderswo.de', 'ns2.anderswo.de'],
    });
    await drainJobs(ctx());
    const [domain] = await ctx().database.db.select().from(domains).where(eq(domains.domain, name));
    expect(domain).toMatchObject({ status: 'failed', statusMessage: 'Diese Domain ist bereits vergeben.', ownerId: customer.user.id });
    const [order] = await ctx().database.db.select().from(orders).where(eq(orders.id, res.json().orderId));
    expect(order).toMatchObject({ status: 'refunded' });
    expect(order!.refundId).toBeTruthy();
    expect(await ctx().database.db.select().from(invoices).where(and(eq(invoices.orderId, order!.id), eq(invoices.kind, 'invoice')))).toEqual([]);
    expect(ctx().mail.sent.map((m) => m.subject)).toContain(`Ihre Bestellung ${order!.number} wurde erstattet`);
    // The registry row stays the other's.
    const [registry] = await ctx().database.db.select().from(simDomainRegistry).where(eq(simDomainRegistry.domain, name));
    expect(registry).toMatchObject({ ours: false, authCode: 'Fremd-Code-1' });
  });

  it('ten parallel auth-code reveals and ten parallel nameserver changes: no 5xx; changes take turns (the rest 409 German), registry and portal agree', { timeout: 120_000 }, async () => {
    const customer = await createDomainCustomer(ctx());
    const { domainId, domain: name } = await buyDomain(ctx(), customer);
    await resetCounter(ctx().database.db, `domain-write:${customer.user.id}`);
    const reveals = await Promise.all(Array.from({ length: 10 }, () => ctx().app.inject({ method: 'POST', url: `/api/domains/${domainId}/auth-code`, headers: customer.auth, payload: { password: customer.password } })));
    const revealStatuses = reveals.map((r) => r.statusCode);
    expect(revealStatuses.every((s) => s < 500), reveals.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBe(true);
    // The password check is rate-limited; whatever was refused is refused with the 429 of that limit, in German.
    for (const r of reveals.filter((x) => x.statusCode !== 200)) expect(r.statusCode, r.body).toBe(429);
    const codes = new Set(reveals.filter((r) => r.statusCode === 200).map((r) => r.json().authCode as string));
    expect(codes.size).toBeGreaterThanOrEqual(1);

    const sets = Array.from({ length: 10 }, (_, i) => [`ns1.dns${i}.example.net`, `ns2.dns${i}.example.net`]);
    const changes = await Promise.all(sets.map((nameservers) => ctx().app.inject({ method: 'PUT', url: `/api/domains/${domainId}/nameservers`, headers: customer.auth, payload: { nameservers } })));
    // One registrar change per domain at a time: the others are told so in German and change nothing.
    const applied = changes.filter((r) => r.statusCode === 200);
    expect(applied.length, changes.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBeGreaterThanOrEqual(1);
    for (const r of changes.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().error).toMatchObject({ code: 'DOMAIN_CHANGE_RUNNING', message: 'Eine andere Änderung an dieser Domain läuft gerade. Bitte versuchen Sie es in einem Moment erneut.' });
    }
    const [row] = await ctx().database.db.select().from(domains).where(eq(domains.id, domainId));
    const [registry] = await ctx().database.db.select().from(simDomainRegistry).where(eq(simDomainRegistry.domain, name));
    expect(sets).toContainEqual(row!.nameservers);
    expect(registry!.nameservers).toEqual(row!.nameservers);
    // Sequentially the two agree:
    await ctx().app.inject({ method: 'PUT', url: `/api/domains/${domainId}/nameservers`, headers: customer.auth, payload: { nameservers: sets[0] } });
    const [rowAfter] = await ctx().database.db.select().from(domains).where(eq(domains.id, domainId));
    const [registryAfter] = await ctx().database.db.select().from(simDomainRegistry).where(eq(simDomainRegistry.domain, name));
    expect(rowAfter!.nameservers).toEqual(sets[0]);
    expect(registryAfter!.nameservers).toEqual(sets[0]);
  });
});

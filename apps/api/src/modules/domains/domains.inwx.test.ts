/**
 * The whole domain order with the INWX driver against the fake INWX server (instead of the simulated
 * registry): order, pay, register, then nameservers, transfer lock and auth code through the portal.
 * Each database kind gets its own app with the INWX driver and its own fake server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestContext, databaseKinds, type TestContext } from '../../../test/harness.ts';
import { buyDomain, createDomainCustomer, postDomainCheckout } from '../../../test/domains.ts';
import { auditEvents, domains, orders } from '../../db/schema/index.ts';
import { FAKE_INWX_TAKEN, startFakeInwx, type FakeInwx } from '../../drivers/registrar/inwx/fake-inwx.ts';
import { createInwxRegistrar } from '../../drivers/registrar/inwx/inwx.ts';
import { domainOrderMessages } from '@hp/contract';

let counter = 0;
const fresh = () => `inwxflow${Date.now().toString(36).slice(-5)}${counter++}.de`;

for (const kind of databaseKinds()) {
  describe(`domains with the INWX driver (fake INWX) [${kind}]`, () => {
    let fake: FakeInwx;
    let context: (TestContext & { close: () => Promise<void> }) | undefined;
    const ctx = () => context!;
    beforeAll(async () => {
      fake = await startFakeInwx();
      context = await createTestContext(kind, { registrar: () => createInwxRegistrar({ url: fake.url, ...fake.account, timeoutMs: 2000 }) });
    });
    afterAll(async () => {
      await context?.close();
      await fake?.close();
    });

    it('registers a free name end to end at INWX, then changes nameservers and the lock and reveals INWX\'s auth code', { timeout: 120_000 }, async () => {
      expect(ctx().app.deps.registrar.kind).not.toBe('simulated');
      const customer = await createDomainCustomer(ctx());
      const name = fresh();
      const { domainId, orderId } = await buyDomain(ctx(), customer, { domain: name });
      const at = fake.domain(name);
      expect(at).toMatchObject({ ours: true, status: 'OK', ns: ['ns1.musterhost.de', 'ns2.musterhost.de'] });
      expect(at!.contactId).not.toBeNull();
      const [row] = await ctx().database.db.select().from(domains).where(eq(domains.id, domainId));
      expect(row).toMatchObject({ domain: name, status: 'active', ownerId: customer.user.id });
      expect(row!.expiresAt!.toISOString().slice(0, 10)).toBe(at!.exDate.toISOString().slice(0, 10));
      expect((await ctx().database.db.select().from(orders).where(eq(orders.id, orderId)))[0]).toMatchObject({ status: 'completed' });
      expect(ctx().mail.sent.some((m) => m.subject === `Ihre Domain ${name} ist registriert`)).toBe(true);

      const put = (url: string, payload: object) => ctx().app.inject({ method: 'PUT', url: `/api/domains/${domainId}${url}`, headers: customer.auth, payload });
      const ns = await put('/nameservers', { nameservers: ['ns1.example.net', 'ns2.example.net', 'ns3.example.net'] });
      expect(ns.statusCode, ns.body).toBe(200);
      expect(ns.json()).toMatchObject({ nameservers: ['ns1.example.net', 'ns2.example.net', 'ns3.example.net'], providerDns: false });
      expect(fake.domain(name)!.ns).toEqual(['ns1.example.net', 'ns2.example.net', 'ns3.example.net']);

      // fake.domain() is the fake's live record: read the lock before changing it.
      const lockedBefore = fake.domain(name)!.transferLock;
      const lock = await put('/transfer-lock', { locked: !lockedBefore });
      expect(lock.statusCode, lock.body).toBe(200);
      expect(lock.json()).toMatchObject({ transferLock: !lockedBefore });
      expect(fake.domain(name)!.transferLock).toBe(!lockedBefore);

      const code = await ctx().app.inject({ method: 'POST', url: `/api/domains/${domainId}/auth-code`, headers: customer.auth, payload: { password: customer.password } });
      expect(code.statusCode, code.body).toBe(200);
      expect(code.json()).toEqual({ authCode: fake.domain(name)!.authCode });
      const audit = await ctx().database.db.select().from(auditEvents).where(and(eq(auditEvents.targetType, 'domain'), eq(auditEvents.targetId, domainId)));
      expect(audit.map((a) => a.action)).toEqual(['domain.auth_code_revealed']);
    });

    it('a name taken at INWX is refused at checkout in German', async () => {
      const customer = await createDomainCustomer(ctx());
      const taken = FAKE_INWX_TAKEN.find((t) => t.domain.endsWith('.de')) ?? FAKE_INWX_TAKEN[0]!;
      const res = await postDomainCheckout(ctx(), customer.auth, { domain: taken.domain, action: 'register', years: 1, acceptTerms: true });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.message).toBe(domainOrderMessages.notFree);
      expect(await ctx().database.db.select().from(orders).where(eq(orders.userId, customer.user.id))).toEqual([]);
    });
  });
}

import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema/index.ts';
import { createUser, type TestContext } from './harness.ts';
import { drainJobs, paySimulated } from './shop.ts';

let counter = 0;

/** A free name in the simulated registry (nothing seeded starts with "frei"). */
export const freeName = (tld = 'de') => `frei-${process.pid % 10000}-${Date.now().toString(36)}${(counter++).toString(36)}.${tld}`;

/** A customer whose profile has what the registry needs (address and phone). */
export async function createDomainCustomer(ctx: TestContext, opts: Parameters<typeof createUser>[1] = {}) {
  const customer = await createUser(ctx, opts);
  await ctx.database.db.update(users).set({ street: 'Hauptstraße 5', zipCode: '10115', city: 'Berlin', phone: '+49 30 123456' }).where(eq(users.id, customer.user.id));
  return customer;
}

export function postDomainCheckout(ctx: TestContext, auth: Record<string, string>, body: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/api/shop/domain/checkout', headers: auth, payload: body });
}

/** Orders, pays and registers a free name; returns the domain's id. */
export async function buyDomain(ctx: TestContext, buyer: { auth: Record<string, string> }, body: Record<string, unknown> = {}) {
  const domain = (body.domain as string | undefined) ?? freeName();
  const res = await postDomainCheckout(ctx, buyer.auth, { domain, action: 'register', years: 1, acceptTerms: true, ...body });
  expect(res.statusCode, res.body).toBe(201);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  await paySimulated(ctx, sessionId);
  await drainJobs(ctx);
  const order = await ctx.app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: buyer.auth });
  const path = (order.json() as { subscriptionPath: string | null }).subscriptionPath;
  expect(path).toMatch(/^\/dashboard\/domains\/[0-9a-f-]{36}$/);
  const domainId = path!.slice('/dashboard/domains/'.length);
  return { domainId, orderId, sessionId, domain };
}

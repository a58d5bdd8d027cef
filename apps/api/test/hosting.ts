import { expect } from 'vitest';
import { hostingServers } from '../src/db/schema/index.ts';
import type { TestContext } from './harness.ts';
import { drainJobs, paySimulated } from './shop.ts';

let counter = 0;

/** A hosting server with `slots` package slots and a unique panel id. */
export async function seedHostingServer(ctx: TestContext, slots = 10) {
  const tag = `${process.pid % 10000}${counter++}${Math.floor(Math.random() * 1000)}`;
  const [server] = await ctx.database.db.insert(hostingServers).values({ name: `web-${tag}`, hostname: `web-${tag}.example.net`, panelServerId: tag, slots }).returning();
  return server!;
}

export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

export function postHostingCheckout(ctx: TestContext, auth: Record<string, string>, body: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/api/shop/webhosting/checkout', headers: auth, payload: body });
}

/** Orders, pays and provisions a package; returns its id. */
export async function buyHosting(ctx: TestContext, buyer: { auth: Record<string, string> }, body: Record<string, unknown> = {}) {
  const res = await postHostingCheckout(ctx, buyer.auth, { plan: 'professional', months: 1, domainType: 'subdomain', subdomain: unique('site'), acceptTerms: true, ...body });
  expect(res.statusCode, res.body).toBe(201);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  await paySimulated(ctx, sessionId);
  await drainJobs(ctx);
  const list = await ctx.app.inject({ method: 'GET', url: '/api/hosting', headers: buyer.auth });
  const order = await ctx.app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: buyer.auth });
  const path = (order.json() as { subscriptionPath: string | null }).subscriptionPath;
  expect(path).toMatch(/^\/dashboard\/webhosting\/[0-9a-f-]{36}$/);
  const packageId = path!.slice('/dashboard/webhosting/'.length);
  expect((list.json() as { items: { id: string }[] }).items.map((p) => p.id)).toContain(packageId);
  return { packageId, orderId, sessionId };
}

import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestContext } from './harness.ts';
import { drainJobs, paySimulated } from './shop.ts';
import { vdcs } from '../src/db/schema/index.ts';

/** The smallest standard pool (4 vCPU, 8 GB, 100 GB, 1 IPv4) for a month, terms accepted. */
export const smallPool = { cpu: 4, ram: 8, storage: 100, ipv4: 1, months: 1, acceptTerms: true } as const;

export function postVdcCheckout(ctx: TestContext, auth: Record<string, string>, body: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/api/shop/vdc/checkout', headers: auth, payload: body });
}

/** Orders, pays and provisions a pool; returns its row and the order. */
export async function buyVdc(ctx: TestContext, buyer: { auth: Record<string, string> }, body: Record<string, unknown> = {}) {
  const res = await postVdcCheckout(ctx, buyer.auth, { ...smallPool, ...body });
  expect(res.statusCode, res.body).toBe(201);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  await paySimulated(ctx, sessionId);
  await drainJobs(ctx);
  const order = await ctx.app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: buyer.auth });
  const path = (order.json() as { subscriptionPath: string | null }).subscriptionPath;
  expect(path).toMatch(/^\/dashboard\/vdc\/[0-9a-f-]{36}$/);
  const vdcId = path!.slice('/dashboard/vdc/'.length);
  const [vdc] = await ctx.database.db.select().from(vdcs).where(eq(vdcs.id, vdcId));
  return { vdc: vdc!, vdcId, orderId, sessionId };
}

/** Creates a VM in the pool and lets its provisioning job run; returns the API's answer. */
export async function createVdcVm(ctx: TestContext, auth: Record<string, string>, vdcId: string, body: Record<string, unknown>) {
  const res = await ctx.app.inject({ method: 'POST', url: `/api/vdcs/${vdcId}/vms`, headers: auth, payload: { os: 'Debian 12', ...body } });
  return res;
}

import { expect } from 'vitest';
import { storageServers } from '../src/db/schema/index.ts';
import type { TestContext } from './harness.ts';
import { drainJobs, paySimulated } from './shop.ts';

let counter = 0;

/** A storage server with `capacityGb` GiB (sellable: × STORAGE_OVERCOMMIT) and a unique address. */
export async function seedStorageServer(ctx: TestContext, capacityGb = 100_000) {
  const tag = `${process.pid % 10000}-${counter++}-${Math.floor(Math.random() * 1e6)}`;
  const [server] = await ctx.database.db.insert(storageServers).values({ name: `cloud-${tag}`, url: `https://cloud-${tag}.example.net`, capacityGb }).returning();
  return server!;
}

export const storageName = (prefix = 'cs') => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

export function postStorageCheckout(ctx: TestContext, auth: Record<string, string>, body: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/api/shop/cloud-storage/checkout', headers: auth, payload: body });
}

/** Orders, pays and provisions an account; returns its id and name. */
export async function buyStorage(ctx: TestContext, buyer: { auth: Record<string, string> }, body: Record<string, unknown> = {}) {
  const accountName = (body.accountName as string | undefined) ?? storageName();
  const res = await postStorageCheckout(ctx, buyer.auth, { plan: '100gb', months: 1, accountName, acceptTerms: true, ...body });
  expect(res.statusCode, res.body).toBe(201);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  await paySimulated(ctx, sessionId);
  await drainJobs(ctx);
  const order = await ctx.app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: buyer.auth });
  const path = (order.json() as { subscriptionPath: string | null }).subscriptionPath;
  expect(path).toMatch(/^\/dashboard\/cloud-storage\/[0-9a-f-]{36}$/);
  return { storageId: path!.slice('/dashboard/cloud-storage/'.length), accountName, orderId, sessionId };
}

import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { invoices, ipAddresses, nodes } from '../src/db/schema/index.ts';
import type { TestContext } from './harness.ts';

let counter = 0;

/** A node with the given capacity and `ips` free IPv4 addresses, unique per call. */
export async function seedCapacity(ctx: TestContext, opts: { cpuCores?: number; ramGb?: number; storageGb?: number; ips?: number; status?: 'online' | 'offline' | 'maintenance' | 'unknown' } = {}) {
  const db = ctx.database.db;
  const tag = `${process.pid}-${counter++}-${Math.random().toString(36).slice(2, 6)}`;
  const [node] = await db.insert(nodes).values({
    name: `shop-${tag}`, host: '10.1.0.1', cpuCores: opts.cpuCores ?? 64, ramGb: opts.ramGb ?? 256, storageGb: opts.storageGb ?? 4000, status: opts.status ?? 'online',
  }).returning();
  // Random addresses in 172.16.0.0/12; a taken one (another call of this file or a parallel file on the
  // same database) is skipped rather than failing the test.
  const ips = [];
  while (ips.length < (opts.ips ?? 3)) {
    const n = Math.floor(Math.random() * 0xfffff);
    const [ip] = await db.insert(ipAddresses)
      .values({ address: `172.${16 + ((n >> 16) & 15)}.${(n >> 8) & 255}.${n & 255}`, version: 'IPv4', subnet: '24', gateway: '172.16.0.1' })
      .onConflictDoNothing().returning();
    if (ip) ips.push(ip);
  }
  return { node: node!, ips };
}

export const baseOrder = { os: 'linux', distro: 'Debian 12', cpu: 2, ram: 4, storage: 50, months: 1, acceptTerms: true } as const;

/** Opens the checkout as the customer; returns the API's answer. */
export function postCheckout(ctx: TestContext, auth: Record<string, string>, body: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/api/shop/checkout', headers: auth, payload: body });
}

/** Fills the simulated hosted page like a customer (card number decides the outcome). */
export function paySimulated(ctx: TestContext, sessionId: string, card = '4242 4242 4242 4242', action: 'pay' | 'cancel' = 'pay') {
  const form = new URLSearchParams({
    card, exp: '12/39', cvc: '123', name: 'Erika Müller', street: 'Hauptstraße 5', zip: '10115', city: 'Berlin', country: 'DE', action,
  });
  return ctx.app.inject({ method: 'POST', url: `/pay/sim/${sessionId}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
}

/** Runs every due job (webhook deliveries, fulfilment, provisioning, invoices, mails) until none is left. */
export async function drainJobs(ctx: TestContext, rounds = 5) {
  let total = 0;
  for (let i = 0; i < rounds; i++) {
    const n = await ctx.app.jobs.drain({ ignoreRunAt: true });
    total += n;
    if (n === 0) break;
  }
  return total;
}

/** One period of the billing schedules (payment housekeeping, server terms), run now on this instance. */
export const billingTick = (app: TestContext['app']) => app.scheduler.runNow('payment-housekeeping', 'server-terms');

/** A customer who bought a server by card: one running server, one paid invoice. */
export async function buyServer(ctx: TestContext, buyer: { user: { id: string }; auth: Record<string, string> }) {
  await seedCapacity(ctx, { ips: 1 });
  const checkout = await postCheckout(ctx, buyer.auth, baseOrder);
  expect(checkout.statusCode, checkout.body).toBe(201);
  await paySimulated(ctx, (checkout.json() as { sessionId: string }).sessionId);
  await drainJobs(ctx);
  const [invoice] = await ctx.database.db.select().from(invoices).where(eq(invoices.userId, buyer.user.id));
  expect(invoice?.paidAt).not.toBeNull();
  return invoice!;
}

import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addMonthsClamped } from '@hp/contract';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { baseOrder, billingTick, drainJobs, paySimulated, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { ipAddresses, nodes, orders, servers } from '../../db/schema/index.ts';


/** Buys a server through the shop and waits until it is online. */
async function buyServer(ctx: TestContext, auth: Record<string, string>, order: Record<string, unknown> = {}) {
  const res = await postCheckout(ctx, auth, { ...baseOrder, ...order });
  expect(res.statusCode, res.body).toBe(201);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  expect((await paySimulated(ctx, sessionId)).statusCode).toBe(303);
  await drainJobs(ctx);
  const [o] = await ctx.database.db.select().from(orders).where(eq(orders.id, orderId));
  expect(o!.status).toBe('completed');
  const [server] = await ctx.database.db.select().from(servers).where(eq(servers.id, o!.subscriptionId!));
  return server!;
}

const vmOf = async (ctx: TestContext, server: typeof servers.$inferSelect) => {
  const [node] = await ctx.database.db.select().from(nodes).where(eq(nodes.id, server.nodeId));
  return { node: node!.name, vmid: server.vmid };
};

describeEachDatabase('renewal, upgrade and expiry', (ctx) => {
  it('upgrades and renews: resources applied through the hypervisor, expiry extended from the old end', async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const server = await buyServer(ctx(), customer.auth);

    const info = await ctx().app.inject({ method: 'GET', url: `/api/shop/upgrade/${server.id}`, headers: customer.auth });
    expect(info.json()).toMatchObject({ os: 'linux', distro: 'Debian 12', cpu: 2, ram: 4, storage: 50 });

    const shrink = await postCheckout(ctx(), customer.auth, { ...baseOrder, storage: 45, serverId: server.id });
    expect(shrink.statusCode).toBe(400);
    expect(shrink.json().error.message).toBe('Der Speicher kann nicht verkleinert werden.');

    const res = await postCheckout(ctx(), customer.auth, { ...baseOrder, cpu: 4, ram: 8, storage: 80, months: 2, serverId: server.id });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    await paySimulated(ctx(), sessionId);
    await drainJobs(ctx());

    const [after] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(after).toMatchObject({ cpuCores: 4, ramGb: 8, storageGb: 80 });
    expect(after!.expiresAt!.toISOString()).toBe(addMonthsClamped(server.expiresAt!, 2).toISOString());
    const status = await ctx().app.deps.hypervisor.currentStatus(await vmOf(ctx(), server));
    expect(status.cpus).toBe(4);
    expect(status.maxmem).toBe(8 * 1024 ** 3);
    const [order] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ kind: 'upgrade', status: 'completed' });
    const invoices = (await ctx().app.inject({ method: 'GET', url: '/api/invoices', headers: customer.auth })).json().items;
    expect(invoices).toHaveLength(2);
  });

  it('shows the server\'s term end as the next billing date on every order of the server, also after a renewal', async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const server = await buyServer(ctx(), customer.auth);
    const renewal = await postCheckout(ctx(), customer.auth, { ...baseOrder, months: 3, serverId: server.id });
    expect(renewal.statusCode, renewal.body).toBe(201);
    await paySimulated(ctx(), renewal.json().sessionId);
    await drainJobs(ctx());

    const [after] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    const end = after!.expiresAt!.toISOString();
    expect(end).toBe(addMonthsClamped(server.expiresAt!, 3).toISOString());
    const list = (await ctx().app.inject({ method: 'GET', url: '/api/orders', headers: customer.auth })).json().items as { id: string; nextBillingDate: string }[];
    expect(list).toHaveLength(2);
    for (const order of list) {
      expect(order.nextBillingDate).toBe(end);
      const detail = (await ctx().app.inject({ method: 'GET', url: `/api/orders/${order.id}`, headers: customer.auth })).json();
      expect(detail.nextBillingDate).toBe(end);
    }
  });

  it('reminds before the end, stops at the end, refuses starting, and a renewal brings it back', async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const server = await buyServer(ctx(), customer.auth);
    const db = ctx().database.db;

    await db.update(servers).set({ expiresAt: new Date(Date.now() + 3 * 86_400_000) }).where(eq(servers.id, server.id));
    await billingTick(ctx().app);
    await billingTick(ctx().app);
    await drainJobs(ctx());
    const reminders = ctx().mail.sent.filter((m) => m.to === customer.email && m.subject.includes('läuft am'));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text).toContain(`/upgrade/kvm-server/${server.id}`);

    await db.update(servers).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(servers.id, server.id));
    await billingTick(ctx().app);
    await drainJobs(ctx());
    const [suspended] = await db.select().from(servers).where(eq(servers.id, server.id));
    expect(suspended!.suspendedAt).not.toBeNull();
    expect(suspended!.status).toBe('offline');
    expect((await ctx().app.deps.hypervisor.currentStatus(await vmOf(ctx(), server))).status).toBe('stopped');
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.subject.includes('wurde gestoppt'))).toBe(true);

    const start = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: customer.auth, payload: { action: 'start' } });
    expect(start.statusCode).toBe(409);
    expect(start.json().error.code).toBe('SERVER_EXPIRED');

    const renew = await postCheckout(ctx(), customer.auth, { ...baseOrder, serverId: server.id });
    expect(renew.statusCode, renew.body).toBe(201);
    await paySimulated(ctx(), renew.json().sessionId);
    await drainJobs(ctx());
    const [renewed] = await db.select().from(servers).where(eq(servers.id, server.id));
    expect(renewed!.suspendedAt).toBeNull();
    expect(renewed!.status).toBe('online');
    expect(renewed!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    expect((await ctx().app.deps.hypervisor.currentStatus(await vmOf(ctx(), server))).status).toBe('running');
  });

  it('deletes a server after the grace period and returns its IP to the pool', async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const server = await buyServer(ctx(), customer.auth);
    const db = ctx().database.db;
    const grace = ctx().app.deps.env.billing.graceDays;
    await db.update(servers).set({ expiresAt: new Date(Date.now() - (grace + 1) * 86_400_000) }).where(eq(servers.id, server.id));
    await billingTick(ctx().app); // suspends
    await drainJobs(ctx());
    await billingTick(ctx().app); // grace over: deletes
    await drainJobs(ctx());
    const [gone] = await db.select().from(servers).where(eq(servers.id, server.id));
    expect(gone!.deletedAt).not.toBeNull();
    expect(await db.select().from(ipAddresses).where(eq(ipAddresses.serverId, server.id))).toHaveLength(0);
    await expect(ctx().app.deps.hypervisor.currentStatus(await vmOf(ctx(), server))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.subject.includes('wurde gelöscht'))).toBe(true);
    // Renewing a deleted server is not possible.
    expect((await postCheckout(ctx(), customer.auth, { ...baseOrder, serverId: server.id })).statusCode).toBe(404);
  });
});

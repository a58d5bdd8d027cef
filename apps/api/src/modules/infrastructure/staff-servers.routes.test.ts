import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { infrastructureMessages as m, messages, type AdminServerDetail, type AdminServerRow, type ServerUsage } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { baseOrder, billingTick, paySimulated, postCheckout, seedCapacity, drainJobs } from '../../../test/shop.ts';
import { ipAddresses, orders, servers } from '../../db/schema/index.ts';

describeEachDatabase('staff view of servers, manual servers and the address history of orders', (ctx) => {
  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, headers?: Record<string, string>, payload?: unknown) =>
    ctx().app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function manualServer(reason = 'Kulanz: Ersatz für den ausgefallenen Server') {
    const staff = await createUser(ctx(), { role: 'employee' });
    const owner = await createUser(ctx());
    const { node } = await seedCapacity(ctx(), { ips: 1 });
    const res = await inject('POST', '/api/admin/servers', staff.auth, { cpuCores: 1, ramGb: 2, storageGb: 25, os: 'Debian 12', owner: owner.user.customerNumber, nodeId: node.id, reason });
    expect(res.statusCode, res.body).toBe(201);
    return { staff, owner, node, server: res.json() as AdminServerRow };
  }

  const waitForStatus = async (auth: Record<string, string>, id: string, status: string) => {
    for (let i = 0; i < 100; i++) {
      const detail = (await inject('GET', `/api/admin/servers/${id}`, auth)).json() as AdminServerDetail;
      if (detail.status === status) return detail;
      // Provisioning is a durable job: the test drives the runner.
      await ctx().app.jobs.drain();
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`server ${id} never became ${status}`);
  };

  it('deletes a free address that an abandoned order once held; the order keeps the address as text', async () => {
    const staff = await createUser(ctx(), { role: 'employee' });
    const buyer = await createUser(ctx());
    await seedCapacity(ctx(), { ips: 1 });
    // Cancel on the hosted page: the order is cancelled and the hold released, but the row still points to the address.
    const checkout = await postCheckout(ctx(), buyer.auth, baseOrder);
    expect(checkout.statusCode, checkout.body).toBe(201);
    const { orderId, sessionId } = checkout.json() as { orderId: string; sessionId: string };
    const [order] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    const [held] = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.id, order!.ipAddressId!));
    expect(order!.ipAddress).toBe(held!.address);
    await paySimulated(ctx(), sessionId, '4242 4242 4242 4242', 'cancel');
    // The order stays payable while its hold lasts (decision 028); once that has run out the tick ends it.
    const past = new Date(Date.now() - 60_000);
    await ctx().database.db.update(orders).set({ holdUntil: past }).where(eq(orders.id, orderId));
    await ctx().database.db.update(ipAddresses).set({ reservedUntil: past }).where(eq(ipAddresses.id, held!.id));
    await billingTick(ctx().app);
    await drainJobs(ctx());
    const [cancelled] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(cancelled!.status).toBe('cancelled');

    const res = await inject('DELETE', `/api/admin/ip-addresses/${held!.id}`, staff.auth);
    expect(res.statusCode, res.body).toBe(204);
    const [after] = await ctx().database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(after).toMatchObject({ ipAddressId: null, ipAddress: held!.address });
  });

  it('records who created a server without an order and why, and refuses it without a reason', async () => {
    const { staff, server } = await manualServer();
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row).toMatchObject({ createdById: staff.user.id, creationReason: 'Kulanz: Ersatz für den ausgefallenen Server', expiresAt: null });
    const detail = (await inject('GET', `/api/admin/servers/${server.id}`, staff.auth)).json() as AdminServerDetail;
    expect(detail.createdBy).toEqual({ username: staff.username, reason: 'Kulanz: Ersatz für den ausgefallenen Server' });

    const owner = await createUser(ctx());
    const { node } = await seedCapacity(ctx(), { ips: 1 });
    const missing = await inject('POST', '/api/admin/servers', staff.auth, { cpuCores: 1, ramGb: 2, storageGb: 25, os: 'Debian 12', owner: owner.user.customerNumber, nodeId: node.id, reason: '  ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe(m.reasonRequired);
  });

  it('offers and accepts only customers as owners, never staff accounts', async () => {
    const staff = await createUser(ctx(), { role: 'employee' });
    const colleague = await createUser(ctx(), { role: 'owner' });
    const picker = await inject('GET', `/api/admin/customers?search=${colleague.username}`, staff.auth);
    expect(picker.json().items).toEqual([]);
    const { node } = await seedCapacity(ctx(), { ips: 1 });
    const res = await inject('POST', '/api/admin/servers', staff.auth, { cpuCores: 1, ramGb: 2, storageGb: 25, os: 'Debian 12', owner: colleague.user.customerNumber, nodeId: node.id, reason: 'Server für einen Kollegen' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(m.ownerNotFound);
  });

  it('shows staff any server with owner, node, address, tasks and usage, and logs their power actions', async () => {
    const { staff, owner, node, server } = await manualServer();
    const online = await waitForStatus(staff.auth, server.id, 'online');
    expect(online).toMatchObject({
      owner: { customerNumber: owner.user.customerNumber, username: owner.username, email: owner.email },
      node: { id: node.id, name: node.name }, ip: server.ip, expiresAt: null,
    });
    expect(online.tasks[0]).toMatchObject({ kind: 'create', status: 'ok', progress: 100 });

    const usage = await inject('GET', `/api/admin/servers/${server.id}/usage`, staff.auth);
    expect(usage.statusCode, usage.body).toBe(200);
    expect((usage.json() as ServerUsage).running).toBe(true);

    const stop = await inject('POST', `/api/admin/servers/${server.id}/power`, staff.auth, { action: 'stop' });
    expect(stop.statusCode, stop.body).toBe(200);
    const stopped = await waitForStatus(staff.auth, server.id, 'offline');
    expect(stopped.audit).toEqual([expect.objectContaining({ action: 'power.stop', actor: staff.username, details: { previousStatus: 'online' } })]);
    // The customer's throttle (per kind of action, docs/decisions/027) holds for staff too.
    const tooSoon = await inject('POST', `/api/admin/servers/${server.id}/power`, staff.auth, { action: 'stop' });
    expect(tooSoon.statusCode).toBe(429);
  });

  it('keeps the staff view from customers (403), a customer from the staff routes, and unknown ids at 404', async () => {
    const { owner, server, staff } = await manualServer();
    expect((await inject('GET', `/api/admin/servers/${server.id}`, owner.auth)).statusCode).toBe(403);
    const power = await inject('POST', `/api/admin/servers/${server.id}/power`, owner.auth, { action: 'stop' });
    expect(power.statusCode).toBe(403);
    expect(power.json().error.message).toBe(messages.forbidden);
    const unknown = await inject('GET', '/api/admin/servers/00000000-0000-4000-8000-000000000000', staff.auth);
    expect(unknown.statusCode).toBe(404);
    const bad = await inject('POST', `/api/admin/servers/${server.id}/power`, staff.auth, { action: 'destroy' });
    expect(bad.statusCode).toBe(400);
    const [ip] = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.serverId, server.id));
    expect(ip!.address).toBe(server.ip);
  });
});

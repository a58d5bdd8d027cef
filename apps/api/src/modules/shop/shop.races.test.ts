import { expect, it } from 'vitest';
import fc from 'fast-check';
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { shopMessages } from '@hp/contract';
import { createTestContext, createUser, describeEachDatabase, STRONG_PASSWORD, uniqueName, type TestContext } from '../../../test/harness.ts';
import { baseOrder, billingTick, drainJobs, paySimulated, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { seedServer } from '../../../test/servers.ts';
import { ipAddresses, nodes, orders, serverAccess, servers, simCheckoutSessions, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { openSession } from '../auth/sessions.ts';

import { fits, type Resources } from '../servers/capacity.ts';

/**
 * Money and capacity under races (quality/security-and-reliability.md): parallel checkouts never sell an
 * IP or node capacity twice, holds run out, and upgrades are checked against the node like new orders.
 * Races only really race on PostgreSQL (PGlite has one connection), but every test must hold on both.
 */

type Ctx = TestContext & { close: () => Promise<void> };

/** `n` verified customers with sessions, fast (one password hash for all). */
async function createCustomers(ctx: TestContext, n: number) {
  const db = ctx.database.db;
  const passwordHash = await hashPassword(STRONG_PASSWORD);
  const rows = await db.insert(users).values(Array.from({ length: n }, () => {
    const username = uniqueName('racer');
    return { username, email: `${username}@example.com`, role: 'customer' as const, passwordHash, emailVerifiedAt: new Date() };
  })).returning();
  return Promise.all(rows.map(async (user) => {
    const session = await openSession(db, ctx.app.deps.secrets, user, 'test');
    return { user, auth: { authorization: `Bearer ${session.token}` } };
  }));
}

/** A world of its own (e.g. exactly one free IP in the whole database), closed afterwards. */
async function isolated<T>(kind: TestContext['kind'], body: (ctx: Ctx) => Promise<T>): Promise<T> {
  const ctx = await createTestContext(kind);
  try {
    return await body(ctx);
  } finally {
    await ctx.close();
  }
}

interface NodeUsage { id: number; cap: Resources; used: Resources }

/** What every node has sold (servers not deleted + holds of open orders), straight from SQL. */
async function nodeUsage(ctx: TestContext): Promise<NodeUsage[]> {
  const result = await ctx.database.db.execute(sql`
    select n.id, n.cpu_cores, n.ram_gb, n.storage_gb,
      (coalesce(s.cpu, 0) + coalesce(o.cpu, 0))::int as used_cpu,
      (coalesce(s.ram, 0) + coalesce(o.ram, 0))::int as used_ram,
      (coalesce(s.storage, 0) + coalesce(o.storage, 0))::int as used_storage
    from nodes n
    left join (select node_id, sum(cpu_cores) cpu, sum(ram_gb) ram, sum(storage_gb) storage
               from servers where deleted_at is null group by node_id) s on s.node_id = n.id
    left join (select node_id, sum(hold_cpu_cores) cpu, sum(hold_ram_gb) ram, sum(hold_storage_gb) storage
               from orders where status = 'pending' and hold_until > now() group by node_id) o on o.node_id = n.id
    order by n.id`);
  const rows = (result as unknown as { rows: Record<string, number>[] }).rows;
  return rows.map((r) => ({
    id: Number(r.id),
    cap: { cpuCores: Number(r.cpu_cores), ramGb: Number(r.ram_gb), storageGb: Number(r.storage_gb) },
    used: { cpuCores: Number(r.used_cpu), ramGb: Number(r.used_ram), storageGb: Number(r.used_storage) },
  }));
}

const overcommitted = (usage: NodeUsage[]) => usage.filter((u) => !fits(u.used, u.cap));
const freeOn = (u: NodeUsage): Resources => ({ cpuCores: u.cap.cpuCores - u.used.cpuCores, ramGb: u.cap.ramGb - u.used.ramGb, storageGb: u.cap.storageGb - u.used.storageGb });

/** Lets the clock run past an open order's hold: its capacity hold, its IP hold and the provider's session. */
async function expireHold(ctx: TestContext, orderId: string) {
  const db = ctx.database.db;
  const past = new Date(Date.now() - 60_000);
  const [order] = await db.update(orders).set({ holdUntil: past }).where(eq(orders.id, orderId)).returning();
  if (order!.ipAddressId) await db.update(ipAddresses).set({ reservedUntil: past }).where(eq(ipAddresses.id, order!.ipAddressId));
  if (order!.paymentSessionId) await db.update(simCheckoutSessions).set({ expiresAt: past }).where(eq(simCheckoutSessions.id, order!.paymentSessionId));
  return order!;
}

describeEachDatabase('shop: races over capacity and IPs', (ctx) => {
  it('50 parallel checkouts for the last free IP: exactly one wins, 49 get the German "no IP" answer, no orphaned hold', async () => {
    await isolated(ctx().kind, async (world) => {
      const db = world.database.db;
      const { ips: [lastFree] } = await seedCapacity(world, { cpuCores: 88, ramGb: 512, storageGb: 8000, ips: 1 });
      // Addresses that are not free for a new server: one in use, one IPv6.
      const [used] = await db.insert(ipAddresses).values({ address: '192.0.2.10', version: 'IPv4', subnet: '24', gateway: '192.0.2.1', serverId: crypto.randomUUID() }).returning();
      await db.insert(ipAddresses).values({ address: '2001:db8::10', version: 'IPv6', subnet: '64', gateway: '2001:db8::1' });
      const customers = await createCustomers(world, 50);

      const responses = await Promise.all(customers.map((c) => postCheckout(world, c.auth, baseOrder)));
      const won = responses.filter((r) => r.statusCode === 201);
      const lost = responses.filter((r) => r.statusCode !== 201);
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(49);
      for (const r of lost) {
        expect(r.statusCode, r.body).toBe(409);
        expect(r.json().error).toMatchObject({ code: 'NO_FREE_IP', message: shopMessages.noFreeIp });
      }
      const winner = customers[responses.indexOf(won[0]!)]!;

      const allOrders = await db.select().from(orders);
      expect(allOrders).toHaveLength(1);
      const [order] = allOrders;
      expect(order).toMatchObject({ status: 'pending', userId: winner.user.id, ipAddressId: lastFree!.id, id: won[0]!.json().orderId });
      const reserved = await db.select().from(ipAddresses).where(isNotNull(ipAddresses.reservedUntil));
      expect(reserved.map((ip) => ip.id)).toEqual([lastFree!.id]);
      expect(reserved[0]!.reservedUntil!.getTime()).toBe(order!.holdUntil.getTime());
      expect(reserved[0]!.serverId).toBeNull();
      const [usedAfter] = await db.select().from(ipAddresses).where(eq(ipAddresses.id, used!.id));
      expect(usedAfter).toEqual(used);
      // Losers left no payment session behind either.
      expect(await db.select().from(simCheckoutSessions)).toHaveLength(1);
    });
  }, 60_000);

  it('upgrades: beyond the node → 409, shrinking storage → 400, shared users and other customers → 404', async () => {
    const db = ctx().database.db;
    const owner = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    await db.update(nodes).set({ cpuCores: 8, ramGb: 16, storageGb: 200 }).where(eq(nodes.id, node.id)); // 6 cores, 12 GB, 150 GB left
    const upgrade = (auth: Record<string, string>, change: Partial<Record<'cpu' | 'ram' | 'storage', number>>) =>
      postCheckout(ctx(), auth, { ...baseOrder, cpu: server.cpuCores, ram: server.ramGb, storage: server.storageGb, ...change, serverId: server.id });

    for (const change of [{ cpu: 9 }, { ram: 18 }, { storage: 205 }, { cpu: 88, ram: 512, storage: 500 }]) {
      const res = await upgrade(owner.auth, change);
      expect(res.statusCode, `${JSON.stringify(change)}: ${res.body}`).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'NOT_ENOUGH_RESOURCES', message: shopMessages.notEnoughResources });
    }
    const shrink = await upgrade(owner.auth, { storage: 25 });
    expect(shrink.statusCode).toBe(400);
    expect(shrink.json().error).toMatchObject({ code: 'STORAGE_SHRINK', message: shopMessages.storageShrink });

    const shared = await createUser(ctx());
    await db.insert(serverAccess).values({ serverId: server.id, userId: shared.user.id });
    const stranger = await createUser(ctx());
    for (const who of [shared, stranger]) {
      const info = await ctx().app.inject({ method: 'GET', url: `/api/shop/upgrade/${server.id}`, headers: who.auth });
      expect(info.statusCode).toBe(404);
      expect(info.body).not.toContain(server.name);
      const res = await upgrade(who.auth, { cpu: 3 });
      expect(res.statusCode).toBe(404);
    }
    expect(await db.select().from(orders).where(eq(orders.subscriptionId, server.id))).toHaveLength(0);

    // Control: the owner sees the prefill, and exactly what is left fits (then nothing more does).
    const info = await ctx().app.inject({ method: 'GET', url: `/api/shop/upgrade/${server.id}`, headers: owner.auth });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ serverId: server.id, cpu: 2, ram: 4, storage: 50 });
    const fitsExactly = await upgrade(owner.auth, { cpu: 8, ram: 16, storage: 200 });
    expect(fitsExactly.statusCode, fitsExactly.body).toBe(201);
    const [pending] = await db.select().from(orders).where(eq(orders.id, fitsExactly.json().orderId));
    expect(pending).toMatchObject({ kind: 'upgrade', holdCpuCores: 6, holdRamGb: 12, holdStorageGb: 150, nodeId: node.id });
    const more = await upgrade(owner.auth, { cpu: 3 });
    expect(more.statusCode).toBe(409);
  });

  it('random parallel order mixes never allocate more CPU, RAM or storage than a node has (property)', async () => {
    const db = ctx().database.db;
    const op = fc.record({
      upgrade: fc.constantFrom(false, false, true),
      cpu: fc.integer({ min: 1, max: 6 }),
      ram: fc.integer({ min: 1, max: 6 }).map((x) => 2 * x),
      storage: fc.integer({ min: 0, max: 15 }).map((x) => 25 + 5 * x),
      grow: fc.record({ cpu: fc.integer({ min: 0, max: 4 }), ram: fc.integer({ min: 0, max: 4 }).map((x) => 2 * x), storage: fc.integer({ min: 0, max: 10 }).map((x) => 5 * x) }),
      pay: fc.boolean(),
    });
    const scenario = fc.record({
      size: fc.record({
        cpuCores: fc.integer({ min: 8, max: 24 }),
        ramGb: fc.integer({ min: 8, max: 32 }).map((x) => 2 * x),
        storageGb: fc.integer({ min: 20, max: 80 }).map((x) => 5 * x),
      }),
      ops: fc.array(op, { minLength: 10, maxLength: 25 }),
      batches: fc.integer({ min: 1, max: 3 }),
    });

    await fc.assert(fc.asyncProperty(scenario, async ({ size, ops, batches }) => {
      // Only this run's node is for sale.
      await db.update(nodes).set({ status: 'offline' });
      const { node } = await seedCapacity(ctx(), { ...size, ips: 30 });
      const customers = await createCustomers(ctx(), ops.length);
      const runUsers = customers.map((c) => c.user.id);
      const perBatch = Math.ceil(ops.length / batches);
      let accepted = 0;
      let next = 0;

      for (let from = 0; from < ops.length; from += perBatch) {
        const chunk = ops.slice(from, from + perBatch);
        const online = await db.select().from(servers).where(and(eq(servers.nodeId, node.id), isNull(servers.deletedAt), eq(servers.status, 'online')));
        const taken = new Set<string>();
        const planned = chunk.map((o) => {
          const customer = customers[next++]!;
          const target = o.upgrade ? online.find((s) => !taken.has(s.id)) : undefined;
          if (target) {
            taken.add(target.id);
            const owner = customers.find((c) => c.user.id === target.ownerId)!;
            const want = { cpu: Math.min(88, target.cpuCores + o.grow.cpu), ram: Math.min(512, target.ramGb + o.grow.ram), storage: Math.min(500, target.storageGb + o.grow.storage) };
            const need = { cpuCores: want.cpu - target.cpuCores, ramGb: want.ram - target.ramGb, storageGb: want.storage - target.storageGb };
            return { pay: o.pay, auth: owner.auth, body: { ...baseOrder, ...want, serverId: target.id }, need };
          }
          return { pay: o.pay, auth: customer.auth, body: { ...baseOrder, cpu: o.cpu, ram: o.ram, storage: o.storage }, need: { cpuCores: o.cpu, ramGb: o.ram, storageGb: o.storage } };
        });

        // While the checkouts race, every committed state must stay within every node (PostgreSQL only: on
        // PGlite's single connection a polling loop only takes turns with the checkouts and races nothing).
        let racing = ctx().kind === 'postgres';
        const seen: NodeUsage[][] = [];
        const watcher = (async () => {
          while (racing) {
            const bad = overcommitted(await nodeUsage(ctx()));
            if (bad.length) seen.push(bad);
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
        })();
        const responses = await Promise.all(planned.map((p) => postCheckout(ctx(), p.auth, p.body)));
        racing = false;
        await watcher;
        expect(seen).toEqual([]);

        const usage = await nodeUsage(ctx());
        expect(overcommitted(usage)).toEqual([]);
        const free = freeOn(usage.find((u) => u.id === node.id)!);
        const toPay: string[] = [];
        responses.forEach((res, i) => {
          const p = planned[i]!;
          if (res.statusCode === 201) {
            accepted++;
            if (p.pay) toPay.push(res.json().sessionId);
            return;
          }
          expect(res.statusCode, res.body).toBe(409);
          expect(res.json().error.code).toBe('NOT_ENOUGH_RESOURCES');
          // No false refusals: nothing was released during the batch, so what was refused cannot fit now either.
          expect(fits(p.need, free), `refused ${JSON.stringify(p.body)} although ${JSON.stringify(free)} is free`).toBe(false);
        });

        await Promise.all(toPay.map(async (sessionId) => expect((await paySimulated(ctx(), sessionId)).statusCode).toBe(303)));
        await drainJobs(ctx(), 10);
        expect(overcommitted(await nodeUsage(ctx()))).toEqual([]);
      }

      const runOrders = await db.select().from(orders).where(inArray(orders.userId, runUsers));
      expect(runOrders).toHaveLength(accepted);
      expect(runOrders.every((o) => o.nodeId === node.id)).toBe(true);
      expect(runOrders.filter((o) => o.status !== 'pending' && o.status !== 'completed')).toEqual([]);
    }), { numRuns: 10, endOnFailure: true });
  }, 120_000);

  it('a hold that ran out frees its node capacity for the next checkout', async () => {
    await isolated(ctx().kind, async (world) => {
      const db = world.database.db;
      const { node } = await seedCapacity(world, { cpuCores: 2, ramGb: 4, storageGb: 50, ips: 3 }); // exactly one baseOrder
      const [a, b] = await createCustomers(world, 2);
      const first = await postCheckout(world, a!.auth, baseOrder);
      expect(first.statusCode, first.body).toBe(201);
      const refused = await postCheckout(world, b!.auth, baseOrder);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({ code: 'NOT_ENOUGH_RESOURCES', message: shopMessages.notEnoughResources });

      await expireHold(world, first.json().orderId);
      const second = await postCheckout(world, b!.auth, baseOrder);
      expect(second.statusCode, second.body).toBe(201);
      const [order] = await db.select().from(orders).where(eq(orders.id, second.json().orderId));
      expect(order!.nodeId).toBe(node.id);
      expect(overcommitted(await nodeUsage(world))).toEqual([]);

      // The late customer can no longer pay; the tick ends the order. The new one is paid and delivered.
      const late = await paySimulated(world, first.json().sessionId);
      expect(late.headers.location).toContain(`/shop/payment?order=${first.json().orderId}`);
      await billingTick(world.app);
      expect((await paySimulated(world, second.json().sessionId)).statusCode).toBe(303);
      await drainJobs(world);
      const [expired] = await db.select().from(orders).where(eq(orders.id, first.json().orderId));
      expect(expired!.status).toBe('cancelled');
      const [done] = await db.select().from(orders).where(eq(orders.id, second.json().orderId));
      expect(done!.status).toBe('completed');
      expect(await db.select().from(servers)).toHaveLength(1);
      expect(overcommitted(await nodeUsage(world))).toEqual([]);
    });
  }, 60_000);

  it('a hold that ran out frees its IP for the next checkout, and ending the old order does not free it again', async () => {
    await isolated(ctx().kind, async (world) => {
      const db = world.database.db;
      const { ips: [onlyIp] } = await seedCapacity(world, { cpuCores: 88, ramGb: 512, storageGb: 8000, ips: 1 });
      const [a, b, c] = await createCustomers(world, 3);
      const first = await postCheckout(world, a!.auth, baseOrder);
      expect(first.statusCode, first.body).toBe(201);
      const refused = await postCheckout(world, b!.auth, baseOrder);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({ code: 'NO_FREE_IP', message: shopMessages.noFreeIp });

      await expireHold(world, first.json().orderId);
      const second = await postCheckout(world, b!.auth, baseOrder);
      expect(second.statusCode, second.body).toBe(201);
      const [bOrder] = await db.select().from(orders).where(eq(orders.id, second.json().orderId));
      expect(bOrder!.ipAddressId).toBe(onlyIp!.id);

      // The billing tick (or the provider's "expired" event) now ends the first order. B's hold on the IP must survive it.
      await billingTick(world.app);
      await drainJobs(world);
      const [aOrder] = await db.select().from(orders).where(eq(orders.id, first.json().orderId));
      expect(aOrder!.status).toBe('cancelled');
      const [ip] = await db.select().from(ipAddresses).where(eq(ipAddresses.id, onlyIp!.id));
      // Soft from here on: if the hold is lost, the test goes on to show what follows from it.
      expect.soft(ip!.reservedUntil?.getTime(), 'the IP held for the open order B was released by cancelling A').toBe(bOrder!.holdUntil.getTime());
      const third = await postCheckout(world, c!.auth, baseOrder);
      expect.soft(third.statusCode, `a third checkout got the only IP again: ${third.body}`).toBe(409);
      const paying = [second.json().sessionId as string];
      if (third.statusCode === 201) {
        const [cOrder] = await db.select().from(orders).where(eq(orders.id, third.json().orderId));
        expect.soft(cOrder!.ipAddressId, 'two open orders hold the same IP').not.toBe(onlyIp!.id);
        paying.unshift(third.json().sessionId);
      } else {
        expect(third.json().error.code).toBe('NO_FREE_IP');
      }

      // Every paid server gets exactly one address; B (who holds it) gets the held one.
      for (const sessionId of paying) expect((await paySimulated(world, sessionId)).statusCode).toBe(303);
      await drainJobs(world);
      for (const server of await db.select().from(servers)) {
        const assigned = await db.select().from(ipAddresses).where(eq(ipAddresses.serverId, server.id));
        const whose = server.ownerId === b!.user.id ? 'B' : 'C';
        expect.soft(assigned, `the paid server of ${whose} has no IP address`).toHaveLength(1);
        if (whose === 'B') expect.soft(assigned[0]?.id, 'B did not get the address held for it').toBe(onlyIp!.id);
      }
    });
  }, 60_000);
});

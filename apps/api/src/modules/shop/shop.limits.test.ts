import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { shopMessages } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { baseOrder, paySimulated, postCheckout, seedCapacity, drainJobs } from '../../../test/shop.ts';
import { ipAddresses, orders } from '../../db/schema/index.ts';
import { MAX_OPEN_CHECKOUTS } from './shop.service.ts';

describeEachDatabase('open checkouts per customer', (ctx) => {
  const pending = async (userId: string) =>
    ctx().database.db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.status, 'pending')));

  it(`caps a customer at ${MAX_OPEN_CHECKOUTS} open checkouts, also under 20 parallel requests, so nobody holds every free IP`, async () => {
    await seedCapacity(ctx(), { ips: 25 });
    const customer = await createUser(ctx());
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => postCheckout(ctx(), customer.auth, { ...baseOrder, cpu: 1 + (i % 8), months: 1 + Math.floor(i / 8) })));
    const accepted = responses.filter((r) => r.statusCode === 201);
    expect(accepted).toHaveLength(MAX_OPEN_CHECKOUTS);
    for (const refused of responses.filter((r) => r.statusCode !== 201)) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toEqual({ code: 'TOO_MANY_OPEN_CHECKOUTS', message: shopMessages.tooManyOpenCheckouts });
    }
    const open = await pending(customer.user.id);
    expect(open).toHaveLength(MAX_OPEN_CHECKOUTS);
    expect(new Set(open.map((o) => o.ipAddressId)).size).toBe(MAX_OPEN_CHECKOUTS);

    // Another customer still gets an address.
    const other = await createUser(ctx());
    expect((await postCheckout(ctx(), other.auth, baseOrder)).statusCode).toBe(201);
  });

  it('replaces the older open checkout of the same configuration and releases its address', async () => {
    await seedCapacity(ctx(), { ips: 3 });
    const customer = await createUser(ctx());
    const first = await postCheckout(ctx(), customer.auth, baseOrder);
    expect(first.statusCode, first.body).toBe(201);
    const firstOrder = (await pending(customer.user.id))[0]!;
    const second = await postCheckout(ctx(), customer.auth, baseOrder);
    expect(second.statusCode, second.body).toBe(201);

    const open = await pending(customer.user.id);
    expect(open.map((o) => o.id)).toEqual([second.json().orderId]);
    const [old] = await ctx().database.db.select().from(orders).where(eq(orders.id, firstOrder.id));
    expect(old!.status).toBe('cancelled');
    const [oldIp] = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.id, firstOrder.ipAddressId!));
    expect(oldIp!.reservedUntil === null || oldIp!.id === open[0]!.ipAddressId).toBe(true);
    // The old payment page no longer takes money.
    const late = await paySimulated(ctx(), first.json().sessionId);
    await drainJobs(ctx());
    const [still] = await ctx().database.db.select().from(orders).where(eq(orders.id, firstOrder.id));
    expect(still!.status).toBe('cancelled');
    expect(late.statusCode).not.toBe(500);
  });

  it('keeps open checkouts of different configurations side by side', async () => {
    await seedCapacity(ctx(), { ips: 3 });
    const customer = await createUser(ctx());
    expect((await postCheckout(ctx(), customer.auth, baseOrder)).statusCode).toBe(201);
    expect((await postCheckout(ctx(), customer.auth, { ...baseOrder, ram: 8 })).statusCode).toBe(201);
    expect(await pending(customer.user.id)).toHaveLength(2);
  });
});

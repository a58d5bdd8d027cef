/**
 * Cloud storage under races (issue 23, decision 034): parallel checkouts for the last room on the
 * storage servers, for the same account name, and the same customer's second tab. The room is taken
 * under the storage server's row lock and the name under an advisory lock per name; the races really
 * race only on PostgreSQL (PGlite has one connection), but every test must hold on both.
 */
import { expect, it } from 'vitest';
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { shopMessages, storageMessages } from '@hp/contract';
import { createTestContext, describeEachDatabase, STRONG_PASSWORD, uniqueName, type TestContext } from '../../../test/harness.ts';
import { drainJobs, paySimulated } from '../../../test/shop.ts';
import { buyStorage, postStorageCheckout, seedStorageServer, storageName } from '../../../test/storage.ts';
import { invoices, orders, simCheckoutSessions, simStorageAccounts, storageAccounts, storageServers, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { openSession } from '../auth/sessions.ts';

type Customer = { user: typeof users.$inferSelect; auth: Record<string, string> };

/** `n` verified customers with sessions, fast (one password hash for all). */
async function createCustomers(ctx: TestContext, n: number): Promise<Customer[]> {
  const db = ctx.database.db;
  const passwordHash = await hashPassword(STRONG_PASSWORD);
  const rows = await db.insert(users).values(Array.from({ length: n }, () => {
    const username = uniqueName('cloud');
    return { username, email: `${username}@example.com`, role: 'customer' as const, passwordHash, emailVerifiedAt: new Date() };
  })).returning();
  return Promise.all(rows.map(async (user) => {
    const session = await openSession(db, ctx.app.deps.secrets, user, 'test');
    return { user, auth: { authorization: `Bearer ${session.token}` } };
  }));
}

/**
 * What each storage server has given away, counted straight from the tables (not with the product's
 * own sum): quotas of live accounts plus the quotas open checkouts hold there.
 */
async function givenAway(ctx: TestContext) {
  const db = ctx.database.db;
  const servers = await db.select().from(storageServers).orderBy(storageServers.id);
  return Promise.all(servers.map(async (server) => {
    const accounts = await db.select({ quotaGb: storageAccounts.quotaGb }).from(storageAccounts)
      .where(and(eq(storageAccounts.storageServerId, server.id), isNull(storageAccounts.deletedAt), ne(storageAccounts.status, 'failed')));
    const held = await db.select({ gb: orders.holdStorageGb }).from(orders)
      .where(and(eq(orders.product, 'cloud_storage'), eq(orders.status, 'pending'), sql`${orders.holdUntil} > now()`,
        sql`(${orders.config}->>'storageServerId')::int = ${server.id}`));
    const accountsGb = accounts.reduce((s, a) => s + a.quotaGb, 0);
    const heldGb = held.reduce((s, o) => s + (o.gb ?? 0), 0);
    return { id: server.id, capacityGb: server.capacityGb, accountsGb, heldGb, accounts: accounts.length, held: held.length };
  }));
}

/** A world of its own (only these storage servers in the whole database, this overcommit), closed afterwards. */
async function isolated<T>(kind: TestContext['kind'], overcommit: string, body: (ctx: TestContext) => Promise<T>): Promise<T> {
  const own = await createTestContext(kind, { env: { STORAGE_OVERCOMMIT: overcommit } });
  try {
    return await body(own);
  } finally {
    await own.close();
  }
}

const order = (body: Record<string, unknown>) => ({ plan: '100gb', months: 1, acceptTerms: true, ...body });

describeEachDatabase('cloud storage: races over room and names', (ctx) => {
  // Sellable = floor(capacity × overcommit): 300 → 3 accounts of 100 GB; 230 × 1.5 = 345 → 3 and 140 × 1.5 = 210 → 2.
  it.each([
    { overcommit: '1', capacities: [300], sellable: [300], winners: 3 },
    { overcommit: '1.5', capacities: [230, 140], sellable: [345, 210], winners: 5 },
  ])('20 customers at once want the last room (overcommit $overcommit, servers $capacities GB): exactly $winners get it, the rest a German 409, never oversold', { timeout: 120_000 }, async ({ overcommit, capacities, sellable, winners }) => {
    await isolated(ctx().kind, overcommit, async (world) => {
      const db = world.database.db;
      for (const capacityGb of capacities) await seedStorageServer(world, capacityGb);
      const customers = await createCustomers(world, 20);
      const names = customers.map((_, i) => `${storageName('room')}x${i}`);

      const responses = await Promise.all(customers.map((c, i) => postStorageCheckout(world, c.auth, order({ accountName: names[i] }))));
      const won = responses.flatMap((r, i) => (r.statusCode === 201 ? [i] : []));
      expect(won.length, responses.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBe(winners);
      for (const r of responses.filter((x) => x.statusCode !== 201)) {
        expect(r.statusCode, r.body).toBe(409);
        expect(r.json().error).toEqual({ code: 'NO_STORAGE_CAPACITY', message: storageMessages.noCapacity });
        expect(r.json().error.message).toContain('kein Speicherplatz frei');
      }

      // Only the winners have an order (losers left no order and no payment session), each holding 100 GB.
      const all = await db.select().from(orders);
      expect(all.map((o) => o.userId).sort()).toEqual(won.map((i) => customers[i]!.user.id).sort());
      expect(all.every((o) => o.status === 'pending' && o.holdStorageGb === 100)).toBe(true);
      expect(await db.select().from(simCheckoutSessions)).toHaveLength(winners);
      const held = await givenAway(world);
      held.forEach((s, i) => {
        expect(s.heldGb, `server ${s.id}`).toBeLessThanOrEqual(sellable[i]!);
        expect(s.accountsGb).toBe(0);
      });
      expect(held.reduce((n, s) => n + s.held, 0)).toBe(winners);
      // Nothing more fits: the shop offers no plan, a 21st customer is refused the same way.
      expect((await world.app.inject({ method: 'GET', url: '/api/shop/cloud-storage' })).json()).toEqual({ available: [], renewal: null });
      const [late] = await createCustomers(world, 1);
      const refused = await postStorageCheckout(world, late!.auth, order({ accountName: storageName('late') }));
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('NO_STORAGE_CAPACITY');

      // The winners all pay at once: exactly as many accounts, on the servers their orders held, each once on its storage server.
      const paid = await Promise.all(won.map((i) => paySimulated(world, responses[i]!.json().sessionId)));
      for (const p of paid) expect(p.statusCode, p.body).toBeLessThan(400);
      await drainJobs(world);
      const accounts = await db.select().from(storageAccounts);
      expect(accounts).toHaveLength(winners);
      expect(accounts.map((a) => a.accountName).sort()).toEqual(won.map((i) => names[i]).sort());
      for (const a of accounts) expect(a).toMatchObject({ status: 'active', quotaGb: 100, plan: '100gb' });
      const completed = await db.select().from(orders).where(eq(orders.status, 'completed'));
      expect(completed).toHaveLength(winners);
      for (const o of completed) {
        const account = accounts.find((a) => a.id === o.subscriptionId)!;
        expect(account.storageServerId).toBe((o.config as { storageServerId: number }).storageServerId);
      }
      const onServers = await db.select().from(simStorageAccounts);
      expect(onServers.map((a) => a.userId).sort()).toEqual(accounts.map((a) => a.accountName).sort());
      expect(await db.select().from(invoices).where(eq(invoices.kind, 'invoice'))).toHaveLength(winners);

      const after = await givenAway(world);
      after.forEach((s, i) => {
        expect(s.accountsGb + s.heldGb, `server ${s.id}`).toBeLessThanOrEqual(sellable[i]!);
        expect(s.heldGb).toBe(0);
      });
      expect(after.reduce((n, s) => n + s.accountsGb, 0)).toBe(winners * 100);
      // Staff see the same numbers as the tables.
      const staffServers = (await world.app.inject({ method: 'GET', url: '/api/admin/storage-servers', headers: await staffAuth(world) })).json();
      expect(staffServers.items.map((s: { sellableGb: number; allocatedGb: number }) => [s.sellableGb, s.allocatedGb]))
        .toEqual(after.map((s, i) => [sellable[i], s.accountsGb]));
    });
  });

  it('two customers want the same account name at once (five names, in any spelling): one 201 and one German 409 each, the winner gets the account', { timeout: 120_000 }, async () => {
    const db = ctx().database.db;
    await seedStorageServer(ctx());
    const names = Array.from({ length: 5 }, (_, i) => `${storageName('twin')}x${i}`);
    const pairs = await Promise.all(names.map(async () => createCustomers(ctx(), 2)));
    // All ten requests at once; the second of each pair types the name in capitals (the contract lowers it).
    const responses = await Promise.all(pairs.flatMap(([a, b], i) => [
      postStorageCheckout(ctx(), a!.auth, order({ accountName: names[i] })),
      postStorageCheckout(ctx(), b!.auth, order({ accountName: names[i]!.toUpperCase() })),
    ]));

    const losers: Customer[] = [];
    for (const [i, name] of names.entries()) {
      const pair = pairs[i]!;
      const answers = responses.slice(2 * i, 2 * i + 2);
      expect(answers.map((r) => r.statusCode).sort(), answers.map((r) => r.body).join('\n')).toEqual([201, 409]);
      const lost = answers.find((r) => r.statusCode === 409)!;
      expect(lost.json().error).toEqual({ code: 'STORAGE_NAME_TAKEN', message: storageMessages.accountNameTaken });
      const winner = pair[answers.findIndex((r) => r.statusCode === 201)]!;
      const loser = pair.find((c) => c !== winner)!;
      losers.push(loser);
      const open = await db.select().from(orders).where(sql`${orders.config}->>'accountName' = ${name}`);
      expect(open).toEqual([expect.objectContaining({ userId: winner.user.id, status: 'pending' })]);
      expect(await db.select().from(orders).where(eq(orders.userId, loser.user.id))).toEqual([]);
    }

    // Every winner pays: one account per name, owned by the winner, once on the storage server.
    const won = responses.filter((r) => r.statusCode === 201);
    for (const r of won) await paySimulated(ctx(), r.json().sessionId);
    await drainJobs(ctx());
    for (const [i, name] of names.entries()) {
      const accounts = await db.select().from(storageAccounts).where(eq(storageAccounts.accountName, name));
      const winner = pairs[i]!.find((c) => c.user.id === accounts[0]?.ownerId);
      expect(accounts).toEqual([expect.objectContaining({ status: 'active', ownerId: winner?.user.id })]);
      expect(await db.select().from(simStorageAccounts).where(sql`lower(${simStorageAccounts.userId}) = ${name}`)).toHaveLength(1);
    }
    // The name stays taken for the loser afterwards.
    const again = await postStorageCheckout(ctx(), losers[0]!.auth, order({ accountName: names[0] }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('STORAGE_NAME_TAKEN');
  });

  it('the hold ran out and another customer took the name and paid: the late payment is refunded, no account, no invoice', { timeout: 120_000 }, async () => {
    const db = ctx().database.db;
    await seedStorageServer(ctx());
    const [a, b] = await createCustomers(ctx(), 2);
    const name = storageName('spaet');
    const first = await postStorageCheckout(ctx(), a!.auth, order({ accountName: name }));
    expect(first.statusCode, first.body).toBe(201);
    const refused = await postStorageCheckout(ctx(), b!.auth, order({ accountName: name }));
    expect(refused.json().error.code).toBe('STORAGE_NAME_TAKEN');
    // A leaves the payment page open past the hold: the name is free to order again …
    await db.update(orders).set({ holdUntil: new Date(Date.now() - 60_000) }).where(eq(orders.id, first.json().orderId));
    const second = await postStorageCheckout(ctx(), b!.auth, order({ accountName: name }));
    expect(second.statusCode, second.body).toBe(201);
    // … B pays and is delivered first; then A pays on the still open page.
    await paySimulated(ctx(), second.json().sessionId);
    await drainJobs(ctx());
    const late = await paySimulated(ctx(), first.json().sessionId);
    expect(late.statusCode, late.body).toBeLessThan(400);
    await drainJobs(ctx());

    expect(await db.select().from(storageAccounts).where(eq(storageAccounts.accountName, name))).toEqual([expect.objectContaining({ ownerId: b!.user.id, status: 'active' })]);
    expect(await db.select().from(simStorageAccounts).where(eq(simStorageAccounts.userId, name))).toEqual([expect.objectContaining({ email: b!.user.email })]);
    const [orderA] = await db.select().from(orders).where(eq(orders.id, first.json().orderId));
    expect(orderA).toMatchObject({ status: 'refunded', subscriptionId: null });
    expect(orderA!.refundId).toBeTruthy();
    expect(await db.select().from(invoices).where(and(eq(invoices.orderId, orderA!.id), eq(invoices.kind, 'invoice')))).toEqual([]);
    expect(ctx().mail.sent.filter((m) => m.to === a!.user.email).map((m) => m.subject)).toContain(`Ihre Bestellung ${orderA!.number} wurde erstattet`);
  });

  it('the same customer\'s second tab with the same name replaces the first checkout, even when the server has room for only one', { timeout: 120_000 }, async () => {
    await isolated(ctx().kind, '1', async (world) => {
      const db = world.database.db;
      await seedStorageServer(world, 100);
      const [customer, other] = await createCustomers(world, 2);
      const name = storageName('tab');
      const first = await postStorageCheckout(world, customer!.auth, order({ accountName: name }));
      expect(first.statusCode, first.body).toBe(201);
      // Another customer finds no room while the first tab holds it.
      expect((await postStorageCheckout(world, other!.auth, order({ accountName: storageName('andere') }))).json().error.code).toBe('NO_STORAGE_CAPACITY');

      // The second tab: the first checkout gives its hold back before the new one takes it, so it fits.
      const second = await postStorageCheckout(world, customer!.auth, order({ accountName: name, months: 3 }));
      expect(second.statusCode, second.body).toBe(201);
      expect(second.json().orderId).not.toBe(first.json().orderId);
      const [old] = await db.select().from(orders).where(eq(orders.id, first.json().orderId));
      expect(old!.status).toBe('cancelled');
      const open = await db.select().from(orders).where(and(eq(orders.userId, customer!.user.id), eq(orders.status, 'pending')));
      expect(open.map((o) => o.id)).toEqual([second.json().orderId]);
      expect(open[0]).toMatchObject({ months: 3, holdStorageGb: 100 });
      expect((await givenAway(world))[0]).toMatchObject({ heldGb: 100, held: 1 });
      // Another name is another order: it stacks, and here finds no room.
      const stacked = await postStorageCheckout(world, customer!.auth, order({ accountName: storageName('zwei') }));
      expect(stacked.json().error.code).toBe('NO_STORAGE_CAPACITY');

      // The old payment page takes no money; the new one delivers exactly one account.
      const stale = await paySimulated(world, first.json().sessionId);
      expect(stale.statusCode).toBeLessThan(500);
      await paySimulated(world, second.json().sessionId);
      await drainJobs(world);
      const [oldAfter] = await db.select().from(orders).where(eq(orders.id, first.json().orderId));
      expect(oldAfter!.status).toBe('cancelled');
      expect(oldAfter!.paidAt).toBeNull();
      expect(await db.select().from(storageAccounts)).toEqual([expect.objectContaining({ accountName: name, ownerId: customer!.user.id, status: 'active' })]);
      expect(await db.select().from(simStorageAccounts)).toHaveLength(1);
      expect(await db.select().from(invoices).where(inArray(invoices.orderId, [first.json().orderId, second.json().orderId]))).toEqual([
        expect.objectContaining({ orderId: second.json().orderId, kind: 'invoice' }),
      ]);
      const after = await givenAway(world);
      expect(after[0]!.accountsGb + after[0]!.heldGb).toBeLessThanOrEqual(100);
    });
  });

  it('the same customer\'s two tabs with the same name at once: never two open orders for the name, a refused tab is told in German', { timeout: 120_000 }, async () => {
    const db = ctx().database.db;
    await seedStorageServer(ctx());
    const [customer] = await createCustomers(ctx(), 1);
    const name = storageName('tabs');
    const responses = await Promise.all([1, 2, 3].map((months) => postStorageCheckout(ctx(), customer!.auth, order({ accountName: name, months }))));
    const created = responses.filter((r) => r.statusCode === 201);
    expect(created.length, responses.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBeGreaterThanOrEqual(1);
    for (const r of responses.filter((x) => x.statusCode !== 201)) {
      expect(r.statusCode, r.body).toBe(409);
      // Refused by the shop's same-purchase check (the same tab's twin under the customer's lock) or by the name claim.
      expect([
        { code: 'SAME_ORDER_OPEN', message: shopMessages.sameOrderOpen },
        { code: 'STORAGE_NAME_OPEN_ORDER', message: storageMessages.accountNameOwnOrder },
      ]).toContainEqual(r.json().error);
    }
    const open = await db.select().from(orders).where(and(eq(orders.userId, customer!.user.id), eq(orders.status, 'pending')));
    expect(open).toHaveLength(1);
    expect(created.map((r) => r.json().orderId)).toContain(open[0]!.id);
    // Whatever else was created was replaced.
    const others = await db.select().from(orders).where(and(eq(orders.userId, customer!.user.id), ne(orders.id, open[0]!.id)));
    expect(others.every((o) => o.status === 'cancelled')).toBe(true);
  });

  it('two renewals of the same account at once: never two payable renewals; a refused one is told in German', { timeout: 120_000 }, async () => {
    const db = ctx().database.db;
    await seedStorageServer(ctx());
    const [customer] = await createCustomers(ctx(), 1);
    const { storageId } = await buyStorage(ctx(), customer!);
    const responses = await Promise.all([1, 2].map((months) => postStorageCheckout(ctx(), customer!.auth, { plan: '500gb', months, storageId, acceptTerms: true })));
    // One after the other (PGlite answers them in turn) the later replaces the earlier; truly at once the
    // later is refused under the customer's lock. Either way one renewal stays payable.
    expect(responses.filter((r) => r.statusCode === 201).length).toBeGreaterThanOrEqual(1);
    for (const refused of responses.filter((r) => r.statusCode !== 201)) {
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error).toEqual({ code: 'SAME_ORDER_OPEN', message: shopMessages.sameOrderOpen });
    }
    const open = await db.select().from(orders).where(and(eq(orders.userId, customer!.user.id), eq(orders.status, 'pending')));
    expect(open).toHaveLength(1);
  });
});

async function staffAuth(ctx: TestContext) {
  const [employee] = await ctx.database.db.insert(users).values({
    username: uniqueName('staff'), email: `${uniqueName('staff')}@example.com`, role: 'employee', passwordHash: await hashPassword(STRONG_PASSWORD), emailVerifiedAt: new Date(),
  }).returning();
  const session = await openSession(ctx.database.db, ctx.app.deps.secrets, employee!, 'test');
  return { authorization: `Bearer ${session.token}` };
}

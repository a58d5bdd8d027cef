import { beforeAll, describe, expect, it } from 'vitest';
import { eq, and, sql } from 'drizzle-orm';
import { liveEventMessages } from '@hp/contract';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { seedServer } from '../../../test/servers.ts';
import { serverAccess, servers, sessions } from '../../db/schema/index.ts';
import { MAX_STREAMS_PER_USER } from './events.routes.ts';
import { openStream, twoInstancesOnPostgres } from '../../../test/events.ts';

const listen = (ctx: TestContext) => ctx.app.listen({ port: 0, host: '127.0.0.1' });

const setStatus = (ctx: TestContext, id: string, status: 'online' | 'offline' | 'maintenance') =>
  ctx.database.db.update(servers).set({ status }).where(eq(servers.id, id));

describeEachDatabase('live events: one authorised stream per tab', (ctx) => {
  let baseUrl = '';
  beforeAll(async () => {
    baseUrl = await listen(ctx());
  });

  it('streams a committed change of the own server within 1 s, uncompressed and uncached', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const stream = await openStream(baseUrl, owner.token);
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.res.headers.get('cache-control')).toBe('no-store');
      expect(stream.res.headers.get('x-accel-buffering')).toBe('no');
      expect(stream.res.headers.get('content-encoding')).toBeNull();
      expect(stream.res.headers.get('x-content-type-options')).toBe('nosniff');
      const started = Date.now();
      await setStatus(ctx(), server.id, 'offline');
      await stream.expectEvent(server.id, 1000);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(JSON.parse(stream.about(server.id)[0]!.data)).toEqual({ type: 'server.changed', serverId: server.id });
    } finally {
      await stream.close();
    }
  });

  it('announces a power action and its task through the REST route', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const stream = await openStream(baseUrl, owner.token);
    try {
      const power = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: owner.auth, payload: { action: 'stop' } });
      expect(power.statusCode).toBe(202);
      await stream.expectEvent(server.id, 1000, 'server.changed');
      await stream.expectEvent(server.id, 2000, 'task.changed');
      const task = JSON.parse(stream.about(server.id).find((e) => e.event === 'task.changed')!.data) as { taskId: string };
      expect(task.taskId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await stream.close();
    }
  });

  it('sends nothing for a rolled-back change (NOTIFY goes out on commit only)', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const { server: other } = await seedServer(ctx(), owner.user.id);
    const stream = await openStream(baseUrl, owner.token);
    try {
      await ctx().database.db.transaction(async (tx) => {
        await tx.update(servers).set({ status: 'maintenance' }).where(eq(servers.id, server.id));
        tx.rollback();
      }).catch(() => {});
      await setStatus(ctx(), other.id, 'offline');
      await stream.expectEvent(other.id, 1000);
      await new Promise((r) => setTimeout(r, 300));
      expect(stream.about(server.id)).toEqual([]);
    } finally {
      await stream.close();
    }
  });

  it("never sends a customer an event about another customer's server, not even its id", async () => {
    const alice = await createUser(ctx());
    const bob = await createUser(ctx());
    const { server: alicesServer } = await seedServer(ctx(), alice.user.id);
    const { server: bobsServer } = await seedServer(ctx(), bob.user.id);
    const stream = await openStream(baseUrl, alice.token);
    try {
      await setStatus(ctx(), bobsServer.id, 'offline');
      await ctx().app.inject({ method: 'POST', url: `/api/servers/${bobsServer.id}/power`, headers: bob.auth, payload: { action: 'start' } });
      await setStatus(ctx(), alicesServer.id, 'offline');
      // Events are delivered in commit order: once Alice's arrived, Bob's would have arrived before it.
      await stream.expectEvent(alicesServer.id, 1000);
      await new Promise((r) => setTimeout(r, 300));
      expect(stream.about(bobsServer.id)).toEqual([]);
      expect(stream.raw).not.toContain(bobsServer.id);
    } finally {
      await stream.close();
    }
  });

  it('stops the events of a shared server once the share is revoked', async () => {
    const owner = await createUser(ctx());
    const friend = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const { server: ownServer } = await seedServer(ctx(), friend.user.id);
    await ctx().database.db.insert(serverAccess).values({ serverId: server.id, userId: friend.user.id });
    const stream = await openStream(baseUrl, friend.token);
    try {
      await setStatus(ctx(), server.id, 'offline');
      await stream.expectEvent(server.id, 1000);
      const before = stream.about(server.id).length;

      await ctx().database.db.delete(serverAccess).where(and(eq(serverAccess.serverId, server.id), eq(serverAccess.userId, friend.user.id)));
      await setStatus(ctx(), server.id, 'online');
      await setStatus(ctx(), ownServer.id, 'offline');
      await stream.expectEvent(ownServer.id, 1000);
      await new Promise((r) => setTimeout(r, 300));
      expect(stream.about(server.id).length).toBe(before);
    } finally {
      await stream.close();
    }
  });

  it('announces a newly shared server to the account it was shared with', async () => {
    const owner = await createUser(ctx());
    const friend = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const stream = await openStream(baseUrl, friend.token);
    try {
      await ctx().database.db.insert(serverAccess).values({ serverId: server.id, userId: friend.user.id });
      await stream.expectEvent(server.id, 1000);
    } finally {
      await stream.close();
    }
  });

  it('gives staff the events of every server', async () => {
    const customer = await createUser(ctx());
    const employee = await createUser(ctx(), { role: 'employee' });
    const { server } = await seedServer(ctx(), customer.user.id);
    const stream = await openStream(baseUrl, employee.token);
    try {
      await setStatus(ctx(), server.id, 'offline');
      await stream.expectEvent(server.id, 1000);
    } finally {
      await stream.close();
    }
  });

  it('ends the stream at the next event once the session is logged out', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const stream = await openStream(baseUrl, owner.token);
    try {
      await ctx().database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, owner.user.id));
      await setStatus(ctx(), server.id, 'offline');
      expect(await stream.waitFor(() => stream.ended, 2000)).toBe(true);
      expect(stream.about(server.id)).toEqual([]);
      const again = await fetch(`${baseUrl}/api/events`, { headers: { authorization: `Bearer ${owner.token}`, accept: 'text/event-stream' } });
      expect(again.status).toBe(401);
    } finally {
      await stream.close();
    }
  });

  it('ends a customer\'s open streams the moment staff lock the account, with no other event needed; other accounts keep theirs', async () => {
    const customer = await createUser(ctx());
    const bystander = await createUser(ctx());
    const owner = await createUser(ctx(), { role: 'owner' });
    const first = await openStream(baseUrl, customer.token);
    const second = await openStream(baseUrl, customer.token);
    const other = await openStream(baseUrl, bystander.token);
    try {
      const locked = await ctx().app.inject({ method: 'PUT', url: `/api/staff/customers/${customer.user.id}/lock`, headers: owner.auth, payload: { locked: true } });
      expect(locked.statusCode).toBe(200);
      expect(await first.waitFor(() => first.ended, 2000)).toBe(true);
      expect(await second.waitFor(() => second.ended, 2000)).toBe(true);
      expect(other.ended).toBe(false);
    } finally {
      await Promise.all([first.close(), second.close(), other.close()]);
    }
  });

  it('ends the stream at logout itself, before any event', async () => {
    const owner = await createUser(ctx());
    const stream = await openStream(baseUrl, owner.token);
    try {
      await ctx().database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, owner.user.id));
      expect(await stream.waitFor(() => stream.ended, 2000)).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it(`refuses stream ${MAX_STREAMS_PER_USER + 1} of one account with 429 and a German message; anonymous gets 401`, async () => {
    const owner = await createUser(ctx());
    const open = [];
    try {
      for (let i = 0; i < MAX_STREAMS_PER_USER; i++) open.push(await openStream(baseUrl, owner.token));
      expect(open.every((s) => s.res.status === 200)).toBe(true);
      const refused = await fetch(`${baseUrl}/api/events`, { headers: { authorization: `Bearer ${owner.token}`, accept: 'text/event-stream' } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBeDefined();
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(liveEventMessages.tooManyStreams);
      // A closed tab frees its place.
      await open.pop()!.close();
      await new Promise((r) => setTimeout(r, 100));
      const next = await openStream(baseUrl, owner.token);
      open.push(next);
      expect(next.res.status).toBe(200);
    } finally {
      await Promise.all(open.map((s) => s.close()));
    }
    const anonymous = await fetch(`${baseUrl}/api/events`, { headers: { accept: 'text/event-stream' } });
    expect(anonymous.status).toBe(401);
  });

  it('answers a request that does not ask for text/event-stream with a finished German 406', async () => {
    const owner = await createUser(ctx());
    const res = await ctx().app.inject({ method: 'GET', url: '/api/events', headers: owner.auth });
    expect(res.statusCode).toBe(406);
    expect(res.json().error.message).toBe(liveEventMessages.notAcceptable);
    expect(res.headers['cache-control']).toBe('no-store');
    const head = await ctx().app.inject({ method: 'HEAD', url: '/api/events', headers: { ...owner.auth, accept: 'text/event-stream' } });
    expect(head.statusCode).toBe(406);
  });
});

// Two API instances on one PostgreSQL database, each with its own listener: what several instances
// behind a load balancer do.
describe.skipIf(!process.env.TEST_DATABASE_URL)('live events across API instances [postgres]', () => {
  const two = twoInstancesOnPostgres();

  it('an event committed through instance A reaches a client connected to instance B within 1 s', async () => {
    const owner = await createUser(two.a);
    const { server } = await seedServer(two.a, owner.user.id);
    const stream = await openStream(two.baseUrlB, owner.token);
    try {
      const started = Date.now();
      const power = await two.a.app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: owner.auth, payload: { action: 'stop' } });
      expect(power.statusCode).toBe(202);
      await stream.expectEvent(server.id, 1000);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await stream.close();
    }
  });

  it('after its database connection is killed, instance B reconnects, tells clients to resync and streams again', async () => {
    const owner = await createUser(two.a);
    const { server } = await seedServer(two.a, owner.user.id);
    const stream = await openStream(two.baseUrlB, owner.token);
    try {
      const killed = await two.a.database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'hp-live-events' and datname = current_database()`);
      expect((killed as unknown as { rowCount: number }).rowCount).toBe(2);
      expect(await stream.waitFor(() => stream.events.some((e) => e.event === 'resync'), 5000)).toBe(true);
      await setStatus(two.a, server.id, 'offline');
      await stream.expectEvent(server.id, 1000);
    } finally {
      await stream.close();
    }
  });
});

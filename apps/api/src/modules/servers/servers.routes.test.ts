import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { serverMessages } from '@hp/contract';
import { describeEachDatabase, createUser, type TestContext } from '../../../test/harness.ts';
import { seedServer } from '../../../test/servers.ts';
import { servers, serverAccess } from '../../db/schema/index.ts';
import { settleRunningTasks } from './task-settler.ts';


async function waitForStatus(ctx: TestContext, auth: Record<string, string>, id: string, wanted: string) {
  for (let i = 0; i < 100; i++) {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/servers/${id}/status`, headers: auth });
    if (res.json().status === wanted) return res.json();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`status never became ${wanted}`);
}

describeEachDatabase('servers: the customer operates own servers', (ctx) => {
  it('lists only own and shared servers; another customer gets 404 on detail, status and power', async () => {
    const owner = await createUser(ctx());
    const other = await createUser(ctx());
    const friend = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    await ctx().database.db.insert(serverAccess).values({ serverId: server.id, userId: friend.user.id });

    const list = await ctx().app.inject({ method: 'GET', url: '/api/servers', headers: owner.auth });
    expect(list.json().servers.map((s: { id: string }) => s.id)).toEqual([server.id]);
    expect(list.json().servers[0]).toMatchObject({ status: 'online', specs: { cpu: 2, ram: 4, storage: 50 }, access: 'owner' });

    const shared = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}`, headers: friend.auth });
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toMatchObject({ access: 'shared', expiresAt: null });

    expect((await ctx().app.inject({ method: 'GET', url: '/api/servers', headers: other.auth })).json().servers).toEqual([]);
    for (const [method, url] of [['GET', `/api/servers/${server.id}`], ['GET', `/api/servers/${server.id}/status`], ['GET', `/api/servers/${server.id}/usage`], ['POST', `/api/servers/${server.id}/restart`]] as const) {
      const res = await ctx().app.inject({ method, url, headers: other.auth });
      expect(res.statusCode, url).toBe(404);
    }
    const power = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: other.auth, payload: { action: 'stop' } });
    expect(power.statusCode).toBe(404);
    const [after] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(after!.status).toBe('online');
    expect(after!.busyTaskId).toBeNull();
  });

  it('stops and starts a server through the hypervisor; the same action again within 5 s gets the spec message', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const stop = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: owner.auth, payload: { action: 'stop' } });
    expect(stop.statusCode).toBe(202);
    expect(stop.json().newStatus).toBe('stopping');

    const again = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: owner.auth, payload: { action: 'stop' } });
    expect(again.statusCode).toBe(429);
    expect(again.json().error.message).toBe('Bitte warten Sie 5 Sekunden, bevor Sie es erneut versuchen.');
    expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(5);

    const stopped = await waitForStatus(ctx(), owner.auth, server.id, 'offline');
    expect(stopped.running).toBe(false);

    const restartOffline = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/restart`, headers: owner.auth });
    expect(restartOffline.statusCode).toBe(409);
    expect(restartOffline.json().error.message).toBe(serverMessages.restartNeedsOnline);

    const start = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: owner.auth, payload: { action: 'start' } });
    expect(start.statusCode).toBe(202);
    const online = await waitForStatus(ctx(), owner.auth, server.id, 'online');
    expect(online.running).toBe(true);
    expect(online.cpuUsage).toBeGreaterThanOrEqual(0);
  });

  it('restart shows "restart" and comes back online; a second restart meanwhile is refused', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const restart = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/restart`, headers: owner.auth });
    expect(restart.statusCode).toBe(202);
    expect(restart.json().newStatus).toBe('restart');
    const twice = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/restart`, headers: owner.auth });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(serverMessages.restartRunning);
    // The background settler finishes operations even when nobody polls.
    for (let i = 0; i < 100; i++) {
      await settleRunningTasks(ctx().app.deps);
      const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
      if (row!.status === 'online') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row!.status).toBe('online');
    expect(row!.busyTaskId).toBeNull();
  });

  it('throttles per kind of action: a restart right after a start passes, a second restart within 5 s is refused', async () => {
    const owner = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id, { status: 'offline' });
    await ctx().app.deps.hypervisor.waitForTask(await ctx().app.deps.hypervisor.power({ node: node.name, vmid: server.vmid }, 'stop'));
    const start = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: owner.auth, payload: { action: 'start' } });
    expect(start.statusCode).toBe(202);
    await waitForStatus(ctx(), owner.auth, server.id, 'online');

    // Within a second or so of "Start": the review saw "Neustart" refused here because the start counted.
    const restart = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/restart`, headers: owner.auth });
    expect(restart.json()).toMatchObject({ newStatus: 'restart' });
    expect(restart.statusCode).toBe(202);
    await waitForStatus(ctx(), owner.auth, server.id, 'online');

    const secondRestart = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/restart`, headers: owner.auth });
    expect(secondRestart.statusCode).toBe(429);
    expect(secondRestart.json().error).toMatchObject({ code: 'POWER_THROTTLED', message: 'Bitte warten Sie 5 Sekunden, bevor Sie es erneut versuchen.' });
    expect(Number(secondRestart.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row!.status).toBe('online');
    expect(row!.busyTaskId).toBeNull();
  });

  it('refuses actions in maintenance with the spec message and nothing happens', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id, { status: 'maintenance' });
    const res = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: owner.auth, payload: { action: 'stop' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(serverMessages.maintenance);
    const restart = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/restart`, headers: owner.auth });
    expect(restart.json().error.message).toBe(serverMessages.restartMaintenance);
  });

  it('lets exactly one of several parallel power actions through (one operation at a time)', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const results = await Promise.all(Array.from({ length: 6 }, () =>
      ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: owner.auth, payload: { action: 'stop' } })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 202)).toHaveLength(1);
    expect(codes.every((c) => c === 202 || c === 409 || c === 429)).toBe(true);
  });

  it('serves a usage history for the graph', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const res = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/usage?timeframe=hour`, headers: owner.auth });
    expect(res.statusCode).toBe(200);
    const points = res.json().points as { time: number }[];
    expect(points.length).toBeGreaterThan(10);
    expect(points.every((p, i) => i === 0 || p.time > points[i - 1]!.time)).toBe(true);
  });
});

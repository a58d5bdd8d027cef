import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { serverMessages, softwareMessages } from '@hp/contract';
import { describeEachDatabase, createUser, type TestContext } from '../../../test/harness.ts';
import { seedServer } from '../../../test/servers.ts';
import { servers, serverTasks } from '../../db/schema/index.ts';


async function waitForIdle(ctx: TestContext, id: string) {
  for (let i = 0; i < 200; i++) {
    const [row] = await ctx.database.db.select().from(servers).where(eq(servers.id, id));
    if (!row!.busyTaskId) return row!;
    // Software and reinstall run as durable jobs: the test drives the runner.
    await ctx.app.jobs.drain();
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('server stayed busy');
}

const statusOf = async (ctx: TestContext, auth: Record<string, string>, id: string, appId: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/servers/${id}/software`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json().apps.find((a: { id: string }) => a.id === appId).status as string;
};

describeEachDatabase('servers: software installation tab', (ctx) => {
  it('lists the fixed catalogue; installs nginx as a task (status install → online) and uninstalls it', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const list = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/software`, headers: owner.auth });
    expect(list.statusCode).toBe(200);
    expect(list.json().apps.map((a: { id: string; version: string }) => `${a.id} ${a.version}`)).toEqual([
      'nginx 1.24.0', 'apache 2.4.57', 'mysql 8.0.32', 'mongodb 6.0.5', 'node 18.16.0', 'python 3.11.3', 'php 8.2.5', 'fail2ban 1.0.2', 'docker 23.0.5',
    ]);
    expect(list.json()).toMatchObject({ source: 'host', task: null });
    expect(list.json().apps.every((a: { status: string }) => a.status === 'not-installed')).toBe(true);

    const install = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/nginx/install`, headers: owner.auth, payload: {} });
    expect(install.statusCode).toBe(202);
    expect(install.json().status).toBe('install');
    const [during] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(during!.status).toBe('install');
    expect(during!.busyTaskId).toBe(install.json().taskId);

    const done = await waitForIdle(ctx(), server.id);
    expect(done.status).toBe('online');
    const [task] = await ctx().database.db.select().from(serverTasks).where(eq(serverTasks.id, install.json().taskId));
    expect(task).toMatchObject({ kind: 'install', status: 'ok', progress: 100, payload: { appId: 'nginx' } });
    expect(await statusOf(ctx(), owner.auth, server.id, 'nginx')).toBe('installed');
    const after = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/software`, headers: owner.auth });
    expect(after.json().task).toMatchObject({ kind: 'install', appId: 'nginx', status: 'ok' });

    const uninstall = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/nginx/uninstall`, headers: owner.auth });
    expect(uninstall.statusCode).toBe(202);
    await waitForIdle(ctx(), server.id);
    expect(await statusOf(ctx(), owner.auth, server.id, 'nginx')).toBe('not-installed');
  });

  it('MySQL without password → 400 German; with one it installs and the password is stored nowhere', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const missing = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/mysql/install`, headers: owner.auth, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe(softwareMessages.mysqlPasswordRequired);
    const short = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/mysql/install`, headers: owner.auth, payload: { mysql: { password: 'kurz' } } });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.message).toBe(softwareMessages.dbPasswordLength);
    const mongo = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/mongodb/install`, headers: owner.auth, payload: { mongodb: { password: 'Geheim!12345' } } });
    expect(mongo.statusCode).toBe(400);
    const unknown = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/cobol/install`, headers: owner.auth, payload: {} });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(softwareMessages.missingPackage);
    expect((await ctx().database.db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id))).length).toBe(0);

    const secret = "Sup3r'Geheim\"!x";
    const ok = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/mysql/install`, headers: owner.auth, payload: { mysql: { password: secret } } });
    expect(ok.statusCode).toBe(202);
    await waitForIdle(ctx(), server.id);
    expect(await statusOf(ctx(), owner.auth, server.id, 'mysql')).toBe('installed');
    const tasks = await ctx().database.db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id));
    expect(JSON.stringify(tasks)).not.toContain('Geheim');
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(JSON.stringify(row)).not.toContain('Geheim');
  });

  it('one operation at a time: parallel installs → one 202, the rest 409; install while busy → 409', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    // Hold the guest command until the test lets it go, so "busy" does not depend on the machine's speed.
    const hypervisor = ctx().app.deps.hypervisor;
    const exec = hypervisor.exec.bind(hypervisor);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    hypervisor.exec = async (...args: Parameters<typeof exec>) => { await gate; return exec(...args); };
    try {
      const results = await Promise.all(['nginx', 'php', 'docker', 'fail2ban'].map((app) =>
        ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/${app}/install`, headers: owner.auth, payload: {} })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([202, 409, 409, 409]);
      expect(results.find((r) => r.statusCode === 409)!.json().error.message).toBe(serverMessages.busy);
      const again = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/python/install`, headers: owner.auth, payload: {} });
      expect(again.statusCode).toBe(409);
    } finally {
      release();
      hypervisor.exec = exec;
    }
    await waitForIdle(ctx(), server.id);
    const tasks = await ctx().database.db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id));
    expect(tasks).toHaveLength(1);
  });

  it('a failing command ends the task with the spec message and the server is online again', async () => {
    const owner = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    // Stop the VM behind our back: exec then fails on the host.
    await ctx().app.deps.hypervisor.waitForTask(await ctx().app.deps.hypervisor.power({ node: node.name, vmid: server.vmid }, 'stop'));
    const res = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/nginx/install`, headers: owner.auth, payload: {} });
    expect(res.statusCode).toBe(202);
    const done = await waitForIdle(ctx(), server.id);
    expect(done.status).toBe('online');
    const [task] = await ctx().database.db.select().from(serverTasks).where(eq(serverTasks.id, res.json().taskId));
    expect(task).toMatchObject({ status: 'failed', error: softwareMessages.failed });
    // The host cannot be asked: the last known state comes from the task history.
    const list = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/software`, headers: owner.auth });
    expect(list.json().task).toMatchObject({ status: 'failed', error: softwareMessages.failed });
  });

  it('refuses installs on a stopped server, and another customer gets 404 with no side effect', async () => {
    const owner = await createUser(ctx());
    const other = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    for (const [method, url] of [['GET', `/api/servers/${server.id}/software`], ['POST', `/api/servers/${server.id}/software/nginx/install`], ['POST', `/api/servers/${server.id}/software/nginx/uninstall`]] as const) {
      const res = await ctx().app.inject({ method, url, headers: other.auth, ...(method === 'POST' ? { payload: {} } : {}) });
      expect(res.statusCode, url).toBe(404);
    }
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row).toMatchObject({ status: 'online', busyTaskId: null });
    expect(await ctx().database.db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id))).toHaveLength(0);

    await ctx().database.db.update(servers).set({ status: 'offline' }).where(eq(servers.id, server.id));
    const offline = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/nginx/install`, headers: owner.auth, payload: {} });
    expect(offline.statusCode).toBe(409);
    expect(offline.json().error.message).toBe(softwareMessages.needsOnline);
    await ctx().database.db.update(servers).set({ status: 'maintenance' }).where(eq(servers.id, server.id));
    const maint = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/nginx/install`, headers: owner.auth, payload: {} });
    expect(maint.json().error.message).toBe(serverMessages.maintenanceManage);
  });
});

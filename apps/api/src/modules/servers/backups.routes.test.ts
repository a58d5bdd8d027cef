import { expect, it, onTestFinished } from 'vitest';
import { eq } from 'drizzle-orm';
import { backupMessages, serverMessages } from '@hp/contract';
import { describeEachDatabase, createUser } from '../../../test/harness.ts';
import { seedServer } from '../../../test/servers.ts';
import { servers, serverAccess } from '../../db/schema/index.ts';
import { createSimulatedHypervisor, type SimulatedHypervisor } from '../../drivers/hypervisor/simulated/simulated.ts';

type Task = { id: string; kind: string; status: string; progress: number; error: string | null };
type Listing = { backups: { id: string; filename: string; date: string; type: string; size: number }[]; max: number; task: Task | null };

describeEachDatabase('servers: backups', (ctx) => {
  const url = (id: string, rest = '') => `/api/servers/${id}/backups${rest}`;
  const list = async (id: string, auth: Record<string, string>) => {
    const res = await ctx().app.inject({ method: 'GET', url: url(id), headers: auth });
    expect(res.statusCode).toBe(200);
    return res.json() as Listing;
  };
  /** Polls the list like the tab does (faster) until the task with `taskId` has ended. */
  const waitForTask = async (id: string, auth: Record<string, string>, taskId: string) => {
    const seen: number[] = [];
    for (let i = 0; i < 200; i++) {
      const l = await list(id, auth);
      if (l.task?.id === taskId) {
        seen.push(l.task.progress);
        if (l.task.status !== 'running') return { listing: l, seen };
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('task never ended');
  };

  it('creates a backup with progress, refuses a second one, restores it and deletes it', async () => {
    // Progress needs a task that lasts several polls even on a loaded machine: this test's host is 5× slower.
    const fast = ctx().app.deps.hypervisor;
    ctx().app.deps.hypervisor = createSimulatedHypervisor(ctx().database.db, { speed: 10 });
    onTestFinished(() => {
      ctx().app.deps.hypervisor = fast;
    });
    const owner = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    const vm = { node: node.name, vmid: server.vmid };
    expect(await list(server.id, owner.auth)).toEqual({ backups: [], max: 1, task: null });

    const create = await ctx().app.inject({ method: 'POST', url: url(server.id), headers: owner.auth });
    expect(create.statusCode).toBe(202);
    expect(create.json()).toMatchObject({ message: backupMessages.creating, task: { kind: 'backup', status: 'running' } });
    const taskId = create.json().task.id as string;
    const [busy] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(busy!.busyTaskId).toBe(taskId);

    // While it runs a second backup is refused with the spec text, and so is a power action (one at a time).
    const running = await ctx().app.inject({ method: 'POST', url: url(server.id), headers: owner.auth });
    expect(running.statusCode).toBe(409);
    expect(running.json().error.message).toBe(backupMessages.maxReached);
    const power = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: owner.auth, payload: { action: 'stop' } });
    expect(power.statusCode).toBe(409);
    expect(power.json().error.message).toBe(serverMessages.busy);

    const { listing, seen } = await waitForTask(server.id, owner.auth, taskId);
    expect(listing.task).toMatchObject({ status: 'ok', progress: 100, error: null });
    expect(seen.length).toBeGreaterThan(1);
    expect(listing.backups).toHaveLength(1);
    const backup = listing.backups[0]!;
    const [hostBackup] = await ctx().app.deps.hypervisor.listBackups(vm);
    expect(backup).toMatchObject({ type: 'Manuell', filename: hostBackup!.volid.split('/').pop(), size: hostBackup!.size });
    expect(backup.id).not.toContain('/');
    expect(backup.id).not.toBe(hostBackup!.volid);
    expect(new Date(backup.date).getTime()).toBe(hostBackup!.ctime * 1000);
    const [idle] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(idle!.busyTaskId).toBeNull();

    const second = await ctx().app.inject({ method: 'POST', url: url(server.id), headers: owner.auth });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toBe(backupMessages.maxReached);
    expect(await ctx().app.deps.hypervisor.listBackups(vm)).toHaveLength(1);

    // A raw volume id is not an id.
    const raw = await ctx().app.inject({ method: 'POST', url: url(server.id, `/${encodeURIComponent(hostBackup!.volid)}/restore`), headers: owner.auth });
    expect([400, 404]).toContain(raw.statusCode);

    const restore = await ctx().app.inject({ method: 'POST', url: url(server.id, `/${backup.id}/restore`), headers: owner.auth });
    expect(restore.statusCode).toBe(202);
    expect(restore.json()).toMatchObject({ message: backupMessages.restoring, task: { kind: 'restore', status: 'running' } });
    const status = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}`, headers: owner.auth });
    expect(status.json().status).toBe('reinstall');
    const twice = await ctx().app.inject({ method: 'POST', url: url(server.id, `/${backup.id}/restore`), headers: owner.auth });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(serverMessages.busy);
    const delWhileRestoring = await ctx().app.inject({ method: 'DELETE', url: url(server.id, `/${backup.id}`), headers: owner.auth });
    expect(delWhileRestoring.statusCode).toBe(409);

    const restored = await waitForTask(server.id, owner.auth, restore.json().task.id);
    expect(restored.listing.task).toMatchObject({ kind: 'restore', status: 'ok' });
    const [after] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(after!.status).toBe('online');
    expect(after!.busyTaskId).toBeNull();

    const del = await ctx().app.inject({ method: 'DELETE', url: url(server.id, `/${backup.id}`), headers: owner.auth });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe(backupMessages.deleted);
    expect(await ctx().app.deps.hypervisor.listBackups(vm)).toEqual([]);
    expect((await list(server.id, owner.auth)).backups).toEqual([]);
    const gone = await ctx().app.inject({ method: 'DELETE', url: url(server.id, `/${backup.id}`), headers: owner.auth });
    expect(gone.statusCode).toBe(404);
  });

  it('a failed backup reports "Backup fehlgeschlagen: {exit status}" once and frees the server', async () => {
    const owner = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    const hv = ctx().app.deps.hypervisor as SimulatedHypervisor;
    hv.injectFailure({ op: 'vzdump', error: 'job errors', vmid: server.vmid });
    const create = await ctx().app.inject({ method: 'POST', url: url(server.id), headers: owner.auth });
    expect(create.statusCode).toBe(202);
    const { listing } = await waitForTask(server.id, owner.auth, create.json().task.id);
    expect(listing.task).toMatchObject({ status: 'failed', error: backupMessages.failed('job errors') });
    expect(listing.task!.error).toBe('Backup fehlgeschlagen: job errors');
    expect(listing.backups).toEqual([]);
    expect(await hv.listBackups({ node: node.name, vmid: server.vmid })).toEqual([]);
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row!.busyTaskId).toBeNull();
    expect(row!.status).toBe('online');

    // A host refusing the start: German 409, nothing stays claimed.
    hv.injectFailure({ op: 'vzdump', error: 'LOCKED', vmid: server.vmid });
    const locked = await ctx().app.inject({ method: 'POST', url: url(server.id), headers: owner.auth });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().error.code).toBe('HYPERVISOR_LOCKED');
    const [free] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(free!.busyTaskId).toBeNull();
  });

  it('only one of several parallel backup requests starts', async () => {
    const owner = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    const results = await Promise.all(Array.from({ length: 5 }, () => ctx().app.inject({ method: 'POST', url: url(server.id), headers: owner.auth })));
    expect(results.filter((r) => r.statusCode === 202)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409).every((r) => [backupMessages.maxReached, serverMessages.busy].includes(r.json().error.message))).toBe(true);
    await waitForTask(server.id, owner.auth, results.find((r) => r.statusCode === 202)!.json().task.id);
    expect(await ctx().app.deps.hypervisor.listBackups({ node: node.name, vmid: server.vmid })).toHaveLength(1);
  });

  it('a shared user may operate; another customer gets 404 on every route and nothing changes', async () => {
    const owner = await createUser(ctx());
    const friend = await createUser(ctx());
    const other = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    const vm = { node: node.name, vmid: server.vmid };
    await ctx().database.db.insert(serverAccess).values({ serverId: server.id, userId: friend.user.id });
    const create = await ctx().app.inject({ method: 'POST', url: url(server.id), headers: friend.auth });
    expect(create.statusCode).toBe(202);
    const { listing } = await waitForTask(server.id, friend.auth, create.json().task.id);
    const backup = listing.backups[0]!;

    for (const a of [
      { method: 'GET' as const, url: url(server.id) },
      { method: 'POST' as const, url: url(server.id) },
      { method: 'POST' as const, url: url(server.id, `/${backup.id}/restore`) },
      { method: 'DELETE' as const, url: url(server.id, `/${backup.id}`) },
    ]) {
      const res = await ctx().app.inject({ ...a, headers: other.auth });
      expect(res.statusCode, `${a.method} ${a.url}`).toBe(404);
    }
    // Another customer's own server cannot reach this backup by its id either.
    const { server: foreign } = await seedServer(ctx(), other.user.id);
    const cross = await ctx().app.inject({ method: 'POST', url: url(foreign.id, `/${backup.id}/restore`), headers: other.auth });
    expect(cross.statusCode).toBe(404);
    const crossDelete = await ctx().app.inject({ method: 'DELETE', url: url(foreign.id, `/${backup.id}`), headers: other.auth });
    expect(crossDelete.statusCode).toBe(404);

    expect(await ctx().app.deps.hypervisor.listBackups(vm)).toHaveLength(1);
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row!.status).toBe('online');
    expect(row!.busyTaskId).toBeNull();
  });
});

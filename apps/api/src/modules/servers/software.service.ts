import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import {
  findSoftware, serverMessages, serverSettingsMessages, softwareCatalogue, softwareMessages,
  type SoftwareId, type SoftwareInstallInput, type SoftwareList, type SoftwareTask, type TaskAccepted,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { servers, serverTasks } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { VmRef } from '../../drivers/hypervisor/hypervisor.ts';
import { findAccessibleServer, vmOf } from './server-access.ts';

export type TaskDeps = Pick<Deps, 'db' | 'hypervisor'> & { log?: { error: (obj: object, msg: string) => void } };
type ServerRow = typeof servers.$inferSelect;

/** Longest an install/uninstall may hold the server before a read declares it lost (API restart). */
const STALE_MS: Record<string, number> = { install: 30 * 60_000, uninstall: 30 * 60_000, reinstall: 2 * 60 * 60_000 };

// ── One operation at a time ────────────────────────────────────────────────────────────────────────

/** Maintenance and provisioning refuse every management action. */
export function assertManageable(server: ServerRow) {
  if (server.status === 'maintenance') throw conflict('SERVER_MAINTENANCE', serverMessages.maintenanceManage);
  if (server.status === 'provisioning') throw conflict('SERVER_NOT_READY', serverMessages.notReady);
}

/**
 * Records a task and claims the server for it with a conditional UPDATE (busy_task_id IS NULL and one
 * of `from` statuses), so two parallel requests cannot both win. The loser gets 409 and no task remains.
 */
export async function claimServer(deps: TaskDeps, server: ServerRow, opts: { kind: string; status: ServerRow['status']; from: ServerRow['status'][]; payload: Record<string, unknown> }) {
  const [task] = await deps.db.insert(serverTasks).values({ serverId: server.id, kind: opts.kind, payload: { ...opts.payload, previousStatus: server.status } }).returning({ id: serverTasks.id });
  const claimed = await deps.db.update(servers)
    .set({ busyTaskId: task!.id, status: opts.status, statusMessage: null })
    .where(and(eq(servers.id, server.id), isNull(servers.busyTaskId), inArray(servers.status, opts.from)))
    .returning({ id: servers.id });
  if (!claimed.length) {
    await deps.db.delete(serverTasks).where(eq(serverTasks.id, task!.id));
    throw conflict('SERVER_BUSY', serverMessages.busy);
  }
  return task!.id;
}

/** Ends a task and gives the server back, exactly once (only while it still holds the server). */
export async function finishTask(deps: TaskDeps, serverId: string, taskId: string, result: { ok: boolean; error?: string; server: Partial<typeof servers.$inferInsert>; payload?: Record<string, unknown> }) {
  await deps.db.transaction(async (tx) => {
    const released = await tx.update(servers).set({ ...result.server, busyTaskId: null })
      .where(and(eq(servers.id, serverId), eq(servers.busyTaskId, taskId)))
      .returning({ id: servers.id });
    if (!released.length) return;
    const [task] = await tx.select({ payload: serverTasks.payload }).from(serverTasks).where(eq(serverTasks.id, taskId));
    await tx.update(serverTasks).set({
      status: result.ok ? 'ok' : 'failed', progress: 100, error: result.ok ? null : (result.error ?? softwareMessages.failed), finishedAt: new Date(),
      payload: { ...(task?.payload ?? {}), ...(result.payload ?? {}) },
    }).where(eq(serverTasks.id, taskId));
  });
}

/** Progress writes, chained so an older value never overwrites a newer one; only while running. */
export function progressWriter(deps: TaskDeps, taskId: string) {
  let chain: Promise<unknown> = Promise.resolve();
  let last = -1;
  const write = (percent: number) => {
    const p = Math.max(0, Math.min(99, Math.floor(percent)));
    if (p <= last) return chain;
    last = p;
    chain = chain.then(() => deps.db.update(serverTasks).set({ progress: p }).where(and(eq(serverTasks.id, taskId), eq(serverTasks.status, 'running')))).catch(() => {});
    return chain;
  };
  return { write, done: () => chain };
}

/**
 * A task of ours that outlived its time (the API stopped while it ran) is failed and the server released,
 * so a restart never leaves a server locked for ever.
 */
export async function releaseStaleTask(deps: TaskDeps, server: ServerRow) {
  if (!server.busyTaskId) return server;
  const [task] = await deps.db.select().from(serverTasks).where(eq(serverTasks.id, server.busyTaskId));
  const limit = task ? STALE_MS[task.kind] : undefined;
  if (!task || limit === undefined || Date.now() - task.startedAt.getTime() < limit) return server;
  await finishTask(deps, server.id, task.id, task.kind === 'reinstall'
    ? { ok: false, error: serverSettingsMessages.reinstallFailed, server: { status: 'failed', statusMessage: serverSettingsMessages.reinstallFailed } }
    : { ok: false, error: softwareMessages.failed, server: { status: 'online' } });
  const [fresh] = await deps.db.select().from(servers).where(eq(servers.id, server.id));
  return fresh ?? server;
}

// ── Installed state ────────────────────────────────────────────────────────────────────────────────

/**
 * The host is the truth: `dpkg -s <package>` for every catalogue entry (in parallel; the simulated
 * hypervisor remembers packages, a real guest answers from dpkg). When the guest cannot be asked (server
 * stopped, host unreachable) the last known state is derived from our finished tasks: install/uninstall
 * payloads, reset by a reinstall. Nothing extra is stored.
 */
async function installedOnHost(deps: TaskDeps, vm: VmRef): Promise<Set<SoftwareId>> {
  const results = await Promise.all(softwareCatalogue.map(async (app) => {
    const res = await deps.hypervisor.exec(vm, ['dpkg', '-s', app.packages[0]!]);
    return res.exitCode === 0 && /Status: install ok installed/.test(res.stdout) ? app.id : null;
  }));
  return new Set(results.filter((x): x is SoftwareId => x !== null));
}

async function installedFromHistory(deps: TaskDeps, serverId: string): Promise<Set<SoftwareId>> {
  const rows = await deps.db.select({ kind: serverTasks.kind, payload: serverTasks.payload }).from(serverTasks)
    .where(and(eq(serverTasks.serverId, serverId), eq(serverTasks.status, 'ok'), inArray(serverTasks.kind, ['install', 'uninstall', 'reinstall'])))
    .orderBy(serverTasks.finishedAt);
  const set = new Set<SoftwareId>();
  for (const r of rows) {
    const appId = (r.payload as { appId?: SoftwareId }).appId;
    if (r.kind === 'reinstall') set.clear();
    else if (appId && r.kind === 'install') set.add(appId);
    else if (appId) set.delete(appId);
  }
  return set;
}

async function latestSoftwareTask(deps: TaskDeps, serverId: string): Promise<SoftwareTask | null> {
  const [task] = await deps.db.select().from(serverTasks)
    .where(and(eq(serverTasks.serverId, serverId), inArray(serverTasks.kind, ['install', 'uninstall'])))
    .orderBy(desc(serverTasks.startedAt)).limit(1);
  if (!task) return null;
  const recent = task.status === 'running' || (task.finishedAt && Date.now() - task.finishedAt.getTime() < 60_000);
  if (!recent) return null;
  return {
    id: task.id, kind: task.kind as 'install' | 'uninstall', appId: (task.payload as { appId: SoftwareId }).appId,
    status: task.status, progress: task.progress, error: task.error, finishedAt: task.finishedAt?.toISOString() ?? null,
  };
}

export async function listSoftware(deps: TaskDeps, user: RequestUser, id: string): Promise<SoftwareList> {
  const found = await findAccessibleServer(deps.db, user, id);
  const server = await releaseStaleTask(deps, found.server);
  let installed: Set<SoftwareId>;
  let source: SoftwareList['source'] = 'host';
  const ask = server.status === 'online' || server.status === 'install';
  try {
    if (!ask) throw new Error('not running');
    installed = await installedOnHost(deps, vmOf(server, found.node));
  } catch {
    installed = await installedFromHistory(deps, server.id);
    source = 'history';
  }
  const task = await latestSoftwareTask(deps, server.id);
  return {
    apps: softwareCatalogue.map((a) => ({
      id: a.id, name: a.name, description: a.description, category: a.category, version: a.version, sizeMb: a.sizeMb,
      credentials: a.credentials ?? null,
      status: installed.has(a.id) ? 'installed' : 'not-installed',
    })),
    source,
    task,
    serverStatus: server.status,
  };
}

// ── Install / uninstall ────────────────────────────────────────────────────────────────────────────

/** Quotes a value for a single-quoted SQL string literal. */
const sqlString = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The guest-agent commands, as argv lists: no shell, so nothing in a password can be interpreted.
 * Credentials appear only in these argv arrays handed to the guest agent; they are not written to the
 * task, the database or the log.
 */
function commandsFor(appId: string, action: 'install' | 'uninstall', input: SoftwareInstallInput): string[][] {
  const app = findSoftware(appId)!;
  const env = ['env', 'DEBIAN_FRONTEND=noninteractive'];
  if (action === 'uninstall') return [[...env, 'apt-get', 'remove', '-y', ...app.packages]];
  const cmds = [[...env, 'apt-get', 'install', '-y', ...app.packages]];
  if (appId === 'mysql' && input.mysql) {
    cmds.push(['mysql', '-u', 'root', '-e', `ALTER USER 'root'@'localhost' IDENTIFIED BY ${sqlString(input.mysql.password)}; FLUSH PRIVILEGES;`]);
  }
  if (appId === 'mongodb' && input.mongodb) {
    const { username, password } = input.mongodb;
    cmds.push(['mongosh', 'admin', '--quiet', '--eval', `db.createUser({ user: ${JSON.stringify(username)}, pwd: ${JSON.stringify(password)}, roles: [{ role: 'root', db: 'admin' }] })`]);
  }
  return cmds;
}

export async function startSoftwareTask(deps: TaskDeps, user: RequestUser, id: string, appId: string, action: 'install' | 'uninstall', input: SoftwareInstallInput = {}): Promise<TaskAccepted> {
  const found = await findAccessibleServer(deps.db, user, id);
  const app = findSoftware(appId);
  if (!app) throw notFound(softwareMessages.missingPackage);
  const appKey = app.id;
  if (action === 'install' && app.credentials === 'mysql' && !input.mysql) throw badRequest('CREDENTIALS_REQUIRED', softwareMessages.mysqlPasswordRequired, { field: 'mysql.password' });
  if (action === 'install' && app.credentials === 'mongodb' && !input.mongodb) throw badRequest('CREDENTIALS_REQUIRED', softwareMessages.mongoUsernameRequired, { field: 'mongodb.username' });
  const server = await releaseStaleTask(deps, found.server);
  assertManageable(server);
  if (server.busyTaskId) throw conflict('SERVER_BUSY', serverMessages.busy);
  if (server.status !== 'online') throw conflict('SERVER_NOT_ONLINE', softwareMessages.needsOnline);

  const taskId = await claimServer(deps, server, { kind: action, status: 'install', from: ['online'], payload: { appId: appKey } });
  const vm = vmOf(server, found.node);
  const commands = commandsFor(appKey, action, input);
  void runSoftwareTask(deps, server.id, taskId, vm, commands);
  return { taskId, status: 'install', message: action === 'install' ? softwareMessages.installing(app.name) : softwareMessages.uninstalling(app.name) };
}

/** The background part: runs the commands, writes progress, settles the task and frees the server. */
export async function runSoftwareTask(deps: TaskDeps, serverId: string, taskId: string, vm: VmRef, commands: string[][]) {
  const progress = progressWriter(deps, taskId);
  let ok = true;
  try {
    await progress.write(5);
    for (const [i, cmd] of commands.entries()) {
      const res = await deps.hypervisor.exec(vm, cmd);
      if (res.exitCode !== 0) {
        ok = false;
        // Only the exit code is logged: the command may carry credentials.
        deps.log?.error({ serverId, taskId, step: i, exitCode: res.exitCode }, 'software task command failed');
        break;
      }
      await progress.write(5 + ((i + 1) / commands.length) * 90);
    }
  } catch (err) {
    ok = false;
    deps.log?.error({ serverId, taskId, err: { message: (err as Error).message } }, 'software task failed');
  }
  await progress.done();
  await finishTask(deps, serverId, taskId, ok ? { ok: true, server: { status: 'online' } } : { ok: false, error: softwareMessages.failed, server: { status: 'online' } })
    .catch((err) => deps.log?.error({ serverId, taskId, err: { message: (err as Error).message } }, 'settling a software task failed'));
}

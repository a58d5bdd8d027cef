import { and, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import {
  findSoftware, SoftwareInstallInput, softwareCatalogue, softwareMessages,
  type SoftwareId, type SoftwareList, type SoftwareTask, type TaskAccepted,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { nodes, servers, serverTasks } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import type { RequestUser } from '../../http/auth.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { VmRef } from '../../drivers/hypervisor/hypervisor.ts';
import { decryptSecret, encryptSecret } from '../../lib/secrets.ts';
import { defineJob } from '../../jobs/define.ts';
import { findAccessibleServer, vmOf } from './server-access.ts';
import { claimServer, finishTask, guardOperation, progressWriter, releaseStaleTask, type OperationDeps } from './server-operation.ts';

export type TaskDeps = OperationDeps & Pick<Deps, 'secrets'>;

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
  guardOperation(server, { family: 'manage' });
  if (server.status !== 'online') throw conflict('SERVER_NOT_ONLINE', softwareMessages.needsOnline);

  // Credentials travel to the job encrypted and are removed from it when it ends (db/jobs.ts).
  const credentials = action === 'install' && (input.mysql || input.mongodb) ? { mysql: input.mysql, mongodb: input.mongodb } : null;
  const taskId = await claimServer(deps.db, server, { kind: action, status: 'install', from: ['online'], payload: { appId: appKey } }, (tx, task) =>
    enqueue(tx, softwareJob, {
      serverId: server.id, taskId: task, appId: appKey, action,
      ...(credentials ? { sealed: encryptSecret(deps.secrets.encryptionKey, JSON.stringify(credentials)) } : {}),
    }));
  return { taskId, status: 'install', message: action === 'install' ? softwareMessages.installing(app.name) : softwareMessages.uninstalling(app.name) };
}

/**
 * The durable part of an install or uninstall: runs the commands, writes progress, settles the task
 * and frees the server. Runs again after a crash (apt-get is idempotent); a finished task is left alone.
 */
export const softwareJob = defineJob(
  jobKind('software-task', z.object({ serverId: z.string(), taskId: z.string(), appId: z.string(), action: z.enum(['install', 'uninstall']), sealed: z.string().optional() })),
  async (deps, { serverId, taskId, appId, action, sealed }) => {
    const [row] = await deps.db.select({ server: servers, node: nodes.name }).from(servers).innerJoin(nodes, eq(nodes.id, servers.nodeId)).where(eq(servers.id, serverId));
    if (!row || row.server.busyTaskId !== taskId) return; // finished already (or released as stale)
    const input = sealed ? SoftwareInstallInput.parse(JSON.parse(decryptSecret(deps.secrets.encryptionKey, sealed))) : {};
    await runSoftwareTask(deps, serverId, taskId, vmOf(row.server, row.node), commandsFor(appId, action, input));
  },
);

/** Runs the commands, writes progress, settles the task and frees the server. */
async function runSoftwareTask(deps: OperationDeps, serverId: string, taskId: string, vm: VmRef, commands: string[][]) {
  const progress = progressWriter(deps.db, taskId);
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
  await finishTask(deps.db, serverId, taskId, ok ? { ok: true, server: { status: 'online' } } : { ok: false, error: softwareMessages.failed, server: { status: 'online' } });
}

import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  isLinuxOs, normaliseSshKeys, serverSettingsMessages, subnetPrefix,
  type ReinstallInput, type ReinstallOs, type ServerSettings, type TaskAccepted,
} from '@hp/contract';
import { ipAddresses, nodes, servers, serverAccess, serverTasks, users, vdcs } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import type { RequestUser } from '../../http/auth.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { HypervisorError, type CreateServerSpec } from '../../drivers/hypervisor/hypervisor.ts';
import { decryptSecret, encryptSecret } from '../../lib/secrets.ts';
import { defineJob, type JobDeps } from '../../jobs/define.ts';
import { findAccessibleServer, toAppError, vmOf } from './server-access.ts';
import { osTemplates } from './provision-server.ts';
import { claimServer, finishTask, guardOperation, progressWriter, releaseStaleTask } from './server-operation.ts';
import type { TaskDeps } from './software.service.ts';


// ── Read ───────────────────────────────────────────────────────────────────────────────────────────

export async function getSettings(deps: TaskDeps, user: RequestUser, id: string): Promise<ServerSettings> {
  const { server, access } = await findAccessibleServer(deps.db, user, id);
  const sharedWith = access === 'owner'
    ? (await deps.db.select({ username: users.username, since: serverAccess.createdAt }).from(serverAccess)
      .innerJoin(users, eq(users.id, serverAccess.userId))
      .where(eq(serverAccess.serverId, server.id)).orderBy(serverAccess.createdAt))
      .map((r) => ({ username: r.username, since: r.since.toISOString() }))
    : null;
  // The moment of the last root password change is the finished 'root-password' task (no password kept).
  const [pw] = await deps.db.select({ at: serverTasks.finishedAt }).from(serverTasks)
    .where(and(eq(serverTasks.serverId, server.id), eq(serverTasks.kind, 'root-password'), eq(serverTasks.status, 'ok')))
    .orderBy(desc(serverTasks.finishedAt)).limit(1);
  return { access, sshKeys: server.sshKeys, sharedWith, rootPasswordSetAt: pw?.at?.toISOString() ?? null, linux: isLinuxOs(server.os) };
}

// ── SSH keys and root password (owner and shared users) ────────────────────────────────────────────

async function operable(deps: TaskDeps, user: RequestUser, id: string) {
  const found = await findAccessibleServer(deps.db, user, id);
  const server = await releaseStaleTask(deps, found.server);
  guardOperation(server, { family: 'manage', skipBusy: true });
  if (server.status === 'failed') throw conflict('SERVER_FAILED', serverSettingsMessages.reinstallFailed);
  guardOperation(server, { family: 'manage' });
  return { ...found, server };
}

export async function saveSshKeys(deps: TaskDeps, user: RequestUser, id: string, text: string) {
  const { server, node } = await operable(deps, user, id);
  // Windows logs in with the Administrator password; cloud-init's SSH keys would do nothing there.
  if (!isLinuxOs(server.os)) throw conflict('SSH_KEYS_WINDOWS', serverSettingsMessages.sshKeysWindows);
  const keys = normaliseSshKeys(text);
  try {
    await deps.hypervisor.setSshKeys(vmOf(server, node), keys);
  } catch (err) {
    throw toAppError(err);
  }
  await deps.db.update(servers).set({ sshKeys: keys }).where(eq(servers.id, server.id));
  return { sshKeys: keys, message: serverSettingsMessages.sshKeysSaved };
}

/** Sets the root (Linux) or Administrator (Windows) password on the host only; we keep just the moment. */
export async function changeRootPassword(deps: TaskDeps, user: RequestUser, id: string, password: string) {
  const { server, node } = await operable(deps, user, id);
  try {
    await deps.hypervisor.setRootPassword(vmOf(server, node), password);
  } catch (err) {
    throw toAppError(err);
  }
  const now = new Date();
  await deps.db.insert(serverTasks).values({ serverId: server.id, kind: 'root-password', status: 'ok', progress: 100, startedAt: now, finishedAt: now, payload: { by: user.id } });
  const message = isLinuxOs(server.os) ? serverSettingsMessages.rootPasswordSaved : serverSettingsMessages.adminPasswordSaved;
  return { message, rootPasswordSetAt: now.toISOString() };
}

// ── Sharing (owner only) ───────────────────────────────────────────────────────────────────────────

async function ownedServer(deps: TaskDeps, user: RequestUser, id: string) {
  const found = await findAccessibleServer(deps.db, user, id);
  if (found.access !== 'owner') throw forbidden(serverSettingsMessages.shareOwnerOnly);
  return found;
}

/** Only active customer accounts can be found, and every miss looks the same. */
async function findCustomerByUsername(deps: TaskDeps, username: string) {
  const [row] = await deps.db.select({ id: users.id, username: users.username }).from(users)
    .where(and(sql`lower(${users.username}) = lower(${username})`, eq(users.role, 'customer'), isNull(users.disabledAt)))
    .limit(1);
  return row ?? null;
}

export async function shareServer(deps: TaskDeps, user: RequestUser, id: string, username: string) {
  const { server } = await ownedServer(deps, user, id);
  // A VM of a virtual data center belongs to the pool, which is not shared with other logins.
  if (server.vdcId) throw conflict('SHARE_VDC_VM', 'Die VMs eines Virtual Data Centers können nicht mit anderen Konten geteilt werden.');
  if (username.toLowerCase() === user.username.toLowerCase()) throw badRequest('SHARE_SELF', serverSettingsMessages.shareSelf);
  const friend = await findCustomerByUsername(deps, username);
  if (!friend) throw notFound(serverSettingsMessages.userNotFound);
  if (friend.id === user.id) throw badRequest('SHARE_SELF', serverSettingsMessages.shareSelf);
  const inserted = await deps.db.insert(serverAccess).values({ serverId: server.id, userId: friend.id }).onConflictDoNothing().returning({ since: serverAccess.createdAt });
  if (!inserted.length) throw conflict('SHARE_EXISTS', serverSettingsMessages.shareExists);
  return { username: friend.username, since: inserted[0]!.since.toISOString() };
}

export async function unshareServer(deps: TaskDeps, user: RequestUser, id: string, username: string) {
  const { server } = await ownedServer(deps, user, id);
  const [target] = await deps.db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${username})`).limit(1);
  const removed = target
    ? await deps.db.delete(serverAccess).where(and(eq(serverAccess.serverId, server.id), eq(serverAccess.userId, target.id))).returning({ id: serverAccess.userId })
    : [];
  if (!removed.length) throw notFound(serverSettingsMessages.shareNotFound);
}

// ── Reinstall (owner only: it destroys all data) ───────────────────────────────────────────────────

export async function startReinstall(deps: TaskDeps, user: RequestUser, id: string, input: ReinstallInput): Promise<TaskAccepted> {
  const found = await findAccessibleServer(deps.db, user, id);
  if (found.access !== 'owner') throw forbidden(serverSettingsMessages.reinstallOwnerOnly);
  const server = await releaseStaleTask(deps, found.server);
  guardOperation(server, { family: 'manage', skipBusy: true });
  const linux = isLinuxOs(server.os);
  if (!linux && input.os && input.os !== server.os) throw badRequest('OS_LINUX_ONLY', serverSettingsMessages.osLinuxOnly);
  const os: string = input.os ?? server.os;
  if (!osTemplates[os as keyof typeof osTemplates]) throw badRequest('OS_REQUIRED', serverSettingsMessages.osRequired);
  guardOperation(server, { family: 'manage' });

  // The new root password travels to the job encrypted and is removed from it when the job ends.
  const taskId = await claimServer(deps.db, server, { kind: 'reinstall', status: 'reinstall', from: ['online', 'offline', 'failed'], payload: { os } }, (tx, task) =>
    enqueue(tx, reinstallJob, { serverId: server.id, taskId: task, os, sealed: encryptSecret(deps.secrets.encryptionKey, input.password) }));
  return { taskId, status: 'reinstall', message: serverSettingsMessages.reinstallStarted };
}

/** Runs while the host still holds the VM for an earlier run: retried with backoff (2 s … 32 s) up to here. */
const REINSTALL_LOCKED_ATTEMPTS = 6;

/** The VM's new definition: the same resources and addresses, the chosen system, the customer's keys. */
async function reinstallSpec(deps: JobDeps, server: typeof servers.$inferSelect, node: string, os: string, rootPassword: string): Promise<CreateServerSpec> {
  const ips = await deps.db.select().from(ipAddresses).where(eq(ipAddresses.serverId, server.id));
  const v4 = ips.find((i) => i.version === 'IPv4');
  const v6 = ips.find((i) => i.version === 'IPv6');
  const prefix4 = v4 ? subnetPrefix('IPv4', v4.subnet) : null;
  const prefix6 = v6 ? subnetPrefix('IPv6', v6.subnet) : null;
  // A VM of a virtual data center is created again inside its pool.
  const [pool] = server.vdcId ? await deps.db.select({ id: vdcs.poolId }).from(vdcs).where(eq(vdcs.id, server.vdcId)) : [];
  return {
    ...vmOf(server, node),
    name: server.name,
    os: osTemplates[os as keyof typeof osTemplates],
    cores: server.cpuCores,
    memoryMb: server.ramGb * 1024,
    diskGb: server.storageGb,
    ...(v4 && prefix4 !== null ? { ipv4: { address: v4.address, prefix: prefix4, gateway: v4.gateway } } : {}),
    ...(v6 && prefix6 !== null ? { ipv6: { address: v6.address, prefix: prefix6, gateway: v6.gateway } } : {}),
    rootPassword,
    ...(server.sshKeys ? { sshKeys: server.sshKeys } : {}),
    ...(pool ? { pool: pool.id } : {}),
  };
}

/**
 * The durable part of a reinstall: hypervisor.reinstallServer with our IPs; success → online with the
 * new OS, failure → 'failed' with the German message. After a crash the job runs again and reinstalls
 * again (the data is being replaced anyway); a task that already ended is left alone.
 */
export const reinstallJob = defineJob(
  jobKind('reinstall-server', z.object({ serverId: z.string(), taskId: z.string(), os: z.string(), sealed: z.string() })),
  async (deps, { serverId, taskId, os, sealed }, run) => {
    const [row] = await deps.db.select({ server: servers, node: nodes.name }).from(servers).innerJoin(nodes, eq(nodes.id, servers.nodeId)).where(eq(servers.id, serverId));
    if (!row || row.server.busyTaskId !== taskId) return;
    const progress = progressWriter(deps.db, taskId);
    try {
      const spec = await reinstallSpec(deps, row.server, row.node, os, decryptSecret(deps.secrets.encryptionKey, sealed));
      await deps.hypervisor.reinstallServer(spec, (p) => void progress.write(p));
      await progress.done();
      await finishTask(deps.db, serverId, taskId, { ok: true, server: { status: 'online', os, statusMessage: null } });
    } catch (err) {
      await progress.done();
      // The VM is still locked by a task of an earlier run of this job (its runner died mid-clone): try
      // again with the queue's backoff once the host is free, instead of giving up on the customer.
      if (err instanceof HypervisorError && err.code === 'LOCKED' && run.attempt < REINSTALL_LOCKED_ATTEMPTS) throw err;
      deps.log.error({ serverId, taskId, err: { message: (err as Error).message ?? 'unknown' } }, 'reinstall failed');
      await finishTask(deps.db, serverId, taskId, { ok: false, error: serverSettingsMessages.reinstallFailed, server: { status: 'failed', statusMessage: serverSettingsMessages.reinstallFailed } });
    }
  },
);

export type { ReinstallOs };

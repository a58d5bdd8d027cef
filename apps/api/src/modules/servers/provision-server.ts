import { and, desc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { subnetPrefix, type AdminServerOs, type LinuxDistro, type WindowsVersion } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { ipAddresses, nodes, servers, serverTasks } from '../../db/schema/index.ts';
import { jobKind } from '../../db/jobs.ts';
import { defineJob } from '../../jobs/define.ts';
import { HypervisorError, hypervisorMessages, type CreateServerSpec, type OsTemplate, type VmRef } from '../../drivers/hypervisor/hypervisor.ts';

type ProvisionDeps = Pick<Deps, 'db' | 'hypervisor'>;

/** The systems of the staff dialog (portal spec §9) and of the shop (public spec §5) as hypervisor templates. */
export const osTemplates: Record<AdminServerOs | LinuxDistro | WindowsVersion, OsTemplate> = {
  'Debian 12': 'debian-12',
  'Debian 11': 'debian-11',
  'Ubuntu 25.04': 'ubuntu-25.04',
  'Ubuntu 24.10': 'ubuntu-24.10',
  'Ubuntu 24.04': 'ubuntu-24.04',
  'Ubuntu 22.04': 'ubuntu-22.04',
  'Ubuntu 20.04': 'ubuntu-20.04',
  'CentOS 8': 'centos-8',
  'Windows Server 2025': 'windows-2025',
  'Windows Server 2022': 'windows-2022',
};

/** Progress is written at most this often, plus whenever it moved by PROGRESS_STEP points. */
const PROGRESS_INTERVAL_MS = 1000;
const PROGRESS_STEP = 10;

async function findCreateTask({ db }: ProvisionDeps, serverId: string) {
  const [task] = await db.select({ id: serverTasks.id }).from(serverTasks)
    .where(and(eq(serverTasks.serverId, serverId), eq(serverTasks.kind, 'create')))
    .orderBy(desc(serverTasks.startedAt)).limit(1);
  if (task) return task.id;
  const [created] = await db.insert(serverTasks).values({ serverId, kind: 'create', status: 'running' }).returning({ id: serverTasks.id });
  return created!.id;
}

/** What a product that places VMs itself (the virtual data center) adds to the root server's build. */
export interface ProvisionOptions {
  /** The resource pool the VM is created in. */
  pool?: string;
  /** The template when the server's system is none of ours (a VM booting the customer's own ISO). */
  template?: OsTemplate;
  /** Runs after the VM was created, before it counts as online (e.g. insert the ISO and boot from it). */
  afterCreate?: (vm: VmRef) => Promise<void>;
}

/**
 * Builds the VM of a server in status 'provisioning' and records the outcome: 'online' with the task 'ok',
 * or 'failed' with the driver's German message. Never marks a server online unless createServer resolved.
 * Safe to run again for the same server (createServer is idempotent; finished servers are skipped).
 */
export async function provisionServer(deps: ProvisionDeps, serverId: string, opts: ProvisionOptions = {}): Promise<'online' | 'failed' | 'skipped'> {
  const { db, hypervisor } = deps;
  const [row] = await db
    .select({ server: servers, nodeName: nodes.name })
    .from(servers).innerJoin(nodes, eq(nodes.id, servers.nodeId))
    .where(and(eq(servers.id, serverId), isNull(servers.deletedAt)));
  if (!row || row.server.status !== 'provisioning') return 'skipped';
  const { server } = row;
  const taskId = await findCreateTask(deps, serverId);

  let lastWritten = { percent: -1, at: 0 };
  // Writes are chained so that an older progress value never overwrites a newer one.
  let progressWrites: Promise<unknown> = Promise.resolve();
  const onProgress = (raw: number) => {
    const percent = Math.max(0, Math.min(99, Math.floor(raw)));
    const now = Date.now();
    if (percent <= lastWritten.percent) return;
    if (percent - lastWritten.percent < PROGRESS_STEP && now - lastWritten.at < PROGRESS_INTERVAL_MS) return;
    lastWritten = { percent, at: now };
    progressWrites = progressWrites
      .then(() => db.update(serverTasks).set({ progress: percent }).where(and(eq(serverTasks.id, taskId), eq(serverTasks.status, 'running'))))
      .catch(() => {});
  };

  try {
    const [ip] = await db.select().from(ipAddresses)
      .where(and(eq(ipAddresses.serverId, serverId), eq(ipAddresses.version, 'IPv4'))).limit(1);
    const template = osTemplates[server.os as keyof typeof osTemplates] ?? opts.template;
    if (!template) throw new HypervisorError('INVALID', hypervisorMessages.INVALID, `unknown os ${server.os}`);
    const prefix = ip ? subnetPrefix('IPv4', ip.subnet) : null;
    const spec: CreateServerSpec = {
      node: row.nodeName,
      vmid: server.vmid,
      name: server.name,
      os: template,
      cores: server.cpuCores,
      memoryMb: server.ramGb * 1024,
      diskGb: server.storageGb,
      ...(ip && prefix !== null ? { ipv4: { address: ip.address, prefix, gateway: ip.gateway } } : {}),
      ...(server.sshKeys ? { sshKeys: server.sshKeys } : {}),
      ...(opts.pool ? { pool: opts.pool } : {}),
    };
    await hypervisor.createServer(spec, onProgress);
    await opts.afterCreate?.({ node: spec.node, vmid: spec.vmid });
    // The host's firewall follows the portal's switch from the start (new servers: on).
    await hypervisor.setFirewall({ node: spec.node, vmid: spec.vmid }, server.firewallEnabled);
  } catch (err) {
    await progressWrites;
    const message = err instanceof HypervisorError ? err.message : hypervisorMessages.TASK_FAILED;
    await db.transaction(async (tx) => {
      await tx.update(servers).set({ status: 'failed', statusMessage: message })
        .where(and(eq(servers.id, serverId), eq(servers.status, 'provisioning')));
      await tx.update(serverTasks).set({ status: 'failed', error: message, finishedAt: new Date() }).where(eq(serverTasks.id, taskId));
    });
    return 'failed';
  }

  await progressWrites;
  await db.transaction(async (tx) => {
    await tx.update(servers).set({ status: 'online', statusMessage: null })
      .where(and(eq(servers.id, serverId), eq(servers.status, 'provisioning')));
    await tx.update(serverTasks).set({ status: 'ok', progress: 100, error: null, finishedAt: new Date() }).where(eq(serverTasks.id, taskId));
  });
  return 'online';
}

/**
 * The durable provisioning of a server created by staff (enqueued with the server row, in the same
 * transaction). Shop orders have their own job, which also completes the order (payments.service.ts).
 * After a crash the job runs again; provisionServer is idempotent.
 */
export const provisionServerJob = defineJob(jobKind('provision-server', z.object({ serverId: z.string() })), async (deps, { serverId }) => {
  await provisionServer(deps, serverId);
});

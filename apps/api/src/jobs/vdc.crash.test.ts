import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { NodePage, VdcDetail, VdcIso, VdcIsoList } from '@hp/contract';
import { invoices, ipAddresses, jobs, nodes, orders, schedules, servers, serverTasks, simIsos, simPools, simVms, users, vdcIsos, vdcs } from '../db/schema/index.ts';
import { hashPassword } from '../lib/passwords.ts';
import { waitFor } from '../../test/processes.ts';
import { buyThroughCrash, crashCleanups, createCrashCustomer, expectInvoiceMails, expectJobsSettled, openCrashScenario, type CrashScenario } from '../../test/crash.ts';

/**
 * SIGKILL in the virtual data center's jobs (issue 25, "Failures"): a real server process on PostgreSQL
 * is killed while a pool is provisioned, while a VM is built on the (simulated) host, and while an ISO
 * image is uploaded, then restarted without the fault. Nothing may be left half done or counted twice:
 * one pool counted once on its node, one VM per creation and no orphan on the host, no part file and
 * no half image, the library's quota freed for an upload that never came back.
 */
const base = process.env.TEST_DATABASE_URL;

type Db = CrashScenario['db'];
type Auth = Record<string, string>;

const smallPool = { cpu: 4, ram: 8, storage: 100, ipv4: 1, months: 1, acceptTerms: true };

async function seedNode(db: Db) {
  const [node] = await db.insert(nodes).values({ name: 'pve-vdc-crash', host: '10.9.0.1', cpuCores: 32, ramGb: 128, storageGb: 2000, status: 'online' }).returning();
  return node!;
}

/** An active pool with one public address and its Proxmox pool, as a finished purchase leaves it (the purchase itself is case (a)). */
async function seedActivePool(db: Db, ownerId: string) {
  const node = await seedNode(db);
  const [vdc] = await db.insert(vdcs).values({
    ownerId, nodeId: node.id, name: 'Crash', cpuCores: 8, ramGb: 16, storageGb: 200, ipv4Count: 1, poolId: 'vdc-crash', vnet: 'vdccrash', status: 'active',
    expiresAt: new Date(Date.now() + 30 * 86_400_000),
  }).returning();
  await db.insert(simPools).values({ poolid: vdc!.poolId });
  await db.insert(ipAddresses).values({ address: '198.51.100.20', version: 'IPv4', subnet: '24', gateway: '198.51.100.1', vdcId: vdc!.id });
  return { node, vdc: vdc! };
}

/** A staff login on the running process: the node figures come from the staff's node list, the code under test. */
async function staffAuth(db: Db, origin: string): Promise<Auth> {
  const password = 'Sicher!Passwort1';
  await db.insert(users).values({ username: 'crashstaff', email: 'staff@example.com', role: 'employee', passwordHash: await hashPassword(password), emailVerifiedAt: new Date() })
    .onConflictDoNothing();
  const res = await fetch(`${origin}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'crashstaff', password }) });
  expect(res.status, await res.clone().text()).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

async function nodeUsage(origin: string, auth: Auth, name: string) {
  const page = (await (await fetch(`${origin}/api/admin/nodes?search=${name}`, { headers: auth })).json()) as NodePage;
  return page.items[0]!;
}

const getVdc = async (origin: string, auth: Auth, id: string) => (await (await fetch(`${origin}/api/vdcs/${id}`, { headers: auth })).json()) as VdcDetail;

async function createVm(origin: string, auth: Auth, vdcId: string, name: string) {
  const res = await fetch(`${origin}/api/vdcs/${vdcId}/vms`, { method: 'POST', headers: auth, body: JSON.stringify({ name, os: 'Debian 12', cpuCores: 2, ramGb: 4, diskGb: 20, publicIpv4: name === 'first' }) });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** Every job settled and none failed; a VM's provisioning ran as one job however often it was attempted. */
async function expectOneJobPerVm(db: Db, serverId: string) {
  expect(await db.select().from(jobs).where(and(eq(jobs.kind, 'provision-vdc-vm'), sql`${jobs.payload}->>'serverId' = ${serverId}`))).toHaveLength(1);
}

/** ISO 9660 bytes: a primary volume descriptor at 0x8000. */
function isoBytes(size: number) {
  const data = crypto.randomBytes(size);
  data[0x8000] = 1;
  data.write('CD001', 0x8001, 'latin1');
  data[0x8006] = 1;
  return data;
}

const putPiece = (origin: string, auth: Auth, vdcId: string, isoId: string, offset: number, body: Buffer | ReadableStream<Uint8Array>) =>
  fetch(`${origin}/api/vdcs/${vdcId}/isos/${isoId}/content`, {
    method: 'PUT', headers: { ...auth, 'content-type': 'application/octet-stream', 'upload-offset': String(offset) }, body, duplex: 'half',
  } as RequestInit);

/** A piece that sends `first` and then hangs, as a slow line would; the promise settles when the process dies. */
function stalledPiece(origin: string, auth: Auth, vdcId: string, isoId: string, offset: number, first: Buffer) {
  const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new Uint8Array(first)) });
  return putPiece(origin, auth, vdcId, isoId, offset, body).catch(() => null);
}

const filesOf = (dataDir: string, isoId: string) => {
  const dir = path.join(dataDir, 'vdc-isos');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.startsWith(isoId)) : [];
};
const pieceOnDisk = (dataDir: string, isoId: string) => {
  const dir = path.join(dataDir, 'vdc-isos');
  return filesOf(dataDir, isoId).some((n) => n.endsWith('.chunk') && fs.statSync(path.join(dir, n)).size > 0);
};

// Independent scenarios (own database, port and data directory) that mostly wait for process starts and
// leases: side by side, like the other crash tests.
describe.skipIf(!base).concurrent('virtual data center survives SIGKILL [postgres]', () => {
  const cleanups = crashCleanups();

  it.each(['sync-checkout', 'provision-vdc'])('a pool purchase killed after %s → the order completes with one pool, counted once on its node', async (killAfter) => {
    const crash = await openCrashScenario(cleanups, 'hp-vdc-crash-');
    const { db, origin } = crash;
    const node = await seedNode(db);
    await db.insert(ipAddresses).values([{ address: '198.51.100.10', version: 'IPv4', subnet: '24', gateway: '198.51.100.1' }, { address: '198.51.100.11', version: 'IPv4', subnet: '24', gateway: '198.51.100.1' }]);
    const { user, auth } = await createCrashCustomer(db);

    const { orderId } = await buyThroughCrash(crash, killAfter, auth, '/api/shop/vdc/checkout', smallPool);

    const pools = await db.select().from(vdcs).where(eq(vdcs.ownerId, user.id));
    expect(pools).toHaveLength(1);
    const vdc = pools[0]!;
    expect(vdc).toMatchObject({ status: 'active', statusMessage: null, nodeId: node.id, cpuCores: 4, ramGb: 8, storageGb: 100, ipv4Count: 1, deletedAt: null });
    expect(await db.select().from(orders).where(eq(orders.id, orderId))).toEqual([expect.objectContaining({ status: 'completed', subscriptionId: vdc.id })]);
    // One Proxmox pool on the host, one address with the pool (the other still free).
    expect((await db.select().from(simPools)).map((p) => p.poolid)).toEqual([vdc.poolId]);
    expect(await db.select().from(ipAddresses).where(eq(ipAddresses.vdcId, vdc.id))).toHaveLength(1);
    expect(await db.select().from(ipAddresses).where(and(isNull(ipAddresses.vdcId), isNull(ipAddresses.serverId)))).toHaveLength(1);
    // The node counts the pool exactly once: no hold of the (completed) order on top, no second pool.
    const row = await nodeUsage(origin, await staffAuth(db, origin), node.name);
    expect(row.used).toEqual({ cpuCores: 4, ramGb: 8, storageGb: 100 });

    expect(await db.select().from(invoices)).toEqual([expect.objectContaining({ orderId, sequence: 1 })]);
    await expectJobsSettled(db, 45_000);
    expect(await db.select().from(jobs).where(eq(jobs.kind, 'provision-vdc'))).toHaveLength(1);
    await expectInvoiceMails(db, crash.dataDir);
    await crash.stop();
  }, 150_000);

  it('a VM creation killed while the host clones it, and one killed after its job did the work → each VM once, online, no orphan on the host, counted once', async () => {
    const crash = await openCrashScenario(cleanups, 'hp-vdc-crash-vm-');
    const { db, origin } = crash;
    const { user, auth } = await createCrashCustomer(db);
    const { node, vdc } = await seedActivePool(db, user.id);

    // (1) Killed in the middle of the build: the clone runs on the host when the process dies.
    await crash.start();
    const first = await createVm(origin, auth, vdc.id, 'first');
    const [firstRow] = await db.select().from(servers).where(eq(servers.id, first));
    await waitFor('the clone to start on the host', async () => (await db.select().from(simVms).where(eq(simVms.vmid, firstRow!.vmid))).length > 0, 20_000);
    crash.kill();
    await crash.expectKilled('the process should have been killed mid-build');
    expect((await db.select().from(servers).where(eq(servers.id, first)))[0]!.status).toBe('provisioning');

    // (2) Killed right after the provisioning job of the second VM did its work, before it was marked done.
    await crash.start({ FAULT_KILL_AFTER_JOB: 'provision-vdc-vm' });
    const second = await createVm(origin, auth, vdc.id, 'second');
    await crash.expectKilled('the process should have been killed after provision-vdc-vm');

    await crash.restart({ healthy: true });
    await waitFor('both VMs online', async () => {
      const rows = await db.select().from(servers).where(eq(servers.vdcId, vdc.id));
      return rows.length === 2 && rows.every((r) => r.status === 'online');
    }, 45_000);

    const vms = await db.select().from(servers).where(eq(servers.vdcId, vdc.id));
    expect(vms.map((v) => v.id).sort()).toEqual([first, second].sort());
    // Exactly these two VMs on the host, both in the pool: no orphan from the killed attempts.
    const hostVms = await db.select().from(simVms);
    expect(hostVms.map((v) => v.vmid).sort()).toEqual(vms.map((v) => v.vmid).sort());
    for (const v of hostVms) expect((v.state as { pool?: string }).pool).toBe(vdc.poolId);
    // One create task per VM, ended ok; the public address given to the first VM only.
    const tasks = await db.select().from(serverTasks).where(eq(serverTasks.kind, 'create'));
    expect(tasks.map((t) => [t.serverId, t.status]).sort()).toEqual([[first, 'ok'], [second, 'ok']].sort());
    expect(await db.select({ serverId: ipAddresses.serverId }).from(ipAddresses).where(eq(ipAddresses.vdcId, vdc.id))).toEqual([{ serverId: first }]);

    // The pool counts each VM once; the node counts the pool once, never its VMs.
    const detail = await getVdc(origin, auth, vdc.id);
    expect(detail).toMatchObject({ cpu: { used: 4, total: 8 }, ramGb: { used: 8, total: 16 }, storageGb: { used: 40, total: 200 }, vms: 2 });
    expect((await nodeUsage(origin, await staffAuth(db, origin), node.name)).used).toEqual({ cpuCores: 8, ramGb: 16, storageGb: 200 });

    await expectJobsSettled(db, 45_000);
    await expectOneJobPerVm(db, first);
    await expectOneJobPerVm(db, second);
    await crash.stop();
  }, 150_000);

  it('ISO uploads killed mid-piece → one resumes to one whole image (also through a kill after its transfer), the abandoned one leaves no file, no image and no quota', async () => {
    const crash = await openCrashScenario(cleanups, 'hp-vdc-crash-iso-');
    const { db, origin, dataDir } = crash;
    const { user, auth } = await createCrashCustomer(db);
    const { node, vdc } = await seedActivePool(db, user.id);
    const size = 96 * 1024;
    const kept = isoBytes(size);
    const dropped = isoBytes(size);

    await crash.start();
    const start = async (name: string) => {
      const res = await fetch(`${origin}/api/vdcs/${vdc.id}/isos`, { method: 'POST', headers: auth, body: JSON.stringify({ name, sizeBytes: size }) });
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as VdcIso).id;
    };
    const keptId = await start('kept.iso');
    const droppedId = await start('dropped.iso');
    for (const [id, data] of [[keptId, kept], [droppedId, dropped]] as const) {
      expect((await putPiece(origin, auth, vdc.id, id, 0, data.subarray(0, 40_000))).status).toBe(200);
    }
    // Both second pieces are on their way in when the process dies.
    const inFlight = [stalledPiece(origin, auth, vdc.id, keptId, 40_000, kept.subarray(40_000, 50_000)), stalledPiece(origin, auth, vdc.id, droppedId, 40_000, dropped.subarray(40_000, 50_000))];
    await waitFor('both pieces arriving', async () => pieceOnDisk(dataDir, keptId) && pieceOnDisk(dataDir, droppedId), 20_000);
    crash.kill();
    await crash.expectKilled('the process should have been killed mid-upload');
    await Promise.all(inFlight);
    // Nothing of the interrupted pieces counts.
    for (const id of [keptId, droppedId]) expect((await db.select().from(vdcIsos).where(eq(vdcIsos.id, id)))[0]).toMatchObject({ status: 'uploading', receivedBytes: 40_000 });

    // The client resumes where the server says, and the process dies again right after the image went to the node.
    await crash.start({ FAULT_KILL_AFTER_JOB: 'vdc-iso-transfer' });
    const where = await fetch(`${origin}/api/vdcs/${vdc.id}/isos/${keptId}`, { method: 'HEAD', headers: auth });
    expect(where.headers.get('upload-offset')).toBe('40000');
    expect((await putPiece(origin, auth, vdc.id, keptId, 40_000, kept.subarray(40_000))).status).toBe(200);
    await crash.expectKilled('the process should have been killed after vdc-iso-transfer');
    await crash.restart({ healthy: true });
    await waitFor('the image ready', async () => (await db.select().from(vdcIsos).where(eq(vdcIsos.id, keptId)))[0]?.status === 'ready', 30_000);
    // The kill came after the job's body and before its row was marked done: the restarted process runs
    // it once more (a no-op for a ready image), which may still be under way when the image reads ready.
    await waitFor('the transfer job settled', async () => (await db.select().from(jobs).where(eq(jobs.kind, 'vdc-iso-transfer'))).every((j) => j.status !== 'running' && j.status !== 'queued'), 30_000);

    // One whole image on the node, byte for byte; no part file or piece left of it here.
    const images = await db.select().from(simIsos).where(eq(simIsos.node, node.name));
    expect(images).toEqual([expect.objectContaining({ size, sha256: crypto.createHash('sha256').update(kept).digest('hex') })]);
    expect(filesOf(dataDir, keptId)).toEqual([]);
    expect(await db.select().from(jobs).where(eq(jobs.kind, 'vdc-iso-transfer'))).toEqual([expect.objectContaining({ status: 'done' })]);

    // The other upload never comes back: a day later the clean-up of the running process gives it up.
    const dayAgo = new Date(Date.now() - 25 * 3_600_000);
    await db.update(vdcIsos).set({ updatedAt: dayAgo }).where(eq(vdcIsos.id, droppedId));
    for (const name of filesOf(dataDir, droppedId)) fs.utimesSync(path.join(dataDir, 'vdc-isos', name), dayAgo, dayAgo);
    const [before] = await db.select({ runs: schedules.runs }).from(schedules).where(eq(schedules.name, 'vdc-iso-abandoned-uploads'));
    await db.update(schedules).set({ nextRunAt: new Date(Date.now() - 1000) }).where(eq(schedules.name, 'vdc-iso-abandoned-uploads'));
    await waitFor('the abandoned-upload clean-up to run', async () => {
      const [s] = await db.select({ runs: schedules.runs }).from(schedules).where(eq(schedules.name, 'vdc-iso-abandoned-uploads'));
      return s!.runs > before!.runs && (await db.select().from(vdcIsos).where(eq(vdcIsos.id, droppedId)))[0]?.status === 'failed';
    }, 20_000);
    await waitFor('its files removed', async () => filesOf(dataDir, droppedId).length === 0, 10_000);
    expect((await db.select().from(vdcIsos).where(eq(vdcIsos.id, droppedId)))[0]!.deletedAt).not.toBeNull();
    expect(await db.select().from(simIsos)).toHaveLength(1);
    // The library holds only the finished image: the abandoned one's reservation is free again.
    const library = (await (await fetch(`${origin}/api/vdcs/${vdc.id}/isos`, { headers: auth })).json()) as VdcIsoList;
    expect(library.items.map((i) => i.id)).toEqual([keptId]);
    expect(library.usedBytes).toBe(size);

    await expectJobsSettled(db, 30_000);
    await crash.stop();
  }, 150_000);
});

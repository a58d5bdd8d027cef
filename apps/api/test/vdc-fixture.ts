import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { nodes, servers, vdcs } from '../src/db/schema/index.ts';
import type { SimulatedHypervisor } from '../src/drivers/hypervisor/simulated/simulated.ts';
import { vdcIsoRoutes } from '../src/modules/vdc/vdc-isos.routes.ts';
import { abandonedIsoUploadsSchedule, removeIsoJob, transferIsoJob } from '../src/modules/vdc/vdc-isos.service.ts';
import { vdcNetworkRoutes } from '../src/modules/vdc/vdc-network.routes.ts';
import { applyNetworkJob } from '../src/modules/vdc/vdc-network.service.ts';
import { createTestContext, databaseKinds, type TestContext } from './harness.ts';

/**
 * The ISO library's and private network's suites: a VDC row with its node and VMs inserted directly
 * (no purchase), an upload directory of their own, and the routes, jobs and schedule of both parts
 * registered unless the VDC's module already does.
 */

function registerVdcParts(app: FastifyInstance) {
  const has = (url: string) => app.registeredRoutes.some((r) => r.url === url);
  if (!has('/api/vdcs/:id/isos')) void app.register(vdcIsoRoutes);
  if (!has('/api/vdcs/:id/network')) void app.register(vdcNetworkRoutes);
  for (const job of [transferIsoJob, removeIsoJob, applyNetworkJob]) if (!app.jobs.kinds.includes(job.name)) app.jobs.register(job);
  if (!app.scheduler.names.includes(abandonedIsoUploadsSchedule.name)) app.scheduler.register(abandonedIsoUploadsSchedule);
}

export interface VdcTestContext extends TestContext {
  dataDir: string;
}

export function describeVdc(name: string, body: (ctx: () => VdcTestContext, kind: 'pglite' | 'postgres') => void) {
  for (const kind of databaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      let ctx: (VdcTestContext & { close: () => Promise<void> }) | undefined;
      beforeAll(async () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-vdc-'));
        const test = await createTestContext(kind, { env: { DATA_DIR: dataDir }, beforeReady: registerVdcParts });
        ctx = { ...test, dataDir, close: async () => { await test.close(); fs.rmSync(dataDir, { recursive: true, force: true }); } };
      });
      afterAll(async () => {
        await ctx?.close();
      });
      body(() => ctx!, kind);
    });
  }
}

export const simHypervisor = (ctx: TestContext) => ctx.app.deps.hypervisor as SimulatedHypervisor;

let nodeCounter = 0;

async function nextValue(ctx: TestContext, sequence: string) {
  const result = await ctx.database.db.execute<{ v: number }>(sql`select nextval(${sequence})::int as v`);
  return Number((result as unknown as { rows: { v: number }[] }).rows[0]!.v);
}

/** An active VDC of `ownerId` on a node of its own. */
export async function seedVdc(ctx: TestContext, ownerId: string, overrides: Partial<typeof vdcs.$inferInsert> = {}) {
  const db = ctx.database.db;
  const [node] = await db.insert(nodes).values({ name: `vdcnode-${process.pid}-${nodeCounter++}-${Math.random().toString(36).slice(2, 6)}`, host: '10.0.0.1', cpuCores: 64, ramGb: 256, storageGb: 4000, status: 'online' }).returning();
  const number = await nextValue(ctx, 'vdc_number_seq');
  const [vdc] = await db.insert(vdcs).values({
    number, ownerId, nodeId: node!.id, name: 'Test', cpuCores: 16, ramGb: 32, storageGb: 500, ipv4Count: 1,
    poolId: `vdc-${number}`, vnet: `vdc${number}`, status: 'active', ...overrides,
  }).returning();
  return { vdc: vdc!, node: node! };
}

/** A running VM of the VDC (a server row with vdc_id), created on the simulated hypervisor too. */
export async function seedVdcVm(ctx: TestContext, place: { vdc: typeof vdcs.$inferSelect; node: typeof nodes.$inferSelect }, name?: string) {
  const vmid = await nextValue(ctx, 'server_vmid_seq');
  const [vm] = await ctx.database.db.insert(servers).values({
    vmid, name: name ?? `vm-${vmid}`, ownerId: place.vdc.ownerId, nodeId: place.node.id, vdcId: place.vdc.id,
    os: 'Debian 12', cpuCores: 1, ramGb: 1, storageGb: 10, status: 'online',
  }).returning();
  await ctx.app.deps.hypervisor.createServer({ node: place.node.name, vmid, name: vm!.name, os: 'debian-12', cores: 1, memoryMb: 1024, diskGb: 10 });
  return vm!;
}

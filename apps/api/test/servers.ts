import { sql } from 'drizzle-orm';
import { ipAddresses, nodes, servers } from '../src/db/schema/index.ts';
import type { TestContext } from './harness.ts';

let nodeCounter = 0;

/**
 * A node, an IPv4 address and an online Debian server for `ownerId`, created on the test's (simulated)
 * hypervisor too. Names and addresses are unique per call, so suites can share one database.
 */
export async function seedServer(ctx: TestContext, ownerId: string, overrides: Partial<typeof servers.$inferInsert> = {}) {
  const db = ctx.database.db;
  const [node] = await db.insert(nodes).values({ name: `node-${process.pid}-${nodeCounter++}-${Math.random().toString(36).slice(2, 6)}`, host: '10.0.0.1', cpuCores: 64, ramGb: 256, storageGb: 4000, status: 'online' }).returning();
  // From the product's own sequence: a random id could meet another seed's or one the app hands out next.
  const result = await db.execute<{ vmid: number }>(sql`select nextval('server_vmid_seq')::int as vmid`);
  const vmid = Number((result as unknown as { rows: { vmid: number }[] }).rows[0]!.vmid);
  const [server] = await db.insert(servers).values({ vmid, name: `srv-${vmid}`, ownerId, nodeId: node!.id, os: 'Debian 12', cpuCores: 2, ramGb: 4, storageGb: 50, status: 'online', ...overrides }).returning();
  const address = `10.${(vmid >> 16) & 255}.${(vmid >> 8) & 255}.${vmid & 255}`;
  await db.insert(ipAddresses).values({ address, version: 'IPv4', subnet: '8', gateway: '10.0.0.1', serverId: server!.id });
  await ctx.app.deps.hypervisor.createServer({ node: node!.name, vmid, name: server!.name, os: 'debian-12', cores: 2, memoryMb: 4096, diskGb: 50 });
  return { server: server!, node: node! };
}

import { beforeAll, expect, it } from 'vitest';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  infrastructureMessages as m,
  messages,
  type AdminServerPage,
  type AdminServerRow,
  type IpAddressPage,
  type IpAddressRow,
  type NodePage,
  type NodeRow,
} from '@hp/contract';
import { createUser, describeEachDatabase, uniqueName, type TestContext } from '../../../test/harness.ts';
import { ipAddresses, jobs, servers, serverTasks, vdcs } from '../../db/schema/index.ts';
import { HypervisorError, hypervisorMessages, type CreateServerSpec, type Hypervisor } from '../../drivers/hypervisor/hypervisor.ts';
import { provisionServer } from '../servers/provision-server.ts';

/** A hypervisor that only knows createServer (and the firewall switch provisioning sets); every other call fails loudly. */
function fakeHypervisor(createServer: Hypervisor['createServer']): Hypervisor {
  const known: Partial<Hypervisor> = { kind: 'simulated', createServer, setFirewall: async () => {} };
  return new Proxy(known as Hypervisor, {
    get: (target, prop) => (prop in target ? target[prop as keyof Hypervisor] : () => Promise.reject(new Error(`fake hypervisor: ${String(prop)} not expected`))),
  });
}

/** createServer never finishes: servers created through the API stay 'provisioning' while a test looks at them. */
const heldHypervisor = fakeHypervisor(() => new Promise<void>(() => {}));

let ipCounter = 1;
/** Addresses 10.0.0.2 … in one /8 whose gateway is 10.0.0.1. */
const nextIp = () => {
  const n = ++ipCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

describeEachDatabase('infrastructure administration', (ctx) => {
  beforeAll(() => {
    // The route starts provisioning in the background with app.deps.hypervisor; hold it so that the
    // records can be inspected in their 'provisioning' state. provisionServer is tested on its own below.
    ctx().app.deps.hypervisor = heldHypervisor;
  });

  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, headers?: Record<string, string>, payload?: unknown) =>
    ctx().app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const staff = async (c: TestContext) => (await createUser(c, { role: 'employee' })).auth;
  const customer = async () => createUser(ctx(), { role: 'customer' });

  const addNode = async (auth: Record<string, string>, resources: Partial<{ cpuCores: number; ramGb: number; storageGb: number }> = {}, host = '192.0.2.10') => {
    const res = await inject('POST', '/api/admin/nodes', auth, { name: uniqueName('pve'), host, cpuCores: 32, ramGb: 128, storageGb: 2000, ...resources });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as NodeRow;
  };
  const addIp = async (auth: Record<string, string>, address = nextIp()) => {
    const res = await inject('POST', '/api/admin/ip-addresses', auth, { version: 'IPv4', address, subnet: '8', gateway: '10.0.0.1' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as IpAddressRow;
  };
  const createServer = (auth: Record<string, string>, body: Record<string, unknown>) =>
    inject('POST', '/api/admin/servers', auth, { cpuCores: 2, ramGb: 4, storageGb: 20, os: 'Debian 12', reason: 'Testserver ohne Bestellung', ...body });
  const listNodes = async (auth: Record<string, string>, query: string) => (await inject('GET', `/api/admin/nodes?${query}`, auth)).json() as NodePage;
  const listIps = async (auth: Record<string, string>, query: string) => (await inject('GET', `/api/admin/ip-addresses?${query}`, auth)).json() as IpAddressPage;
  const listServers = async (auth: Record<string, string>, query: string) => (await inject('GET', `/api/admin/servers?${query}`, auth)).json() as AdminServerPage;

  it('refuses customers (403) and anonymous visitors (401) on every administration route', async () => {
    const { auth } = await customer();
    const routes: [method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', '/api/admin/nodes'],
      ['POST', '/api/admin/nodes', { name: 'fremd', host: '192.0.2.1', cpuCores: 1, ramGb: 1, storageGb: 1 }],
      ['DELETE', '/api/admin/nodes/1'],
      ['GET', '/api/admin/ip-addresses'],
      ['POST', '/api/admin/ip-addresses', { version: 'IPv4', address: '192.0.2.99', subnet: '24', gateway: '192.0.2.1' }],
      ['DELETE', '/api/admin/ip-addresses/1'],
      ['GET', '/api/admin/servers'],
      ['POST', '/api/admin/servers', { cpuCores: 1, ramGb: 1, storageGb: 10, os: 'Debian 12', owner: 1, nodeId: 1, reason: 'Testserver ohne Bestellung' }],
      ['GET', '/api/admin/customers?search=a'],
    ];
    for (const [method, url, body] of routes) {
      const asCustomer = await inject(method, url, auth, body);
      expect(asCustomer.statusCode, `${method} ${url}`).toBe(403);
      expect(asCustomer.json().error.message).toBe(messages.forbidden);
      expect((await inject(method, url, undefined, body)).statusCode, `${method} ${url}`).toBe(401);
    }
    const registered = ctx().app.registeredRoutes.filter((r) => r.url.startsWith('/api/admin/'));
    expect(registered.length).toBeGreaterThanOrEqual(routes.length);
    for (const route of registered.filter((r) => routes.some(([method, url]) => method === r.method && url.split('?')[0]!.replace(/\/1$/, '/:id') === r.url))) {
      expect(route.access, `${route.method} ${route.url}`).toBe('staff');
    }
  });

  it('adds a physical server as unknown, lists it with its free capacity, searches and deletes it', async () => {
    const auth = await staff(ctx());
    const node = await addNode(auth, { cpuCores: 16, ramGb: 64, storageGb: 1000 }, '198.51.100.77');
    expect(node).toMatchObject({ status: 'unknown', serverCount: 0, used: { cpuCores: 0, ramGb: 0, storageGb: 0 }, free: { cpuCores: 16, ramGb: 64, storageGb: 1000 } });

    const byName = await listNodes(auth, `search=${node.name.slice(2).toUpperCase()}`);
    expect(byName.items.map((n) => n.id)).toEqual([node.id]);
    expect(byName.total).toBe(1);
    expect((await listNodes(auth, 'search=198.51.100.77')).items.map((n) => n.id)).toEqual([node.id]);
    expect((await listNodes(auth, `search=${node.id}`)).items.some((n) => n.id === node.id)).toBe(true);
    // Wildcards in the search are taken literally.
    expect((await listNodes(auth, 'search=%25')).total).toBe(0);

    await addNode(auth);
    const firstPage = await listNodes(auth, 'limit=1');
    const secondPage = await listNodes(auth, 'limit=1&offset=1');
    expect(firstPage.items).toHaveLength(1);
    expect(firstPage.total).toBeGreaterThanOrEqual(2);
    expect(secondPage.items[0]!.id).not.toBe(firstPage.items[0]!.id);

    expect((await inject('DELETE', `/api/admin/nodes/${node.id}`, auth)).statusCode).toBe(204);
    expect((await listNodes(auth, `search=${node.name}`)).total).toBe(0);
    const again = await inject('DELETE', `/api/admin/nodes/${node.id}`, auth);
    expect(again.statusCode).toBe(404);
  });

  it('refuses invalid and duplicate physical servers with German messages', async () => {
    const auth = await staff(ctx());
    const noCores = await inject('POST', '/api/admin/nodes', auth, { name: uniqueName('pve'), host: 'pve1.example.net', cpuCores: 0, ramGb: 1, storageGb: 1 });
    expect(noCores.statusCode).toBe(400);
    expect(noCores.json().error.message).toBe(m.cpuCoresMin);
    const badHost = await inject('POST', '/api/admin/nodes', auth, { name: uniqueName('pve'), host: 'not a host', cpuCores: 1, ramGb: 1, storageGb: 1 });
    expect(badHost.json().error.message).toBe(m.hostInvalid);
    const withStatus = await inject('POST', '/api/admin/nodes', auth, { name: uniqueName('pve'), host: 'pve1.example.net', cpuCores: 1, ramGb: 1, storageGb: 1, status: 'online' });
    expect(withStatus.statusCode).toBe(400);

    const node = await addNode(auth);
    const duplicate = await inject('POST', '/api/admin/nodes', auth, { name: node.name.toUpperCase(), host: '192.0.2.11', cpuCores: 1, ramGb: 1, storageGb: 1 });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.message).toBe(m.nodeNameTaken);
  });

  it('refuses to delete a physical server while a virtual server is on it', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth);
    await addIp(auth);
    expect((await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id })).statusCode).toBe(201);

    const refused = await inject('DELETE', `/api/admin/nodes/${node.id}`, auth);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(m.nodeHasServers);
    expect((await listNodes(auth, `search=${node.name}`)).items[0]).toMatchObject({ serverCount: 1, used: { cpuCores: 2, ramGb: 4, storageGb: 20 }, free: { cpuCores: 30, ramGb: 124, storageGb: 1980 } });
  });

  it('counts a virtual data center on its node as its whole live pool, never its VMs, as server creation does', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth);
    const { db } = ctx().database;
    const pool = async (cpuCores: number, ramGb: number, storageGb: number, extra: { status?: 'active' | 'failed'; deletedAt?: Date } = {}) => {
      const tag = Math.random().toString(36).slice(2, 8);
      const [vdc] = await db.insert(vdcs).values({
        ownerId: owner.user.id, nodeId: node.id, name: 'Pool', cpuCores, ramGb, storageGb, ipv4Count: 1, poolId: `vdc-t${tag}`, vnet: `t${tag}`,
        status: extra.status ?? 'active', deletedAt: extra.deletedAt ?? null,
      }).returning();
      return vdc!;
    };
    const vm = async (vdcId: string, deletedAt: Date | null = null) => {
      const [{ vmid }] = (await db.execute<{ vmid: number }>(sql`select nextval('server_vmid_seq')::int as vmid`) as unknown as { rows: [{ vmid: number }] }).rows;
      await db.insert(servers).values({
        vmid, name: `vm-${vmid}`, ownerId: owner.user.id, nodeId: node.id, vdcId, os: 'Debian 12', cpuCores: 2, ramGb: 4, storageGb: 50, status: 'online', deletedAt,
      });
    };
    await addIp(auth);
    expect((await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id })).statusCode).toBe(201); // 2 / 4 / 20
    const live = await pool(8, 16, 200);
    await vm(live.id);
    await vm(live.id);
    await vm(live.id, new Date());
    const gone = await pool(4, 8, 100, { deletedAt: new Date() });
    await vm(gone.id, new Date());
    await pool(4, 8, 100, { status: 'failed' }); // refunded: holds nothing

    const [row] = (await listNodes(auth, `search=${node.name}`)).items;
    // The root server and the live pool whole (8 / 16 / 200, not its VMs' 4 / 8 / 100); three live VMs on the node.
    expect(row).toMatchObject({ serverCount: 3, used: { cpuCores: 10, ramGb: 20, storageGb: 220 }, free: { cpuCores: 22, ramGb: 108, storageGb: 1780 } });
    // Staff creation decides with the same figures the list shows.
    await addIp(auth);
    const refused = await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id, cpuCores: 23 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('Nicht genügend Ressourcen! Frei: 22 vCPU, 108 GB RAM, 1780 GB Speicher.');
    expect((await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id, cpuCores: 22 })).statusCode).toBe(201);
    expect((await listNodes(auth, `search=${node.name}`)).items[0]).toMatchObject({ serverCount: 4, free: { cpuCores: 0 } });

    // The pool's public address is in use although no VM has it yet, as deleting it says.
    const ip = await addIp(auth);
    await db.update(ipAddresses).set({ vdcId: live.id }).where(eq(ipAddresses.id, ip.id));
    expect((await listIps(auth, `search=${ip.address}`)).items[0]).toMatchObject({ inUse: true, serverVmid: null });
    expect((await listIps(auth, `search=${ip.address}&inUse=false`)).items).toEqual([]);
    expect((await inject('DELETE', `/api/admin/ip-addresses/${ip.id}`, auth)).json().error.message).toBe(m.ipInUse);
  });

  it('adds IP addresses, validates them in German and finds them by address or IP id', async () => {
    const auth = await staff(ctx());
    const ip = await addIp(auth);
    expect(ip).toMatchObject({ version: 'IPv4', subnet: '8', inUse: false, serverVmid: null });

    const invalid = await inject('POST', '/api/admin/ip-addresses', auth, { version: 'IPv4', address: '10.0.0.300', subnet: '24', gateway: '10.0.0.1' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toMatchObject({ message: m.addressInvalid('IPv4'), details: { field: 'address' } });
    const wrongVersion = await inject('POST', '/api/admin/ip-addresses', auth, { version: 'IPv6', address: '10.0.0.9', subnet: '/64', gateway: '10.0.0.1' });
    expect(wrongVersion.json().error.message).toBe(m.addressInvalid('IPv6'));
    const badMask = await inject('POST', '/api/admin/ip-addresses', auth, { version: 'IPv4', address: '192.0.2.50', subnet: '255.0.255.0', gateway: '192.0.2.1' });
    expect(badMask.json().error.message).toBe(m.subnetInvalidV4);
    const noGateway = await inject('POST', '/api/admin/ip-addresses', auth, { version: 'IPv4', address: '192.0.2.50', subnet: '24', gateway: '' });
    expect(noGateway.json().error.message).toBe(m.gatewayRequired);

    // IPv6 is stored in its shortest form, so a second spelling of the same address is a duplicate.
    const v6 = await inject('POST', '/api/admin/ip-addresses', auth, { version: 'IPv6', address: '2001:DB8:0:0:0:0:0:10', subnet: '/64', gateway: '2001:db8::1' });
    expect(v6.statusCode).toBe(201);
    expect(v6.json()).toMatchObject({ address: '2001:db8::10', subnet: '/64' });
    const duplicate = await inject('POST', '/api/admin/ip-addresses', auth, { version: 'IPv6', address: '2001:db8::10', subnet: '/64', gateway: '2001:db8::1' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.message).toBe(m.ipTaken);

    expect((await listIps(auth, `search=${ip.address}`)).items.map((i) => i.id)).toEqual([ip.id]);
    const byLabel = await listIps(auth, `search=ip${String(ip.id).padStart(3, '0')}`);
    expect(byLabel.items.map((i) => i.id)).toContain(ip.id);
  });

  it('deletes a free IP address and refuses one in use with the German message', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth);
    const free = await addIp(auth);
    expect((await inject('DELETE', `/api/admin/ip-addresses/${free.id}`, auth)).statusCode).toBe(204);
    expect((await inject('DELETE', `/api/admin/ip-addresses/${free.id}`, auth)).statusCode).toBe(404);

    await addIp(auth);
    const created = (await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id })).json() as AdminServerRow;
    const used = (await listIps(auth, `search=${created.ip}`)).items[0]!;
    expect(used).toMatchObject({ inUse: true, serverVmid: created.vmid });
    const refused = await inject('DELETE', `/api/admin/ip-addresses/${used.id}`, auth);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(m.ipInUse);
  });

  it('creates a server that reserves an IP and a VM id and leaves a running provisioning task', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth);
    await addIp(auth);

    const res = await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id, os: 'Ubuntu 22.04' });
    expect(res.statusCode, res.body).toBe(201);
    const server = res.json() as AdminServerRow;
    expect(server.vmid).toBeGreaterThanOrEqual(100);
    expect(server).toMatchObject({
      name: `srv-${server.vmid}`, status: 'provisioning', os: 'Ubuntu 22.04', cpuCores: 2, ramGb: 4, storageGb: 20,
      owner: { customerNumber: owner.user.customerNumber, username: owner.username }, node: { id: node.id, name: node.name },
    });
    expect(server.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);

    const { db } = ctx().database;
    const [ip] = await db.select().from(ipAddresses).where(eq(ipAddresses.address, server.ip!));
    expect(ip!.serverId).toBe(server.id);
    const tasks = await db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id));
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ kind: 'create', status: 'running', progress: 0 });

    // Search by VM id as shown, by owner and by OS.
    expect((await listServers(auth, `search=${String(server.vmid).padStart(3, '0')}`)).items.map((s) => s.id)).toContain(server.id);
    expect((await listServers(auth, `search=${owner.username.toUpperCase()}`)).items.map((s) => s.id)).toEqual([server.id]);
    expect((await listServers(auth, 'search=ubuntu')).items.map((s) => s.id)).toContain(server.id);

    const picker = await inject('GET', `/api/admin/customers?search=${owner.email}`, auth);
    expect(picker.json().items).toEqual([{ customerNumber: owner.user.customerNumber, username: owner.username, email: owner.email }]);
  });

  it('refuses unknown clusters and owners and values below the minimums', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth);

    const noCluster = await createServer(auth, { owner: owner.user.customerNumber, nodeId: 999_999 });
    expect(noCluster.statusCode).toBe(404);
    expect(noCluster.json().error.message).toBe(m.clusterNotFound);
    const noOwner = await createServer(auth, { owner: 999_999, nodeId: node.id });
    expect(noOwner.statusCode).toBe(404);
    expect(noOwner.json().error.message).toBe(m.ownerNotFound);
    const small = await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id, storageGb: 9 });
    expect(small.statusCode).toBe(400);
    expect(small.json().error.message).toBe(m.serverStorageMin);
    const windows = await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id, os: 'Windows Server 2025' });
    expect(windows.json().error.message).toBe(m.osRequired);
    const withId = await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id, id: '100' });
    expect(withId.statusCode).toBe(400);
  });

  it('refuses a server that does not fit and names the free resources', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth, { cpuCores: 4, ramGb: 8, storageGb: 100 });
    await addIp(auth);
    await addIp(auth);
    expect((await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id, cpuCores: 3, ramGb: 8, storageGb: 60 })).statusCode).toBe(201);

    const refused = await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id, cpuCores: 1, ramGb: 1, storageGb: 10 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'NOT_ENOUGH_RESOURCES', message: 'Nicht genügend Ressourcen! Frei: 1 vCPU, 0 GB RAM, 40 GB Speicher.' });
  });

  it('refuses a server when no IPv4 address is free (Keine freie IP verfügbar!)', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth);
    const { db } = ctx().database;
    // Every free address is held by an open order for the duration of the test.
    const held = await db.update(ipAddresses).set({ reservedUntil: sql`now() + interval '1 hour'` })
      .where(and(isNull(ipAddresses.serverId), sql`(${ipAddresses.reservedUntil} is null or ${ipAddresses.reservedUntil} <= now())`))
      .returning({ id: ipAddresses.id });
    try {
      const refused = await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toBe(m.noFreeIp);
      expect(await db.select().from(servers).where(eq(servers.nodeId, node.id))).toHaveLength(0);
    } finally {
      if (held.length) await db.update(ipAddresses).set({ reservedUntil: null }).where(inArray(ipAddresses.id, held.map((h) => h.id)));
    }
  });

  it('sells a node exactly once under 20 parallel creations: 12 fit, 8 are refused', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth, { cpuCores: 24, ramGb: 48, storageGb: 240 });
    for (let i = 0; i < 30; i++) await addIp(auth);

    const results = await Promise.all(Array.from({ length: 20 }, () => createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id, cpuCores: 2, ramGb: 4, storageGb: 20 })));
    const created = results.filter((r) => r.statusCode === 201).map((r) => r.json() as AdminServerRow);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(created).toHaveLength(12);
    expect(refused).toHaveLength(8);
    for (const r of refused) expect(r.json().error.message).toBe('Nicht genügend Ressourcen! Frei: 0 vCPU, 0 GB RAM, 0 GB Speicher.');
    expect(new Set(created.map((s) => s.vmid)).size).toBe(12);
    expect(new Set(created.map((s) => s.ip)).size).toBe(12);
    expect(created.every((s) => s.ip !== null)).toBe(true);

    const [row] = (await listNodes(auth, `search=${node.name}`)).items;
    expect(row).toMatchObject({ serverCount: 12, used: { cpuCores: 24, ramGb: 48, storageGb: 240 }, free: { cpuCores: 0, ramGb: 0, storageGb: 0 } });
    const { db } = ctx().database;
    const usedIps = await db.select({ serverId: ipAddresses.serverId }).from(ipAddresses).where(inArray(ipAddresses.serverId, created.map((s) => s.id)));
    expect(usedIps).toHaveLength(12);
  });

  it('provisions a server: the hypervisor gets the spec, the server goes online and the task ends ok at 100 %', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth);
    await addIp(auth);
    const server = (await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id, cpuCores: 3, ramGb: 6, storageGb: 40 })).json() as AdminServerRow;

    const specs: CreateServerSpec[] = [];
    const hypervisor = fakeHypervisor(async (spec, onProgress) => {
      specs.push(spec);
      for (const p of [5, 20, 40, 60, 80, 99]) onProgress?.(p);
    });
    const { db } = ctx().database;
    expect(await provisionServer({ db, hypervisor }, server.id)).toBe('online');

    expect(specs).toEqual([{
      node: node.name, vmid: server.vmid, name: server.name, os: 'debian-12', cores: 3, memoryMb: 6144, diskGb: 40,
      ipv4: { address: server.ip, prefix: 8, gateway: '10.0.0.1' },
    }]);
    const [row] = await db.select().from(servers).where(eq(servers.id, server.id));
    expect(row).toMatchObject({ status: 'online', statusMessage: null });
    const [task] = await db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id));
    expect(task).toMatchObject({ kind: 'create', status: 'ok', progress: 100 });
    expect(task!.finishedAt).toBeInstanceOf(Date);
    // A second run finds nothing left to do.
    expect(await provisionServer({ db, hypervisor }, server.id)).toBe('skipped');
  });

  it('marks the server failed with the German driver message when the hypervisor task fails, never online', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth);
    await addIp(auth);
    const server = (await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id })).json() as AdminServerRow;

    const hypervisor = fakeHypervisor(async (_spec, onProgress) => {
      onProgress?.(50);
      throw new HypervisorError('TASK_FAILED', hypervisorMessages.TASK_FAILED, 'clone failed: storage full');
    });
    const { db } = ctx().database;
    expect(await provisionServer({ db, hypervisor }, server.id)).toBe('failed');

    const [row] = await db.select().from(servers).where(eq(servers.id, server.id));
    expect(row).toMatchObject({ status: 'failed', statusMessage: hypervisorMessages.TASK_FAILED });
    const [task] = await db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id));
    expect(task).toMatchObject({ status: 'failed', error: hypervisorMessages.TASK_FAILED });
    const listed = (await listServers(auth, `search=${String(server.vmid).padStart(3, '0')}`)).items.find((s) => s.id === server.id);
    expect(listed).toMatchObject({ status: 'failed', statusMessage: hypervisorMessages.TASK_FAILED });
  });

  it('builds a staff-created server by a durable job enqueued with it, so no restart loses it', async () => {
    const auth = await staff(ctx());
    const owner = await customer();
    const node = await addNode(auth);
    await addIp(auth);
    const server = (await createServer(auth, { owner: owner.user.customerNumber, nodeId: node.id })).json() as AdminServerRow;
    const { db } = ctx().database;
    // The job exists as soon as the server does (same transaction), before any runner looked at it.
    const queued = await db.select().from(jobs).where(and(eq(jobs.kind, 'provision-server'), eq(jobs.dedupeKey, `provision-server:${server.id}`)));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ status: 'queued', payload: { serverId: server.id } });

    const seen: number[] = [];
    ctx().app.deps.hypervisor = fakeHypervisor(async (spec) => {
      seen.push(spec.vmid);
    });
    try {
      await ctx().app.jobs.drain();
    } finally {
      ctx().app.deps.hypervisor = heldHypervisor;
    }
    expect(seen).toContain(server.vmid);
    const [row] = await db.select().from(servers).where(eq(servers.id, server.id));
    expect(row!.status).toBe('online');
    expect(await db.select().from(servers).where(eq(servers.status, 'provisioning'))).toHaveLength(0);
    const [done] = await db.select().from(jobs).where(eq(jobs.id, queued[0]!.id));
    expect(done!.status).toBe('done');
  });
});

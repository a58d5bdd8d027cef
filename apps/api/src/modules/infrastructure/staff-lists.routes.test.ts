import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages, type AdminServerPage, type AdminServerRow, type IpAddressPage, type IpAddressRow, type NodePage, type NodeRow } from '@hp/contract';
import { createUser, describeEachDatabase, uniqueName } from '../../../test/harness.ts';
import { nodes } from '../../db/schema/index.ts';
import type { Hypervisor } from '../../drivers/hypervisor/hypervisor.ts';

/** createServer never finishes, so servers created here stay 'provisioning'. */
const heldHypervisor = new Proxy({ kind: 'simulated', createServer: () => new Promise<void>(() => {}), setFirewall: async () => {} } as unknown as Hypervisor, {
  get: (target, prop) => (prop in target ? target[prop as keyof Hypervisor] : () => Promise.reject(new Error(`not expected: ${String(prop)}`))),
});

describeEachDatabase('staff lists: page, pageSize, q, sort and filters on the server', (ctx) => {
  beforeAll(() => {
    ctx().app.deps.hypervisor = heldHypervisor;
  });

  const get = (url: string, auth: Record<string, string>) => ctx().app.inject({ method: 'GET', url, headers: auth });
  const post = (url: string, auth: Record<string, string>, payload: object) => ctx().app.inject({ method: 'POST', url, headers: auth, payload });
  const staff = async () => (await createUser(ctx(), { role: 'employee' })).auth;
  const addNode = async (auth: Record<string, string>, name: string) => {
    const res = await post('/api/admin/nodes', auth, { name, host: '192.0.2.10', cpuCores: 32, ramGb: 128, storageGb: 2000 });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as NodeRow;
  };

  it('answers nodes page by page with page and pageSize, sorted by name either way', async () => {
    const auth = await staff();
    const prefix = uniqueName('liste');
    const created = [];
    for (const suffix of ['c', 'a', 'b']) created.push(await addNode(auth, `${prefix}-${suffix}`));

    const first = (await get(`/api/admin/nodes?q=${prefix}&sort=name&page=1&pageSize=2`, auth)).json() as NodePage;
    expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(first.items.map((n) => n.name)).toEqual([`${prefix}-a`, `${prefix}-b`]);
    const second = (await get(`/api/admin/nodes?q=${prefix}&sort=name&page=2&pageSize=2`, auth)).json() as NodePage;
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.items.map((n) => n.name)).toEqual([`${prefix}-c`]);

    const descending = (await get(`/api/admin/nodes?q=${prefix}&sort=-name`, auth)).json() as NodePage;
    expect(descending.items.map((n) => n.name)).toEqual([`${prefix}-c`, `${prefix}-b`, `${prefix}-a`]);
    // Without a sort the order is by id, as before.
    expect(((await get(`/api/admin/nodes?q=${prefix}`, auth)).json() as NodePage).items.map((n) => n.id)).toEqual(created.map((n) => n.id));
  });

  it('filters nodes by status', async () => {
    const auth = await staff();
    const prefix = uniqueName('status');
    const online = await addNode(auth, `${prefix}-on`);
    await addNode(auth, `${prefix}-unk`);
    await ctx().database.db.update(nodes).set({ status: 'online' }).where(eq(nodes.id, online.id));

    const onlineOnly = (await get(`/api/admin/nodes?q=${prefix}&status=online`, auth)).json() as NodePage;
    expect(onlineOnly.items.map((n) => n.id)).toEqual([online.id]);
    expect(onlineOnly.total).toBe(1);
    expect(((await get(`/api/admin/nodes?q=${prefix}&status=unknown`, auth)).json() as NodePage).total).toBe(1);
  });

  it('filters IP addresses by version and use and sorts addresses as numbers', async () => {
    const auth = await staff();
    // 198.18.0.0/15 (benchmark range): no other test seeds addresses there.
    const base = `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}`;
    for (const last of [10, 9, 100]) {
      const res = await post('/api/admin/ip-addresses', auth, { version: 'IPv4', address: `${base}.${last}`, subnet: '24', gateway: `${base}.1` });
      expect(res.statusCode, res.body).toBe(201);
    }
    const sorted = (await get(`/api/admin/ip-addresses?q=${base}.&sort=address`, auth)).json() as IpAddressPage;
    expect(sorted.items.map((ip) => ip.address)).toEqual([`${base}.9`, `${base}.10`, `${base}.100`]);
    const reversed = (await get(`/api/admin/ip-addresses?q=${base}.&sort=-address`, auth)).json() as IpAddressPage;
    expect(reversed.items.map((ip) => ip.address)).toEqual([`${base}.100`, `${base}.10`, `${base}.9`]);

    expect(((await get(`/api/admin/ip-addresses?q=${base}.&version=IPv6`, auth)).json() as IpAddressPage).total).toBe(0);
    expect(((await get(`/api/admin/ip-addresses?q=${base}.&version=IPv4&inUse=false`, auth)).json() as IpAddressPage).total).toBe(3);
    expect(((await get(`/api/admin/ip-addresses?q=${base}.&inUse=true`, auth)).json() as IpAddressPage).items).toEqual([] as IpAddressRow[]);
  });

  it('filters virtual servers by status and sorts them by VM id, newest first by default', async () => {
    const auth = await staff();
    const owner = await createUser(ctx(), { role: 'customer' });
    const node = await addNode(auth, uniqueName('srv'));
    const created: AdminServerRow[] = [];
    for (let i = 0; i < 2; i++) {
      const ip = await post('/api/admin/ip-addresses', auth, { version: 'IPv4', address: `10.250.${i}.${Math.floor(Math.random() * 200) + 20}`, subnet: '8', gateway: '10.0.0.1' });
      expect(ip.statusCode, ip.body).toBe(201);
      const res = await post('/api/admin/servers', auth, { cpuCores: 1, ramGb: 1, storageGb: 10, os: 'Debian 12', owner: owner.user.customerNumber, nodeId: node.id, reason: 'Listentest ohne Bestellung' });
      expect(res.statusCode, res.body).toBe(201);
      created.push(res.json() as AdminServerRow);
    }
    const byDefault = (await get(`/api/admin/servers?q=${owner.username}`, auth)).json() as AdminServerPage;
    expect(byDefault.items.map((s) => s.id)).toEqual([created[1]!.id, created[0]!.id]);
    const ascending = (await get(`/api/admin/servers?q=${owner.username}&sort=vmid`, auth)).json() as AdminServerPage;
    expect(ascending.items.map((s) => s.id)).toEqual([created[0]!.id, created[1]!.id]);
    expect(((await get(`/api/admin/servers?q=${owner.username}&status=provisioning`, auth)).json() as AdminServerPage).total).toBe(2);
    expect(((await get(`/api/admin/servers?q=${owner.username}&status=online`, auth)).json() as AdminServerPage).total).toBe(0);
  });

  it('still answers the older search, limit and offset names with page and pageSize', async () => {
    const auth = await staff();
    const prefix = uniqueName('alt');
    await addNode(auth, `${prefix}-a`);
    await addNode(auth, `${prefix}-b`);
    const page = (await get(`/api/admin/nodes?search=${prefix}&limit=1&offset=1`, auth)).json() as NodePage;
    expect(page).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(page.items.map((n) => n.name)).toEqual([`${prefix}-b`]);
  });

  it('refuses a page size above 100, an unknown sort field and an unknown filter value in German', async () => {
    const auth = await staff();
    for (const query of ['pageSize=101', 'page=0', 'sort=password', 'status=kaputt']) {
      const res = await get(`/api/admin/nodes?${query}`, auth);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.message, query).toBe(messages.invalidInput);
    }
    expect((await get('/api/admin/servers?sort=-owner&pageSize=100', auth)).statusCode).toBe(200);
  });
});

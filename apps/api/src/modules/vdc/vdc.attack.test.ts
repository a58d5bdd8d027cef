import { expect, it, vi } from 'vitest';
import { serverMessages } from '@hp/contract';
import { eq } from 'drizzle-orm';
import { servers, serverTasks } from '../../db/schema/index.ts';
import { createUser, type TestContext } from '../../../test/harness.ts';
import { drainJobs } from '../../../test/shop.ts';
import { describeVdc, seedVdc, seedVdcVm, simHypervisor } from '../../../test/vdc-fixture.ts';

/**
 * Defects found by the adversarial review of the VDC (attacker and careless user). Each test states what
 * the customer is told and checks it against the portal's rows and the host.
 */

type Auth = Record<string, string>;
const setRange = (ctx: TestContext, auth: Auth, vdcId: string, cidr: string) =>
  ctx.app.inject({ method: 'PUT', url: `/api/vdcs/${vdcId}/network`, headers: auth, payload: { cidr } });
const setMember = (ctx: TestContext, auth: Auth, vdcId: string, vmId: string, join: boolean) =>
  ctx.app.inject({ method: 'PUT', url: `/api/vdcs/${vdcId}/vms/${vmId}/network`, headers: auth, payload: { join } });

async function vdcWithNetwork(ctx: TestContext, owner: { user: { id: string }; auth: Auth }, cidr: string) {
  const place = await seedVdc(ctx, owner.user.id);
  const res = await setRange(ctx, owner.auth, place.vdc.id, cidr);
  expect(res.statusCode, res.body).toBe(200);
  await drainJobs(ctx);
  return place;
}

const privateAddressOf = async (ctx: TestContext, vmId: string) =>
  (await ctx.database.db.select({ a: servers.privateAddress }).from(servers).where(eq(servers.id, vmId)))[0]!.a;

describeVdc('VDC adversarial review', (ctx) => {
  it('a VM created with privateNetwork: true (the create dialog ticks it whenever the network is active) joins the private network', async () => {
    const owner = await createUser(ctx());
    const { vdc, node } = await vdcWithNetwork(ctx(), owner, '10.30.0.0/24');
    await simHypervisor(ctx()).createPool({ poolid: vdc.poolId });
    const res = await ctx().app.inject({
      method: 'POST', url: `/api/vdcs/${vdc.id}/vms`, headers: owner.auth,
      payload: { name: 'web', cpuCores: 1, ramGb: 1, diskGb: 10, os: 'Debian 12', publicIpv4: false, privateNetwork: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    await drainJobs(ctx());
    const vmId = res.json().id as string;
    const [vm] = await ctx().database.db.select().from(servers).where(eq(servers.id, vmId));
    expect(vm!.status, vm!.statusMessage ?? '').toBe('online');
    expect(vm!.privateAddress).toBe('10.30.0.2');
    expect(await simHypervisor(ctx()).vmDevices({ node: node.name, vmid: vm!.vmid })).toMatchObject({ privateNetwork: vdc.vnet });
  });

  it('a join or a second leave while a leave of the same VM is under way is refused as busy, and the VM ends as the last answer said', async () => {
    const owner = await createUser(ctx());
    const place = await vdcWithNetwork(ctx(), owner, '10.31.0.0/24');
    const vm = await seedVdcVm(ctx(), place, 'app');
    expect((await setMember(ctx(), owner.auth, place.vdc.id, vm.id, true)).json()).toMatchObject({ privateAddress: '10.31.0.2' });

    // The host takes its time removing the card: the leave is under way until the gate opens.
    const hypervisor = simHypervisor(ctx());
    const original = hypervisor.detachPrivateNetwork.bind(hypervisor);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => { open = resolve; });
    let entered!: () => void;
    const underWay = new Promise<void>((resolve) => { entered = resolve; });
    const detach = vi.spyOn(hypervisor, 'detachPrivateNetwork').mockImplementation(async (ref) => {
      entered();
      await gate;
      return original(ref);
    });
    try {
      const leave = setMember(ctx(), owner.auth, place.vdc.id, vm.id, false);
      await underWay;
      for (const join of [true, false]) {
        const second = await setMember(ctx(), owner.auth, place.vdc.id, vm.id, join);
        expect(second.statusCode, second.body).toBe(409);
        expect(second.json().error).toMatchObject({ code: 'SERVER_BUSY', message: serverMessages.busy });
      }
      open();
      const left = await leave;
      expect(left.statusCode, left.body).toBe(200);
      expect(left.json().privateAddress).toBeNull();
    } finally {
      open();
      detach.mockRestore();
    }
    expect(await privateAddressOf(ctx(), vm.id)).toBeNull();
    expect((await hypervisor.vmDevices({ node: place.node.name, vmid: vm.vmid })).privateNetwork ?? null).toBeNull();

    // Afterwards the VM is free again and joins as usual.
    const again = await setMember(ctx(), owner.auth, place.vdc.id, vm.id, true);
    expect(again.json()).toMatchObject({ privateAddress: '10.31.0.2' });
    expect((await hypervisor.vmDevices({ node: place.node.name, vmid: vm.vmid })).privateNetwork).toBe(place.vdc.vnet);
  });

  it('a leave and a join sent at the same moment: whatever each is told, the VM ends as the last 200 said', async () => {
    const owner = await createUser(ctx());
    const place = await vdcWithNetwork(ctx(), owner, '10.32.0.0/24');
    const vm = await seedVdcVm(ctx(), place, 'app');
    expect((await setMember(ctx(), owner.auth, place.vdc.id, vm.id, true)).statusCode).toBe(200);
    const answered: string[] = [];
    const send = (join: boolean) => setMember(ctx(), owner.auth, place.vdc.id, vm.id, join).then((res) => {
      if (res.statusCode === 200) answered.push(join ? 'join' : 'leave');
      return res;
    });
    const [leave, join] = await Promise.all([send(false), send(true)]);
    for (const res of [leave, join]) expect([200, 409], res.body).toContain(res.statusCode);
    expect(answered.length).toBeGreaterThan(0);
    // The last 200 decides what the customer believes; a 409 changed nothing.
    const told = answered.at(-1) === 'join' ? (join.json().privateAddress as string) : null;
    expect(await privateAddressOf(ctx(), vm.id)).toBe(told);
    const host = (await simHypervisor(ctx()).vmDevices({ node: place.node.name, vmid: vm.vmid })).privateNetwork ?? null;
    expect(host).toBe(told ? place.vdc.vnet : null);
  });

  it('lists each of the customer’s pools with its own use, in one grouped pass', async () => {
    const owner = await createUser(ctx());
    const first = await seedVdc(ctx(), owner.user.id, { name: 'Eins' });
    const second = await seedVdc(ctx(), owner.user.id, { name: 'Zwei', cpuCores: 8 });
    await seedVdcVm(ctx(), first, 'a');
    await seedVdcVm(ctx(), first, 'b');
    await seedVdcVm(ctx(), second, 'c');
    const res = await ctx().app.inject({ method: 'GET', url: '/api/vdcs', headers: owner.auth });
    expect(res.statusCode, res.body).toBe(200);
    const byName = Object.fromEntries(res.json().items.map((v: { name: string }) => [v.name, v]));
    expect(byName.Eins).toMatchObject({ cpu: { used: 2, total: 16 }, ramGb: { used: 2, total: 32 }, storageGb: { used: 20, total: 500 }, vms: 2 });
    expect(byName.Zwei).toMatchObject({ cpu: { used: 1, total: 8 }, vms: 1 });
  });

  it('a network claim left by a crash is given back after 5 minutes: the VM can leave the network and be deleted again', async () => {
    const owner = await createUser(ctx());
    const place = await vdcWithNetwork(ctx(), owner, '10.33.0.0/24');
    const vm = await seedVdcVm(ctx(), place, 'stuck');
    expect((await setMember(ctx(), owner.auth, place.vdc.id, vm.id, true)).statusCode).toBe(200);
    const db = ctx().database.db;
    // The process died between the claim and the host's answer.
    const claim = async (minutesAgo: number) => {
      const [task] = await db.insert(serverTasks).values({ serverId: vm.id, kind: 'network-leave', startedAt: new Date(Date.now() - minutesAgo * 60_000) }).returning();
      await db.update(servers).set({ busyTaskId: task!.id }).where(eq(servers.id, vm.id));
      return task!.id;
    };
    const fresh = await claim(1);
    expect((await setMember(ctx(), owner.auth, place.vdc.id, vm.id, false)).statusCode).toBe(409);
    expect((await ctx().app.inject({ method: 'DELETE', url: `/api/vdcs/${place.vdc.id}/vms/${vm.id}`, headers: owner.auth })).statusCode).toBe(409);
    await db.update(serverTasks).set({ startedAt: new Date(Date.now() - 6 * 60_000) }).where(eq(serverTasks.id, fresh));
    const left = await setMember(ctx(), owner.auth, place.vdc.id, vm.id, false);
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json().privateAddress).toBeNull();
    const [stale] = await db.select().from(serverTasks).where(eq(serverTasks.id, fresh));
    expect(stale).toMatchObject({ status: 'failed' });
    await claim(6);
    const del = await ctx().app.inject({ method: 'DELETE', url: `/api/vdcs/${place.vdc.id}/vms/${vm.id}`, headers: owner.auth });
    expect(del.statusCode, del.body).toBe(202);
  });

  it('30 parallel creations asking for the private network on a /29: five VMs get five distinct addresses, the others a German 409', async () => {
    const owner = await createUser(ctx());
    const { vdc } = await vdcWithNetwork(ctx(), owner, '10.34.0.0/29');
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => ctx().app.inject({
      method: 'POST', url: `/api/vdcs/${vdc.id}/vms`, headers: owner.auth,
      payload: { name: `n-${i}`, cpuCores: 1, ramGb: 1, diskGb: 10, os: 'Debian 12', publicIpv4: false, privateNetwork: true },
    })));
    const created = results.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(5);
    expect(new Set(created.map((r) => r.json().privateAddress)).size).toBe(5);
    for (const r of results.filter((x) => x.statusCode !== 201)) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().error.message).toMatch(/^Im privaten Netz ist keine Adresse mehr frei/);
    }
    const rows = await ctx().database.db.select({ a: servers.privateAddress }).from(servers).where(eq(servers.vdcId, vdc.id));
    expect(rows.map((r) => r.a).sort()).toEqual(['10.34.0.2', '10.34.0.3', '10.34.0.4', '10.34.0.5', '10.34.0.6']);
  });
});

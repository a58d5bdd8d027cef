import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { VdcNetwork, VdcVmNetworkState } from '@hp/contract';
import { servers } from '../../db/schema/index.ts';
import { createUser, type TestContext } from '../../../test/harness.ts';
import { drainJobs } from '../../../test/shop.ts';
import { describeVdc, seedVdc, seedVdcVm, simHypervisor } from '../../../test/vdc-fixture.ts';
import { nextFreeAddress, vnetTag } from './vdc-network.service.ts';

type Auth = Record<string, string>;
const setRange = (ctx: TestContext, auth: Auth, vdcId: string, cidr: string) =>
  ctx.app.inject({ method: 'PUT', url: `/api/vdcs/${vdcId}/network`, headers: auth, payload: { cidr } });
const setMember = (ctx: TestContext, auth: Auth, vdcId: string, vmId: string, join: boolean) =>
  ctx.app.inject({ method: 'PUT', url: `/api/vdcs/${vdcId}/vms/${vmId}/network`, headers: auth, payload: { join } });
const getNetwork = async (ctx: TestContext, auth: Auth, vdcId: string) =>
  (await ctx.app.inject({ method: 'GET', url: `/api/vdcs/${vdcId}/network`, headers: auth })).json() as VdcNetwork;

/** A VDC whose private network has `cidr` and is applied. */
async function vdcWithNetwork(ctx: TestContext, owner: { user: { id: string }; auth: Auth }, cidr: string) {
  const place = await seedVdc(ctx, owner.user.id);
  const res = await setRange(ctx, owner.auth, place.vdc.id, cidr);
  expect(res.statusCode, res.body).toBe(200);
  await drainJobs(ctx);
  expect((await getNetwork(ctx, owner.auth, place.vdc.id)).status).toBe('active');
  return place;
}

it('picks the lowest free host after the gateway, never network or broadcast', () => {
  expect(nextFreeAddress('10.20.0.0/29', [])).toBe('10.20.0.2');
  expect(nextFreeAddress('10.20.0.0/29', ['10.20.0.2', '10.20.0.4'])).toBe('10.20.0.3');
  expect(nextFreeAddress('10.20.0.0/29', ['10.20.0.2', '10.20.0.3', '10.20.0.4', '10.20.0.5', '10.20.0.6'])).toBeNull();
  expect(nextFreeAddress('172.16.0.0/16', ['172.16.0.2'])).toBe('172.16.0.3');
  expect(nextFreeAddress('192.168.10.0/24', Array.from({ length: 253 }, (_, i) => `192.168.10.${i + 2}`))).toBeNull();
});

describeVdc('VDC private network', (ctx) => {
  it('creates the VNet with the chosen range, gives VMs addresses after the gateway and frees them when they leave', async () => {
    const owner = await createUser(ctx());
    const place = await seedVdc(ctx(), owner.user.id);
    const { vdc, node } = place;
    const [a, b] = [await seedVdcVm(ctx(), place, 'app'), await seedVdcVm(ctx(), place, 'db')];

    const early = await setMember(ctx(), owner.auth, vdc.id, a.id, true);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe('Bitte richten Sie zuerst das private Netz ein (Adressbereich wählen).');

    const publicRange = await setRange(ctx(), owner.auth, vdc.id, '8.8.8.0/24');
    expect(publicRange.statusCode).toBe(400);
    expect(publicRange.json().error.message).toMatch(/^Bitte geben Sie ein privates Netz an/);

    const chosen = await setRange(ctx(), owner.auth, vdc.id, '10.20.0.0/24');
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ cidr: '10.20.0.0/24', status: 'creating', gateway: '10.20.0.1', freeAddresses: 253, members: [] });
    const whileCreating = await setMember(ctx(), owner.auth, vdc.id, a.id, true);
    expect(whileCreating.statusCode).toBe(409);
    expect(whileCreating.json().error.code).toBe('NETWORK_BUSY');
    await drainJobs(ctx());
    expect(await simHypervisor(ctx()).getPrivateNetwork(vdc.vnet)).toMatchObject({ subnet: '10.20.0.0/24', gateway: '10.20.0.1', tag: vnetTag(vdc.number) });

    const joinA = await setMember(ctx(), owner.auth, vdc.id, a.id, true);
    expect(joinA.statusCode, joinA.body).toBe(200);
    expect(joinA.json()).toEqual({ vmId: a.id, privateAddress: '10.20.0.2' });
    expect(((await setMember(ctx(), owner.auth, vdc.id, b.id, true)).json() as VdcVmNetworkState).privateAddress).toBe('10.20.0.3');
    // Joining twice keeps the address.
    expect(((await setMember(ctx(), owner.auth, vdc.id, a.id, true)).json() as VdcVmNetworkState).privateAddress).toBe('10.20.0.2');
    expect(await simHypervisor(ctx()).vmDevices({ node: node.name, vmid: a.vmid })).toMatchObject({ privateNetwork: vdc.vnet });
    expect(await getNetwork(ctx(), owner.auth, vdc.id)).toMatchObject({
      status: 'active', freeAddresses: 251,
      members: [{ vmId: a.id, name: 'app', privateAddress: '10.20.0.2' }, { vmId: b.id, name: 'db', privateAddress: '10.20.0.3' }],
    });

    const change = await setRange(ctx(), owner.auth, vdc.id, '192.168.50.0/24');
    expect(change.statusCode).toBe(409);
    expect(change.json().error.message).toBe('Der Adressbereich kann nicht geändert werden, solange VMs im privaten Netz sind. Bitte nehmen Sie zuerst alle VMs aus dem Netz.');

    const leave = await setMember(ctx(), owner.auth, vdc.id, a.id, false);
    expect(leave.statusCode).toBe(200);
    expect(leave.json()).toEqual({ vmId: a.id, privateAddress: null });
    expect(await simHypervisor(ctx()).vmDevices({ node: node.name, vmid: a.vmid })).toMatchObject({ privateNetwork: null });
    // The freed address is the next one given.
    expect(((await setMember(ctx(), owner.auth, vdc.id, a.id, true)).json() as VdcVmNetworkState).privateAddress).toBe('10.20.0.2');

    for (const vm of [a, b]) expect((await setMember(ctx(), owner.auth, vdc.id, vm.id, false)).statusCode).toBe(200);
    const moved = await setRange(ctx(), owner.auth, vdc.id, '192.168.50.0/24');
    expect(moved.statusCode, moved.body).toBe(200);
    await drainJobs(ctx());
    expect(await simHypervisor(ctx()).getPrivateNetwork(vdc.vnet)).toMatchObject({ subnet: '192.168.50.0/24', gateway: '192.168.50.1' });
    expect(((await setMember(ctx(), owner.auth, vdc.id, b.id, true)).json() as VdcVmNetworkState).privateAddress).toBe('192.168.50.2');
  });

  it('10 parallel joins on a /29: five get distinct addresses, the others a German 409', async () => {
    const owner = await createUser(ctx());
    const place = await vdcWithNetwork(ctx(), owner, '10.99.0.0/29');
    const vms = await Promise.all(Array.from({ length: 10 }, (_, i) => seedVdcVm(ctx(), place, `node${i}`)));
    const results = await Promise.all(vms.map((vm) => setMember(ctx(), owner.auth, place.vdc.id, vm.id, true)));
    const won = results.filter((r) => r.statusCode === 200).map((r) => (r.json() as VdcVmNetworkState).privateAddress);
    const lost = results.filter((r) => r.statusCode !== 200);
    expect(won.sort()).toEqual(['10.99.0.2', '10.99.0.3', '10.99.0.4', '10.99.0.5', '10.99.0.6']);
    expect(lost).toHaveLength(5);
    for (const r of lost) {
      expect(r.statusCode).toBe(409);
      expect(r.json().error).toMatchObject({ code: 'NETWORK_FULL', message: 'Im privaten Netz ist keine Adresse mehr frei. Bitte wählen Sie einen größeren Adressbereich oder nehmen Sie eine andere VM aus dem Netz.' });
    }
    const stored = await ctx().database.db.select({ address: servers.privateAddress }).from(servers).where(eq(servers.vdcId, place.vdc.id));
    expect(stored.map((s) => s.address).filter(Boolean).sort()).toEqual(won);
  });

  it('gives the address back when the host refuses the NIC', async () => {
    const owner = await createUser(ctx());
    const place = await vdcWithNetwork(ctx(), owner, '10.30.0.0/28');
    const vm = await seedVdcVm(ctx(), place);
    simHypervisor(ctx()).injectFailure({ op: 'config', error: 'LOCKED', vmid: vm.vmid });
    const res = await setMember(ctx(), owner.auth, place.vdc.id, vm.id, true);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/gesperrt/);
    const [row] = await ctx().database.db.select({ address: servers.privateAddress }).from(servers).where(eq(servers.id, vm.id));
    expect(row!.address).toBeNull();
    expect((await getNetwork(ctx(), owner.auth, place.vdc.id)).members).toEqual([]);
  });

  it('a VNet the host refuses leaves the network failed with a German message; choosing again retries', async () => {
    const owner = await createUser(ctx());
    const { vdc } = await seedVdc(ctx(), owner.user.id);
    simHypervisor(ctx()).injectFailure({ op: 'sdn', error: 'INVALID' });
    expect((await setRange(ctx(), owner.auth, vdc.id, '10.40.0.0/24')).statusCode).toBe(200);
    await drainJobs(ctx());
    expect(await getNetwork(ctx(), owner.auth, vdc.id)).toMatchObject({
      status: 'failed', message: 'Das private Netz konnte nicht eingerichtet werden. Bitte versuchen Sie es erneut oder wenden Sie sich an den Support.',
    });
    expect((await setRange(ctx(), owner.auth, vdc.id, '10.40.0.0/24')).statusCode).toBe(200);
    await drainJobs(ctx());
    expect(await getNetwork(ctx(), owner.auth, vdc.id)).toMatchObject({ status: 'active', message: null });
  });

  it("another customer's VDC or VM answers 404", async () => {
    const owner = await createUser(ctx());
    const other = await createUser(ctx());
    const place = await vdcWithNetwork(ctx(), owner, '10.50.0.0/24');
    const vm = await seedVdcVm(ctx(), place);
    const theirs = await seedVdc(ctx(), other.user.id);
    const tries = [
      { method: 'GET' as const, url: `/api/vdcs/${place.vdc.id}/network` },
      { method: 'PUT' as const, url: `/api/vdcs/${place.vdc.id}/network`, payload: { cidr: '10.60.0.0/24' } },
      { method: 'PUT' as const, url: `/api/vdcs/${place.vdc.id}/vms/${vm.id}/network`, payload: { join: true } },
      { method: 'PUT' as const, url: `/api/vdcs/${theirs.vdc.id}/vms/${vm.id}/network`, payload: { join: true } },
    ];
    for (const t of tries) {
      const res = await ctx().app.inject({ ...t, headers: other.auth });
      expect(res.statusCode, `${t.method} ${t.url}`).toBe(404);
      expect(res.json().error.message).toMatch(/wurde nicht gefunden/);
    }
    expect((await getNetwork(ctx(), owner.auth, place.vdc.id)).cidr).toBe('10.50.0.0/24');
  });
});

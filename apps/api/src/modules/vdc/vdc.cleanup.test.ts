import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { VdcDetail, VdcNetwork, VdcIso } from '@hp/contract';
import { servers, vdcIsos, vdcs } from '../../db/schema/index.ts';
import { enqueue } from '../../db/jobs.ts';
import { HypervisorError } from '../../drivers/hypervisor/hypervisor.ts';
import { createUser, type TestContext } from '../../../test/harness.ts';
import { drainJobs } from '../../../test/shop.ts';
import { describeVdc, seedVdc, seedVdcVm, simHypervisor } from '../../../test/vdc-fixture.ts';
import { deleteExpiredVdcJob } from './vdc.jobs.ts';

/**
 * What a deleted VM leaves behind (issue 25): nothing. Its private address goes to the next VM that
 * joins, its ISO drive is emptied so the image can be deleted, its resources are free in the pool at
 * once, and the VM is gone from the host after the delete job. The same holds for the VMs of a VDC
 * deleted after its grace period.
 */

type Auth = Record<string, string>;

const inject = (ctx: TestContext, auth: Auth, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });

/** An ISO 9660 image just big enough for the library, uploaded in one piece and moved to the node. */
async function uploadIso(ctx: TestContext, auth: Auth, vdcId: string) {
  const data = crypto.randomBytes(40_000);
  data[0x8000] = 1;
  data.write('CD001', 0x8001, 'latin1');
  data[0x8006] = 1;
  const started = await ctx.app.inject({ method: 'POST', url: `/api/vdcs/${vdcId}/isos`, headers: auth, payload: { name: 'rescue.iso', sizeBytes: data.length } });
  expect(started.statusCode, started.body).toBe(201);
  const iso = started.json() as VdcIso;
  const put = await ctx.app.inject({
    method: 'PUT', url: `/api/vdcs/${vdcId}/isos/${iso.id}/content`,
    headers: { ...auth, 'content-type': 'application/octet-stream', 'upload-offset': '0' }, payload: data,
  });
  expect(put.statusCode, put.body).toBe(200);
  await drainJobs(ctx);
  return iso.id;
}

/** A VDC with an applied private network and two running VMs, the first joined and booting an ISO. */
async function vdcWithJoinedVm(ctx: TestContext, owner: { user: { id: string }; auth: Auth }) {
  const place = await seedVdc(ctx, owner.user.id);
  const { vdc } = place;
  expect((await inject(ctx, owner.auth, 'PUT', `/api/vdcs/${vdc.id}/network`, { cidr: '10.30.0.0/29' })).statusCode).toBe(200);
  await drainJobs(ctx);
  const [first, second] = [await seedVdcVm(ctx, place, 'first'), await seedVdcVm(ctx, place, 'second')];
  const joined = await inject(ctx, owner.auth, 'PUT', `/api/vdcs/${vdc.id}/vms/${first.id}/network`, { join: true });
  expect(joined.json()).toEqual({ vmId: first.id, privateAddress: '10.30.0.2' });
  const isoId = await uploadIso(ctx, owner.auth, vdc.id);
  const attached = await inject(ctx, owner.auth, 'PUT', `/api/vdcs/${vdc.id}/vms/${first.id}/iso`, { isoId });
  expect(attached.statusCode, attached.body).toBe(200);
  return { ...place, first, second, isoId };
}

describeVdc('VDC: a deleted VM leaves nothing behind', (ctx) => {
  it('frees the private address for the next VM that joins, empties the ISO drive so the image can go, and removes the VM from the host', async () => {
    const owner = await createUser(ctx());
    const { vdc, node, first, second, isoId } = await vdcWithJoinedVm(ctx(), owner);
    const db = ctx().database.db;

    // While the image is in the drive it cannot be deleted.
    const refused = await inject(ctx(), owner.auth, 'DELETE', `/api/vdcs/${vdc.id}/isos/${isoId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('ISO_ATTACHED');

    const deleted = await inject(ctx(), owner.auth, 'DELETE', `/api/vdcs/${vdc.id}/vms/${first.id}`);
    expect(deleted.statusCode, deleted.body).toBe(202);
    const [row] = await db.select().from(servers).where(eq(servers.id, first.id));
    // The drive is empty at once; the private address stays taken until the host has deleted the VM.
    expect(row).toMatchObject({ privateAddress: '10.30.0.2', isoId: null });
    expect(row!.deletedAt).not.toBeNull();

    // The pool shows it free at once, before the host has deleted it.
    const detail = (await inject(ctx(), owner.auth, 'GET', `/api/vdcs/${vdc.id}`)).json() as VdcDetail;
    expect(detail).toMatchObject({ cpu: { used: 1 }, ramGb: { used: 1 }, storageGb: { used: 10 }, vms: 1 });
    expect(detail.vmList.map((v) => v.id)).toEqual([second.id]);
    expect(detail.isos.find((i) => i.id === isoId)?.attachedTo).toEqual([]);

    // A join before the host is done gets another address (the old VM may still answer on its own)…
    const network = `/api/vdcs/${vdc.id}/vms/${second.id}/network`;
    const early = await inject(ctx(), owner.auth, 'PUT', network, { join: true });
    expect(early.json()).toEqual({ vmId: second.id, privateAddress: '10.30.0.3' });
    expect(((await inject(ctx(), owner.auth, 'GET', `/api/vdcs/${vdc.id}/network`)).json() as VdcNetwork).members.map((m) => m.name)).toEqual([second.name]);
    // …and once the host has deleted it, its address is free for the next join.
    await drainJobs(ctx());
    const [gone] = await db.select().from(servers).where(eq(servers.id, first.id));
    expect(gone!.privateAddress).toBeNull();
    expect((await inject(ctx(), owner.auth, 'PUT', network, { join: false })).statusCode).toBe(200);
    const joined = await inject(ctx(), owner.auth, 'PUT', network, { join: true });
    expect(joined.json()).toEqual({ vmId: second.id, privateAddress: '10.30.0.2' });

    // The image is in no drive any more: it can be deleted, here and on the node.
    const [iso] = await db.select().from(vdcIsos).where(eq(vdcIsos.id, isoId));
    const isoGone = await inject(ctx(), owner.auth, 'DELETE', `/api/vdcs/${vdc.id}/isos/${isoId}`);
    expect(isoGone.statusCode, isoGone.body).toBe(204);
    await drainJobs(ctx());
    expect((await simHypervisor(ctx()).listIsos(node.name)).map((i) => i.volid)).not.toContain(iso!.volid);

    // The delete job removed the VM from the host; the other one is untouched.
    const hv = ctx().app.deps.hypervisor;
    await expect(hv.currentStatus({ node: node.name, vmid: first.vmid })).rejects.toSatisfy((e) => e instanceof HypervisorError && e.code === 'NOT_FOUND');
    expect((await hv.currentStatus({ node: node.name, vmid: second.vmid })).status).toBe('running');
  });

  it('a VDC deleted after its grace period keeps no address or ISO drive on its VMs', async () => {
    const owner = await createUser(ctx());
    const { vdc, node, first, second } = await vdcWithJoinedVm(ctx(), owner);
    const db = ctx().database.db;
    const graceDays = ctx().app.deps.env.billing.graceDays;
    await db.update(vdcs).set({ status: 'suspended', suspendedAt: new Date(), expiresAt: new Date(Date.now() - (graceDays + 1) * 86_400_000) }).where(eq(vdcs.id, vdc.id));
    await enqueue(db, deleteExpiredVdcJob, { vdcId: vdc.id });
    await drainJobs(ctx());

    const vms = await db.select().from(servers).where(eq(servers.vdcId, vdc.id));
    expect(vms.map((v) => v.id).sort()).toEqual([first.id, second.id].sort());
    for (const vm of vms) {
      expect(vm).toMatchObject({ privateAddress: null, isoId: null });
      expect(vm.deletedAt).not.toBeNull();
    }
    expect(await simHypervisor(ctx()).listIsos(node.name)).toEqual([]);
    expect(await simHypervisor(ctx()).getPrivateNetwork(vdc.vnet)).toBeNull();
  });
});

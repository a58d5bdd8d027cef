/**
 * The virtual data center's limits under parallel requests (issue 25): the portal enforces the pool's
 * limits (Proxmox has none) under the pool's row lock, so parallel VM creations, resizes and address
 * assignments never exceed it and the losers are told in German what is missing; parallel checkouts
 * never place more pools on a node than it holds.
 */
import { expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { createTestContext, createUser, describeEachDatabase } from '../../../test/harness.ts';
import { drainJobs, seedCapacity } from '../../../test/shop.ts';
import { buyVdc, createVdcVm, postVdcCheckout, smallPool } from '../../../test/vdc.ts';
import { ipAddresses, orders, servers } from '../../db/schema/index.ts';
import { usedCapacity } from '../servers/capacity.ts';

describeEachDatabase('virtual data center: the pool is never exceeded', (ctx, kind) => {
  const poolUse = async (vdcId: string) => {
    const vms = await ctx().database.db.select().from(servers).where(and(eq(servers.vdcId, vdcId), isNull(servers.deletedAt)));
    return { vms: vms.length, cpu: vms.reduce((n, v) => n + v.cpuCores, 0), ram: vms.reduce((n, v) => n + v.ramGb, 0), storage: vms.reduce((n, v) => n + v.storageGb, 0), rows: vms };
  };

  it('10 parallel VM creations that together need 20 vCPU in a pool of 8: 4 are created, 6 are told how many vCPU are left', { timeout: 90_000 }, async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const { vdcId } = await buyVdc(ctx(), customer, { cpu: 8, ram: 32, storage: 400 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      createVdcVm(ctx(), customer.auth, vdcId, { name: `race-${i}`, cpuCores: 2, ramGb: 2, diskGb: 20, publicIpv4: false })));
    const won = results.filter((r) => r.statusCode === 201);
    const lost = results.filter((r) => r.statusCode !== 201);
    expect(won).toHaveLength(4);
    for (const r of lost) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().error).toMatchObject({ code: 'VDC_POOL_EXHAUSTED', message: 'Im Pool sind nur noch 0 vCPU frei; diese VM braucht 2.' });
    }
    expect(await poolUse(vdcId)).toMatchObject({ vms: 4, cpu: 8, ram: 8, storage: 80 });
    await drainJobs(ctx());
  });

  it('parallel creations asking for a public address: never more VMs with one than the pool has addresses, each address once', { timeout: 90_000 }, async () => {
    await seedCapacity(ctx(), { ips: 2 });
    const customer = await createUser(ctx());
    const { vdcId } = await buyVdc(ctx(), customer, { cpu: 16, ram: 32, storage: 400, ipv4: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) =>
      createVdcVm(ctx(), customer.auth, vdcId, { name: `ip-${i}`, cpuCores: 1, ramGb: 1, diskGb: 10 })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
    for (const r of results.filter((x) => x.statusCode !== 201)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().error.message).toMatch(/^Im Pool ist keine öffentliche IPv4-Adresse mehr frei/);
    }
    const ips = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.vdcId, vdcId));
    expect(ips).toHaveLength(2);
    expect(new Set(ips.map((ip) => ip.serverId)).size).toBe(2);
    expect(ips.every((ip) => ip.serverId !== null)).toBe(true);
    await drainJobs(ctx());
  });

  it('6 parallel resizes that each need one more vCPU with 2 free: exactly 2 go through, the others are told what is left', { timeout: 90_000 }, async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const { vdcId } = await buyVdc(ctx(), customer, { cpu: 8, ram: 16, storage: 200 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await createVdcVm(ctx(), customer.auth, vdcId, { name: `small-${i}`, cpuCores: 1, ramGb: 1, diskGb: 10, publicIpv4: false });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    await drainJobs(ctx());
    const results = await Promise.all(ids.map((id) => ctx().app.inject({
      method: 'PATCH', url: `/api/vdcs/${vdcId}/vms/${id}`, headers: customer.auth, payload: { cpuCores: 2, ramGb: 1, diskGb: 10 },
    })));
    expect(results.filter((r) => r.statusCode === 202)).toHaveLength(2);
    for (const r of results.filter((x) => x.statusCode !== 202)) {
      expect(r.statusCode, r.body).toBe(409);
      // What the VM holds now counts as free for itself: 0 free in the pool plus its own 1.
      expect(r.json().error.message).toBe('Im Pool sind nur noch 1 vCPU frei; diese VM braucht 2.');
    }
    await drainJobs(ctx());
    expect(await poolUse(vdcId)).toMatchObject({ vms: 6, cpu: 8 });
  });

  it('10 parallel assignments of two addresses to five VMs: each address goes to exactly one VM, the others get a German 409', { timeout: 90_000 }, async () => {
    await seedCapacity(ctx(), { ips: 2 });
    const customer = await createUser(ctx());
    const { vdcId } = await buyVdc(ctx(), customer, { cpu: 8, ram: 16, storage: 200, ipv4: 2 });
    const vmIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await createVdcVm(ctx(), customer.auth, vdcId, { name: `net-${i}`, cpuCores: 1, ramGb: 1, diskGb: 10, publicIpv4: false });
      expect(res.statusCode, res.body).toBe(201);
      vmIds.push(res.json().id);
    }
    await drainJobs(ctx());
    const ips = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.vdcId, vdcId));
    const results = await Promise.all(ips.flatMap((ip) => vmIds.map((serverId) => ctx().app.inject({
      method: 'PUT', url: `/api/vdcs/${vdcId}/ips/${ip.id}`, headers: customer.auth, payload: { serverId },
    }))));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(2);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode, r.body).toBe(409);
      // Taken by another VM, or the VM already has the other address (one public IPv4 per VM).
      expect(r.json().error.message).toMatch(/^(Diese IP-Adresse ist bereits der VM net-\d zugewiesen|Die VM net-\d hat bereits die öffentliche Adresse [\d.]+)\. Nehmen Sie sie dort zuerst weg\.$/);
    }
    const after = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.vdcId, vdcId));
    expect(new Set(after.map((ip) => ip.serverId)).size).toBe(2);
    for (const ip of after) {
      const winner = results.find((r) => r.statusCode === 200 && r.json().id === ip.id);
      expect(ip.serverId).toBe(winner!.json().serverId);
    }
  });

  it('2 parallel checkouts on a node that holds only one pool: one is placed and held, the other is refused in German', { timeout: 90_000 }, async () => {
    // A database of its own, so the suite's other nodes add no room.
    const own = await createTestContext(kind);
    try {
      const { node } = await seedCapacity(own, { cpuCores: 12, ramGb: 64, storageGb: 1000, ips: 4 });
      const [a, b] = [await createUser(own), await createUser(own)];
      const body = { ...smallPool, cpu: 8, ram: 16, storage: 200 };
      const results = await Promise.all([postVdcCheckout(own, a.auth, body), postVdcCheckout(own, b.auth, body)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const lost = results.find((r) => r.statusCode === 409)!;
      expect(lost.json().error).toMatchObject({ code: 'NOT_ENOUGH_RESOURCES' });
      expect(lost.json().error.message).toMatch(/^Für einen Pool dieser Größe ist derzeit auf keinem unserer Hosts genug Platz frei/);
      const pending = await own.database.db.select().from(orders).where(and(eq(orders.product, 'vdc'), eq(orders.status, 'pending')));
      expect(pending).toHaveLength(1);
      expect(await usedCapacity(own.database.db, node.id)).toEqual({ cpuCores: 8, ramGb: 16, storageGb: 200 });
      // A root server cannot take the held cores either.
      const rootServer = await own.app.inject({ method: 'POST', url: '/api/shop/checkout', headers: b.auth, payload: { os: 'linux', distro: 'Debian 12', cpu: 6, ram: 4, storage: 50, months: 1, acceptTerms: true } });
      expect(rootServer.statusCode).toBe(409);
    } finally {
      await own.close();
    }
  });
});

/**
 * The virtual data center (issue 25, decision 036): buy a pool through the shop, provisioned on the
 * (simulated) hypervisor; VMs created, resized and deleted inside it, public addresses given to them;
 * the VMs keep the root server's panel; renewal grows the pool; another customer sees none of it.
 */
import { expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { VDC_INCLUDED, vdcPriceCents } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { baseOrder, drainJobs, paySimulated, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { buyVdc, createVdcVm, postVdcCheckout, smallPool } from '../../../test/vdc.ts';
import { invoices, ipAddresses, nodes, orders, servers, vdcIsos, vdcs } from '../../db/schema/index.ts';
import { usedCapacity } from '../servers/capacity.ts';
import type { SimulatedHypervisor } from '../../drivers/hypervisor/simulated/simulated.ts';

describeEachDatabase('virtual data center: buy, provision, VMs, addresses', (ctx) => {
  const inject = (auth: Record<string, string>, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  it('buys a pool: held on a node while pending, then one VDC with its pool on the hypervisor, its addresses, the order and one invoice', { timeout: 60_000 }, async () => {
    await seedCapacity(ctx(), { ips: 3 });
    const customer = await createUser(ctx());
    const body = { cpu: 8, ram: 16, storage: 200, ipv4: 2, months: 3, acceptTerms: true };
    const res = await postVdcCheckout(ctx(), customer.auth, body);
    expect(res.statusCode, res.body).toBe(201);
    const db = ctx().database.db;
    const [pending] = await db.select().from(orders).where(eq(orders.id, res.json().orderId));
    expect(pending).toMatchObject({ product: 'vdc', kind: 'new', status: 'pending', holdCpuCores: 8, holdRamGb: 16, holdStorageGb: 200, amountCents: vdcPriceCents(body) });
    const config = pending!.config as { nodeId: number; ipAddressIds: number[] };
    expect(pending!.nodeId).toBe(config.nodeId);
    expect(config.ipAddressIds).toHaveLength(2);
    const held = await db.select().from(ipAddresses).where(eq(ipAddresses.id, config.ipAddressIds[0]!));
    expect(held[0]!.reservedUntil!.getTime()).toBe(pending!.holdUntil.getTime());

    await paySimulated(ctx(), res.json().sessionId);
    await drainJobs(ctx());
    const [vdc] = await db.select().from(vdcs).where(eq(vdcs.ownerId, customer.user.id));
    expect(vdc).toMatchObject({ status: 'active', cpuCores: 8, ramGb: 16, storageGb: 200, ipv4Count: 2, nodeId: config.nodeId, name: `VDC ${vdc!.number}`,
      poolId: `vdc-${vdc!.number}`, vnet: `vdc${vdc!.number % 100_000}`, isoQuotaGb: VDC_INCLUDED.isoLibraryGb, maxVms: VDC_INCLUDED.maxVms });
    expect(vdc!.vnet.length).toBeLessThanOrEqual(8);
    expect(await ctx().app.deps.hypervisor.getPool(vdc!.poolId)).toMatchObject({ poolid: vdc!.poolId, vmids: [] });
    const ips = await db.select().from(ipAddresses).where(eq(ipAddresses.vdcId, vdc!.id));
    expect(ips.map((ip) => ip.id).sort()).toEqual([...config.ipAddressIds].sort());
    expect(ips.every((ip) => ip.serverId === null && ip.reservedUntil === null)).toBe(true);
    const [done] = await db.select().from(orders).where(eq(orders.id, res.json().orderId));
    expect(done).toMatchObject({ status: 'completed', subscriptionId: vdc!.id });
    // The pool counts on its node as a whole (the pending hold became the pool, nothing twice).
    const [node] = await db.select().from(nodes).where(eq(nodes.id, config.nodeId));
    expect(node).toBeDefined();

    const detail = (await inject(customer.auth, 'GET', `/api/orders/${done!.id}`)).json();
    expect(detail).toMatchObject({ product: 'Virtual Data Center', configuration: { product: 'vdc', cpu: 8, ram: 16, storage: 200, ipv4: 2, fromOffer: false, name: vdc!.name } });
    const result = (await inject(customer.auth, 'GET', `/api/shop/payment-result?session_id=${res.json().sessionId}`)).json();
    expect(result).toMatchObject({ paymentStatus: 'paid', productKind: 'vdc', subscriptionPath: `/dashboard/vdc/${vdc!.id}` });
    const [invoice] = await db.select().from(invoices).where(and(eq(invoices.orderId, done!.id), eq(invoices.kind, 'invoice')));
    expect(invoice!.document.lines[0]!.name).toBe('Virtual Data Center');
    expect(invoice!.document.lines[0]!.description).toContain('8 vCPU · 16 GB RAM · 200 GB Speicher · 2 IPv4');

    const list = (await inject(customer.auth, 'GET', '/api/vdcs')).json();
    expect(list.items).toEqual([expect.objectContaining({ id: vdc!.id, status: 'active', cpu: { used: 0, total: 8 }, ipv4: { used: 0, total: 2 }, vms: 0 })]);
  });

  it('creates two VMs, resizes one, gives it an address, deletes the other: the pool counts and frees exactly; the VM keeps the root server panel', { timeout: 90_000 }, async () => {
    await seedCapacity(ctx(), { ips: 2 });
    const customer = await createUser(ctx());
    const { vdcId, vdc } = await buyVdc(ctx(), customer, { cpu: 8, ram: 16, storage: 200, ipv4: 2 });
    const db = ctx().database.db;

    const a = await createVdcVm(ctx(), customer.auth, vdcId, { name: 'web-1', cpuCores: 2, ramGb: 4, diskGb: 50 });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toMatchObject({ name: 'web-1', status: 'provisioning', os: 'Debian 12', cpuCores: 2, diskGb: 50 });
    expect(a.json().publicIpv4).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const b = await createVdcVm(ctx(), customer.auth, vdcId, { name: 'db-1', cpuCores: 4, ramGb: 8, diskGb: 100, publicIpv4: false });
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json().publicIpv4).toBeNull();
    await drainJobs(ctx());

    const [vmA] = await db.select().from(servers).where(eq(servers.id, a.json().id));
    expect(vmA).toMatchObject({ status: 'online', vdcId, ownerId: customer.user.id, nodeId: vdc.nodeId, expiresAt: null });
    expect((await ctx().app.deps.hypervisor.getPool(vdc.poolId))!.vmids.sort()).toHaveLength(2);
    let detail = (await inject(customer.auth, 'GET', `/api/vdcs/${vdcId}`)).json();
    expect(detail).toMatchObject({ cpu: { used: 6, total: 8 }, ramGb: { used: 12, total: 16 }, storageGb: { used: 150, total: 200 }, ipv4: { used: 1, total: 2 }, vms: 2 });
    expect(detail.vmList.map((v: { name: string }) => v.name)).toEqual(['web-1', 'db-1']);

    // Too big for what is left: the refusal names every resource that is missing.
    const tooBig = await createVdcVm(ctx(), customer.auth, vdcId, { name: 'big', cpuCores: 4, ramGb: 2, diskGb: 60 });
    expect(tooBig.statusCode).toBe(409);
    expect(tooBig.json().error.message).toBe('Im Pool sind nur noch 2 vCPU frei; diese VM braucht 4. Im Pool sind nur noch 50 GB Speicher frei; diese VM braucht 60 GB.');

    // Resize within the pool (the VM's own figures are given back first); the disk only grows.
    const shrink = await inject(customer.auth, 'PATCH', `/api/vdcs/${vdcId}/vms/${vmA!.id}`, { cpuCores: 2, ramGb: 4, diskGb: 40 });
    expect(shrink.statusCode).toBe(400);
    const over = await inject(customer.auth, 'PATCH', `/api/vdcs/${vdcId}/vms/${vmA!.id}`, { cpuCores: 5, ramGb: 4, diskGb: 50 });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toBe('Im Pool sind nur noch 4 vCPU frei; diese VM braucht 5.');
    const resize = await inject(customer.auth, 'PATCH', `/api/vdcs/${vdcId}/vms/${vmA!.id}`, { cpuCores: 4, ramGb: 8, diskGb: 80 });
    expect(resize.statusCode, resize.body).toBe(202);
    await drainJobs(ctx());
    const [resized] = await db.select().from(servers).where(eq(servers.id, vmA!.id));
    expect(resized).toMatchObject({ cpuCores: 4, ramGb: 8, storageGb: 80, busyTaskId: null, status: 'online' });
    const live = await ctx().app.deps.hypervisor.currentStatus({ node: (await db.select().from(nodes).where(eq(nodes.id, vdc.nodeId)))[0]!.name, vmid: resized!.vmid });
    expect(live.cpus).toBe(4);

    // The second address goes to db-1; it cannot go to web-1 as well.
    const freeIp = detail.ipv4List.find((ip: { serverId: string | null }) => ip.serverId === null);
    const give = await inject(customer.auth, 'PUT', `/api/vdcs/${vdcId}/ips/${freeIp.id}`, { serverId: b.json().id });
    expect(give.statusCode, give.body).toBe(200);
    expect(give.json()).toMatchObject({ id: freeIp.id, serverId: b.json().id });
    const twice = await inject(customer.auth, 'PUT', `/api/vdcs/${vdcId}/ips/${freeIp.id}`, { serverId: vmA!.id });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toContain('db-1');
    // One public address per VM: taken back from db-1, it cannot go to web-1 as a second one.
    const webIp = detail.ipv4List.find((ip: { serverId: string | null }) => ip.serverId === vmA!.id);
    expect((await inject(customer.auth, 'PUT', `/api/vdcs/${vdcId}/ips/${freeIp.id}`, { serverId: null })).statusCode).toBe(200);
    const second = await inject(customer.auth, 'PUT', `/api/vdcs/${vdcId}/ips/${freeIp.id}`, { serverId: vmA!.id });
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json().error).toMatchObject({ code: 'VM_HAS_IP', message: `Die VM web-1 hat bereits die öffentliche Adresse ${webIp.address}. Nehmen Sie sie dort zuerst weg.` });
    expect((await inject(customer.auth, 'PUT', `/api/vdcs/${vdcId}/ips/${freeIp.id}`, { serverId: b.json().id })).statusCode).toBe(200);

    // The VM's own panel: a power action through the root server's route.
    const power = await inject(customer.auth, 'POST', `/api/servers/${vmA!.id}/power`, { action: 'stop' });
    expect(power.statusCode, power.body).toBe(202);
    // …but it is no root server: not in the server list, not renewable on its own, not shareable.
    const serverList = (await inject(customer.auth, 'GET', '/api/servers')).json();
    expect(JSON.stringify(serverList)).not.toContain(vmA!.id);
    const upgrade = await postCheckout(ctx(), customer.auth, { ...baseOrder, storage: 100, serverId: vmA!.id });
    expect(upgrade.statusCode, upgrade.body).toBe(404);
    expect((await inject(customer.auth, 'GET', `/api/shop/upgrade/${vmA!.id}`)).statusCode).toBe(404);

    // Deleting db-1 frees its resources at once; its address stays with the pool, unassigned.
    const del = await inject(customer.auth, 'DELETE', `/api/vdcs/${vdcId}/vms/${b.json().id}`);
    expect(del.statusCode, del.body).toBe(202);
    detail = (await inject(customer.auth, 'GET', `/api/vdcs/${vdcId}`)).json();
    expect(detail).toMatchObject({ cpu: { used: 4, total: 8 }, ramGb: { used: 8, total: 16 }, storageGb: { used: 80, total: 200 }, ipv4: { used: 1, total: 2 }, vms: 1 });
    expect(detail.ipv4List.find((ip: { id: number }) => ip.id === freeIp.id).serverId).toBeNull();
    const [gone] = await db.select({ vmid: servers.vmid }).from(servers).where(eq(servers.id, b.json().id));
    await drainJobs(ctx());
    expect((await ctx().app.deps.hypervisor.getPool(vdc.poolId))!.vmids).not.toContain(gone!.vmid);

    // The node counts the pool whole, never its VMs on top.
    const used = await usedCapacity(db, vdc.nodeId);
    const [others] = await db.select().from(servers).where(and(eq(servers.nodeId, vdc.nodeId), isNull(servers.deletedAt), isNull(servers.vdcId)));
    expect(others).toBeUndefined();
    const pools = await db.select().from(vdcs).where(and(eq(vdcs.nodeId, vdc.nodeId), isNull(vdcs.deletedAt)));
    expect(used).toEqual({
      cpuCores: pools.reduce((n, p) => n + p.cpuCores, 0), ramGb: pools.reduce((n, p) => n + p.ramGb, 0), storageGb: pools.reduce((n, p) => n + p.storageGb, 0),
    });
  });

  it('refuses a share of a VDC VM with a German 409', { timeout: 60_000 }, async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const friend = await createUser(ctx());
    const { vdcId } = await buyVdc(ctx(), customer);
    const vm = await createVdcVm(ctx(), customer.auth, vdcId, { name: 'solo', cpuCores: 1, ramGb: 1, diskGb: 10 });
    expect(vm.statusCode, vm.body).toBe(201);
    await drainJobs(ctx());
    const share = await inject(customer.auth, 'POST', `/api/servers/${vm.json().id}/access`, { username: friend.username });
    expect(share.statusCode, share.body).toBe(409);
    expect(share.json().error.message).toBe('Die VMs eines Virtual Data Centers können nicht mit anderen Konten geteilt werden.');
  });

  it('creates a VM from the customer\'s own ISO: built from the default template, the ISO in its drive, booting from it', { timeout: 60_000 }, async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const { vdcId, vdc } = await buyVdc(ctx(), customer);
    const db = ctx().database.db;
    const [node] = await db.select().from(nodes).where(eq(nodes.id, vdc.nodeId));
    const bytes = new Uint8Array(4096);
    const image = await ctx().app.deps.hypervisor.uploadIso({ node: node!.name, filename: `vdc${vdc.number}-rescue.iso`, size: bytes.length, data: (async function* () { yield bytes; })() });
    const [iso] = await db.insert(vdcIsos).values({ vdcId, name: 'rescue.iso', sizeBytes: bytes.length, receivedBytes: bytes.length, volid: image.volid, status: 'ready' }).returning();
    const res = await createVdcVm(ctx(), customer.auth, vdcId, { name: 'rescue', cpuCores: 1, ramGb: 1, diskGb: 10, os: undefined, isoId: iso!.id, publicIpv4: false });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ os: 'Eigenes ISO', isoId: iso!.id });
    await drainJobs(ctx());
    const [vm] = await db.select().from(servers).where(eq(servers.id, res.json().id));
    expect(vm!.status).toBe('online');
    expect(await ctx().app.deps.hypervisor.vmDevices({ node: node!.name, vmid: vm!.vmid })).toMatchObject({ iso: image.volid, bootFromIso: true });
    const detail = (await inject(customer.auth, 'GET', `/api/vdcs/${vdcId}`)).json();
    expect(detail.isos).toEqual([expect.objectContaining({ id: iso!.id, attachedTo: [vm!.id] })]);
  });

  it('renews with a larger pool: only the growth is held, the limits and the term grow when paid; a smaller pool is refused', { timeout: 60_000 }, async () => {
    await seedCapacity(ctx(), { ips: 3 });
    const customer = await createUser(ctx());
    const { vdcId, vdc } = await buyVdc(ctx(), customer);
    const db = ctx().database.db;
    const info = (await inject(customer.auth, 'GET', `/api/shop/vdc/renewal/${vdcId}`)).json();
    expect(info.renewal).toMatchObject({ vdcId, cpu: 4, ram: 8, storage: 100, ipv4: 1, used: { cpu: 0, ram: 0, storage: 0, ipv4: 0 } });
    const smaller = await postVdcCheckout(ctx(), customer.auth, { ...smallPool, cpu: 4, ram: 8, storage: 100, ipv4: 1, vdcId, months: 1 });
    expect(smaller.statusCode, smaller.body).toBe(201); // the same size is a plain renewal
    const res = await postVdcCheckout(ctx(), customer.auth, { cpu: 8, ram: 16, storage: 150, ipv4: 2, months: 2, vdcId, acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const [pending] = await db.select().from(orders).where(eq(orders.id, res.json().orderId));
    expect(pending).toMatchObject({ kind: 'upgrade', subscriptionId: vdcId, nodeId: vdc.nodeId, holdCpuCores: 4, holdRamGb: 8, holdStorageGb: 50 });
    expect((pending!.config as { ipAddressIds: number[] }).ipAddressIds).toHaveLength(1);
    await paySimulated(ctx(), res.json().sessionId);
    await drainJobs(ctx());
    const [after] = await db.select().from(vdcs).where(eq(vdcs.id, vdcId));
    expect(after).toMatchObject({ cpuCores: 8, ramGb: 16, storageGb: 150, ipv4Count: 2 });
    expect(after!.expiresAt!.getTime()).toBeGreaterThan(vdc.expiresAt!.getTime() + 55 * 86_400_000);
    expect(await db.select().from(ipAddresses).where(eq(ipAddresses.vdcId, vdcId))).toHaveLength(2);

    const shrink = await postVdcCheckout(ctx(), customer.auth, { ...smallPool, vdcId });
    expect(shrink.statusCode).toBe(409);
    expect(shrink.json().error.message).toBe('Bei einer Verlängerung kann der Pool nicht verkleinert werden: mindestens 8 vCPU, mindestens 16 GB RAM, mindestens 150 GB Speicher, mindestens 2 IPv4-Adressen.');
  });

  it('answers 404 to another customer on every route of a VDC, its VMs and addresses', { timeout: 60_000 }, async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const owner = await createUser(ctx());
    const other = await createUser(ctx());
    const { vdcId } = await buyVdc(ctx(), owner);
    const vm = await createVdcVm(ctx(), owner.auth, vdcId, { name: 'mine', cpuCores: 1, ramGb: 1, diskGb: 10 });
    expect(vm.statusCode, vm.body).toBe(201);
    await drainJobs(ctx());
    const [ip] = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.vdcId, vdcId));
    const vmId = vm.json().id as string;
    const calls: [Parameters<typeof inject>[1], string, unknown?][] = [
      ['GET', `/api/vdcs/${vdcId}`],
      ['GET', `/api/shop/vdc/renewal/${vdcId}`],
      ['POST', `/api/vdcs/${vdcId}/vms`, { name: 'theirs', os: 'Debian 12', cpuCores: 1, ramGb: 1, diskGb: 10 }],
      ['PATCH', `/api/vdcs/${vdcId}/vms/${vmId}`, { cpuCores: 1, ramGb: 1, diskGb: 20 }],
      ['DELETE', `/api/vdcs/${vdcId}/vms/${vmId}`],
      ['PUT', `/api/vdcs/${vdcId}/ips/${ip!.id}`, { serverId: null }],
      ['GET', `/api/servers/${vmId}`],
      ['POST', `/api/servers/${vmId}/power`, { action: 'stop' }],
    ];
    for (const [method, url, payload] of calls) {
      const res = await inject(other.auth, method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    const renew = await postVdcCheckout(ctx(), other.auth, { ...smallPool, vdcId });
    expect(renew.statusCode).toBe(404);
    expect((await inject(other.auth, 'GET', '/api/vdcs')).json().items).toEqual([]);
    // Nothing changed for the owner.
    const detail = (await inject(owner.auth, 'GET', `/api/vdcs/${vdcId}`)).json();
    expect(detail).toMatchObject({ vms: 1, ipv4: { used: 1, total: 1 } });
  });

  it('lists pools for staff with owner, node and use; customers may not', { timeout: 60_000 }, async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const { vdc } = await buyVdc(ctx(), customer);
    const staff = await createUser(ctx(), { role: 'employee' });
    const page = await inject(staff.auth, 'GET', `/api/admin/vdcs?q=${vdc.number}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ total: 1, items: [{ id: vdc.id, number: vdc.number, owner: { username: customer.username }, cpu: { used: 0, total: 4 }, ipv4: { used: 0, total: 1 }, status: 'active' }] });
    expect((await inject(customer.auth, 'GET', '/api/admin/vdcs')).statusCode).toBe(403);
    const card = await inject(staff.auth, 'GET', `/api/staff/customers/${customer.user.id}`);
    expect(card.statusCode, card.body).toBe(200);
    expect(JSON.stringify(card.json())).toContain(`VDC-ID ${vdc.number}`);
  });
  it('a pool the hypervisor refuses fails the paid order, which is refunded, and its addresses go back', { timeout: 60_000 }, async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const res = await postVdcCheckout(ctx(), customer.auth, smallPool);
    expect(res.statusCode, res.body).toBe(201);
    (ctx().app.deps.hypervisor as SimulatedHypervisor).injectFailure({ op: 'pool', error: 'INVALID' });
    await paySimulated(ctx(), res.json().sessionId);
    await drainJobs(ctx());
    const db = ctx().database.db;
    const [vdc] = await db.select().from(vdcs).where(eq(vdcs.ownerId, customer.user.id));
    expect(vdc!.status).toBe('failed');
    expect(vdc!.statusMessage).toMatch(/^Die Einrichtung ist fehlgeschlagen: .* Der Betrag wird erstattet\.$/);
    const [order] = await db.select().from(orders).where(eq(orders.id, res.json().orderId));
    expect(order!.status).toBe('refunded');
    expect(await db.select().from(ipAddresses).where(eq(ipAddresses.vdcId, vdc!.id))).toEqual([]);
    // A failed pool holds nothing on its node and cannot be used.
    const pools = await db.select().from(vdcs).where(and(eq(vdcs.nodeId, vdc!.nodeId), isNull(vdcs.deletedAt)));
    expect((await usedCapacity(db, vdc!.nodeId)).cpuCores).toBe(pools.filter((p) => p.status !== 'failed').reduce((n, p) => n + p.cpuCores, 0));
    const vm = await createVdcVm(ctx(), customer.auth, vdc!.id, { name: 'late', cpuCores: 1, ramGb: 1, diskGb: 10 });
    expect(vm.statusCode).toBe(409);
    expect(vm.json().error.message).toBe('Die Einrichtung dieses Virtual Data Centers ist fehlgeschlagen. Bitte wenden Sie sich an den Support.');
  });

  it('at the end of the term the VMs stop and their panel refuses; a paid renewal starts them again', { timeout: 90_000 }, async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const { vdcId } = await buyVdc(ctx(), customer);
    const vm = await createVdcVm(ctx(), customer.auth, vdcId, { name: 'term', cpuCores: 1, ramGb: 1, diskGb: 10 });
    await drainJobs(ctx());
    const db = ctx().database.db;
    await db.update(vdcs).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(vdcs.id, vdcId));
    await ctx().app.scheduler.runNow('vdc-terms');
    await drainJobs(ctx());
    const [suspended] = await db.select().from(vdcs).where(eq(vdcs.id, vdcId));
    expect(suspended).toMatchObject({ status: 'suspended' });
    const [stopped] = await db.select().from(servers).where(eq(servers.id, vm.json().id));
    expect(stopped!.suspendedAt).not.toBeNull();
    expect(stopped!.status).toBe('offline');
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.subject.includes('wurde gesperrt'))).toBe(true);
    const power = await inject(customer.auth, 'POST', `/api/servers/${vm.json().id}/power`, { action: 'start' });
    expect(power.statusCode).toBe(409);
    const create = await createVdcVm(ctx(), customer.auth, vdcId, { name: 'more', cpuCores: 1, ramGb: 1, diskGb: 10 });
    expect(create.json().error.message).toBe('Die Laufzeit dieses Virtual Data Centers ist abgelaufen. Bitte verlängern Sie es, um VMs zu verwalten.');

    const renew = await postVdcCheckout(ctx(), customer.auth, { ...smallPool, vdcId });
    expect(renew.statusCode, renew.body).toBe(201);
    await paySimulated(ctx(), renew.json().sessionId);
    await drainJobs(ctx());
    const [active] = await db.select().from(vdcs).where(eq(vdcs.id, vdcId));
    expect(active).toMatchObject({ status: 'active', suspendedAt: null });
    const [running] = await db.select().from(servers).where(eq(servers.id, vm.json().id));
    expect(running).toMatchObject({ status: 'online', suspendedAt: null });
    const [order] = await db.select().from(orders).where(eq(orders.id, renew.json().orderId));
    expect(order!.status).toBe('completed');
  });

  it('after the grace period the VDC goes with its VMs and pool; its addresses return to the provider\'s pool', { timeout: 90_000 }, async () => {
    await seedCapacity(ctx(), { ips: 1 });
    const customer = await createUser(ctx());
    const { vdcId, vdc } = await buyVdc(ctx(), customer);
    const vm = await createVdcVm(ctx(), customer.auth, vdcId, { name: 'gone', cpuCores: 1, ramGb: 1, diskGb: 10 });
    await drainJobs(ctx());
    const db = ctx().database.db;
    const graceDays = ctx().app.deps.env.billing.graceDays;
    await db.update(vdcs).set({ expiresAt: new Date(Date.now() - (graceDays + 1) * 86_400_000) }).where(eq(vdcs.id, vdcId));
    await ctx().app.scheduler.runNow('vdc-terms');
    await drainJobs(ctx());
    await ctx().app.scheduler.runNow('vdc-terms');
    await drainJobs(ctx());
    const [deleted] = await db.select().from(vdcs).where(eq(vdcs.id, vdcId));
    expect(deleted!.deletedAt).not.toBeNull();
    const [vmRow] = await db.select().from(servers).where(eq(servers.id, vm.json().id));
    expect(vmRow!.deletedAt).not.toBeNull();
    expect(await ctx().app.deps.hypervisor.getPool(vdc.poolId)).toBeNull();
    expect(await db.select().from(ipAddresses).where(eq(ipAddresses.vdcId, vdcId))).toEqual([]);
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.subject.includes('wurde gelöscht'))).toBe(true);
    expect((await inject(customer.auth, 'GET', `/api/vdcs/${vdcId}`)).statusCode).toBe(404);
  });
});

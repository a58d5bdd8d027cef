import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { VDC_ISO_CHUNK_BYTES, type VdcIso, type VdcIsoList } from '@hp/contract';
import { servers, vdcIsos } from '../../db/schema/index.ts';
import { createUser, type TestContext } from '../../../test/harness.ts';
import { drainJobs } from '../../../test/shop.ts';
import { describeVdc, seedVdc, seedVdcVm, simHypervisor } from '../../../test/vdc-fixture.ts';
import { hypervisorFileName, removeAbandonedUploads } from './vdc-isos.service.ts';

const GIB = 1024 ** 3;
const SIZE = 40_000;

/** `size` random bytes with (or without) an ISO 9660 primary volume descriptor at 0x8000. */
function isoBytes(size = SIZE, valid = true) {
  const buf = crypto.randomBytes(size);
  if (valid) {
    buf[0x8000] = 1;
    buf.write('CD001', 0x8001, 'latin1');
    buf[0x8006] = 1;
  } else {
    buf.write('NOT-ISO', 0x8000, 'latin1');
  }
  return buf;
}

type Auth = Record<string, string>;

const startUpload = (ctx: TestContext, auth: Auth, vdcId: string, body: Record<string, unknown>) =>
  ctx.app.inject({ method: 'POST', url: `/api/vdcs/${vdcId}/isos`, headers: auth, payload: body });

const putChunk = (ctx: TestContext, auth: Auth, vdcId: string, isoId: string, offset: number, data: Buffer | Readable) =>
  ctx.app.inject({
    method: 'PUT', url: `/api/vdcs/${vdcId}/isos/${isoId}/content`,
    headers: { ...auth, 'content-type': 'application/octet-stream', 'upload-offset': String(offset) }, payload: data,
  });

const partFile = (ctx: { dataDir: string }, isoId: string) => path.join(ctx.dataDir, 'vdc-isos', `${isoId}.part`);
const filesOf = (ctx: { dataDir: string }, isoId: string) => {
  const dir = path.join(ctx.dataDir, 'vdc-isos');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.startsWith(isoId)) : [];
};

/** Starts an upload and sends `data` in pieces of `piece` bytes; returns the ISO's id. */
async function upload(ctx: TestContext, auth: Auth, vdcId: string, data: Buffer, name = `image-${crypto.randomBytes(3).toString('hex')}.iso`, piece = 16_384) {
  const started = await startUpload(ctx, auth, vdcId, { name, sizeBytes: data.length });
  expect(started.statusCode, started.body).toBe(201);
  const iso = started.json() as VdcIso;
  for (let offset = 0; offset < data.length; offset += piece) {
    const res = await putChunk(ctx, auth, vdcId, iso.id, offset, data.subarray(offset, offset + piece));
    expect(res.statusCode, res.body).toBe(200);
  }
  return iso.id;
}

describeVdc('VDC ISO library', (ctx) => {
  it('takes an image in pieces, tells where to resume, checks the offset, and moves the finished image to the node', async () => {
    const owner = await createUser(ctx());
    const { vdc, node } = await seedVdc(ctx(), owner.user.id);
    const data = isoBytes();
    const started = await startUpload(ctx(), owner.auth, vdc.id, { name: 'debian-12.iso', sizeBytes: SIZE });
    expect(started.statusCode, started.body).toBe(201);
    const iso = started.json() as VdcIso;
    expect(iso).toMatchObject({ name: 'debian-12.iso', sizeBytes: SIZE, receivedBytes: 0, status: 'uploading', attachedTo: [] });

    const first = await putChunk(ctx(), owner.auth, vdc.id, iso.id, 0, data.subarray(0, 20_000));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['upload-offset']).toBe('20000');

    // A client that lost the answer and sends the same piece again learns where the server is.
    const again = await putChunk(ctx(), owner.auth, vdc.id, iso.id, 0, data.subarray(0, 20_000));
    expect(again.statusCode).toBe(409);
    expect(again.headers['upload-offset']).toBe('20000');
    expect(again.json()).toMatchObject({ error: { code: 'UPLOAD_OFFSET_MISMATCH', details: { offset: 20_000 } } });
    expect(again.json().error.message).toContain('Byte 20000');

    const head = await ctx().app.inject({ method: 'HEAD', url: `/api/vdcs/${vdc.id}/isos/${iso.id}`, headers: owner.auth });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('20000');
    expect(head.headers['upload-length']).toBe(String(SIZE));

    const last = await putChunk(ctx(), owner.auth, vdc.id, iso.id, 20_000, data.subarray(20_000));
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json()).toMatchObject({ receivedBytes: SIZE, status: 'uploading' });
    expect(fs.statSync(partFile(ctx(), iso.id)).size).toBe(SIZE);
    expect(fs.readFileSync(partFile(ctx(), iso.id)).equals(data)).toBe(true);

    await drainJobs(ctx());
    const [row] = await ctx().database.db.select().from(vdcIsos).where(eq(vdcIsos.id, iso.id));
    expect(row).toMatchObject({ status: 'ready', volid: `local:iso/${hypervisorFileName(vdc.number, iso.id)}` });
    expect(filesOf(ctx(), iso.id)).toEqual([]);
    const onNode = await simHypervisor(ctx()).listIsos(node.name);
    expect(onNode).toEqual([expect.objectContaining({ volid: row!.volid, size: SIZE })]);

    const library = await ctx().app.inject({ method: 'GET', url: `/api/vdcs/${vdc.id}/isos`, headers: owner.auth });
    expect(library.json()).toMatchObject({ items: [{ id: iso.id, status: 'ready' }], usedBytes: SIZE, quotaBytes: 50 * GIB, chunkBytes: VDC_ISO_CHUNK_BYTES });
    // Nothing more is accepted once the image is complete.
    expect((await putChunk(ctx(), owner.auth, vdc.id, iso.id, SIZE, Buffer.from('x'))).statusCode).toBe(409);
  });

  it('takes pieces over a real connection, and the instance keeps answering meanwhile', async () => {
    // app.inject hands the route a small fake request; over a socket the body stream is an IncomingMessage.
    // Handed on as the parsed body, the global NUL check walked its object graph (socket, server, parser …)
    // and blocked the instance for good: this test (and every other request) then never finished.
    const baseUrl = await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    const owner = await createUser(ctx());
    const { vdc } = await seedVdc(ctx(), owner.user.id);
    const data = isoBytes();
    const iso = (await startUpload(ctx(), owner.auth, vdc.id, { name: 'socket.iso', sizeBytes: SIZE })).json() as VdcIso;
    for (const [from, to] of [[0, 20_000], [20_000, SIZE]] as const) {
      const res = await fetch(`${baseUrl}/api/vdcs/${vdc.id}/isos/${iso.id}/content`, {
        method: 'PUT', body: data.subarray(from, to), signal: AbortSignal.timeout(10_000),
        headers: { ...owner.auth, 'content-type': 'application/octet-stream', 'upload-offset': String(from) },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(res.headers.get('upload-offset')).toBe(String(to));
    }
    expect((await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
    // A piece beyond the announced size is answered with the German 413 over the same kind of line,
    // not with a reset connection (destroying the request would take the socket down with it).
    const other = (await startUpload(ctx(), owner.auth, vdc.id, { name: 'other.iso', sizeBytes: SIZE })).json() as VdcIso;
    const beyond = await fetch(`${baseUrl}/api/vdcs/${vdc.id}/isos/${other.id}/content`, {
      method: 'PUT', body: isoBytes(SIZE + 100_000), signal: AbortSignal.timeout(10_000),
      headers: { ...owner.auth, 'content-type': 'application/octet-stream', 'upload-offset': '0' },
    });
    expect(beyond.status).toBe(413);
    expect(((await beyond.json()) as { error: { message: string } }).error.message).toContain('höchstens 16 MB');
    expect(filesOf(ctx(), other.id).filter((n) => n.endsWith('.chunk'))).toEqual([]);
    await drainJobs(ctx());
    const [row] = await ctx().database.db.select().from(vdcIsos).where(eq(vdcIsos.id, iso.id));
    expect(row).toMatchObject({ receivedBytes: SIZE, status: 'ready' });
  });

  it('refuses a file without the ISO 9660 signature at once and keeps nothing of it', async () => {
    const owner = await createUser(ctx());
    const { vdc } = await seedVdc(ctx(), owner.user.id);
    const data = isoBytes(SIZE, false);
    const iso = (await startUpload(ctx(), owner.auth, vdc.id, { name: 'setup.iso', sizeBytes: SIZE })).json() as VdcIso;
    // The first piece ends before 0x8000: nothing can be said yet.
    expect((await putChunk(ctx(), owner.auth, vdc.id, iso.id, 0, data.subarray(0, 30_000))).statusCode).toBe(200);
    const refused = await putChunk(ctx(), owner.auth, vdc.id, iso.id, 30_000, data.subarray(30_000, 34_000));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'NOT_ISO9660', message: 'Diese Datei ist kein ISO-9660-Image.' });
    expect(filesOf(ctx(), iso.id)).toEqual([]);
    expect((await ctx().app.inject({ method: 'GET', url: `/api/vdcs/${vdc.id}/isos/${iso.id}`, headers: owner.auth })).statusCode).toBe(404);
    const library = (await ctx().app.inject({ method: 'GET', url: `/api/vdcs/${vdc.id}/isos`, headers: owner.auth })).json() as VdcIsoList;
    expect(library).toMatchObject({ items: [], usedBytes: 0 });
    // Too small to hold a volume descriptor at all.
    const tiny = await startUpload(ctx(), owner.auth, vdc.id, { name: 'tiny.iso', sizeBytes: 2048 });
    expect(tiny.statusCode).toBe(400);
    expect(tiny.json().error.message).toBe('Diese Datei ist kein ISO-9660-Image.');
  });

  it('refuses images over the size limit or the library quota (uploads in progress count), bad and taken names', async () => {
    const owner = await createUser(ctx());
    const { vdc } = await seedVdc(ctx(), owner.user.id, { isoQuotaGb: 1 });
    const tooLarge = await startUpload(ctx(), owner.auth, vdc.id, { name: 'huge.iso', sizeBytes: 9 * GIB });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toMatchObject({ code: 'ISO_TOO_LARGE', message: 'Ein ISO-Image darf höchstens 8 GB groß sein.' });

    expect((await startUpload(ctx(), owner.auth, vdc.id, { name: 'a.iso', sizeBytes: 700 * 1024 * 1024 })).statusCode).toBe(201);
    const over = await startUpload(ctx(), owner.auth, vdc.id, { name: 'b.iso', sizeBytes: 400 * 1024 * 1024 });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.code).toBe('ISO_QUOTA_EXCEEDED');
    expect(over.json().error.message).toMatch(/^Die ISO-Bibliothek ist voll: Von 1 GB sind noch 0,3 GB frei\./);
    expect((await startUpload(ctx(), owner.auth, vdc.id, { name: 'b.iso', sizeBytes: 300 * 1024 * 1024 })).statusCode).toBe(201);

    const taken = await startUpload(ctx(), owner.auth, vdc.id, { name: 'A.ISO', sizeBytes: 40_000 });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe('In Ihrer ISO-Bibliothek gibt es bereits ein Image mit diesem Namen.');
    const wrongType = await startUpload(ctx(), owner.auth, vdc.id, { name: 'setup.exe', sizeBytes: 40_000 });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().error.message).toBe('Bitte wählen Sie ein ISO-Image (Dateiendung .iso).');
  });

  it('cleans the name: no path, no unusual characters', async () => {
    const owner = await createUser(ctx());
    const { vdc } = await seedVdc(ctx(), owner.user.id);
    const res = await startUpload(ctx(), owner.auth, vdc.id, { name: '..\\..\\etc/Windows Server <2025>;rm.ISO', sizeBytes: 40_000 });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as VdcIso).name).toBe('Windows Server _2025__rm.iso');
    expect((await startUpload(ctx(), owner.auth, vdc.id, { name: '/tmp/.iso', sizeBytes: 40_000 })).statusCode).toBe(400);
  });

  it('refuses pieces that are too large, go beyond the announced size, or are not raw bytes', async () => {
    const owner = await createUser(ctx());
    const { vdc } = await seedVdc(ctx(), owner.user.id);
    const iso = (await startUpload(ctx(), owner.auth, vdc.id, { name: 'big.iso', sizeBytes: 40 * 1024 * 1024 })).json() as VdcIso;
    const oversized = await putChunk(ctx(), owner.auth, vdc.id, iso.id, 0, Buffer.alloc(VDC_ISO_CHUNK_BYTES + 1));
    expect(oversized.statusCode).toBe(413);
    expect(oversized.json().error.code).toBe('ISO_CHUNK_TOO_LARGE');
    // A whole piece of the largest size goes through (far above the API's JSON body limit).
    const whole = await putChunk(ctx(), owner.auth, vdc.id, iso.id, 0, isoBytes(VDC_ISO_CHUNK_BYTES));
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.headers['upload-offset']).toBe(String(VDC_ISO_CHUNK_BYTES));

    const small = (await startUpload(ctx(), owner.auth, vdc.id, { name: 'small.iso', sizeBytes: SIZE })).json() as VdcIso;
    const beyond = await putChunk(ctx(), owner.auth, vdc.id, small.id, 0, isoBytes(SIZE + 10));
    expect(beyond.statusCode).toBe(413);
    expect(beyond.json().error.message).toContain('höchstens 16 MB');
    const json = await ctx().app.inject({ method: 'PUT', url: `/api/vdcs/${vdc.id}/isos/${small.id}/content`, headers: { ...owner.auth, 'upload-offset': '0' }, payload: { data: 'x' } });
    expect(json.statusCode).toBe(415);
    const noOffset = await ctx().app.inject({ method: 'PUT', url: `/api/vdcs/${vdc.id}/isos/${small.id}/content`, headers: { ...owner.auth, 'content-type': 'application/octet-stream' }, payload: Buffer.from('x') });
    expect(noOffset.statusCode).toBe(400);
    expect(noOffset.json().error.message).toContain('Upload-Offset');
    const [row] = await ctx().database.db.select().from(vdcIsos).where(eq(vdcIsos.id, small.id));
    expect(row!.receivedBytes).toBe(0);
    expect(filesOf(ctx(), small.id).filter((n) => n.endsWith('.chunk'))).toEqual([]);
  });

  it('a piece cut off mid-way counts for nothing; the upload resumes at the last whole piece', async () => {
    const owner = await createUser(ctx());
    const { vdc } = await seedVdc(ctx(), owner.user.id);
    const data = isoBytes();
    const iso = (await startUpload(ctx(), owner.auth, vdc.id, { name: 'flaky.iso', sizeBytes: SIZE })).json() as VdcIso;
    expect((await putChunk(ctx(), owner.auth, vdc.id, iso.id, 0, data.subarray(0, 10_000))).statusCode).toBe(200);
    const broken = new Readable({ read() {} });
    broken.push(data.subarray(10_000, 15_000));
    setTimeout(() => broken.destroy(new Error('connection reset')), 20);
    const cut = await putChunk(ctx(), owner.auth, vdc.id, iso.id, 10_000, broken).catch(() => null);
    if (cut) expect(cut.statusCode).toBeGreaterThanOrEqual(400);
    // The server notices the broken line on its own time; then the half piece is gone.
    await vi.waitFor(() => expect(filesOf(ctx(), iso.id)).toEqual([`${iso.id}.part`]), { timeout: 2000 });
    const head = await ctx().app.inject({ method: 'HEAD', url: `/api/vdcs/${vdc.id}/isos/${iso.id}`, headers: owner.auth });
    expect(head.headers['upload-offset']).toBe('10000');
    expect((await putChunk(ctx(), owner.auth, vdc.id, iso.id, 10_000, data.subarray(10_000))).statusCode).toBe(200);
    await drainJobs(ctx());
    const [row] = await ctx().database.db.select().from(vdcIsos).where(eq(vdcIsos.id, iso.id));
    expect(row!.status).toBe('ready');
  });

  it('two pieces for the same offset at once: one is stored, the other answered 409, the file holds the winner', async () => {
    const owner = await createUser(ctx());
    const { vdc } = await seedVdc(ctx(), owner.user.id);
    const iso = (await startUpload(ctx(), owner.auth, vdc.id, { name: 'race.iso', sizeBytes: SIZE })).json() as VdcIso;
    const a = Buffer.alloc(8000, 0xaa);
    const b = Buffer.alloc(8000, 0xbb);
    const [ra, rb] = await Promise.all([putChunk(ctx(), owner.auth, vdc.id, iso.id, 0, a), putChunk(ctx(), owner.auth, vdc.id, iso.id, 0, b)]);
    expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 409]);
    const winner = ra.statusCode === 200 ? a : b;
    expect(fs.readFileSync(partFile(ctx(), iso.id)).equals(winner)).toBe(true);
    const [row] = await ctx().database.db.select().from(vdcIsos).where(eq(vdcIsos.id, iso.id));
    expect(row!.receivedBytes).toBe(8000);
  });

  it('attaches a ready image to a VM of the same VDC, refuses deleting it while attached, detaches and deletes', async () => {
    const owner = await createUser(ctx());
    const place = await seedVdc(ctx(), owner.user.id);
    const { vdc, node } = place;
    const vm = await seedVdcVm(ctx(), place, 'web1');
    const isoId = await upload(ctx(), owner.auth, vdc.id, isoBytes(), 'rescue.iso');
    const pending = (await startUpload(ctx(), owner.auth, vdc.id, { name: 'pending.iso', sizeBytes: SIZE })).json() as VdcIso;
    await drainJobs(ctx());
    const hv = simHypervisor(ctx());
    const vmRef = { node: node.name, vmid: vm.vmid };
    const attachUrl = `/api/vdcs/${vdc.id}/vms/${vm.id}/iso`;

    const notReady = await ctx().app.inject({ method: 'PUT', url: attachUrl, headers: owner.auth, payload: { isoId: pending.id } });
    expect(notReady.statusCode).toBe(409);
    expect(notReady.json().error.message).toBe('Dieses ISO-Image ist noch nicht fertig hochgeladen.');

    const attached = await ctx().app.inject({ method: 'PUT', url: attachUrl, headers: owner.auth, payload: { isoId } });
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json()).toEqual({ vmId: vm.id, isoId });
    const [row] = await ctx().database.db.select({ isoId: servers.isoId }).from(servers).where(eq(servers.id, vm.id));
    expect(row!.isoId).toBe(isoId);
    expect(await hv.vmDevices(vmRef)).toMatchObject({ iso: `local:iso/${hypervisorFileName(vdc.number, isoId)}`, bootFromIso: true });
    const library = (await ctx().app.inject({ method: 'GET', url: `/api/vdcs/${vdc.id}/isos`, headers: owner.auth })).json() as VdcIsoList;
    expect(library.items.find((i) => i.id === isoId)?.attachedTo).toEqual([vm.id]);

    const busy = await ctx().app.inject({ method: 'DELETE', url: `/api/vdcs/${vdc.id}/isos/${isoId}`, headers: owner.auth });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.message).toBe('Das ISO-Image ist noch in der VM web1 eingelegt. Bitte werfen Sie es dort zuerst aus.');

    const ejected = await ctx().app.inject({ method: 'PUT', url: attachUrl, headers: owner.auth, payload: { isoId: null } });
    expect(ejected.statusCode).toBe(200);
    expect(await hv.vmDevices(vmRef)).toMatchObject({ iso: null, bootFromIso: false });

    const deleted = await ctx().app.inject({ method: 'DELETE', url: `/api/vdcs/${vdc.id}/isos/${isoId}`, headers: owner.auth });
    expect(deleted.statusCode).toBe(204);
    expect((await ctx().app.inject({ method: 'DELETE', url: `/api/vdcs/${vdc.id}/isos/${pending.id}`, headers: owner.auth })).statusCode).toBe(204);
    await drainJobs(ctx());
    expect(await hv.listIsos(node.name)).toEqual([]);
    const after = (await ctx().app.inject({ method: 'GET', url: `/api/vdcs/${vdc.id}/isos`, headers: owner.auth })).json() as VdcIsoList;
    expect(after).toMatchObject({ items: [], usedBytes: 0 });
    expect(filesOf(ctx(), pending.id)).toEqual([]);
  });

  it('takes the drive back when the host refuses the image', async () => {
    const owner = await createUser(ctx());
    const place = await seedVdc(ctx(), owner.user.id);
    const vm = await seedVdcVm(ctx(), place);
    const isoId = await upload(ctx(), owner.auth, place.vdc.id, isoBytes());
    await drainJobs(ctx());
    simHypervisor(ctx()).injectFailure({ op: 'config', error: 'LOCKED', vmid: vm.vmid });
    const res = await ctx().app.inject({ method: 'PUT', url: `/api/vdcs/${place.vdc.id}/vms/${vm.id}/iso`, headers: owner.auth, payload: { isoId } });
    expect(res.statusCode).toBe(409);
    const [row] = await ctx().database.db.select({ isoId: servers.isoId }).from(servers).where(eq(servers.id, vm.id));
    expect(row!.isoId).toBeNull();
  });

  it('a failed transfer to the node marks the image failed with a German message and leaves nothing behind', async () => {
    const owner = await createUser(ctx());
    const { vdc, node } = await seedVdc(ctx(), owner.user.id);
    simHypervisor(ctx()).injectFailure({ op: 'upload', error: 'checksum mismatch: got 0000' });
    const isoId = await upload(ctx(), owner.auth, vdc.id, isoBytes(), 'broken.iso');
    await drainJobs(ctx());
    const iso = (await ctx().app.inject({ method: 'GET', url: `/api/vdcs/${vdc.id}/isos/${isoId}`, headers: owner.auth })).json() as VdcIso;
    expect(iso).toMatchObject({ status: 'failed', statusMessage: 'Das ISO-Image konnte nicht in die Bibliothek übertragen werden. Bitte laden Sie es erneut hoch.' });
    expect(filesOf(ctx(), isoId)).toEqual([]);
    expect(await simHypervisor(ctx()).listIsos(node.name)).toEqual([]);
    // A failed image holds no quota, and a new upload of the same name replaces it.
    const library = (await ctx().app.inject({ method: 'GET', url: `/api/vdcs/${vdc.id}/isos`, headers: owner.auth })).json() as VdcIsoList;
    expect(library.usedBytes).toBe(0);
    const retry = await startUpload(ctx(), owner.auth, vdc.id, { name: 'broken.iso', sizeBytes: SIZE });
    expect(retry.statusCode, retry.body).toBe(201);
    const items = ((await ctx().app.inject({ method: 'GET', url: `/api/vdcs/${vdc.id}/isos`, headers: owner.auth })).json() as VdcIsoList).items;
    expect(items.map((i) => i.status)).toEqual(['uploading']);
  });

  it('an upload abandoned by a killed process (row uploading, part file on disk) is removed by the schedule after 24 hours', async () => {
    const owner = await createUser(ctx());
    const { vdc } = await seedVdc(ctx(), owner.user.id);
    const data = isoBytes();
    const stale = (await startUpload(ctx(), owner.auth, vdc.id, { name: 'stale.iso', sizeBytes: SIZE })).json() as VdcIso;
    const fresh = (await startUpload(ctx(), owner.auth, vdc.id, { name: 'fresh.iso', sizeBytes: SIZE })).json() as VdcIso;
    for (const iso of [stale, fresh]) expect((await putChunk(ctx(), owner.auth, vdc.id, iso.id, 0, data.subarray(0, 10_000))).statusCode).toBe(200);
    // What a SIGKILL mid-piece leaves: a piece file that never made it into the part file.
    const orphanPiece = path.join(ctx().dataDir, 'vdc-isos', `${stale.id}.${crypto.randomUUID()}.chunk`);
    fs.writeFileSync(orphanPiece, 'half a piece');
    await ctx().database.db.update(vdcIsos).set({ updatedAt: new Date(Date.now() - 25 * 60 * 60 * 1000) }).where(eq(vdcIsos.id, stale.id));

    const result = await removeAbandonedUploads(ctx().app.deps);
    expect(result.abandoned).toBeGreaterThanOrEqual(1);
    const [row] = await ctx().database.db.select().from(vdcIsos).where(eq(vdcIsos.id, stale.id));
    expect(row!.deletedAt).not.toBeNull();
    expect(filesOf(ctx(), stale.id)).toEqual([]);
    expect(filesOf(ctx(), fresh.id)).toEqual([`${fresh.id}.part`]);
    const items = ((await ctx().app.inject({ method: 'GET', url: `/api/vdcs/${vdc.id}/isos`, headers: owner.auth })).json() as VdcIsoList).items;
    expect(items.map((i) => i.id)).toEqual([fresh.id]);
    // Files of no upload in progress go too, once they are an hour old.
    fs.writeFileSync(partFile(ctx(), crypto.randomUUID()), 'left over');
    const later = await removeAbandonedUploads(ctx().app.deps, new Date(Date.now() + 2 * 60 * 60 * 1000));
    expect(later.strays).toBeGreaterThanOrEqual(1);
    expect(fs.readdirSync(path.join(ctx().dataDir, 'vdc-isos'))).toContain(`${fresh.id}.part`);
  });

  it("another customer's VDC, image or VM answers 404, and no route serves an image's bytes", async () => {
    const owner = await createUser(ctx());
    const other = await createUser(ctx());
    const place = await seedVdc(ctx(), owner.user.id);
    const vm = await seedVdcVm(ctx(), place);
    const { vdc } = place;
    const isoId = await upload(ctx(), owner.auth, vdc.id, isoBytes());
    await drainJobs(ctx());
    const foreign = await seedVdc(ctx(), other.user.id);
    const tries = [
      { method: 'GET' as const, url: `/api/vdcs/${vdc.id}/isos` },
      { method: 'GET' as const, url: `/api/vdcs/${vdc.id}/isos/${isoId}` },
      { method: 'DELETE' as const, url: `/api/vdcs/${vdc.id}/isos/${isoId}` },
      { method: 'POST' as const, url: `/api/vdcs/${vdc.id}/isos`, payload: { name: 'x.iso', sizeBytes: SIZE } },
      { method: 'PUT' as const, url: `/api/vdcs/${vdc.id}/vms/${vm.id}/iso`, payload: { isoId } },
      // Their own VDC with the owner's image or VM.
      { method: 'GET' as const, url: `/api/vdcs/${foreign.vdc.id}/isos/${isoId}` },
      { method: 'PUT' as const, url: `/api/vdcs/${foreign.vdc.id}/vms/${vm.id}/iso`, payload: { isoId: null } },
    ];
    for (const t of tries) {
      const res = await ctx().app.inject({ ...t, headers: other.auth });
      expect(res.statusCode, `${t.method} ${t.url}`).toBe(404);
      expect(res.json().error.message).toMatch(/wurde nicht gefunden/);
    }
    const piece = await ctx().app.inject({
      method: 'PUT', url: `/api/vdcs/${vdc.id}/isos/${isoId}/content`,
      headers: { ...other.auth, 'content-type': 'application/octet-stream', 'upload-offset': '0' }, payload: Buffer.from('x'),
    });
    expect(piece.statusCode).toBe(404);
    for (const url of [`/api/vdcs/${vdc.id}/isos/${isoId}/content`, `/api/vdcs/${vdc.id}/isos/${isoId}/download`]) {
      const res = await ctx().app.inject({ method: 'GET', url, headers: owner.auth });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});

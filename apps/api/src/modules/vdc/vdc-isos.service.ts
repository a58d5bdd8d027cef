import crypto from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { GIB, VDC_ISO_CHUNK_BYTES, VDC_ISO_MIN_BYTES, type VdcIso, type VdcIsoCreateInput, type VdcIsoList, type VdcVmIsoState } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { nodes, servers, vdcIsos, vdcs } from '../../db/schema/index.ts';
import { HypervisorError } from '../../drivers/hypervisor/hypervisor.ts';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import { defineJob, defineSchedule, type JobDeps } from '../../jobs/define.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import { guardOperation } from '../servers/server-operation.ts';
import { toAppError, vmOf } from '../servers/server-access.ts';
import { ownVdc, vdcIso, vdcVm, type VdcRow } from './vdc-access.ts';

/**
 * The VDC's ISO library (issue 25, decision 036). An upload is resumable: `POST` reserves the announced
 * size in the quota under the VDC's row lock, then the client sends pieces of at most VDC_ISO_CHUNK_BYTES
 * with `Upload-Offset`; each piece is streamed to disk (never held in memory), then appended to the
 * image's part file under the ISO row's lock, so two requests for the same offset cannot both land.
 * The bytes at 0x8000 must be an ISO 9660 primary volume descriptor as soon as they arrive. When the last
 * byte is in, a job streams the file to the VDC's node (`uploadIso`) and deletes it.
 *
 * Part files live in DATA_DIR/vdc-isos: several API instances need that directory on shared storage.
 */

type IsoDeps = Pick<Deps, 'db' | 'hypervisor' | 'env'>;
type IsoRow = typeof vdcIsos.$inferSelect;

export const isoMessages = {
  notIso: 'Diese Datei ist kein ISO-9660-Image.',
  tooLarge: (maxGb: number) => `Ein ISO-Image darf höchstens ${maxGb} GB groß sein.`,
  quota: (freeGb: string, quotaGb: number) => `Die ISO-Bibliothek ist voll: Von ${quotaGb} GB sind noch ${freeGb} GB frei. Bitte löschen Sie zuerst ein anderes Image.`,
  nameTaken: 'In Ihrer ISO-Bibliothek gibt es bereits ein Image mit diesem Namen.',
  badName: 'Bitte wählen Sie ein ISO-Image (Dateiendung .iso).',
  offset: (offset: number) => `Der Upload wird bei Byte ${offset} fortgesetzt. Bitte senden Sie die Daten ab dort.`,
  offsetHeader: 'Bitte geben Sie im Kopf „Upload-Offset“ an, ab welchem Byte dieser Abschnitt beginnt.',
  chunkTooLarge: `Ein Abschnitt darf höchstens ${VDC_ISO_CHUNK_BYTES / 1024 / 1024} MB groß sein und nicht über die angekündigte Dateigröße hinausgehen.`,
  emptyChunk: 'Der Abschnitt enthält keine Daten.',
  octetStream: 'Bitte senden Sie die Daten als application/octet-stream.',
  aborted: 'Die Übertragung wurde unterbrochen. Bitte setzen Sie den Upload fort.',
  notUploading: 'Dieses ISO-Image nimmt keine Daten mehr an.',
  restart: 'Die bisher hochgeladenen Daten sind nicht mehr vorhanden. Bitte beginnen Sie den Upload von vorn.',
  notReady: 'Dieses ISO-Image ist noch nicht fertig hochgeladen.',
  attached: (vms: string[]) => `Das ISO-Image ist noch in ${vms.length === 1 ? 'der VM' : 'den VMs'} ${vms.join(', ')} eingelegt. Bitte werfen Sie es dort zuerst aus.`,
  transferFailed: 'Das ISO-Image konnte nicht in die Bibliothek übertragen werden. Bitte laden Sie es erneut hoch.',
  partMissing: 'Die hochgeladene Datei ist nicht mehr vorhanden. Bitte laden Sie das ISO-Image erneut hoch.',
  abandoned: 'Der Upload wurde 24 Stunden lang nicht fortgesetzt und deshalb verworfen.',
  vdcProvisioning: 'Das Virtual Data Center wird noch eingerichtet. Bitte versuchen Sie es gleich erneut.',
  vdcSuspended: 'Das Virtual Data Center ist gesperrt, weil seine Laufzeit abgelaufen ist. Bitte verlängern Sie es.',
  vdcFailed: 'Das Virtual Data Center konnte nicht eingerichtet werden. Bitte wenden Sie sich an den Support.',
} as const;

/** Changes inside a VDC need it running: not while it is set up, suspended after its term, or failed. */
export function assertVdcActive(vdc: Pick<VdcRow, 'status'>) {
  if (vdc.status === 'provisioning') throw conflict('VDC_NOT_READY', isoMessages.vdcProvisioning);
  if (vdc.status === 'suspended') throw conflict('VDC_SUSPENDED', isoMessages.vdcSuspended);
  if (vdc.status === 'failed') throw conflict('VDC_FAILED', isoMessages.vdcFailed);
}

// ── Files ───────────────────────────────────────────────────────────────────────────────────────────

const isoDir = (env: IsoDeps['env']) => path.join(env.dataDir, 'vdc-isos');
export const partFileOf = (env: IsoDeps['env'], isoId: string) => path.join(isoDir(env), `${isoId}.part`);
const FILE_OF_ISO = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(?:part|[0-9a-f-]{36}\.chunk)$/;

/** The image's name on the hypervisor: unique per VDC and image, so Proxmox's overwrite-by-name never hits another. */
export const hypervisorFileName = (vdcNumber: number, isoId: string) => `vdc${vdcNumber}-${isoId}.iso`;

/** Removes the part file and any piece still on its way in. */
async function removeIsoFiles(env: IsoDeps['env'], isoId: string) {
  const names = await fs.readdir(isoDir(env)).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => FILE_OF_ISO.exec(n)?.[1] === isoId).map((n) => fs.rm(path.join(isoDir(env), n), { force: true })));
}

async function fileSize(file: string): Promise<number | null> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return null;
  }
}

/**
 * Streams the request body to `file`, refusing more than `max` bytes; returns the byte count.
 *
 * Bytes beyond `max` are read and dropped rather than the request destroyed: destroying it takes the
 * connection down with it, so the client would see a reset instead of the 413 with its German message
 * (and on Node 24 an injected request then never got its answer). The draining is bounded: a body that
 * goes on past the largest piece any client may send (possible only without Content-Length) is cut off.
 */
async function receiveToFile(body: Readable, file: string, max: number): Promise<number> {
  let received = 0;
  let tooLarge = false;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received <= max) return done(null, chunk);
      tooLarge = true;
      if (received > VDC_ISO_CHUNK_BYTES + DRAIN_SLACK_BYTES) return done(new AppError(413, 'ISO_CHUNK_TOO_LARGE', isoMessages.chunkTooLarge));
      // Dropped: the whole piece is thrown away once the body has ended.
      done();
    },
  });
  try {
    await pipeline(body, limit, createWriteStream(file, { flags: 'wx' }));
  } catch (err) {
    if (err instanceof AppError) throw err;
    // The client went away (or the disk failed) mid-piece: nothing of it counts.
    throw new AppError(400, 'UPLOAD_ABORTED', isoMessages.aborted);
  }
  if (tooLarge) throw new AppError(413, 'ISO_CHUNK_TOO_LARGE', isoMessages.chunkTooLarge);
  return received;
}
const DRAIN_SLACK_BYTES = 1024 * 1024;

/** Writes `piece` into `part` at `offset`; bytes beyond `offset` from a piece that never committed are cut first. */
async function writeAt(part: string, piece: string, offset: number) {
  if (offset === 0) await fs.writeFile(part, '');
  else await fs.truncate(part, offset);
  await pipeline(createReadStream(piece), createWriteStream(part, { flags: 'r+', start: offset }));
}

/** ISO 9660: a primary volume descriptor (type 1, "CD001", version 1) in the first sector after the 32 KiB system area. */
const SIGNATURE_AT = 0x8000;
const SIGNATURE_LENGTH = 7;
async function hasIsoSignature(part: string): Promise<boolean> {
  const handle = await fs.open(part, 'r');
  try {
    const buf = Buffer.alloc(SIGNATURE_LENGTH);
    const { bytesRead } = await handle.read(buf, 0, SIGNATURE_LENGTH, SIGNATURE_AT);
    return bytesRead === SIGNATURE_LENGTH && buf[0] === 1 && buf.toString('latin1', 1, 6) === 'CD001' && buf[6] === 1;
  } finally {
    await handle.close();
  }
}

// ── Views ───────────────────────────────────────────────────────────────────────────────────────────

const live = (vdcId: string) => and(eq(vdcIsos.vdcId, vdcId), isNull(vdcIsos.deletedAt));

function toView(row: IsoRow, attachedTo: string[]): VdcIso {
  return {
    id: row.id, name: row.name, sizeBytes: row.sizeBytes, receivedBytes: row.receivedBytes, status: row.status,
    statusMessage: row.statusMessage, attachedTo, createdAt: row.createdAt.toISOString(),
  };
}

/** The ids of the VMs whose drive holds each image (the page names them from its VM list). */
async function attachments(db: Db | Tx, vdcId: string): Promise<Map<string, string[]>> {
  const rows = await db.select({ isoId: servers.isoId, id: servers.id }).from(servers)
    .where(and(eq(servers.vdcId, vdcId), isNull(servers.deletedAt), sql`${servers.isoId} is not null`)).orderBy(asc(servers.name));
  const byIso = new Map<string, string[]>();
  for (const r of rows) byIso.set(r.isoId!, [...(byIso.get(r.isoId!) ?? []), r.id]);
  return byIso;
}

/** The library of a VDC (uploads in progress, ready and failed images), oldest first; for the VDC page. */
export async function listIsos(db: Db | Tx, vdcId: string): Promise<VdcIso[]> {
  const rows = await db.select().from(vdcIsos).where(live(vdcId)).orderBy(asc(vdcIsos.createdAt), asc(vdcIsos.name));
  const attached = await attachments(db, vdcId);
  return rows.map((r) => toView(r, attached.get(r.id) ?? []));
}

/** Bytes the library holds or has reserved for uploads in progress (failed images hold nothing). */
export async function isoLibraryUsedBytes(db: Db | Tx, vdcId: string): Promise<number> {
  const [row] = await db.select({ used: sql<string>`coalesce(sum(${vdcIsos.sizeBytes}), 0)` }).from(vdcIsos)
    .where(and(live(vdcId), inArray(vdcIsos.status, ['uploading', 'ready'])));
  return Number(row?.used ?? 0);
}

export async function getIsoLibrary(deps: IsoDeps, ownerId: string, vdcId: string): Promise<VdcIsoList> {
  const vdc = await ownVdc(deps.db, ownerId, vdcId);
  return {
    items: await listIsos(deps.db, vdc.id), usedBytes: await isoLibraryUsedBytes(deps.db, vdc.id), quotaBytes: vdc.isoQuotaGb * GIB,
    maxImageBytes: deps.env.vdcIsoMaxBytes, chunkBytes: VDC_ISO_CHUNK_BYTES,
  };
}

export async function getIso(deps: IsoDeps, ownerId: string, vdcId: string, isoId: string): Promise<VdcIso> {
  const vdc = await ownVdc(deps.db, ownerId, vdcId);
  const row = await vdcIso(deps.db, vdc.id, isoId);
  return toView(row, (await attachments(deps.db, vdc.id)).get(row.id) ?? []);
}

// ── Upload ──────────────────────────────────────────────────────────────────────────────────────────

/** The file name as the customer sees it: no path, no control or unusual characters, at most 120 characters. */
export function cleanIsoName(raw: string): string | null {
  const base = raw.normalize('NFC').split(/[/\\]/).pop()!.trim();
  const cleaned = base.replace(/[^\p{L}\p{N} ._()+-]/gu, '_').replace(/\s+/g, ' ').replace(/^[.\s]+/, '');
  const stem = cleaned.slice(0, -4).slice(0, 116).trim();
  if (!/\.iso$/i.test(cleaned) || !stem) return null;
  return `${stem}.iso`;
}

/** Starts an upload: the row (status uploading) reserves the announced size in the quota under the VDC's lock. */
export async function startIsoUpload(deps: IsoDeps, ownerId: string, vdcId: string, input: VdcIsoCreateInput): Promise<VdcIso> {
  const name = cleanIsoName(input.name);
  if (!name) throw badRequest('ISO_NAME_INVALID', isoMessages.badName);
  if (input.sizeBytes > deps.env.vdcIsoMaxBytes) throw new AppError(413, 'ISO_TOO_LARGE', isoMessages.tooLarge(Math.floor(deps.env.vdcIsoMaxBytes / GIB)));
  if (input.sizeBytes < VDC_ISO_MIN_BYTES) throw badRequest('NOT_ISO9660', isoMessages.notIso);
  const row = await deps.db.transaction(async (tx) => {
    const vdc = await ownVdc(tx, ownerId, vdcId, { lock: true });
    assertVdcActive(vdc);
    const same = await tx.select({ id: vdcIsos.id, status: vdcIsos.status }).from(vdcIsos).where(and(live(vdc.id), sql`lower(${vdcIsos.name}) = lower(${name})`));
    if (same.some((s) => s.status !== 'failed')) throw conflict('ISO_NAME_TAKEN', isoMessages.nameTaken);
    // A failed image of that name only shows its message; a new upload replaces it.
    if (same.length) await tx.update(vdcIsos).set({ deletedAt: new Date() }).where(inArray(vdcIsos.id, same.map((s) => s.id)));
    const used = await isoLibraryUsedBytes(tx, vdc.id);
    const quota = vdc.isoQuotaGb * GIB;
    if (used + input.sizeBytes > quota) {
      const freeGb = (Math.max(0, quota - used) / GIB).toLocaleString('de-DE', { maximumFractionDigits: 1 });
      throw conflict('ISO_QUOTA_EXCEEDED', isoMessages.quota(freeGb, vdc.isoQuotaGb));
    }
    const [inserted] = await tx.insert(vdcIsos).values({ vdcId: vdc.id, name, sizeBytes: input.sizeBytes }).returning();
    return inserted!;
  });
  return toView(row, []);
}

const offsetConflict = (offset: number) =>
  new AppError(409, 'UPLOAD_OFFSET_MISMATCH', isoMessages.offset(offset), { offset }, { 'upload-offset': String(offset) });

export const transferIsoKind = jobKind('vdc-iso-transfer', z.object({ isoId: z.uuid() }));
export const removeIsoKind = jobKind('vdc-iso-remove', z.object({ isoId: z.uuid() }));
const TRANSFER_ATTEMPTS = 5;

/**
 * Appends one piece at `offset`. A wrong offset answers 409 with the current one (header `Upload-Offset`
 * too), so a client that lost an answer resumes where the server is. The piece is first streamed to its
 * own file (a slow line holds no lock); then, under the ISO row's lock, the offset is checked again and
 * the piece written into the part file.
 */
export async function receiveIsoChunk(deps: IsoDeps, ownerId: string, vdcId: string, isoId: string, offset: number, body: Readable): Promise<VdcIso> {
  const vdc = await ownVdc(deps.db, ownerId, vdcId);
  const before = await vdcIso(deps.db, vdc.id, isoId);
  if (before.status !== 'uploading' || before.receivedBytes === before.sizeBytes) throw conflict('ISO_NOT_UPLOADING', isoMessages.notUploading);
  assertVdcActive(vdc);
  if (offset !== before.receivedBytes) throw offsetConflict(before.receivedBytes);

  await fs.mkdir(isoDir(deps.env), { recursive: true });
  const part = partFileOf(deps.env, isoId);
  const piece = path.join(isoDir(deps.env), `${isoId}.${crypto.randomUUID()}.chunk`);
  try {
    const length = await receiveToFile(body, piece, Math.min(VDC_ISO_CHUNK_BYTES, before.sizeBytes - offset));
    if (length === 0) throw badRequest('ISO_CHUNK_EMPTY', isoMessages.emptyChunk);
    const outcome = await deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(vdcIsos).where(and(eq(vdcIsos.id, isoId), eq(vdcIsos.vdcId, vdc.id), isNull(vdcIsos.deletedAt))).for('update');
      if (!row || row.status !== 'uploading') throw conflict('ISO_NOT_UPLOADING', isoMessages.notUploading);
      if (row.receivedBytes !== offset) throw offsetConflict(row.receivedBytes);
      // The part file went missing (disk cleaned, another instance without the shared directory): start over.
      if (offset > 0 && ((await fileSize(part)) ?? -1) < offset) {
        await tx.update(vdcIsos).set({ receivedBytes: 0, updatedAt: new Date() }).where(eq(vdcIsos.id, row.id));
        return { kind: 'restart' as const };
      }
      await writeAt(part, piece, offset);
      const received = offset + length;
      if (offset < SIGNATURE_AT + SIGNATURE_LENGTH && received >= SIGNATURE_AT + SIGNATURE_LENGTH && !await hasIsoSignature(part)) {
        await tx.update(vdcIsos).set({ status: 'failed', statusMessage: isoMessages.notIso, deletedAt: new Date(), updatedAt: new Date() }).where(eq(vdcIsos.id, row.id));
        return { kind: 'refused' as const };
      }
      const [updated] = await tx.update(vdcIsos).set({ receivedBytes: received, updatedAt: new Date() }).where(eq(vdcIsos.id, row.id)).returning();
      if (received === row.sizeBytes) await enqueue(tx, transferIsoKind, { isoId: row.id }, { dedupeKey: `vdc-iso-transfer:${row.id}`, maxAttempts: TRANSFER_ATTEMPTS });
      return { kind: 'stored' as const, row: updated! };
    });
    if (outcome.kind === 'restart') throw new AppError(409, 'UPLOAD_RESTART', isoMessages.restart, { offset: 0 }, { 'upload-offset': '0' });
    if (outcome.kind === 'refused') {
      await removeIsoFiles(deps.env, isoId);
      throw badRequest('NOT_ISO9660', isoMessages.notIso);
    }
    return toView(outcome.row, []);
  } finally {
    await fs.rm(piece, { force: true });
  }
}

/** Marks an image failed (its part file and anything on the host are removed by a job). */
async function failIso(db: Db, isoId: string, message: string) {
  await db.transaction(async (tx) => {
    const [failed] = await tx.update(vdcIsos).set({ status: 'failed', statusMessage: message, updatedAt: new Date() })
      .where(and(eq(vdcIsos.id, isoId), eq(vdcIsos.status, 'uploading'))).returning({ id: vdcIsos.id });
    if (failed) await enqueue(tx, removeIsoKind, { isoId });
  });
}

async function isoWithPlace(db: Db, isoId: string) {
  const [row] = await db.select({ iso: vdcIsos, vdcNumber: vdcs.number, node: nodes.name }).from(vdcIsos)
    .innerJoin(vdcs, eq(vdcs.id, vdcIsos.vdcId)).innerJoin(nodes, eq(nodes.id, vdcs.nodeId)).where(eq(vdcIsos.id, isoId));
  return row ?? null;
}

const permanentHostFailure = (err: unknown) => err instanceof HypervisorError && (err.code === 'INVALID' || err.code === 'TASK_FAILED');

/** The last byte arrived: stream the file to the VDC's node, then keep only the hypervisor's copy. */
export const transferIsoJob = defineJob(transferIsoKind, async (deps, { isoId }, run) => {
  const found = await isoWithPlace(deps.db, isoId);
  if (!found) throw new PermanentJobError('iso missing');
  const { iso, vdcNumber, node } = found;
  // Deleted or refused meanwhile: the remove job cleans up.
  if (iso.deletedAt || iso.status !== 'uploading' || iso.receivedBytes !== iso.sizeBytes) return;
  const part = partFileOf(deps.env, iso.id);
  if ((await fileSize(part)) !== iso.sizeBytes) {
    await failIso(deps.db, iso.id, isoMessages.partMissing);
    return;
  }
  // A transfer in progress is not an abandoned upload.
  await deps.db.update(vdcIsos).set({ updatedAt: new Date() }).where(eq(vdcIsos.id, iso.id));
  let volid: string;
  try {
    const image = await deps.hypervisor.uploadIso({
      node, filename: hypervisorFileName(vdcNumber, iso.id), size: iso.sizeBytes,
      data: createReadStream(part, { highWaterMark: 1024 * 1024 }),
    });
    volid = image.volid;
  } catch (err) {
    if (!permanentHostFailure(err) && run.attempt < TRANSFER_ATTEMPTS) throw err;
    deps.log.warn({ isoId, err: { message: (err as Error).message, detail: (err as HypervisorError).detail } }, 'ISO transfer failed');
    await failIso(deps.db, iso.id, isoMessages.transferFailed);
    return;
  }
  const [ready] = await deps.db.update(vdcIsos).set({ status: 'ready', volid, statusMessage: null, updatedAt: new Date() })
    .where(and(eq(vdcIsos.id, iso.id), eq(vdcIsos.status, 'uploading'), isNull(vdcIsos.deletedAt))).returning({ id: vdcIsos.id });
  // Deleted while it travelled: the image must not stay on the host.
  if (!ready) await deps.hypervisor.deleteIso(node, volid);
  await removeIsoFiles(deps.env, iso.id);
});

/** Removes what a deleted, failed or abandoned image left: its files here and its copy on the host. */
export const removeIsoJob = defineJob(removeIsoKind, async (deps, { isoId }) => {
  await removeIsoFiles(deps.env, isoId);
  const found = await isoWithPlace(deps.db, isoId);
  if (!found) return;
  const { iso, vdcNumber, node } = found;
  if (iso.status === 'ready' && !iso.deletedAt) return;
  const fileName = hypervisorFileName(vdcNumber, iso.id);
  const volids = iso.volid ? [iso.volid] : (await deps.hypervisor.listIsos(node)).map((i) => i.volid).filter((v) => v.split('/').pop() === fileName);
  for (const volid of volids) await deps.hypervisor.deleteIso(node, volid);
});

// ── Delete, attach ──────────────────────────────────────────────────────────────────────────────────

/** Deletes an image (an upload in progress is cancelled); refused while a VM has it in its drive. */
export async function deleteIso(deps: IsoDeps, ownerId: string, vdcId: string, isoId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const vdc = await ownVdc(tx, ownerId, vdcId, { lock: true });
    const iso = await vdcIso(tx, vdc.id, isoId);
    const holders = await tx.select({ name: servers.name }).from(servers)
      .where(and(eq(servers.vdcId, vdc.id), eq(servers.isoId, iso.id), isNull(servers.deletedAt))).orderBy(asc(servers.name));
    if (holders.length) throw conflict('ISO_ATTACHED', isoMessages.attached(holders.map((h) => h.name)));
    await tx.update(vdcIsos).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(vdcIsos.id, iso.id));
    await enqueue(tx, removeIsoKind, { isoId: iso.id });
  });
}

/**
 * Puts a ready image of the same VDC into the VM's drive and boots from it first, or empties the drive.
 * `servers.iso_id` is written under the VDC's lock before the host is asked (so a delete in between sees
 * it) and restored when the host refuses.
 */
export async function setVmIso(deps: IsoDeps, ownerId: string, vdcId: string, vmId: string, isoId: string | null): Promise<VdcVmIsoState> {
  const { vm, volid, previous, node } = await deps.db.transaction(async (tx) => {
    const vdc = await ownVdc(tx, ownerId, vdcId, { lock: true });
    const vm = await vdcVm(tx, vdc.id, vmId);
    assertVdcActive(vdc);
    guardOperation(vm, { family: 'manage', refuseFailed: true });
    let volid: string | null = null;
    if (isoId) {
      const iso = await vdcIso(tx, vdc.id, isoId);
      if (iso.status !== 'ready' || !iso.volid) throw conflict('ISO_NOT_READY', isoMessages.notReady);
      volid = iso.volid;
    }
    const [place] = await tx.select({ name: nodes.name }).from(nodes).where(eq(nodes.id, vdc.nodeId));
    await tx.update(servers).set({ isoId }).where(eq(servers.id, vm.id));
    return { vm, volid, previous: vm.isoId, node: place!.name };
  });
  try {
    if (volid) await deps.hypervisor.attachIso(vmOf(vm, node), volid);
    else await deps.hypervisor.detachIso(vmOf(vm, node));
  } catch (err) {
    await deps.db.update(servers).set({ isoId: previous })
      .where(and(eq(servers.id, vm.id), isoId ? eq(servers.isoId, isoId) : isNull(servers.isoId)));
    throw toAppError(err);
  }
  return { vmId: vm.id, isoId };
}

// ── Abandoned uploads ───────────────────────────────────────────────────────────────────────────────

/** An upload without a piece for this long is given up. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
/** Files of no upload in progress (a crash between commit and clean-up) are removed when this old. */
const STRAY_FILE_AGE_MS = 60 * 60 * 1000;

/**
 * Gives up uploads that received nothing for 24 hours (a closed browser, a killed process): the row is
 * deleted with its part file, and a complete one's possible copy on the host by the remove job. Then
 * removes files in the upload directory that belong to no upload in progress.
 */
export async function removeAbandonedUploads(deps: Pick<JobDeps, 'db' | 'env'>, now = new Date()) {
  const stale = await deps.db.transaction(async (tx) => {
    const rows = await tx.update(vdcIsos).set({ status: 'failed', statusMessage: isoMessages.abandoned, deletedAt: now, updatedAt: now })
      .where(and(eq(vdcIsos.status, 'uploading'), isNull(vdcIsos.deletedAt), lt(vdcIsos.updatedAt, new Date(now.getTime() - ABANDONED_AFTER_MS))))
      .returning({ id: vdcIsos.id, complete: sql<boolean>`${vdcIsos.receivedBytes} = ${vdcIsos.sizeBytes}` });
    for (const r of rows.filter((r) => r.complete)) await enqueue(tx, removeIsoKind, { isoId: r.id });
    return rows;
  });
  for (const r of stale) await removeIsoFiles(deps.env, r.id);

  const dir = isoDir(deps.env);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const ids = [...new Set(names.map((n) => FILE_OF_ISO.exec(n)?.[1]).filter((id): id is string => Boolean(id)))];
  const uploading = new Set(ids.length
    ? (await deps.db.select({ id: vdcIsos.id }).from(vdcIsos).where(and(inArray(vdcIsos.id, ids), eq(vdcIsos.status, 'uploading'), isNull(vdcIsos.deletedAt)))).map((r) => r.id)
    : []);
  let strays = 0;
  for (const name of names) {
    const id = FILE_OF_ISO.exec(name)?.[1];
    if (!id || (uploading.has(id) && name.endsWith('.part'))) continue;
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && now.getTime() - stat.mtimeMs > STRAY_FILE_AGE_MS) {
      await fs.rm(file, { force: true });
      strays++;
    }
  }
  return { abandoned: stale.length, strays };
}

export const abandonedIsoUploadsSchedule = defineSchedule({
  name: 'vdc-iso-abandoned-uploads',
  everyMs: () => 60 * 60 * 1000,
  run: (deps) => removeAbandonedUploads(deps),
});

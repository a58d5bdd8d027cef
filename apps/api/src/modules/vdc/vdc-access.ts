import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { servers, vdcIsos, vdcs } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';

/**
 * Who may touch a virtual data center: its owner only (a VDC is not shared with other logins). Another
 * customer's VDC, VM or ISO answers 404 with the same text as a missing one, so ids reveal nothing.
 */
export const vdcMessages = {
  notFound: 'Dieses Virtual Data Center wurde nicht gefunden.',
  vmNotFound: 'Diese VM wurde nicht gefunden.',
  isoNotFound: 'Dieses ISO-Image wurde nicht gefunden.',
} as const;

export type VdcRow = typeof vdcs.$inferSelect;

/** The owner's live VDC; `lock` takes its row lock (FOR UPDATE), under which every quota decision is made. */
export async function ownVdc(db: Db | Tx, ownerId: string, vdcId: string, opts: { lock?: boolean } = {}): Promise<VdcRow> {
  const q = db.select().from(vdcs).where(and(eq(vdcs.id, vdcId), eq(vdcs.ownerId, ownerId), isNull(vdcs.deletedAt)));
  const [row] = opts.lock ? await q.for('update') : await q;
  if (!row) throw notFound(vdcMessages.notFound);
  return row;
}

/** A live VM of that VDC (a server row with its vdc_id). */
export async function vdcVm(db: Db | Tx, vdcId: string, vmId: string) {
  const [row] = await db.select().from(servers).where(and(eq(servers.id, vmId), eq(servers.vdcId, vdcId), isNull(servers.deletedAt)));
  if (!row) throw notFound(vdcMessages.vmNotFound);
  return row;
}

/** A live ISO image of that VDC's library. */
export async function vdcIso(db: Db | Tx, vdcId: string, isoId: string) {
  const [row] = await db.select().from(vdcIsos).where(and(eq(vdcIsos.id, isoId), eq(vdcIsos.vdcId, vdcId), isNull(vdcIsos.deletedAt)));
  if (!row) throw notFound(vdcMessages.isoNotFound);
  return row;
}

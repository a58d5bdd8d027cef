import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import {
  MAX_ATTACHMENT_BYTES,
  ticketMessages as m,
  type TicketAttachment,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { files, ticketAttachments, ticketMessages, tickets } from '../../db/schema/index.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { PREVIEW_TYPES, cleanFileName, readFile, sniffType, storeFile, type AcceptedType } from '../../lib/files.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';
import { defineSchedule } from '../../jobs/define.ts';

type AttachmentDeps = Pick<Deps, 'db'>;
/** Who asks: a customer reaches only their own tickets, staff every ticket. */
export interface Viewer { id: string; staff: boolean }

/** Uploads per account, so nobody fills the database through the chat (10 MB each). */
export const UPLOAD_LIMIT = { limit: 60, windowSeconds: 3600 } as const;
/** Uploaded files that no message sent are removed after this long (ticket housekeeping). */
export const PENDING_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

const toAttachment = (row: { id: string; name: string; contentType: string; size: number }): TicketAttachment => ({
  id: row.id, name: row.name, contentType: row.contentType, size: row.size,
  preview: (PREVIEW_TYPES as readonly string[]).includes(row.contentType),
});

/** The ticket, locked against a parallel close until the caller's transaction ends. */
async function lockTicket(tx: Tx, viewer: Viewer, ticketId: string) {
  const [ticket] = await tx.select({ id: tickets.id, status: tickets.status }).from(tickets)
    .where(and(eq(tickets.id, ticketId), viewer.staff ? undefined : eq(tickets.customerId, viewer.id))).for('update');
  if (!ticket) throw notFound(m.ticketNotFound);
  return ticket;
}

/**
 * Step one of sending files: store the bytes as a pending upload of this ticket. Its type comes from the
 * content (an HTML page named foo.png is refused, a PDF named foo.txt is a PDF).
 */
export async function uploadAttachment(deps: AttachmentDeps, viewer: Viewer, ticketId: string, input: { name?: string; data: Buffer }): Promise<TicketAttachment> {
  // Every attempt counts, refused ones too: each costs reading and sniffing up to 10 MB.
  await enforceLimit(deps.db, { key: `ticket-upload:${viewer.id}`, ...UPLOAD_LIMIT });
  if (input.data.length === 0) throw badRequest('ATTACHMENT_EMPTY', m.attachmentEmpty);
  if (input.data.length > MAX_ATTACHMENT_BYTES) throw new AppError(413, 'ATTACHMENT_TOO_LARGE', m.attachmentTooLarge);
  const contentType = await sniffType(input.data);
  if (!contentType) throw new AppError(415, 'ATTACHMENT_TYPE', m.attachmentType);
  const name = cleanFileName(input.name, contentType);
  const id = await deps.db.transaction(async (tx) => {
    const ticket = await lockTicket(tx, viewer, ticketId);
    // Staff may still attach files to internal notes of a closed ticket; customers cannot write there.
    if (ticket.status === 'closed' && !viewer.staff) throw conflict('TICKET_CLOSED', m.ticketIsClosed);
    const fileId = await storeFile(tx, { name, contentType, data: input.data });
    await tx.insert(ticketAttachments).values({ fileId, ticketId, uploadedBy: viewer.id });
    return fileId;
  });
  return toAttachment({ id, name, contentType, size: input.data.length });
}

/**
 * Step two, inside the message's transaction: the named pending uploads of this uploader and ticket
 * become the message's. Any id that is not such an upload (another ticket's, another person's, already
 * sent) fails the whole message with 404, so nothing half-sent remains.
 */
export async function attachUploads(tx: Tx, ticketId: string, uploaderId: string, messageId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const attached = await tx.update(ticketAttachments).set({ messageId })
    .where(and(inArray(ticketAttachments.fileId, ids), eq(ticketAttachments.ticketId, ticketId), eq(ticketAttachments.uploadedBy, uploaderId), isNull(ticketAttachments.messageId)))
    .returning({ id: ticketAttachments.fileId });
  if (attached.length !== ids.length) throw notFound(m.attachmentNotFound);
}

/** The attachments of a page of messages, in one query. */
export async function attachmentsOf(db: Db | Tx, messageIds: string[]): Promise<Map<string, TicketAttachment[]>> {
  const byMessage = new Map<string, TicketAttachment[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db.select({ messageId: ticketAttachments.messageId, id: files.id, name: files.name, contentType: files.contentType, size: files.size })
    .from(ticketAttachments).innerJoin(files, eq(files.id, ticketAttachments.fileId))
    .where(inArray(ticketAttachments.messageId, messageIds))
    .orderBy(ticketAttachments.createdAt, files.id);
  for (const row of rows) {
    const list = byMessage.get(row.messageId!) ?? [];
    list.push(toAttachment(row));
    byMessage.set(row.messageId!, list);
  }
  return byMessage;
}

/**
 * A file for download. Customers: only files of their own ticket, sent in a message they can see (never
 * an internal note's), or their own pending upload. Staff: any sent file of the ticket, or their own
 * pending upload; a customer's upload that was never sent is not shown to staff (issue 21): the
 * customer may have picked the wrong file and not sent it. Anything else is "not found", the same answer
 * as a missing id.
 */
export async function findAttachment(deps: AttachmentDeps, viewer: Viewer, ticketId: string, fileId: string) {
  const [row] = await deps.db
    .select({ id: files.id })
    .from(ticketAttachments)
    .innerJoin(files, eq(files.id, ticketAttachments.fileId))
    .innerJoin(tickets, eq(tickets.id, ticketAttachments.ticketId))
    .leftJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
    .where(and(
      eq(ticketAttachments.fileId, fileId),
      eq(ticketAttachments.ticketId, ticketId),
      viewer.staff
        ? sql`(${ticketAttachments.messageId} is not null or ${ticketAttachments.uploadedBy} = ${viewer.id})`
        : and(
        eq(tickets.customerId, viewer.id),
        sql`((${ticketMessages.id} is not null and ${ticketMessages.internal} = false) or (${ticketAttachments.messageId} is null and ${ticketAttachments.uploadedBy} = ${viewer.id}))`,
      ),
    ));
  const file = row ? await readFile(deps.db, row.id) : null;
  if (!file) throw notFound(m.attachmentMissing);
  return { ...file, contentType: file.contentType as AcceptedType };
}

/** Housekeeping: uploads that no message sent within a day go (with their bytes). */
export async function removeStalePendingUploads(db: Db, now = new Date()): Promise<number> {
  const stale = await db.select({ id: ticketAttachments.fileId }).from(ticketAttachments)
    .where(and(isNull(ticketAttachments.messageId), lt(ticketAttachments.createdAt, new Date(now.getTime() - PENDING_UPLOAD_TTL_MS))))
    .limit(1000);
  if (stale.length === 0) return 0;
  await db.delete(files).where(inArray(files.id, stale.map((s) => s.id)));
  return stale.length;
}

/** Hourly, on one instance: uploads that no message sent go (docs/decisions/015). */
export const ticketHousekeeping = defineSchedule({
  name: 'ticket-housekeeping',
  everyMs: () => 60 * 60 * 1000,
  firstAfterMs: () => 60_000,
  run: (deps) => removeStalePendingUploads(deps.db),
});

import { and, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  MAX_ATTACHMENT_BYTES,
  customerDetailMessages as dm,
  customerDocumentMessages as docm,
  type CustomerDocument,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { auditEvents, customerDocuments, files, users } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { cleanFileName, readFile, sniffType, storeFile } from '../../lib/files.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';

type DocumentDeps = Pick<Deps, 'db'>;

/** Uploads per staff member, as for ticket attachments: nobody fills the database by accident (10 MB each). */
export const DOCUMENT_UPLOAD_LIMIT = { limit: 60, windowSeconds: 3600 } as const;

const uploaders = alias(users, 'uploaders');
const isCustomer = eq(users.role, 'customer');

const columns = {
  id: customerDocuments.id, name: files.name, contentType: files.contentType, size: files.size,
  description: customerDocuments.description, uploadedBy: uploaders.username, createdAt: customerDocuments.createdAt,
};
const toDocument = (r: { id: string; name: string; contentType: string; size: number; description: string; uploadedBy: string; createdAt: Date }): CustomerDocument => ({
  ...r, createdAt: r.createdAt.toISOString(),
});

function documentsQuery({ db }: DocumentDeps) {
  return db.select(columns).from(customerDocuments)
    .innerJoin(files, eq(files.id, customerDocuments.fileId))
    .innerJoin(uploaders, eq(uploaders.id, customerDocuments.uploadedBy));
}

/**
 * A customer's documents, newest first (metadata only: the bytes stay out of line). Also for a deleted
 * customer: the documents are business records and stay (docs/decisions/018).
 */
export async function listCustomerDocuments(deps: DocumentDeps, customerId: string): Promise<CustomerDocument[]> {
  const [customer] = await deps.db.select({ id: users.id }).from(users).where(and(eq(users.id, customerId), isCustomer));
  if (!customer) throw notFound(dm.notFound);
  const rows = await documentsQuery(deps).where(eq(customerDocuments.userId, customerId))
    .orderBy(desc(customerDocuments.createdAt), desc(customerDocuments.id));
  return rows.map(toDocument);
}

/**
 * Staff store a document for a customer. The type comes from the bytes (an HTML page named vertrag.pdf
 * is refused); the upload and its audit entry (who, when, which file) commit together.
 */
export async function uploadCustomerDocument(deps: DocumentDeps, staff: Pick<RequestUser, 'id'>, customerId: string, input: { name?: string; description?: string; data: Buffer }): Promise<CustomerDocument> {
  // Every attempt counts, refused ones too: each costs reading and sniffing up to 10 MB.
  await enforceLimit(deps.db, { key: `customer-document-upload:${staff.id}`, ...DOCUMENT_UPLOAD_LIMIT });
  if (input.data.length === 0) throw badRequest('ATTACHMENT_EMPTY', docm.empty);
  if (input.data.length > MAX_ATTACHMENT_BYTES) throw new AppError(413, 'ATTACHMENT_TOO_LARGE', docm.tooLarge);
  const contentType = await sniffType(input.data);
  if (!contentType) throw new AppError(415, 'ATTACHMENT_TYPE', docm.type);
  const name = cleanFileName(input.name, contentType);
  const description = input.description ?? '';
  const id = await deps.db.transaction(async (tx) => {
    // Deleted (anonymised) customers take no changes, as everywhere in the back office.
    const [customer] = await tx.select({ id: users.id }).from(users)
      .where(and(eq(users.id, customerId), isCustomer, isNull(users.deletedAt))).for('share');
    if (!customer) throw notFound(dm.notFound);
    const fileId = await storeFile(tx, { name, contentType, data: input.data });
    const [row] = await tx.insert(customerDocuments).values({ userId: customerId, fileId, uploadedBy: staff.id, description }).returning({ id: customerDocuments.id });
    await tx.insert(auditEvents).values({
      actorId: staff.id, action: 'customer.document_uploaded', targetType: 'customer', targetId: customerId,
      details: { documentId: row!.id, changes: [{ field: 'document', from: '', to: name }] },
    });
    return row!.id;
  });
  const [doc] = await documentsQuery(deps).where(eq(customerDocuments.id, id));
  return toDocument(doc!);
}

/**
 * A document for download. The customer and the document are checked together: another customer's
 * document id answers exactly like a missing one.
 */
export async function findCustomerDocument({ db }: DocumentDeps, customerId: string, documentId: string) {
  const [row] = await db.select({ fileId: customerDocuments.fileId }).from(customerDocuments)
    .innerJoin(users, eq(users.id, customerDocuments.userId))
    .where(and(eq(customerDocuments.id, documentId), eq(customerDocuments.userId, customerId), isCustomer));
  const file = row ? await readFile(db, row.fileId) : null;
  if (!file) throw notFound(docm.notFound);
  return file;
}

/** Staff delete a document: the document, its bytes and the audit entry go in one transaction. */
export async function deleteCustomerDocument({ db }: DocumentDeps, staff: Pick<RequestUser, 'id'>, customerId: string, documentId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [doc] = await tx.select({ fileId: customerDocuments.fileId, name: files.name }).from(customerDocuments)
      .innerJoin(files, eq(files.id, customerDocuments.fileId))
      .innerJoin(users, eq(users.id, customerDocuments.userId))
      .where(and(eq(customerDocuments.id, documentId), eq(customerDocuments.userId, customerId), isCustomer, isNull(users.deletedAt)))
      .for('update', { of: customerDocuments });
    if (!doc) throw notFound(docm.notFound);
    // The file's foreign key cascades: deleting the bytes deletes the document row with them.
    await tx.delete(files).where(eq(files.id, doc.fileId));
    await tx.insert(auditEvents).values({
      actorId: staff.id, action: 'customer.document_deleted', targetType: 'customer', targetId: customerId,
      details: { documentId, changes: [{ field: 'document', from: doc.name, to: '' }] },
    });
  });
}

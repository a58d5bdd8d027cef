import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { customerDetailMessages as dm, privacyMessages as pm } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import {
  auditEvents, backupCodes, hostingAccess, communications, customerNotes, files, invoices, jobs, oneTimeCodes, orders, registrarContacts, serverAccess, ticketAttachments, ticketSecrets, tickets, users,
} from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { revokeAllSessions } from '../auth/sessions.ts';

type DeletionDeps = Pick<Deps, 'db' | 'products'>;

/** What still ties the customer to us and forbids deleting the account now (docs/decisions/018). */
async function assertDeletable({ products }: Pick<Deps, 'products'>, tx: Tx, customerId: string) {
  // Every product refuses while the customer holds a live subscription of it (decision 033).
  for (const product of products.all()) {
    const block = await product.deletionBlock(tx, customerId);
    if (block) throw conflict(block.code, block.message);
  }
  const [openInvoice] = await tx.select({ id: invoices.id }).from(invoices)
    .where(and(eq(invoices.userId, customerId), eq(invoices.kind, 'invoice'), isNull(invoices.paidAt), isNull(invoices.creditedAt))).limit(1);
  if (openInvoice) throw conflict('OPEN_INVOICES', pm.openInvoices);
  // A checkout still open could be paid a moment later and create a server for nobody.
  const [openOrder] = await tx.select({ id: orders.id }).from(orders)
    .where(and(eq(orders.userId, customerId), or(eq(orders.status, 'processing'), and(eq(orders.status, 'pending'), gt(orders.holdUntil, sql`now()`))))).limit(1);
  if (openOrder) throw conflict('OPEN_ORDERS', pm.openOrders);
}

/**
 * Deletes a customer account as far as the law allows, in one transaction (docs/decisions/018):
 * personal data on the account is overwritten, sessions, codes, the mail log, staff notes, uploaded
 * files and confidential ticket fields are deleted; invoices, credit notes, payments and the orders they
 * bill stay unchanged (§147 AO, §257 HGB: 10 years), and so do the documents staff uploaded
 * (`customer_documents`: contracts, §257 HGB). Tickets keep their text and still point at the
 * (now anonymous) account row. Refused with 409 while servers run, hosting packages or domains exist,
 * invoices are open or an order is being paid. `actor` is the owner, or the customer deleting their own account.
 */
export async function deleteCustomerAccount(deps: DeletionDeps, actor: Pick<RequestUser, 'id'>, customerId: string, opts: { self: boolean }) {
  const { db } = deps;
  await db.transaction(async (tx) => {
    // The row lock makes parallel deletions and profile changes wait for this one.
    const [user] = await tx.select().from(users).where(eq(users.id, customerId)).for('update');
    if (!user) throw notFound(dm.notFound);
    if (user.role !== 'customer') {
      if (opts.self) throw new AppError(403, 'STAFF_ACCOUNT', pm.staffAccount);
      throw notFound(dm.notFound);
    }
    if (user.deletedAt) throw conflict('ALREADY_DELETED', pm.alreadyDeleted);
    await assertDeletable(deps, tx, customerId);

    const now = new Date();
    await tx.update(users).set({
      // Unique placeholders: the name and address become free for a new registration.
      username: `${pm.deletedCustomerName} ${user.customerNumber}`,
      email: `geloescht-${user.id}@invalid`,
      // Not an argon2 hash: no password verifies against it.
      passwordHash: '!deleted',
      phone: '', street: '', zipCode: '', city: '', country: 'DE', companyName: '', industry: '', business: false, vatId: null,
      totpSecret: null, totpPendingSecret: null, totpEnabled: false, totpLastStep: null,
      emailVerifiedAt: null, lastLoginAt: null,
      disabledAt: user.disabledAt ?? now,
      deletedAt: now,
    }).where(eq(users.id, customerId));

    await revokeAllSessions(tx, customerId);
    await tx.delete(oneTimeCodes).where(eq(oneTimeCodes.userId, customerId));
    await tx.delete(backupCodes).where(eq(backupCodes.userId, customerId));
    await tx.delete(serverAccess).where(eq(serverAccess.userId, customerId));
    await tx.delete(hostingAccess).where(eq(hostingAccess.userId, customerId));
    // The registrar handle and the hash of the profile last sent to it: no domain is left to use them.
    await tx.delete(registrarContacts).where(eq(registrarContacts.userId, customerId));
    await tx.delete(communications).where(eq(communications.customerId, customerId));
    await tx.delete(customerNotes).where(eq(customerNotes.customerId, customerId));
    // Mails still waiting for (or already handed to) the old address hold its text: gone with it.
    await tx.delete(jobs).where(and(eq(jobs.kind, 'send-mail'), ne(jobs.status, 'running'), sql`lower(${jobs.payload}->'message'->>'to') = ${user.email.toLowerCase()}`));
    // Finished jobs that named the customer (staff notifications about their tickets carry the user name):
    // history nobody needs, gone at once (issue 21). The daily retention run prunes all finished jobs later.
    // The name stands inside mail texts ("anna hat ein neues Ticket eröffnet"), so it is matched as a word.
    // In the stored JSON a line break before it is the two characters \n, so those count as a boundary too.
    const asWord = (text: string) => `(^|[^[:alnum:]_]|\\\\[ntr])${text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}([^[:alnum:]_]|$)`;
    // Mails not yet sent that name them (staff notifications) go too; other queued work (refunds, releases) stays.
    await tx.delete(jobs).where(and(or(inArray(jobs.status, ['done', 'failed']), and(eq(jobs.kind, 'send-mail'), eq(jobs.status, 'queued'))), sql`(
      position(${customerId} in ${jobs.payload}::text) > 0
      or ${jobs.payload}::text ~* ${asWord(user.username)}
      or ${jobs.payload}::text ~* ${asWord(user.email)})`));

    // Files: every attachment in the customer's tickets and any upload of theirs not yet sent.
    const ownTickets = tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.customerId, customerId));
    const attached = await tx.select({ fileId: ticketAttachments.fileId }).from(ticketAttachments)
      .where(or(inArray(ticketAttachments.ticketId, ownTickets), eq(ticketAttachments.uploadedBy, customerId)));
    if (attached.length) await tx.delete(files).where(inArray(files.id, attached.map((a) => a.fileId)));
    await tx.delete(ticketSecrets).where(inArray(ticketSecrets.ticketId, ownTickets));
    // Nobody is left to answer: open tickets close, as a close by staff would (the text stays).
    await tx.update(tickets).set({ status: 'closed', closedAt: now, updatedAt: now, waitingSince: null })
      .where(and(eq(tickets.customerId, customerId), ne(tickets.status, 'closed')));

    // Orders that never became an invoice are no business record: their billing details go.
    await tx.update(orders).set({ billingName: null, billingAddress: null, cardBrand: null, cardLast4: null })
      .where(and(eq(orders.userId, customerId), sql`not exists (select 1 from ${invoices} i where i.order_id = ${orders.id})`));

    // The change log of staff edits named the old values (phone, address): keep who did what, not the values.
    await tx.execute(sql`
      update ${auditEvents} set details = jsonb_build_object('changes', coalesce((
        select jsonb_agg(jsonb_build_object('field', c->>'field', 'from', '', 'to', '')) from jsonb_array_elements(case when jsonb_typeof(details->'changes') = 'array' then details->'changes' else '[]'::jsonb end) c), '[]'::jsonb))
      where target_type = 'customer' and target_id = ${customerId}`);
    await tx.insert(auditEvents).values({
      actorId: actor.id, action: 'customer.deleted', targetType: 'customer', targetId: customerId,
      details: { self: opts.self, changes: [] },
    });
  });
}

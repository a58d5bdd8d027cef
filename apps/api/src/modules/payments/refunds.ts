import { and, eq, inArray, isNull } from 'drizzle-orm';
import { formatEuro } from '@hp/contract';
import { invoices, orders, users } from '../../db/schema/index.ts';
import { defineJob } from '../../jobs/define.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { orderRefundedMail } from '../../drivers/mail/templates.ts';
import { issueCreditNote } from '../invoices/invoices.service.ts';
import { refundDuplicatePaymentKind, refundOrderKind } from './fail-order.ts';

/** Refunds a failed paid order at the provider, credits its invoice and tells the customer (decision 023). */
export const refundOrderJob = defineJob(refundOrderKind, async (deps, { orderId }) => {
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order || order.status !== 'failed' || !order.paidAt || order.refundedAt) return;
  if (!order.paymentSessionId) throw new PermanentJobError('paid order without a payment session');
  // A provider failure throws and the job is retried; the idempotency key makes a retry the same refund.
  const refund = await deps.payments.refundPayment({
    sessionId: order.paymentSessionId, amountCents: order.amountCents, orderId, idempotencyKey: `order-${orderId}-refund`,
  });
  // issueInvoice does not issue for failed orders, so the invoice question has its final answer here.
  const [invoice] = await deps.db.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice')));
  if (invoice) await issueCreditNote(deps, invoice.id, 'Die Bestellung konnte nicht ausgeführt werden.');
  await deps.db.transaction(async (tx) => {
    const [done] = await tx.update(orders).set({ status: 'refunded', refundedAt: new Date(), refundId: refund.id })
      .where(and(eq(orders.id, orderId), inArray(orders.status, ['failed', 'refunded']), isNull(orders.refundedAt))).returning();
    if (!done) return;
    const [user] = await tx.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, done.userId));
    if (!user) return;
    await enqueueMail(tx, orderRefundedMail(user.email, done.billingName ?? user.username, {
      number: String(done.number), product: deps.products.ofOrder(done).paymentLine(done), amount: formatEuro(done.amountCents), creditNote: Boolean(invoice),
    }));
  });
});

/** Pays back a second payment of one order (decision 028); the idempotency key is per session. */
export const refundDuplicatePaymentJob = defineJob(refundDuplicatePaymentKind, async (deps, { orderId, sessionId, amountCents }) => {
  const refund = await deps.payments.refundPayment({ sessionId, amountCents, orderId, idempotencyKey: `session-${sessionId}-refund` });
  deps.log.info({ orderId, sessionId, refundId: refund.id }, 'second payment of an order refunded');
});

import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';

/**
 * Paid orders that cannot be delivered are paid back automatically (decision 023): whoever fails a paid
 * order calls `failPaidOrder` inside its transaction; the refund job then refunds the payment at the
 * provider (idempotency key per order; refunds.ts), corrects an invoice that was already issued with a credit note,
 * marks the order refunded and tells the customer. Nothing waits for staff.
 */
export const refundOrderKind = jobKind('refund-order', z.object({ orderId: z.string() }));

/**
 * A second payment for one order (an earlier payment session was paid after all, decision 028): the
 * refund job pays exactly that session's payment back; the order keeps the payment it was fulfilled with.
 */
export const refundDuplicatePaymentKind = jobKind('refund-duplicate-payment', z.object({ orderId: z.string(), sessionId: z.string(), amountCents: z.number().int() }));

type OrderStatus = typeof orders.$inferSelect['status'];

/**
 * Moves an order to failed (only from one of `from`, default processing) with the reason staff see, and,
 * when it was paid, schedules its refund in the same transaction. Returns false when the order was not
 * in such a state (someone else finished it first).
 */
export async function failPaidOrder(tx: Tx, orderId: string, reason: string, from: OrderStatus[] = ['processing']): Promise<boolean> {
  const [row] = await tx.update(orders).set({ status: 'failed', failureReason: reason })
    .where(and(eq(orders.id, orderId), inArray(orders.status, from))).returning({ paidAt: orders.paidAt });
  if (!row) return false;
  if (row.paidAt) await enqueue(tx, refundOrderKind, { orderId }, { dedupeKey: `refund:${orderId}` });
  return true;
}

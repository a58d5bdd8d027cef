import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { baseOrder, drainJobs, paySimulated, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { invoices, jobs, orders, servers, simCheckoutSessions } from '../../db/schema/index.ts';
import { PaymentProviderError } from '../../drivers/payments/payments.ts';

/** Buys a server and returns it with its renewal order, paid for after the server was deleted. */
async function renewalOfDeletedServer(ctx: TestContext) {
  await seedCapacity(ctx, { ips: 1 });
  const customer = await createUser(ctx);
  const first = await postCheckout(ctx, customer.auth, baseOrder);
  expect(first.statusCode, first.body).toBe(201);
  await paySimulated(ctx, first.json().sessionId);
  await drainJobs(ctx);
  const [bought] = await ctx.database.db.select().from(orders).where(eq(orders.id, first.json().orderId));
  const renewal = await postCheckout(ctx, customer.auth, { ...baseOrder, months: 3, serverId: bought!.subscriptionId });
  expect(renewal.statusCode, renewal.body).toBe(201);
  // The grace period ended between checkout and payment: nothing is left to renew.
  await ctx.database.db.update(servers).set({ deletedAt: new Date() }).where(eq(servers.id, bought!.subscriptionId!));
  return { customer, orderId: renewal.json().orderId as string, sessionId: renewal.json().sessionId as string };
}

describeEachDatabase('automatic refunds of paid orders that cannot be delivered (decision 023)', (ctx) => {
  it('a renewal paid for a server deleted meanwhile is refunded at once: no invoice, the customer is told', async () => {
    const { customer, orderId, sessionId } = await renewalOfDeletedServer(ctx());
    await paySimulated(ctx(), sessionId);
    await drainJobs(ctx());

    const db = ctx().database.db;
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ status: 'refunded', failureReason: 'server deleted before payment', refundId: expect.stringMatching(/^re_sim_/) });
    const [session] = await db.select().from(simCheckoutSessions).where(eq(simCheckoutSessions.id, sessionId));
    expect(session).toMatchObject({ refundId: order!.refundId, refundedCents: order!.amountCents });
    expect(await db.select().from(invoices).where(eq(invoices.orderId, orderId))).toEqual([]);
    const mails = ctx().mail.sent.filter((m) => m.to === customer.email && m.subject === `Ihre Bestellung ${order!.number} wurde erstattet`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Für diese Bestellung wurde keine Rechnung ausgestellt.');

    // The customer's order page shows it as refunded (Erstattet), never as open or paid-and-pending.
    const detail = await ctx().app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: customer.auth });
    expect(detail.json()).toMatchObject({ status: 'refunded', nextBillingDate: null });
    // The payment result page learns that the paid order was refunded (it shows the refund, not "success").
    const result = await ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${sessionId}`, headers: customer.auth });
    expect(result.json()).toMatchObject({ paymentStatus: 'paid', orderStatus: 'refunded' });
  });

  it('a provider outage during the refund is retried; the payment goes back exactly once', async () => {
    const { orderId, sessionId } = await renewalOfDeletedServer(ctx());
    const payments = ctx().app.deps.payments;
    const original = payments.refundPayment.bind(payments);
    let calls = 0;
    payments.refundPayment = async (params) => {
      calls++;
      if (calls === 1) throw new PaymentProviderError(undefined, 'HTTP 503');
      return original(params);
    };
    try {
      await paySimulated(ctx(), sessionId);
      // Draining skips the backoff, so the failed attempt is retried here; a second drain proves nothing runs twice.
      await drainJobs(ctx());
      await drainJobs(ctx());
      const db = ctx().database.db;
      const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
      expect(order!.status).toBe('refunded');
      expect(calls).toBe(2);
      const [job] = await db.select().from(jobs).where(and(eq(jobs.kind, 'refund-order'), eq(jobs.dedupeKey, `refund:${orderId}`)));
      expect(job).toMatchObject({ status: 'done', attempts: 2 });
      await expect(original({ sessionId, amountCents: order!.amountCents, orderId, idempotencyKey: 'another-key' })).rejects.toBeInstanceOf(PaymentProviderError);
    } finally {
      payments.refundPayment = original;
    }
  });
});

import { expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { createUser, describeEachDatabase, uniqueName } from '../../../test/harness.ts';
import { customerDocuments, jobs, oneTimeCodes } from '../../db/schema/index.ts';
import { DOCUMENT_UPLOAD_LIMIT } from './customer-documents.ts';
import { EMAIL_LINK_TRIES_PER_IP, STAFF_EMAIL_CHANGES_PER_HOUR } from './email-change.ts';

/**
 * Parallel bursts against the back office's write routes (review finding: bursts passed the limits).
 * Every limit counts before it checks, so of 200 requests at once exactly the limit get through.
 */
const BURST = 200;
const statuses = (results: { statusCode: number }[]) => results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }), {});

describeEachDatabase('back office under parallel bursts', (ctx) => {
  it(`staff e-mail change: ${BURST} at once → ${STAFF_EMAIL_CHANGES_PER_HOUR} accepted, the rest 429, one pending link`, { timeout: 60_000 }, async () => {
    const employee = await createUser(ctx(), { role: 'employee' });
    const customer = await createUser(ctx());
    const results = await Promise.all(Array.from({ length: BURST }, (_, i) => ctx().app.inject({
      method: 'POST', url: `/api/staff/customers/${customer.user.id}/email`, headers: employee.auth, payload: { newEmail: `${uniqueName(`burst${i}`)}@example.org` },
    })));
    expect(statuses(results)).toEqual({ 202: STAFF_EMAIL_CHANGES_PER_HOUR, 429: BURST - STAFF_EMAIL_CHANGES_PER_HOUR });
    expect(results.find((r) => r.statusCode === 429)!.json().error.message).toMatch(/\S/);
    const pending = await ctx().database.db.select().from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, customer.user.id), eq(oneTimeCodes.purpose, 'staff_change_email'), isNull(oneTimeCodes.usedAt)));
    // A newer request voids the older: at most one link can still be used.
    expect(pending.filter((c) => c.expiresAt > new Date()).length).toBeLessThanOrEqual(1);
  });

  it(`order link and customer mails share one limit: ${BURST} order links at once → 60 mailed, the rest 429`, { timeout: 60_000 }, async () => {
    const employee = await createUser(ctx(), { role: 'employee' });
    const customer = await createUser(ctx());
    const before = (await ctx().database.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.kind, 'send-mail'))).length;
    const results = await Promise.all(Array.from({ length: BURST }, () => ctx().app.inject({
      method: 'POST', url: `/api/staff/customers/${customer.user.id}/order-link`, headers: employee.auth,
      payload: { os: 'linux', distro: 'Debian 12', cpu: 2, ram: 4, storage: 50, months: 1 },
    })));
    expect(statuses(results)).toEqual({ 202: 60, 429: BURST - 60 });
    const after = (await ctx().database.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.kind, 'send-mail'))).length;
    expect(after - before).toBeLessThanOrEqual(60);
  });

  it(`document upload: ${BURST} at once → ${DOCUMENT_UPLOAD_LIMIT.limit} stored, the rest 429`, { timeout: 60_000 }, async () => {
    const employee = await createUser(ctx(), { role: 'employee' });
    const customer = await createUser(ctx());
    const results = await Promise.all(Array.from({ length: BURST }, (_, i) => ctx().app.inject({
      method: 'POST', url: `/api/staff/customers/${customer.user.id}/documents?name=${encodeURIComponent(`Vertrag ${i}.pdf`)}`,
      headers: { ...employee.auth, 'content-type': 'application/octet-stream' }, payload: Buffer.from(`%PDF-1.4\n% burst ${i}\n`),
    })));
    expect(statuses(results)).toEqual({ 201: DOCUMENT_UPLOAD_LIMIT.limit, 429: BURST - DOCUMENT_UPLOAD_LIMIT.limit });
    const stored = await ctx().database.db.select({ id: customerDocuments.id }).from(customerDocuments).where(eq(customerDocuments.userId, customer.user.id));
    expect(stored).toHaveLength(DOCUMENT_UPLOAD_LIMIT.limit);
  });

  it(`e-mail link confirmation: ${BURST} wrong tokens from one address → ${EMAIL_LINK_TRIES_PER_IP} checked, the rest 429`, { timeout: 60_000 }, async () => {
    const results = await Promise.all(Array.from({ length: BURST }, () => ctx().app.inject({
      method: 'POST', url: '/api/account/email/link', remoteAddress: '198.51.100.77', payload: { id: crypto.randomUUID(), token: 'A'.repeat(43) },
    })));
    expect(statuses(results)).toEqual({ 400: EMAIL_LINK_TRIES_PER_IP, 429: BURST - EMAIL_LINK_TRIES_PER_IP });
  });
});

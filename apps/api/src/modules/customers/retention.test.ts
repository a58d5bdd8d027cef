import { beforeAll, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { customerDocuments, files, invoicePayments, invoices, jobs, users } from '../../db/schema/index.ts';
import { FINISHED_JOB_DAYS, pruneFinishedJobs, retentionCutoff, runRetention } from './retention.ts';

type User = Awaited<ReturnType<typeof createUser>>;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

it('a period starts at the end of the document\'s calendar year (Berlin)', () => {
  expect(retentionCutoff(new Date('2026-11-23T12:00:00Z'), 10)).toBe('2016-01-01');
  // New Year's Eve 23:30 UTC is already 1 January in Berlin.
  expect(retentionCutoff(new Date('2026-12-31T23:30:00Z'), 10)).toBe('2017-01-01');
});

describeEachDatabase('retention of a deleted customer\'s records', (ctx) => {
  let employee: User;
  let owner: User;
  beforeAll(async () => {
    employee = await createUser(ctx(), { role: 'employee' });
    owner = await createUser(ctx(), { role: 'owner' });
  });

  const address = { phone: '', street: 'Hauptstraße 5', zipCode: '04109', city: 'Leipzig', country: 'DE', companyName: '', industry: '' };
  async function customerWithInvoices(n: number) {
    const customer = await createUser(ctx());
    expect((await ctx().app.inject({ method: 'PUT', url: `/api/staff/customers/${customer.user.id}`, headers: employee.auth, payload: address })).statusCode).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${customer.user.id}/invoices`, headers: employee.auth, payload: { lines: [{ description: `Leistung ${i}`, quantity: 1, unit: 'piece', unitNetCents: 10_000 }] } });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    return { customer, ids };
  }
  const pay = async (invoiceId: string) => {
    const [inv] = await ctx().database.db.select({ gross: invoices.grossCents }).from(invoices).where(eq(invoices.id, invoiceId));
    const res = await ctx().app.inject({ method: 'POST', url: `/api/staff/invoices/${invoiceId}/payments`, headers: employee.auth, payload: { paidOn: new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date()), amountCents: inv!.gross, method: 'transfer' } });
    expect(res.statusCode, res.body).toBe(201);
  };
  const credit = async (invoiceId: string) => {
    const res = await ctx().app.inject({ method: 'POST', url: `/api/admin/invoices/${invoiceId}/credit-note`, headers: owner.auth, payload: { reason: 'Storno' } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const dated = (id: string, issueDate: string) => ctx().database.db.update(invoices).set({ issueDate, dueDate: issueDate }).where(eq(invoices.id, id));
  const upload = async (customer: User, name: string) => {
    const res = await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${customer.user.id}/documents?name=${encodeURIComponent(name)}`, headers: { ...employee.auth, 'content-type': 'application/octet-stream' }, payload: PDF });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const remaining = async (ids: string[]) => (await ctx().database.db.select({ id: invoices.id }).from(invoices).where(inArray(invoices.id, ids))).map((r) => r.id).sort();

  it('removes invoices, credit notes and payments past 10 years (INVOICE_RETENTION_YEARS=10) and contracts past 6 years of deleted customers only; a younger credit note keeps its invoice', async () => {
    const gone = await customerWithInvoices(3);
    const [old, oldCredited, creditedLater] = gone.ids as [string, string, string];
    await pay(old);
    const oldNote = await credit(oldCredited);
    const laterNote = await credit(creditedLater);
    await dated(old, '2014-05-02');
    await dated(oldCredited, '2015-03-01');
    await dated(oldNote, '2015-12-30');
    await dated(creditedLater, '2015-06-01');
    await dated(laterNote, '2016-02-01');
    const oldContract = await upload(gone.customer, 'Vertrag 2019.pdf');
    const newContract = await upload(gone.customer, 'Vertrag 2020.pdf');
    const db = ctx().database.db;
    await db.update(customerDocuments).set({ createdAt: new Date('2019-12-31T22:30:00Z') }).where(eq(customerDocuments.id, oldContract)); // 31.12.2019 23:30 in Berlin
    await db.update(customerDocuments).set({ createdAt: new Date('2019-12-31T23:30:00Z') }).where(eq(customerDocuments.id, newContract)); // already 2020 in Berlin
    expect((await ctx().app.inject({ method: 'DELETE', url: `/api/staff/customers/${gone.customer.user.id}`, headers: owner.auth })).statusCode).toBe(200);

    // An active customer's equally old invoice stays.
    const active = await customerWithInvoices(1);
    await pay(active.ids[0]!);
    await dated(active.ids[0]!, '2010-01-15');

    const now = new Date('2026-11-23T12:00:00Z');
    expect(await runRetention(db, now, 10)).toEqual({ invoicesDeleted: 3, documentsDeleted: 1 });
    expect(await remaining([...gone.ids, oldNote, laterNote])).toEqual([creditedLater, laterNote].sort());
    expect(await remaining(active.ids)).toEqual(active.ids);
    expect(await db.select().from(invoicePayments).where(eq(invoicePayments.invoiceId, old))).toEqual([]);
    const docs = await db.select({ id: customerDocuments.id, fileId: customerDocuments.fileId }).from(customerDocuments).where(eq(customerDocuments.userId, gone.customer.user.id));
    expect(docs.map((d) => d.id)).toEqual([newContract]);
    expect(await db.select({ id: files.id }).from(files).where(eq(files.id, docs[0]!.fileId))).toHaveLength(1);
    // The anonymous account row stays (tickets and orders still point at it); a second run finds nothing.
    expect(await db.select({ id: users.id }).from(users).where(eq(users.id, gone.customer.user.id))).toHaveLength(1);
    expect(await runRetention(db, now, 10)).toEqual({ invoicesDeleted: 0, documentsDeleted: 0 });
    // A year later the younger credit note and its invoice go too.
    expect(await runRetention(db, new Date('2027-01-02T12:00:00Z'), 10)).toMatchObject({ invoicesDeleted: 2 });
  });

  it('keeps invoices 8 years by default (since 2025): the invoice of a deleted customer from 2017 goes in 2026, one of 2018 stays; less than 8 is never used', async () => {
    const gone = await customerWithInvoices(2);
    const [of2017, of2018] = gone.ids as [string, string];
    await pay(of2017);
    await pay(of2018);
    await dated(of2017, '2017-12-31');
    await dated(of2018, '2018-01-01');
    expect((await ctx().app.inject({ method: 'DELETE', url: `/api/staff/customers/${gone.customer.user.id}`, headers: owner.auth })).statusCode).toBe(200);
    expect(ctx().app.deps.env.billing.invoiceRetentionYears).toBe(8);
    const db = ctx().database.db;
    const now = new Date('2026-06-01T12:00:00Z');
    await runRetention(db, now, 5); // below the legal minimum: treated as 8
    expect(await remaining(gone.ids)).toEqual([of2018]);
    await runRetention(db, new Date('2027-01-01T12:00:00Z'));
    expect(await remaining(gone.ids)).toEqual([]);
  });

  it('deletes finished jobs (done or failed) after 30 days with their payloads; queued, running and younger ones stay', async () => {
    const db = ctx().database.db;
    const now = new Date();
    const old = new Date(now.getTime() - (FINISHED_JOB_DAYS + 1) * 86_400_000);
    const young = new Date(now.getTime() - 86_400_000);
    const marker = `retention-${Date.now()}`;
    const rows = await db.insert(jobs).values([
      { kind: 'notify-staff', payload: { username: marker, n: 1 }, status: 'done', finishedAt: old },
      { kind: 'notify-staff', payload: { username: marker, n: 2 }, status: 'failed', finishedAt: old },
      { kind: 'notify-staff', payload: { username: marker, n: 3 }, status: 'done', finishedAt: young },
      { kind: 'notify-staff', payload: { username: marker, n: 4 }, status: 'queued', runAt: old },
    ]).returning({ id: jobs.id });
    expect(await pruneFinishedJobs(db, now)).toBeGreaterThanOrEqual(2);
    const left = await db.select({ payload: jobs.payload }).from(jobs).where(inArray(jobs.id, rows.map((r) => r.id)));
    expect(left.map((j) => (j.payload as { n: number }).n).sort()).toEqual([3, 4]);
  });
});

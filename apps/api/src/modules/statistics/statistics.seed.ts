import { eq, inArray, sql } from 'drizzle-orm';
import { monthIndex, monthOfIndex, splitGross } from '@hp/contract';
import type { Db } from '../../db/client.ts';
import { invoicePayments, invoices, nodes, orders, servers, users } from '../../db/schema/index.ts';
import { rowsOf } from '../../lib/rate-limit.ts';
import { sampleInvoiceDocument } from '../invoices/invoice-fixtures.ts';
import { berlinDate } from '../invoices/invoices.service.ts';

/**
 * A year of billing history for the demo customers (they cannot sign in), so the owner's statistics are
 * not empty on a fresh start: terms, an upgrade, renewals, a credit note, an unrenewed term, an open and
 * an overdue invoice. Their servers ended and were removed: the simulated hypervisor has no VMs for them.
 */
export async function seedDemoStatistics(db: Db) {
  const people = await db.select({ id: users.id, username: users.username, customerNumber: users.customerNumber, email: users.email }).from(users)
    .where(inArray(users.username, ['mueller-it', 'anna.schmidt', 'bauer-consulting', 'jonas.weber']));
  const [node] = await db.select().from(nodes).orderBy(nodes.id).limit(1);
  if (people.length < 4 || !node) return;
  const who = (name: string) => people.find((p) => p.username === name)!;

  const today = berlinDate(new Date());
  const current = monthIndex(today.slice(0, 7));
  /** The given day of the month `back` months ago, never after today. */
  const dayOf = (back: number, day: number) => {
    const date = `${monthOfIndex(current - back)}-${String(day).padStart(2, '0')}`;
    return date > today ? today : date;
  };
  const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const moment = (date: string) => new Date(`${date}T09:00:00Z`);

  const numberFor = async (kind: 'invoice' | 'credit_note', year: number) => {
    await db.execute(sql`insert into invoice_counters (kind, year, last) values (${kind}, ${year}, 0) on conflict (kind, year) do nothing`);
    const sequence = Number(rowsOf(await db.execute(sql`update invoice_counters set last = last + 1 where kind = ${kind} and year = ${year} returning last`))[0]!.last);
    return { sequence, number: `${kind === 'invoice' ? 'RE' : 'GS'}-${year}-${String(sequence).padStart(6, '0')}` };
  };

  const term = async (username: string, opts: { back: number; day: number; months: number; grossCents: number; kind?: 'new' | 'upgrade'; paid?: boolean; serverId?: string }) => {
    const person = who(username);
    const issueDate = dayOf(opts.back, opts.day);
    const split = splitGross(opts.grossCents);
    const start = moment(issueDate);
    const end = new Date(Date.parse(`${monthOfIndex(monthIndex(issueDate.slice(0, 7)) + opts.months)}-${issueDate.slice(8, 10)}T09:00:00Z`));
    const [order] = await db.insert(orders).values({
      userId: person.id, kind: opts.kind ?? 'new', status: 'completed', subscriptionId: opts.serverId ?? null, nodeId: node.id, osFamily: 'linux', os: 'debian-12',
      cpuCores: 2, ramGb: 4, storageGb: 50, months: opts.months, holdUntil: start, amountCents: split.grossCents, netCents: split.netCents, vatCents: split.vatCents,
      paymentProvider: 'simulated', periodStart: start, periodEnd: end, createdAt: start, paidAt: opts.paid === false ? null : start, completedAt: start,
    }).returning();
    const year = Number(issueDate.slice(0, 4));
    const { sequence, number } = await numberFor('invoice', year);
    const dueDate = addDays(issueDate, 15);
    const paid = opts.paid !== false;
    const document = sampleInvoiceDocument({
      number, issueDate, dueDate, periodStart: issueDate, periodEnd: addDays(berlinDate(end), -1), orderNumber: String(order!.number),
      buyer: { name: person.username, street: 'Musterstraße 1', postalCode: '60311', city: 'Frankfurt am Main', countryCode: 'DE', email: person.email, customerNumber: person.customerNumber, company: null },
      lines: [{ id: '1', name: `Root Server (KVM)${opts.kind === 'upgrade' ? ' – Verlängerung/Upgrade' : ''}`, description: `2 vCPU · 4 GB RAM · 50 GB SSD · Debian 12 · ${opts.months} Monate`, quantity: opts.months, unitCode: 'MON', netCents: split.netCents, unitPriceCents: Math.round(split.netCents / opts.months), vatPercent: 19 }],
      totals: { ...split, prepaidCents: paid ? split.grossCents : 0, dueCents: paid ? 0 : split.grossCents },
      notes: [],
    });
    const [invoice] = await db.insert(invoices).values({
      kind: 'invoice', number, year, sequence, orderId: order!.id, userId: person.id, grossCents: split.grossCents, issueDate, dueDate, document,
      paidAt: paid ? start : null, createdAt: start,
    }).returning();
    if (paid) await db.insert(invoicePayments).values({ invoiceId: invoice!.id, amountCents: split.grossCents, method: 'card', paidOn: issueDate, createdAt: start });
    return invoice!;
  };

  const endedServer = async (username: string, expiresBack: number) => {
    const expiresAt = moment(dayOf(expiresBack, 12));
    const [{ vmid }] = rowsOf(await db.execute(sql`select nextval('server_vmid_seq')::int as vmid`)) as [{ vmid: number }];
    await db.insert(servers).values({
      vmid, name: `${username}-alt`, ownerId: who(username).id, nodeId: node.id, os: 'debian-12', cpuCores: 2, ramGb: 4, storageGb: 50, status: 'offline',
      expiresAt, suspendedAt: expiresAt, deletedAt: new Date(expiresAt.getTime() + 7 * 86_400_000), createdAt: moment(dayOf(expiresBack + 6, 12)),
    });
  };

  // Müller IT: a year's term eleven months ago, an upgrade for the rest of it five months ago.
  await term('mueller-it', { back: 11, day: 8, months: 12, grossCents: 53550 });
  await term('mueller-it', { back: 5, day: 20, months: 6, grossCents: 8330, kind: 'upgrade' });
  // Anna Schmidt: renews month by month; the invoice two months ago is still unpaid (overdue).
  for (const back of [5, 4, 3, 2, 1, 0]) await term('anna.schmidt', { back, day: 3, months: 1, grossCents: 2142, kind: back === 5 ? 'new' : 'upgrade', paid: back !== 2 });
  // Bauer Consulting: three months, renewed once, the renewal refunded by a credit note; the term ended unrenewed.
  await term('bauer-consulting', { back: 8, day: 14, months: 3, grossCents: 10710 });
  const renewal = await term('bauer-consulting', { back: 5, day: 14, months: 3, grossCents: 10710, kind: 'upgrade' });
  const creditDate = dayOf(4, 2);
  const { sequence, number } = await numberFor('credit_note', Number(creditDate.slice(0, 4)));
  await db.insert(invoices).values({
    kind: 'credit_note', number, year: Number(creditDate.slice(0, 4)), sequence, orderId: renewal.orderId, userId: renewal.userId, correctsInvoiceId: renewal.id,
    grossCents: renewal.grossCents, issueDate: creditDate, dueDate: addDays(creditDate, 15), createdAt: moment(creditDate),
    document: { ...renewal.document, kind: 'credit_note', number, correctsNumber: renewal.number, issueDate: creditDate, dueDate: addDays(creditDate, 15), notes: [`Gutschrift zu Rechnung ${renewal.number}: Kulanz`] },
  });
  await db.update(invoices).set({ creditedAt: moment(creditDate) }).where(eq(invoices.id, renewal.id));
  await endedServer('bauer-consulting', 2);
  // Jonas Weber: new this month, six months, not paid yet (open).
  await term('jonas.weber', { back: 0, day: 1, months: 6, grossCents: 12852, paid: false });

  // The demo tickets' first staff answers, for the response time.
  await db.execute(sql`update tickets t set first_response_at = m.first from (
    select ticket_id, min(created_at) as first from ticket_messages where from_staff and not internal group by ticket_id) m
    where m.ticket_id = t.id and t.first_response_at is null`);
}

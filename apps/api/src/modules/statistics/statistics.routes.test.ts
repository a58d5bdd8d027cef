import { expect, it } from 'vitest';
import { createUser, describeEachDatabase, uniqueName, type TestContext } from '../../../test/harness.ts';
import { domains, hostingPackages, hostingServers, invoices, invoicePayments, nodes, orders, servers, storageAccounts, storageServers, tickets, users } from '../../db/schema/index.ts';
import type { InvoiceDocument, InvoiceLine } from '../../db/schema/invoice-document.ts';
import type { Hypervisor, NodeInfo } from '../../drivers/hypervisor/hypervisor.ts';
import { sampleInvoiceDocument } from '../invoices/invoice-fixtures.ts';
import { exportStatisticsCsv, getStatistics } from './statistics.service.ts';

/**
 * A hand-computed fixture (docs/decisions/017 has the definitions). "Today" is 15 June 2026, 12:00 in
 * Berlin; the range is January to June 2026. Every expected figure below is worked out in the comments.
 */
const NOW = new Date('2026-06-15T10:00:00Z');
const GiB = 1024 ** 3;
const at = (iso: string) => new Date(iso);

let sequence = 0;
const mon = (netCents: number, quantity: number): InvoiceLine => ({ id: '1', name: 'Root Server (KVM)', description: 'Test', quantity, unitCode: 'MON', netCents, unitPriceCents: Math.round(netCents / quantity), vatPercent: 19 });

async function seedFixture(ctx: TestContext) {
  const db = ctx.database.db;
  const customer = async (label: string) => {
    const username = uniqueName(label);
    const [u] = await db.insert(users).values({ username, email: `${username}@example.com`, passwordHash: 'x', role: 'customer' }).returning();
    return u!.id;
  };
  const [a, b, c, d, e, f, g, h] = [await customer('a'), await customer('b'), await customer('c'), await customer('d'), await customer('e'), await customer('f'), await customer('g'), await customer('h')];
  const [i, j, k, l, m] = [await customer('i'), await customer('j'), await customer('k'), await customer('l'), await customer('m')];

  const [n1] = await db.insert(nodes).values({ name: 'stat-n1', host: '198.51.100.101', cpuCores: 32, ramGb: 128, storageGb: 2000, status: 'online' }).returning();
  const [n2] = await db.insert(nodes).values({ name: 'stat-n2', host: '198.51.100.102', cpuCores: 16, ramGb: 64, storageGb: 1024, status: 'online' }).returning();
  let vmid = 9000;
  const server = (ownerId: string, nodeId: number, cpu: number, ram: number, storage: number, expiresAt: Date | null, deletedAt: Date | null = null) =>
    db.insert(servers).values({ vmid: vmid++, name: `srv${vmid}`, ownerId, nodeId, os: 'debian-12', cpuCores: cpu, ramGb: ram, storageGb: storage, status: 'online', expiresAt, deletedAt });
  await server(a, n1!.id, 4, 10, 130, at('2026-09-01T10:00:00Z'));
  await server(b, n1!.id, 2, 4, 50, at('2026-04-10T10:00:00Z')); // ended unrenewed in April, not deleted yet
  await server(g, n1!.id, 1, 1, 10, at('2026-03-05T10:00:00Z')); // ended in March, but G keeps another server
  await server(g, n1!.id, 1, 1, 10, at('2026-08-01T10:00:00Z'));
  await server(h, n1!.id, 1, 1, 10, at('2026-05-03T10:00:00Z')); // ended in May; H keeps a staff server without term
  await server(h, n1!.id, 1, 1, 10, null);
  await server(c, n2!.id, 8, 32, 500, at('2026-12-01T10:00:00Z'));
  await server(d, n2!.id, 16, 64, 800, at('2026-02-20T10:00:00Z'), at('2026-03-01T10:00:00Z')); // ended in February, deleted
  await server(k, n2!.id, 1, 1, 10, at('2026-02-10T10:00:00Z'), at('2026-02-25T10:00:00Z')); // ended in February; K keeps a live domain
  await server(m, n2!.id, 1, 1, 10, at('2026-05-20T10:00:00Z'), at('2026-05-30T10:00:00Z')); // ended in May; M's domain is still being registered (no term yet)

  // The other products' subscriptions, through their churn sources (product port).
  const [hostingServer] = await db.insert(hostingServers).values({ name: 'stat-web', hostname: 'stat-web.example.net', panelServerId: uniqueName('p'), slots: 10 }).returning();
  const hosting = (ownerId: string, status: 'active' | 'suspended' | 'failed', expiresAt: Date) => {
    const name = uniqueName('h');
    return db.insert(hostingPackages).values({ ownerId, hostingServerId: hostingServer!.id, plan: 'starter', name, primaryDomain: `${name}.example.net`, status, panelUsername: name, expiresAt });
  };
  await hosting(i, 'suspended', at('2026-03-20T10:00:00Z')); // ended in March; I had nothing else
  await hosting(l, 'failed', at('2026-04-02T10:00:00Z')); // set-up failed and refunded: never ran, neither churned nor a lost customer
  const domain = (ownerId: string, status: 'registering' | 'active' | 'expired', expiresAt: Date | null) =>
    db.insert(domains).values({ ownerId, domain: `${uniqueName('d')}.de`, tld: 'de', status, nameservers: ['ns1.example.net'], yearCents: 1080, expiresAt });
  await domain(j, 'expired', at('2026-04-12T10:00:00Z')); // ended in April, J keeps cloud storage until May
  await domain(k, 'active', at('2027-01-01T10:00:00Z'));
  await domain(m, 'registering', null);
  const [storageServer] = await db.insert(storageServers).values({ name: 'stat-cloud', url: 'https://stat-cloud.example.net', capacityGb: 1000 }).returning();
  await db.insert(storageAccounts).values({ ownerId: j, storageServerId: storageServer!.id, plan: '100gb', quotaGb: 100, accountName: uniqueName('s'), status: 'suspended', expiresAt: at('2026-05-08T10:00:00Z') }); // J's last term ends in May

  const order = (nodeId: number, status: 'pending' | 'completed', cpu: number, ram: number, storage: number, holdUntil: Date) =>
    db.insert(orders).values({
      userId: a, kind: 'new', status, nodeId, osFamily: 'linux', os: 'debian-12', cpuCores: cpu, ramGb: ram, storageGb: storage, months: 1,
      holdCpuCores: cpu, holdRamGb: ram, holdStorageGb: storage, holdUntil, amountCents: 1190, netCents: 1000, vatCents: 190, paymentProvider: 'simulated',
    });
  await order(n2!.id, 'pending', 3, 4, 40, new Date(NOW.getTime() + 10 * 60_000)); // holds
  await order(n1!.id, 'pending', 8, 8, 80, new Date(NOW.getTime() - 60_000)); // hold ran out
  await order(n1!.id, 'completed', 8, 8, 80, new Date(NOW.getTime() + 10 * 60_000)); // paid: its server counts instead

  const invoice = async (userId: string, opts: { kind?: 'invoice' | 'credit_note'; issue: string; due?: string; periodStart?: string; lines: InvoiceLine[]; paid?: boolean; creditedAt?: Date; corrects?: string; source?: 'order' | 'manual' }) => {
    const netCents = opts.lines.reduce((s, l) => s + l.netCents, 0);
    const grossCents = Math.round(netCents * 1.19);
    const kind = opts.kind ?? 'invoice';
    sequence += 1;
    const number = `${kind === 'invoice' ? 'RE' : 'GS'}-T-${String(sequence).padStart(6, '0')}`;
    const document: InvoiceDocument = sampleInvoiceDocument({
      kind, number, issueDate: opts.issue, dueDate: opts.due ?? opts.issue, periodStart: opts.periodStart ?? opts.issue, periodEnd: opts.periodStart ?? opts.issue,
      lines: opts.lines, totals: { netCents, vatCents: grossCents - netCents, grossCents, prepaidCents: 0, dueCents: grossCents },
    });
    const [row] = await db.insert(invoices).values({
      kind, number, year: 2026, sequence, userId, source: opts.source ?? 'order', correctsInvoiceId: opts.corrects ?? null, grossCents,
      issueDate: opts.issue, dueDate: opts.due ?? opts.issue, document,
      paidAt: opts.paid ? at(`${opts.issue}T09:00:00Z`) : null, creditedAt: opts.creditedAt ?? null,
    }).returning();
    return row!;
  };
  // A: 3 months from January (3000/month), an upgrade for the rest of the term (2 × 1000), a 6-month renewal from April (2000/month).
  await invoice(a, { issue: '2026-01-10', lines: [mon(9000, 3)], paid: true });
  await invoice(a, { issue: '2026-02-15', lines: [mon(2000, 2)], paid: true });
  await invoice(a, { issue: '2026-04-05', periodStart: '2026-04-10', lines: [mon(12000, 6)], paid: true });
  // B: one month in March; the server then ran out unrenewed.
  await invoice(b, { issue: '2026-03-10', lines: [mon(1500, 1)], paid: true });
  // C: a year from February (2000/month), credited in full in May; then a manual invoice with a monthly line and a one-off setup line, partly paid.
  const c1 = await invoice(c, { issue: '2026-02-01', lines: [mon(24000, 12)], paid: true, creditedAt: at('2026-05-20T08:00:00Z') });
  await invoice(c, { kind: 'credit_note', issue: '2026-05-20', lines: [mon(24000, 12)], corrects: c1.id, periodStart: '2026-02-01' });
  const c2 = await invoice(c, { issue: '2026-05-25', due: '2026-06-09', periodStart: '2026-06-01', source: 'manual', lines: [mon(3000, 1), { ...mon(5000, 1), id: '2', unitCode: 'C62', name: 'Einrichtung' }] });
  await db.insert(invoicePayments).values({ invoiceId: c2.id, amountCents: 2380, method: 'transfer', paidOn: '2026-06-01' });
  // D: three months from November 2025; the server ended in February and was deleted.
  await invoice(d, { issue: '2025-11-20', lines: [mon(6000, 3)], paid: true });
  // E: two unpaid invoices (one overdue for 91 days, one open for 14 days); F: one overdue for 41 days.
  await invoice(e, { issue: '2026-03-01', due: '2026-03-16', lines: [mon(500, 1)] });
  await invoice(e, { issue: '2026-06-01', due: '2026-06-16', lines: [mon(1000, 1)] });
  await invoice(f, { issue: '2026-04-20', due: '2026-05-05', lines: [mon(700, 1)] });

  const ticket = (type: 'question' | 'billing' | 'issue' | 'other', status: 'open' | 'in_progress' | 'closed', createdAt: string, responseMinutes: number | null) =>
    db.insert(tickets).values({
      customerId: a, title: 'Frage', description: 'Text', type, status, createdAt: at(createdAt), updatedAt: at(createdAt),
      firstResponseAt: responseMinutes === null ? null : new Date(at(createdAt).getTime() + responseMinutes * 60_000),
    });
  await ticket('question', 'closed', '2026-02-01T10:00:00Z', 30);
  await ticket('billing', 'open', '2026-03-01T10:00:00Z', 90);
  await ticket('billing', 'in_progress', '2026-06-10T10:00:00Z', 10);
  await ticket('issue', 'open', '2026-06-12T10:00:00Z', null);
  await ticket('other', 'open', '2025-12-01T10:00:00Z', 1000); // before the range: open, but not in the range's figures
}

const node = (name: string, info: Partial<NodeInfo>): NodeInfo => ({ node: name, status: 'online', cpu: 0, maxcpu: 0, mem: 0, maxmem: 0, disk: 0, maxdisk: 0, uptime: 1, ...info });
const hypervisorWith = (listNodes: () => Promise<NodeInfo[]>) => ({ listNodes } as unknown as Hypervisor);

describeEachDatabase('statistics', (ctx) => {
  let seeded = false;
  const fixture = async () => {
    if (!seeded) await seedFixture(ctx());
    seeded = true;
  };
  const range = { from: '2026-01', to: '2026-06' };

  it('computes capacity, finances, receivables and support figures exactly from the stored data', async () => {
    await fixture();
    const hypervisor = hypervisorWith(async () => [
      node('STAT-N1', { cpu: 0.25, maxcpu: 32, mem: 20 * GiB, disk: 300 * GiB }),
      node('stat-n2', { status: 'offline' }),
      node('elsewhere', { cpu: 1, maxcpu: 8 }),
    ]);
    const s = await getStatistics({ db: ctx().database.db, hypervisor, env: ctx().app.deps.env, products: ctx().app.deps.products }, range, NOW);

    // Capacity. n1: servers 4+2+1+1+1+1 cores, 10+4+1+1+1+1 GB, 130+50+10+10+10+10 GB (the expired hold and the paid order do not count).
    // n2: server 8/32/500 plus the open hold 3/4/40; the deleted server does not count.
    const [n1, n2] = s.capacity.nodes;
    expect(n1).toMatchObject({
      name: 'stat-n1',
      cpu: { physical: 32, allocated: 10, free: 22, used: 8, overcommit: 0.31 },
      ram: { physical: 128, allocated: 18, free: 110, used: 20, overcommit: 0.14 },
      storage: { physical: 2000, allocated: 220, free: 1780, used: 300, overcommit: 0.11 },
    });
    expect(n2).toMatchObject({
      name: 'stat-n2',
      cpu: { physical: 16, allocated: 11, free: 5, used: null, overcommit: 0.69 },
      ram: { physical: 64, allocated: 36, free: 28, used: null, overcommit: 0.56 },
      storage: { physical: 1024, allocated: 540, free: 484, used: null, overcommit: 0.53 },
    });
    expect(s.capacity.total).toEqual({
      cpu: { physical: 48, allocated: 21, free: 27, used: null, overcommit: 0.44 },
      ram: { physical: 192, allocated: 54, free: 138, used: null, overcommit: 0.28 },
      storage: { physical: 3024, allocated: 760, free: 2264, used: null, overcommit: 0.25 },
    });
    expect(s.capacity.liveAvailable).toBe(true);

    // Finances, January to June 2026 (see the fixture's comments):
    // revenue: Jan A 9000 · Feb A 2000 + C 24000 · Mar B 1500 + E 500 · Apr A 12000 + F 700 · May C 8000 − credit 24000 · Jun E 1000
    // MRR: Jan A 3000 + D 2000 · Feb A 3000 + 1000 + C 2000 · Mar A 4000 + C 2000 + B 1500 + E 500 · Apr A 2000 + C 2000 + F 700
    //      · May A 2000 (C credited) · Jun A 2000 + C 3000 (the setup line is one-off) + E 1000
    // new (first paid invoice): A Jan, C Feb, B Mar (D before the range; E, F never paid)
    // churn: servers D and K in Feb, G's first in Mar, B's in Apr, H's and M's in May; I's hosting package in Mar (L's failed one
    // never ran); J's domain in Apr and J's cloud storage in May. Customers lost: D (Feb), I (Mar), B (Apr), J (May, the last
    // of J's terms) — G and H keep a server, K a live domain, M a domain still being registered (no term yet), L never had one.
    const churned = (servers: number, hosting: number, domains: number, storage: number) => [
      { kind: 'root_server', count: servers }, { kind: 'webhosting', count: hosting }, { kind: 'domain', count: domains }, { kind: 'cloud_storage', count: storage },
      { kind: 'vdc', count: 0 },
    ];
    expect(s.finances.months).toEqual([
      { month: '2026-01', revenueCents: 9000, mrrCents: 5000, arrCents: 60000, arpaCents: 2500, payingCustomers: 2, newCustomers: 1, churnedCustomers: 0, churned: churned(0, 0, 0, 0) },
      { month: '2026-02', revenueCents: 26000, mrrCents: 6000, arrCents: 72000, arpaCents: 3000, payingCustomers: 2, newCustomers: 1, churnedCustomers: 1, churned: churned(2, 0, 0, 0) },
      { month: '2026-03', revenueCents: 2000, mrrCents: 8000, arrCents: 96000, arpaCents: 2000, payingCustomers: 4, newCustomers: 1, churnedCustomers: 1, churned: churned(1, 1, 0, 0) },
      { month: '2026-04', revenueCents: 12700, mrrCents: 4700, arrCents: 56400, arpaCents: 1567, payingCustomers: 3, newCustomers: 0, churnedCustomers: 1, churned: churned(1, 0, 1, 0) },
      { month: '2026-05', revenueCents: -16000, mrrCents: 2000, arrCents: 24000, arpaCents: 2000, payingCustomers: 1, newCustomers: 0, churnedCustomers: 1, churned: churned(2, 0, 0, 1) },
      { month: '2026-06', revenueCents: 1000, mrrCents: 6000, arrCents: 72000, arpaCents: 2000, payingCustomers: 3, newCustomers: 0, churnedCustomers: 0, churned: churned(0, 0, 0, 0) },
    ]);
    // The columns' names come from the products (the page and the CSV read them).
    expect(s.finances.products).toEqual([
      { kind: 'root_server', label: 'Server' }, { kind: 'webhosting', label: 'Webhosting-Pakete' }, { kind: 'domain', label: 'Domains' }, { kind: 'cloud_storage', label: 'Cloud-Speicher' },
      { kind: 'vdc', label: 'Virtual Data Center' },
    ]);
    expect(s.finances.current?.month).toBe('2026-06');

    // Receivables today: E open 14 days (1000); C overdue 6 days (8000 net, a quarter paid → 6000); F overdue 41 days (700); E overdue 91 days (500).
    expect(s.receivables).toEqual([
      { bucket: '0-30', openCents: 1000, openCount: 1, overdueCents: 6000, overdueCount: 1 },
      { bucket: '31-60', openCents: 0, openCount: 0, overdueCents: 700, overdueCount: 1 },
      { bucket: '61+', openCents: 0, openCount: 0, overdueCents: 500, overdueCount: 1 },
    ]);

    // Support: 4 not closed; first responses in the range 30, 90 and 10 minutes → median 30.
    expect(s.support).toEqual({
      openTickets: 4, medianFirstResponseMinutes: 30, answeredTickets: 3,
      byType: [
        { type: 'question', count: 1 }, { type: 'issue', count: 1 }, { type: 'problem', count: 0 },
        { type: 'technical', count: 0 }, { type: 'billing', count: 2 }, { type: 'other', count: 0 }, { type: 'vdc_request', count: 0 },
      ],
    });
  });

  it('shows live use as unknown when the hypervisor cannot be asked, and the rest all the same', async () => {
    await fixture();
    const hypervisor = hypervisorWith(async () => { throw new Error('connection refused'); });
    const s = await getStatistics({ db: ctx().database.db, hypervisor, env: ctx().app.deps.env, products: ctx().app.deps.products }, { from: '2026-03', to: '2026-03' }, NOW);
    expect(s.capacity.liveAvailable).toBe(false);
    expect(s.capacity.nodes.map((n) => [n.cpu.used, n.ram.used, n.storage.used])).toEqual([[null, null, null], [null, null, null]]);
    expect(s.finances.months.map((m) => m.mrrCents)).toEqual([8000]);
  });

  it('defaults to the last 12 months up to the current one', async () => {
    await fixture();
    const s = await getStatistics({ db: ctx().database.db, hypervisor: ctx().app.deps.hypervisor, env: ctx().app.deps.env, products: ctx().app.deps.products }, {}, NOW);
    expect([s.from, s.to, s.finances.months.length]).toEqual(['2025-07', '2026-06', 12]);
    // The simulated hypervisor reads the database too: asked outside the statistics' transaction, it answers (PGlite has one connection).
    expect(s.capacity.liveAvailable).toBe(true);
    expect(s.capacity.nodes.map((n) => n.cpu.used === null)).toEqual([false, false]);
    // D's three months from November 2025 are in it now.
    expect(s.finances.months.find((m) => m.month === '2025-11')).toMatchObject({ revenueCents: 6000, mrrCents: 2000, newCustomers: 1 });
  });

  it('answers the owner; employees and customers are refused, anonymous callers must sign in', async () => {
    const owner = await createUser(ctx(), { role: 'owner' });
    const employee = await createUser(ctx(), { role: 'employee' });
    const customer = await createUser(ctx(), { role: 'customer' });
    for (const url of ['/api/admin/statistics?from=2026-01&to=2026-06', '/api/admin/statistics/export.csv?table=finances']) {
      expect((await ctx().app.inject({ method: 'GET', url, headers: owner.auth })).statusCode).toBe(200);
      expect((await ctx().app.inject({ method: 'GET', url, headers: employee.auth })).statusCode).toBe(403);
      expect((await ctx().app.inject({ method: 'GET', url, headers: customer.auth })).statusCode).toBe(403);
      expect((await ctx().app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('refuses a malformed, reversed or too long range with a German message', async () => {
    const owner = await createUser(ctx(), { role: 'owner' });
    const cases: [string, string][] = [
      ['from=2026-13', 'Bitte geben Sie einen Monat im Format JJJJ-MM an.'],
      ['from=2026-06&to=2026-01', 'Der Beginn muss vor dem Ende liegen.'],
      ['from=2020-01&to=2026-01', 'Bitte wählen Sie höchstens 36 Monate.'],
    ];
    for (const [query, message] of cases) {
      const res = await ctx().app.inject({ method: 'GET', url: `/api/admin/statistics?${query}`, headers: owner.auth });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const res = await ctx().app.inject({ method: 'GET', url: '/api/admin/statistics/export.csv?table=secrets', headers: owner.auth });
    expect(res.statusCode).toBe(400);
  });

  it('exports every table as CSV with formulas defused', async () => {
    await fixture();
    const db = ctx().database.db;
    const hypervisor = hypervisorWith(async () => []);
    const finances = await exportStatisticsCsv({ db, hypervisor, env: ctx().app.deps.env, products: ctx().app.deps.products }, 'finances', range, NOW);
    expect(finances.split('\r\n')[0]).toBe('\uFEFFMonat;Umsatz netto (EUR);MRR (EUR);ARR (EUR);ARPA (EUR);Zahlende Kunden;Neue Kunden;Verlorene Kunden;Ausgelaufene Server;Ausgelaufene Webhosting-Pakete;Ausgelaufene Domains;Ausgelaufene Cloud-Speicher;Ausgelaufene Virtual Data Center');
    expect(finances.split('\r\n')[1]).toBe('2026-01;90,00;50,00;600,00;25,00;2;1;0;0;0;0;0;0');
    expect(finances.split('\r\n')[5]).toBe('2026-05;-160,00;20,00;240,00;20,00;1;0;1;2;0;0;1;0');
    const receivables = await exportStatisticsCsv({ db, hypervisor, env: ctx().app.deps.env, products: ctx().app.deps.products }, 'receivables', range, NOW);
    expect(receivables.split('\r\n')[1]).toBe('0–30 Tage;10,00;1;60,00;1');
    const support = await exportStatisticsCsv({ db, hypervisor, env: ctx().app.deps.env, products: ctx().app.deps.products }, 'tickets', range, NOW);
    expect(support).toContain('Zahlung;2\r\n');
    await db.insert(nodes).values({ name: '=HYPERLINK("http://evil")', host: '198.51.100.199', cpuCores: 1, ramGb: 1, storageGb: 1 });
    const capacity = await exportStatisticsCsv({ db, hypervisor, env: ctx().app.deps.env, products: ctx().app.deps.products }, 'capacity', range, NOW);
    expect(capacity).toContain(`"'=HYPERLINK(""http://evil"")";CPU-Kerne;1;0;1;;0\r\n`);
    expect(capacity).toContain('stat-n1;RAM (GB);128;18;110;;0,14\r\n');
  });
});

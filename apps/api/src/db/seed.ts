import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from './client.ts';
import { users, settings, sessions, nodes, ipAddresses, tickets, ticketMessages } from './schema/index.ts';
import type { ModuleManifest } from '../jobs/define.ts';
import { hashPassword } from '../lib/passwords.ts';
import { seedStatusPage } from '../modules/status/status.seed.ts';
import { seedChangelog } from '../modules/changelog/changelog.seed.ts';
import { seedDemoCustomers } from '../modules/customers/customers.seed.ts';
import { seedDemoStatistics } from '../modules/statistics/statistics.seed.ts';

interface DemoAccount { role: 'owner' | 'employee' | 'customer'; username: string; password: string }

const demoUsers = [
  { role: 'owner' as const, username: 'inhaber', email: 'inhaber@example.com' },
  { role: 'employee' as const, username: 'mitarbeiter', email: 'mitarbeiter@example.com' },
  { role: 'customer' as const, username: 'kunde', email: 'kunde@example.com' },
];

async function seedOnce(db: Db, key: string, seed: () => Promise<void>) {
  const [done] = await db.select().from(settings).where(eq(settings.key, key));
  if (done) return;
  await seed();
  await db.insert(settings).values({ key, value: new Date().toISOString() }).onConflictDoNothing();
}

/** A random password that satisfies every rule of the product (upper, lower, digit, special). */
export function randomPassword() {
  return `${crypto.randomBytes(12).toString('base64url')}-Aa1!`;
}

/**
 * Demo data, loaded once per installation (embedded mode). Passwords are random per installation and
 * written to data/demo-credentials.json; if that file is lost the demo passwords are rolled anew.
 */
export async function seedDemoData(db: Db, credentialsFile: string, modules: readonly ModuleManifest[]) {
  // Each part of the demo data has its own marker, so parts added by later versions still arrive once.
  await seedOnce(db, 'demo_seeded_status', () => seedStatusPage(db));
  // Two hosts and a /27 of documentation addresses (RFC 5737), so the shop can sell out of the box.
  await seedOnce(db, 'demo_seeded_infrastructure', async () => {
    await db.insert(nodes).values([
      { name: 'pve-fra-01', host: '192.0.2.11', cpuCores: 96, ramGb: 768, storageGb: 15000, status: 'online' },
      { name: 'pve-fra-02', host: '192.0.2.12', cpuCores: 64, ramGb: 512, storageGb: 10000, status: 'online' },
    ]).onConflictDoNothing();
    const addresses = Array.from({ length: 29 }, (_, i) => ({ address: `203.0.113.${i + 2}`, version: 'IPv4' as const, subnet: '27', gateway: '203.0.113.1' }));
    await db.insert(ipAddresses).values(addresses).onConflictDoNothing();
  });
  // What each module declares it needs to work out of the box (a product's first server, decision 035).
  for (const m of modules) if (m.seed) await seedOnce(db, `demo_seeded_${m.name}`, () => m.seed!(db));
  const [marker] = await db.select().from(settings).where(eq(settings.key, 'demo_seeded'));
  if (!marker || !fs.existsSync(credentialsFile)) await seedDemoAccounts(db, credentialsFile);
  await seedOnce(db, 'demo_seeded_tickets', () => seedDemoTickets(db));
  await seedOnce(db, 'demo_seeded_changelog', () => seedChangelog(db));
  await seedOnce(db, 'demo_seeded_customers', () => seedDemoCustomers(db));
  await seedOnce(db, 'demo_seeded_statistics', () => seedDemoStatistics(db));
}

async function seedDemoAccounts(db: Db, credentialsFile: string) {
  const accounts: DemoAccount[] = [];
  for (const demo of demoUsers) {
    const password = randomPassword();
    const passwordHash = await hashPassword(password);
    await db
      .insert(users)
      .values({ username: demo.username, email: demo.email, role: demo.role, passwordHash, emailVerifiedAt: new Date(), city: 'Frankfurt am Main', zipCode: '60311', street: 'Musterstraße 1', phone: '+49 69 1234560' })
      .onConflictDoNothing();
    await db.update(users).set({ passwordHash }).where(eq(users.username, demo.username));
    accounts.push({ role: demo.role, username: demo.username, password });
  }
  // Rolling the passwords also ends every old demo session.
  const ids = (await db.select({ id: users.id }).from(users).where(inArray(users.username, demoUsers.map((d) => d.username)))).map((r) => r.id);
  if (ids.length) await db.update(sessions).set({ revokedAt: new Date() }).where(inArray(sessions.userId, ids));

  await db.insert(settings).values({ key: 'demo_seeded', value: new Date().toISOString() }).onConflictDoNothing();
  fs.mkdirSync(path.dirname(credentialsFile), { recursive: true });
  fs.writeFileSync(credentialsFile, JSON.stringify(accounts, null, 2) + '\n', { mode: 0o600 });
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** A few tickets of the demo customer in every state, so the support pages are not empty on a fresh start. */
async function seedDemoTickets(db: Db) {
  const [customer] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'kunde'));
  const [employee] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'mitarbeiter'));
  if (!customer || !employee) return;
  interface DemoTicket {
    title: string; description: string; type: 'issue' | 'billing' | 'technical'; status: 'open' | 'in_progress' | 'closed';
    assigneeId: string | null; age: number; waiting: number | null; chat: { staff: boolean; body: string; age: number; internal?: boolean }[];
  }
  const demo: DemoTicket[] = [
    {
      title: 'Server nach Neustart nicht erreichbar', type: 'issue', status: 'open', assigneeId: null, age: 45, waiting: 45,
      description: 'Nach einem Neustart heute Morgen antwortet mein Server nicht mehr auf SSH.',
      chat: [],
    },
    {
      title: 'Frage zur Rechnung', type: 'billing', status: 'in_progress', assigneeId: employee.id, age: 60 * 26, waiting: 60 * 2,
      description: 'Auf meiner letzten Rechnung ist der Zeitraum doppelt aufgeführt.',
      chat: [
        { staff: true, body: 'Danke für Ihren Hinweis, wir prüfen die Rechnung.', age: 60 * 25 },
        { staff: true, body: 'Abrechnungszeitraum mit Buchhaltung klären.', age: 60 * 24, internal: true },
        { staff: false, body: 'Gibt es schon Neuigkeiten?', age: 60 * 2 },
      ],
    },
    {
      title: 'Wie ändere ich meinen SSH-Schlüssel?', type: 'technical', status: 'closed', assigneeId: employee.id, age: 60 * 24 * 5, waiting: null,
      description: 'Ich möchte einen neuen SSH-Schlüssel hinterlegen.',
      chat: [
        { staff: true, body: 'Unter „Einstellungen“ Ihres Servers können Sie SSH-Schlüssel hinterlegen.', age: 60 * 24 * 5 - 30 },
        { staff: false, body: 'Hat geklappt, vielen Dank!', age: 60 * 24 * 5 - 60 },
      ],
    },
  ];
  for (const t of demo) {
    const [ticket] = await db.insert(tickets).values({
      customerId: customer.id, title: t.title, description: t.description, type: t.type, status: t.status, assigneeId: t.assigneeId,
      createdAt: minutesAgo(t.age), updatedAt: minutesAgo(t.chat.length ? Math.min(...t.chat.map((c) => c.age)) : t.age),
      waitingSince: t.waiting === null ? null : minutesAgo(t.waiting),
      firstResponseAt: t.chat.some((c) => c.staff) ? minutesAgo(Math.max(...t.chat.filter((c) => c.staff).map((c) => c.age))) : null,
      closedAt: t.status === 'closed' ? minutesAgo(t.age - 90) : null,
    }).returning({ id: tickets.id });
    for (const c of [...t.chat].sort((a, b) => b.age - a.age)) {
      await db.insert(ticketMessages).values({ ticketId: ticket!.id, authorId: c.staff ? employee.id : customer.id, fromStaff: c.staff, internal: c.internal ?? false, body: c.body, createdAt: minutesAgo(c.age) });
    }
  }
}

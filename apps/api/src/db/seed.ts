import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from './client.ts';
import { users, settings, sessions, nodes, ipAddresses } from './schema/index.ts';
import { hashPassword } from '../lib/passwords.ts';
import { seedStatusPage } from '../modules/status/status.seed.ts';

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
export async function seedDemoData(db: Db, credentialsFile: string) {
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
  const [marker] = await db.select().from(settings).where(eq(settings.key, 'demo_seeded'));
  if (marker && fs.existsSync(credentialsFile)) return;

  const accounts: DemoAccount[] = [];
  for (const demo of demoUsers) {
    const password = randomPassword();
    const passwordHash = await hashPassword(password);
    await db
      .insert(users)
      .values({ username: demo.username, email: demo.email, role: demo.role, passwordHash, emailVerifiedAt: new Date(), city: 'Frankfurt am Main', zipCode: '60311', street: 'Musterstraße 1' })
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

import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { customerNotes, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/**
 * A few more customers for the demo (private and business, three countries), so the customer pages
 * are not empty on a fresh start. They cannot sign in: their passwords are random and never shown.
 */
export async function seedDemoCustomers(db: Db) {
  const [employee] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'mitarbeiter'));
  const people = [
    { username: 'mueller-it', email: 'buchhaltung@mueller-it.example', companyName: 'Müller IT-Service GmbH', industry: 'IT-Dienstleistungen', phone: '+49 341 555 0101', street: 'Karl-Liebknecht-Straße 12', zipCode: '04107', city: 'Leipzig', country: 'DE' as const, since: 410, login: 2, note: 'Rahmenvertrag für drei Server; Rechnungen bitte an die Buchhaltungsadresse.' },
    { username: 'anna.schmidt', email: 'anna.schmidt@example.com', companyName: '', industry: '', phone: '', street: 'Lindenweg 3', zipCode: '50667', city: 'Köln', country: 'DE' as const, since: 120, login: 9, note: null },
    { username: 'bauer-consulting', email: 'office@bauer-consulting.example', companyName: 'Bauer Consulting e.U.', industry: 'Unternehmensberatung', phone: '+43 1 555 0202', street: 'Mariahilfer Straße 88', zipCode: '1070', city: 'Wien', country: 'AT' as const, since: 75, login: null, note: 'Wünscht Rückruf vor Vertragsverlängerung.' },
    { username: 'jonas.weber', email: 'jonas.weber@example.ch', companyName: '', industry: '', phone: '+41 44 555 0303', street: 'Seestrasse 21', zipCode: '8002', city: 'Zürich', country: 'CH' as const, since: 14, login: 1, note: null },
  ];
  for (const p of people) {
    const passwordHash = await hashPassword(crypto.randomBytes(24).toString('base64url'));
    const [row] = await db.insert(users).values({
      username: p.username, email: p.email, role: 'customer', passwordHash, emailVerifiedAt: daysAgo(p.since),
      companyName: p.companyName, industry: p.industry, phone: p.phone, street: p.street, zipCode: p.zipCode, city: p.city, country: p.country,
      createdAt: daysAgo(p.since), lastLoginAt: p.login === null ? null : daysAgo(p.login),
    }).onConflictDoNothing().returning({ id: users.id });
    if (row && p.note && employee) await db.insert(customerNotes).values({ customerId: row.id, authorId: employee.id, body: p.note, createdAt: daysAgo(Math.max(1, p.since - 7)) });
  }
}

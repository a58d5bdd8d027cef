import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { registrarContacts, users } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import type { RegistrantContact } from '../../drivers/registrar/registrar.ts';
import { defineJob, type JobDeps } from '../../jobs/define.ts';

/**
 * The registrant contact (issue 13): one per customer at the registrar, made from the profile when the
 * first domain is delivered, and sent again whenever the profile or e-mail address changes afterwards.
 */
type User = typeof users.$inferSelect;

/** The registrant as the registry gets it, from the customer's profile. */
export function contactOf(user: User): RegistrantContact {
  return {
    name: user.username, company: user.companyName.trim() || null, street: user.street.trim(), postalCode: user.zipCode.trim(),
    city: user.city.trim(), countryCode: user.country, phone: user.phone.trim(), email: user.email,
  };
}

/** Profile fields the registry needs that are still empty, with the profile form's German labels. */
export function missingContactFields(user: Pick<User, 'street' | 'zipCode' | 'city' | 'phone'>): string[] {
  const missing: string[] = [];
  if (!user.street.trim()) missing.push('Straße und Hausnummer');
  if (!user.zipCode.trim()) missing.push('Postleitzahl');
  if (!user.city.trim()) missing.push('Stadt');
  if (!user.phone.trim()) missing.push('Telefon');
  return missing;
}

/** The customer's contact at the registrar: created once, sent again when the profile changed since. */
export async function ensureContact(deps: Pick<JobDeps, 'db' | 'registrar'>, user: User): Promise<string> {
  const contact = contactOf(user);
  const hash = crypto.createHash('sha256').update(JSON.stringify(contact)).digest('hex');
  const [known] = await deps.db.select().from(registrarContacts).where(eq(registrarContacts.userId, user.id));
  if (known && known.contactHash === hash) return known.contactId;
  const contactId = await deps.registrar.saveContact(known?.contactId ?? null, contact);
  await deps.db.insert(registrarContacts).values({ userId: user.id, contactId, contactHash: hash })
    .onConflictDoUpdate({ target: registrarContacts.userId, set: { contactId, contactHash: hash, updatedAt: new Date() } });
  return contactId;
}

export const syncContactKind = jobKind('sync-registrar-contact', z.object({ userId: z.string() }));

/** Sends a changed profile to the registrar, for customers who have a contact there (no-op otherwise). */
export const syncContactJob = defineJob(syncContactKind, async (deps, { userId }) => {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user || user.deletedAt) return;
  await ensureContact(deps, user);
});

/** Call after a profile or e-mail change (in its transaction, if any): queues the sync when there is a contact. */
export async function enqueueContactSync(db: Pick<Db, 'select' | 'insert'>, userId: string) {
  const [known] = await db.select({ userId: registrarContacts.userId }).from(registrarContacts).where(eq(registrarContacts.userId, userId));
  if (known) await enqueue(db, syncContactKind, { userId });
}

import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import {
  ticketMessages as m,
  type CreateTicketSecretInput,
  type TicketSecret,
  type TicketSecretList,
  type TicketSecretValue,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { ticketSecretOpenings, ticketSecrets, tickets, users } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { decryptSecret, encryptSecret } from '../../lib/secrets.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';

/**
 * "Vertrauliche Angaben" (docs/decisions/015): a customer hands over a secret (a root password). It is
 * stored encrypted (AES-256-GCM, key from the installation secret), read only by staff through a logged
 * route, and wiped when the ticket closes. No mail, event, list or export ever contains the value: only
 * `openSecret` decrypts.
 */
type SecretDeps = Pick<Deps, 'db' | 'secrets'>;
type Actor = Pick<RequestUser, 'id'>;

export const SECRET_LIMIT = { limit: 20, windowSeconds: 3600 } as const;

async function ownOpenTicket(db: Db | Tx, user: Actor, ticketId: string) {
  const [ticket] = await db.select({ status: tickets.status }).from(tickets).where(and(eq(tickets.id, ticketId), eq(tickets.customerId, user.id)));
  if (!ticket) throw notFound(m.ticketNotFound);
  return ticket;
}

async function list(db: Db, ticketId: string, withOpenings: boolean): Promise<TicketSecret[]> {
  const rows = await db.select({ id: ticketSecrets.id, label: ticketSecrets.label, createdAt: ticketSecrets.createdAt, wipedAt: ticketSecrets.wipedAt })
    .from(ticketSecrets).where(eq(ticketSecrets.ticketId, ticketId)).orderBy(asc(ticketSecrets.createdAt), asc(ticketSecrets.id));
  const openings = withOpenings && rows.length > 0
    ? await db.select({ secretId: ticketSecretOpenings.secretId, name: users.username, openedAt: ticketSecretOpenings.openedAt })
      .from(ticketSecretOpenings).innerJoin(users, eq(users.id, ticketSecretOpenings.staffId))
      .where(inArray(ticketSecretOpenings.secretId, rows.map((r) => r.id))).orderBy(asc(ticketSecretOpenings.openedAt))
    : [];
  return rows.map((r) => ({
    id: r.id, label: r.label, createdAt: r.createdAt.toISOString(), wiped: r.wipedAt !== null,
    openings: openings.filter((o) => o.secretId === r.id).map((o) => ({ name: o.name, openedAt: o.openedAt.toISOString() })),
  }));
}

export async function listOwnSecrets({ db }: SecretDeps, user: Actor, ticketId: string): Promise<TicketSecretList> {
  await ownOpenTicket(db, user, ticketId);
  return { secrets: await list(db, ticketId, false) };
}

export async function addOwnSecret(deps: SecretDeps, user: Actor, ticketId: string, input: CreateTicketSecretInput): Promise<TicketSecret> {
  await ownOpenTicket(deps.db, user, ticketId);
  await enforceLimit(deps.db, { key: `ticket-secret:${user.id}`, ...SECRET_LIMIT });
  // The ticket row is locked while the value is stored, so a parallel close either comes first (and
  // this fails with 409) or after (and wipes this value too): no value outlives the close.
  const row = await deps.db.transaction(async (tx) => {
    const [ticket] = await tx.select({ status: tickets.status }).from(tickets).where(and(eq(tickets.id, ticketId), eq(tickets.customerId, user.id))).for('update');
    if (!ticket) throw notFound(m.ticketNotFound);
    if (ticket.status === 'closed') throw conflict('TICKET_CLOSED', m.ticketIsClosed);
    const [inserted] = await tx.insert(ticketSecrets).values({
      ticketId, label: input.label, sealed: encryptSecret(deps.secrets.encryptionKey, input.value), createdBy: user.id,
    }).returning();
    return inserted;
  });
  return { id: row!.id, label: row!.label, createdAt: row!.createdAt.toISOString(), wiped: false, openings: [] };
}

export async function listStaffSecrets({ db }: SecretDeps, ticketId: string): Promise<TicketSecretList> {
  const [ticket] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, ticketId));
  if (!ticket) throw notFound(m.ticketNotFound);
  return { secrets: await list(db, ticketId, true) };
}

/** The value, for staff; the opening is logged in the same transaction (no read without a record). */
export async function openSecret(deps: SecretDeps, staff: Actor, ticketId: string, secretId: string): Promise<TicketSecretValue> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select({ sealed: ticketSecrets.sealed }).from(ticketSecrets)
      .where(and(eq(ticketSecrets.id, secretId), eq(ticketSecrets.ticketId, ticketId)));
    if (!row) throw notFound(m.secretNotFound);
    if (row.sealed === null) throw conflict('SECRET_WIPED', m.secretWiped);
    await tx.insert(ticketSecretOpenings).values({ secretId, staffId: staff.id });
    return { value: decryptSecret(deps.secrets.encryptionKey, row.sealed) };
  });
}

/** On close: the values go for good (labels and the opening log stay as the record). */
export async function wipeSecrets(tx: Tx, ticketId: string, now: Date): Promise<void> {
  await tx.update(ticketSecrets).set({ sealed: null, wipedAt: now }).where(and(eq(ticketSecrets.ticketId, ticketId), isNotNull(ticketSecrets.sealed)));
}

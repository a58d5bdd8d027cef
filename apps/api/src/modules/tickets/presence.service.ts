import { and, asc, eq, gt, isNull, lte, ne, sql } from 'drizzle-orm';
import { ticketMessages as m, type TicketPresence, type TicketPresenceInput } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { ticketPresence, tickets, users } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';

type PresenceDeps = Pick<Deps, 'db'>;
type Actor = Pick<RequestUser, 'id'>;

/**
 * Seconds a heartbeat keeps a staff member in a ticket view. The browser beats every 10 s, so two
 * lost beats are forgiven; a closed laptop is gone after at most this long.
 */
export const PRESENCE_TTL = 30;

const expiresAt = sql`now() + make_interval(secs => ${PRESENCE_TTL})`;

async function requireTicket(db: Db, id: string) {
  const [ticket] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, id));
  if (!ticket) throw notFound(m.ticketNotFound);
}

/**
 * Heartbeat: the caller is in the view (typing or not) for another PRESENCE_TTL seconds. Rows of this
 * ticket whose time ran out are deleted in the same transaction; that delete fires the presence
 * trigger, so the others' views drop a viewer who left without saying goodbye. A beat that only moves
 * `expires_at` stays silent (migration 0010).
 */
export async function recordPresence(deps: PresenceDeps, staff: Actor, ticketId: string, input: TicketPresenceInput): Promise<TicketPresence> {
  await requireTicket(deps.db, ticketId);
  await deps.db.transaction(async (tx) => {
    await tx.delete(ticketPresence).where(and(eq(ticketPresence.ticketId, ticketId), lte(ticketPresence.expiresAt, sql`now()`)));
    await tx.insert(ticketPresence)
      .values({ ticketId, userId: staff.id, typing: input.typing, expiresAt })
      .onConflictDoUpdate({ target: [ticketPresence.ticketId, ticketPresence.userId], set: { typing: input.typing, expiresAt } });
  });
  return { viewers: await otherViewers(deps.db, staff, ticketId) };
}

/** Leaving the view. Idempotent: leaving twice, or a ticket that is gone, is no error. */
export async function leavePresence(deps: PresenceDeps, staff: Actor, ticketId: string): Promise<void> {
  await deps.db.delete(ticketPresence).where(and(eq(ticketPresence.ticketId, ticketId), eq(ticketPresence.userId, staff.id)));
}

/**
 * The other staff members in the view, sorted by name: not the caller, not expired, and only active
 * staff (someone demoted or disabled disappears at once, not after the TTL).
 */
export async function listPresence(deps: PresenceDeps, staff: Actor, ticketId: string): Promise<TicketPresence> {
  await requireTicket(deps.db, ticketId);
  return { viewers: await otherViewers(deps.db, staff, ticketId) };
}

function otherViewers(db: Db, staff: Actor, ticketId: string) {
  return db
    .select({ name: users.username, typing: ticketPresence.typing })
    .from(ticketPresence)
    .innerJoin(users, eq(users.id, ticketPresence.userId))
    .where(and(
      eq(ticketPresence.ticketId, ticketId),
      ne(ticketPresence.userId, staff.id),
      gt(ticketPresence.expiresAt, sql`now()`),
      isNull(users.disabledAt),
      sql`${users.role} in ('employee', 'owner')`,
    ))
    .orderBy(asc(users.username));
}

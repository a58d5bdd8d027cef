import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { LiveEvent } from '@hp/contract';
import { serverAccess, servers, sessions, tickets, users } from '../../db/schema/index.ts';

export interface Audience {
  /** The session is still open (not logged out, expired, disabled or role-changed): otherwise end its stream. */
  valid: boolean;
  /** May see the server by the REST routes' rules: staff all servers, customers own and shared ones. */
  allowed: boolean;
}

/**
 * Who of the listening sessions may hear about `serverId`: one indexed query per event for all streams
 * of this instance, so a revoked share or a logout counts from the next event on. A deleted server's
 * event still reaches its owner (their list drops it); a vanished row reaches staff only.
 */
export async function findAudience(db: Db, serverId: string, sessionIds: string[]): Promise<Map<string, Audience>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .select({
      sessionId: sessions.id,
      valid: sql<boolean>`(${sessions.revokedAt} is null and ${sessions.expiresAt} > now() and ${users.disabledAt} is null and ${users.role} = ${sessions.role})`,
      allowed: sql<boolean>`(${users.role} in ('employee', 'owner') or ${servers.ownerId} = ${users.id} or exists (select 1 from ${serverAccess} where ${serverAccess.serverId} = ${servers.id} and ${serverAccess.userId} = ${users.id}))`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(servers, eq(servers.id, serverId))
    .where(and(inArray(sessions.id, sessionIds)));
  return new Map(rows.map((r) => [r.sessionId, { valid: r.valid === true, allowed: r.allowed === true }]));
}

/**
 * Who of the listening sessions may hear about a ticket, by the ticket routes' rules: staff every ticket,
 * a customer only their own. `ticket.noted` (an internal note) is for staff only.
 */
export async function findTicketAudience(db: Db, ticketId: string, staffOnly: boolean, sessionIds: string[]): Promise<Map<string, Audience>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .select({
      sessionId: sessions.id,
      valid: sql<boolean>`(${sessions.revokedAt} is null and ${sessions.expiresAt} > now() and ${users.disabledAt} is null and ${users.role} = ${sessions.role})`,
      allowed: staffOnly
        ? sql<boolean>`(${users.role} in ('employee', 'owner'))`
        : sql<boolean>`(${users.role} in ('employee', 'owner') or ${tickets.customerId} = ${users.id})`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(tickets, eq(tickets.id, ticketId))
    .where(and(inArray(sessions.id, sessionIds)));
  return new Map(rows.map((r) => [r.sessionId, { valid: r.valid === true, allowed: r.allowed === true }]));
}

/** Which of these sessions are still open (the `valid` rule above); sessions not found are not. */
export async function findOpenSessions(db: Db, sessionIds: string[]): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await db
    .select({ sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(inArray(sessions.id, sessionIds), sql`${sessions.revokedAt} is null and ${sessions.expiresAt} > now() and ${users.disabledAt} is null and ${users.role} = ${sessions.role}`));
  return new Set(rows.map((r) => r.sessionId));
}

/** The audience of any live event. */
export function findEventAudience(db: Db, event: LiveEvent, sessionIds: string[]): Promise<Map<string, Audience>> {
  switch (event.type) {
    case 'server.changed':
    case 'task.changed':
      return findAudience(db, event.serverId, sessionIds);
    case 'ticket.changed':
      return findTicketAudience(db, event.ticketId, false, sessionIds);
    case 'ticket.noted':
    case 'ticket.presence':
      return findTicketAudience(db, event.ticketId, true, sessionIds);
  }
}

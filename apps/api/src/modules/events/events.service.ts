import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { LiveEvent } from '@hp/contract';
import { serverAccess, servers, sessions, tickets, users } from '../../db/schema/index.ts';

/**
 * Who besides staff may hear each event, found from the resources themselves (docs/decisions/029): a
 * server's owner and the accounts it is shared with; a ticket's customer. Internal notes and staff
 * presence reach staff only. Staff see every server and every ticket by the REST routes' rules. A
 * deleted server's event still reaches its owner (their list drops it); a vanished row reaches staff only.
 * Three indexed queries per batch of events, however many streams are open.
 */
export async function findEventTargets(db: Db, events: LiveEvent[]): Promise<string[][]> {
  const serverIds = [...new Set(events.flatMap((e) => (e.type === 'server.changed' || e.type === 'task.changed' ? [e.serverId] : [])))];
  const ticketIds = [...new Set(events.flatMap((e) => (e.type === 'ticket.changed' ? [e.ticketId] : [])))];
  const [owners, shares, ticketRows] = await Promise.all([
    serverIds.length ? db.select({ id: servers.id, ownerId: servers.ownerId }).from(servers).where(inArray(servers.id, serverIds)) : [],
    serverIds.length ? db.select({ serverId: serverAccess.serverId, userId: serverAccess.userId }).from(serverAccess).where(inArray(serverAccess.serverId, serverIds)) : [],
    ticketIds.length ? db.select({ id: tickets.id, customerId: tickets.customerId }).from(tickets).where(inArray(tickets.id, ticketIds)) : [],
  ]);
  const byServer = new Map<string, string[]>();
  for (const row of owners) if (row.ownerId) byServer.set(row.id, [row.ownerId]);
  for (const row of shares) byServer.get(row.serverId)?.push(row.userId);
  const byTicket = new Map(ticketRows.map((row) => [row.id, row.customerId]));
  return events.map((e) => {
    switch (e.type) {
      case 'server.changed':
      case 'task.changed':
        return byServer.get(e.serverId) ?? [];
      case 'ticket.changed': {
        const customer = byTicket.get(e.ticketId);
        return customer ? [customer] : [];
      }
      case 'ticket.noted':
      case 'ticket.presence':
        return [];
    }
  });
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

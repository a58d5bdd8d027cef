import { and, asc, count, desc, eq, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  resolvePaging,
  ticketMessages as m,
  type CreateTicketInput,
  type StaffTicketDetail,
  type StaffTicketListQuery,
  type StaffTicketPage,
  type StaffTicketRow,
  type Ticket,
  type TicketAttachment,
  type TicketMessage,
  type TicketMessagePage,
  type TicketMailSetting,
  type TicketMessagesQuery,
  type TicketStatusInput,
  type TicketType,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { ipAddresses, nodes, servers, serverTasks, ticketMessages, tickets, users } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { ticketAnsweredMail, ticketClosedMail, ticketWaitingMail } from '../../drivers/mail/templates.ts';
import { containsPattern } from '../../lib/like.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';
import { attachUploads, attachmentsOf } from './attachments.service.ts';
import { wipeSecrets } from './secrets.service.ts';

type TicketDeps = Pick<Deps, 'db' | 'env'>;
type Actor = Pick<RequestUser, 'id'>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const isStaff = sql`${users.role} in ('employee', 'owner')`;

const customerTicketUrl = (deps: TicketDeps, id: string) => `${deps.env.publicUrl}/support/${id}`;
const staffTicketUrl = (deps: TicketDeps, id: string) => `${deps.env.publicUrl}/supporter/${id}`;

const ticketColumns = {
  ticket: tickets,
  serverName: servers.name,
};

const toTicket = (row: { ticket: typeof tickets.$inferSelect; serverName: string | null }): Ticket => ({
  id: row.ticket.id,
  title: row.ticket.title,
  description: row.ticket.description,
  type: row.ticket.type,
  status: row.ticket.status,
  server: row.ticket.serverId && row.serverName ? { id: row.ticket.serverId, name: row.serverName } : null,
  createdAt: row.ticket.createdAt.toISOString(),
  updatedAt: row.ticket.updatedAt.toISOString(),
});

const ticketQuery = (db: Db, where: SQL | undefined) =>
  db.select(ticketColumns).from(tickets).leftJoin(servers, eq(servers.id, tickets.serverId)).where(where);

// ---------------------------------------------------------------- customer

export async function listOwnTickets({ db }: TicketDeps, user: Actor): Promise<Ticket[]> {
  const rows = await ticketQuery(db, eq(tickets.customerId, user.id)).orderBy(desc(tickets.createdAt), desc(tickets.id));
  return rows.map(toTicket);
}

/** The customer's own ticket; another customer's is "not found" (the same answer as a missing one). */
export async function getOwnTicket({ db }: TicketDeps, user: Actor, id: string): Promise<Ticket> {
  const [row] = await ticketQuery(db, and(eq(tickets.id, id), eq(tickets.customerId, user.id)));
  if (!row) throw notFound(m.ticketNotFound);
  return toTicket(row);
}

export async function getTicketMailSetting({ db }: TicketDeps, staff: Actor): Promise<TicketMailSetting> {
  const [row] = await db.select({ optOut: users.ticketMailOptOut }).from(users).where(eq(users.id, staff.id));
  return { enabled: !row?.optOut };
}

export async function setTicketMailSetting(deps: TicketDeps, staff: Actor, input: TicketMailSetting): Promise<TicketMailSetting> {
  await deps.db.update(users).set({ ticketMailOptOut: !input.enabled }).where(eq(users.id, staff.id));
  return getTicketMailSetting(deps, staff);
}

/**
 * Staff to tell about a waiting ticket: its assignee, or every active staff account while unassigned;
 * in both cases only those who did not switch ticket mails off.
 */
async function staffRecipients(tx: Tx, assigneeId: string | null): Promise<string[]> {
  const rows = await tx.select({ email: users.email }).from(users)
    .where(and(isNull(users.disabledAt), isStaff, eq(users.ticketMailOptOut, false), assigneeId ? eq(users.id, assigneeId) : undefined));
  return rows.map((r) => r.email);
}

/**
 * Every new ticket and customer reply mails staff, so a burst (a script, a stuck client) would flood
 * their inboxes: per account at most this many, counted atomically across instances (lib/rate-limit.ts).
 */
export const TICKET_LIMITS = {
  open: { limit: 10, windowSeconds: 3600 },
  message: { limit: 30, windowSeconds: 300 },
} as const;

/** Opens a ticket; `type` may be one a customer cannot pick in "Neues Ticket" when a product's own form opens it ("VDC-Anfrage"). */
export async function openTicket(deps: TicketDeps, user: Pick<RequestUser, 'id' | 'username'>, input: Omit<CreateTicketInput, 'type'> & { type: TicketType }): Promise<Ticket> {
  await enforceLimit(deps.db, { key: `ticket-open:${user.id}`, ...TICKET_LIMITS.open });
  const id = await deps.db.transaction(async (tx) => {
    if (input.serverId) {
      const [own] = await tx.select({ id: servers.id }).from(servers)
        .where(and(eq(servers.id, input.serverId), eq(servers.ownerId, user.id), isNull(servers.deletedAt)));
      if (!own) throw notFound(m.serverNotFound);
    }
    const now = new Date();
    const [ticket] = await tx.insert(tickets).values({
      customerId: user.id, title: input.title, description: input.description, type: input.type,
      serverId: input.serverId ?? null, createdAt: now, updatedAt: now, waitingSince: now,
    }).returning({ id: tickets.id });
    for (const to of await staffRecipients(tx, null)) {
      await enqueueMail(tx, ticketWaitingMail(to, 'new', user.username, input.title, staffTicketUrl(deps, ticket!.id)));
    }
    return ticket!.id;
  });
  return getOwnTicket(deps, user, id);
}

export async function postCustomerMessage(deps: TicketDeps, user: Pick<RequestUser, 'id' | 'username'>, id: string, input: { body: string; attachmentIds: string[] }): Promise<TicketMessage> {
  await enforceLimit(deps.db, { key: `ticket-message:${user.id}`, ...TICKET_LIMITS.message });
  return deps.db.transaction(async (tx) => {
    // The row lock orders this message against a parallel close.
    const [ticket] = await tx.select().from(tickets).where(and(eq(tickets.id, id), eq(tickets.customerId, user.id))).for('update');
    if (!ticket) throw notFound(m.ticketNotFound);
    if (ticket.status === 'closed') throw conflict('TICKET_CLOSED', m.ticketIsClosed);
    const now = new Date();
    const [message] = await tx.insert(ticketMessages).values({ ticketId: id, authorId: user.id, fromStaff: false, body: input.body, createdAt: now }).returning();
    await attachUploads(tx, id, user.id, message!.id, input.attachmentIds);
    await tx.update(tickets).set({ updatedAt: now, waitingSince: ticket.waitingSince ?? now }).where(eq(tickets.id, id));
    for (const to of await staffRecipients(tx, ticket.assigneeId)) {
      await enqueueMail(tx, ticketWaitingMail(to, 'reply', user.username, ticket.title, staffTicketUrl(deps, id)));
    }
    return toMessage({ message: message!, authorName: null }, 'customer', (await attachmentsOf(tx, [message!.id])).get(message!.id));
  });
}

export async function closeOwnTicket(deps: TicketDeps, user: Actor, id: string): Promise<Ticket> {
  const closed = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const rows = await tx.update(tickets).set({ status: 'closed', closedAt: now, updatedAt: now, waitingSince: null })
      .where(and(eq(tickets.id, id), eq(tickets.customerId, user.id), ne(tickets.status, 'closed'))).returning({ id: tickets.id });
    if (rows.length > 0) await wipeSecrets(tx, id, now);
    return rows;
  });
  if (closed.length === 0) {
    await getOwnTicket(deps, user, id);
    throw conflict('TICKET_ALREADY_CLOSED', m.alreadyClosed);
  }
  return getOwnTicket(deps, user, id);
}

// ---------------------------------------------------------------- messages (both sides)

const toMessage = (row: { message: typeof ticketMessages.$inferSelect; authorName: string | null }, viewer: 'customer' | 'staff', attachments: TicketAttachment[] = []): TicketMessage => ({
  id: row.message.id,
  body: row.message.body,
  author: row.message.fromStaff ? 'staff' : 'customer',
  authorName: viewer === 'staff' ? row.authorName : null,
  internal: row.message.internal,
  attachments,
  createdAt: row.message.createdAt.toISOString(),
});

/**
 * One page of the chat, newest first. Customers never get internal notes: the filter is part of the
 * query, not of the rendering. The cursor is the sequence of the oldest message on the page.
 */
async function messagePage(db: Db, ticketId: string, query: TicketMessagesQuery, viewer: 'customer' | 'staff'): Promise<TicketMessagePage> {
  const rows = await db
    .select({ message: ticketMessages, authorName: users.username })
    .from(ticketMessages)
    .innerJoin(users, eq(users.id, ticketMessages.authorId))
    .where(and(
      eq(ticketMessages.ticketId, ticketId),
      viewer === 'customer' ? eq(ticketMessages.internal, false) : undefined,
      query.before ? lt(ticketMessages.seq, Number(query.before)) : undefined,
    ))
    .orderBy(desc(ticketMessages.seq))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const nextCursor = rows.length > query.limit ? String(page[page.length - 1]!.message.seq) : null;
  const attachments = await attachmentsOf(db, page.map((r) => r.message.id));
  return { items: page.map((r) => toMessage(r, viewer, attachments.get(r.message.id))), nextCursor };
}

export async function listOwnTicketMessages(deps: TicketDeps, user: Actor, id: string, query: TicketMessagesQuery): Promise<TicketMessagePage> {
  await getOwnTicket(deps, user, id);
  return messagePage(deps.db, id, query, 'customer');
}

export async function listStaffTicketMessages(deps: TicketDeps, id: string, query: TicketMessagesQuery): Promise<TicketMessagePage> {
  const [ticket] = await deps.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, id));
  if (!ticket) throw notFound(m.ticketNotFound);
  return messagePage(deps.db, id, query, 'staff');
}

// ---------------------------------------------------------------- staff

const customers = alias(users, 'customers');
const assignees = alias(users, 'assignees');


/**
 * ORDER BY of a staff list, always ending in the id so pages are stable. Each sort matches one index
 * of db/schema/tickets.ts exactly (direction and NULLS placement included), else PostgreSQL sorts every
 * matching row before it can answer a page: the NOT NULL columns take the plain direction (a backward
 * index scan), and waiting, where tickets nobody waits on go last either way, `nulls last`.
 */
function orderBy(sort: string | undefined): SQL[] {
  const value = sort ?? '-createdAt';
  const descending = value.startsWith('-');
  const field = descending ? value.slice(1) : value;
  if (field === 'waiting') {
    return descending
      ? [sql`${tickets.waitingSince} desc nulls last`, desc(tickets.id)]
      : [sql`${tickets.waitingSince} asc nulls last`, asc(tickets.id)];
  }
  const column = field === 'status' ? tickets.status : field === 'type' ? tickets.type : tickets.createdAt;
  return descending ? [desc(column), desc(tickets.id)] : [asc(column), asc(tickets.id)];
}

/**
 * Search: title or customer name contains the term, case-insensitive. Written so that both halves can
 * use an index and PostgreSQL can OR them as bitmaps: the title by trigram, the customer as
 * `customer_id = any(array(…))` with the matching customers' ids taken from the name's trigram index
 * (a join on the name would force a scan of every ticket in the list instead). A term of one or two
 * characters has no trigram: it matches a large share of all customers, so their ids go into a hashed
 * set that the list's rows are checked against (`in (select …)`), not into thousands of index probes.
 */
function searchCondition(term: string): SQL {
  const pattern = containsPattern(term);
  const matchingCustomers = sql`select ${users.id} from ${users} where ${users.username} ilike ${pattern}`;
  return term.length >= 3
    ? sql`(${tickets.title} ilike ${pattern} or ${tickets.customerId} = any(array(${matchingCustomers})))`
    : sql`(${tickets.title} ilike ${pattern} or ${tickets.customerId} in (${matchingCustomers}))`;
}

/**
 * The staff lists: `unassigned` (open or in progress, nobody holds it: the overview) or `mine` (held
 * by the signed-in staff member, closed ones included). Search: title or customer name, case-insensitive.
 *
 * The page is chosen on tickets alone (one index scan in the sort's order, or the search's bitmaps),
 * and only its rows are joined to the customer and assignee names: an offset of thousands of rows then
 * costs index entries, not joins. With a search the matching set is small and read in full anyway, so
 * the same statement counts it (`count(*) over ()`); without one the total is a second statement, an
 * index-only count that needs no join (every ticket has a customer). The benchmark
 * (bench/tickets-bench.ts) EXPLAINs exactly these statements.
 */
export function staffTicketQueries(db: Db, staff: Actor, scope: 'unassigned' | 'mine', query: StaffTicketListQuery) {
  const paging = resolvePaging(query);
  const where = and(
    // The overview's condition is the predicate of its partial indexes (db/schema/tickets.ts).
    scope === 'unassigned' ? and(isNull(tickets.assigneeId), ne(tickets.status, 'closed')) : eq(tickets.assigneeId, staff.id),
    paging.q ? searchCondition(paging.q) : undefined,
    query.status ? eq(tickets.status, query.status) : undefined,
    query.type ? eq(tickets.type, query.type) : undefined,
  );
  const order = orderBy(query.sort);
  const countInPage = Boolean(paging.q);
  const page = db.select({ id: tickets.id, total: (countInPage ? sql`count(*) over ()` : sql`null`).mapWith(Number).as('total') })
    .from(tickets).where(where).orderBy(...order).limit(paging.limit).offset(paging.offset)
    .as('page');
  return {
    paging,
    countInPage,
    rows: db.select({ ticket: tickets, customerNumber: customers.customerNumber, customerName: customers.username, assigneeName: assignees.username, total: page.total })
      .from(page)
      .innerJoin(tickets, eq(tickets.id, page.id))
      .innerJoin(customers, eq(customers.id, tickets.customerId))
      .leftJoin(assignees, eq(assignees.id, tickets.assigneeId))
      .orderBy(...order),
    total: db.select({ total: count() }).from(tickets).where(where),
  };
}

export async function findStaffTickets({ db }: TicketDeps, staff: Actor, scope: 'unassigned' | 'mine', query: StaffTicketListQuery): Promise<StaffTicketPage> {
  const q = staffTicketQueries(db, staff, scope, query);
  const [rows, counted] = await Promise.all([q.rows, q.countInPage ? undefined : q.total]);
  // A search counts in the page's statement; past the last page there is no row to carry the count.
  const total = counted ? counted[0]?.total ?? 0
    : rows[0] ? rows[0].total
      : q.paging.offset > 0 ? (await q.total)[0]?.total ?? 0 : 0;
  const items: StaffTicketRow[] = rows.map((r) => ({
    id: r.ticket.id,
    title: r.ticket.title,
    type: r.ticket.type,
    status: r.ticket.status,
    customer: { customerNumber: r.customerNumber, name: r.customerName },
    assignee: r.assigneeName ? { name: r.assigneeName } : null,
    waitingSince: iso(r.ticket.waitingSince),
    createdAt: r.ticket.createdAt.toISOString(),
    updatedAt: r.ticket.updatedAt.toISOString(),
  }));
  return { items, total, page: q.paging.page, pageSize: q.paging.pageSize };
}

const serverIp = sql<string | null>`(select ${ipAddresses.address} from ${ipAddresses} where ${ipAddresses.serverId} = ${servers.id} order by (${ipAddresses.version} = 'IPv4') desc, ${ipAddresses.id} limit 1)`;

export async function getStaffTicket({ db }: TicketDeps, staff: Actor, id: string): Promise<StaffTicketDetail> {
  const [row] = await db
    .select({ ticket: tickets, customer: customers, assigneeName: assignees.username })
    .from(tickets)
    .innerJoin(customers, eq(customers.id, tickets.customerId))
    .leftJoin(assignees, eq(assignees.id, tickets.assigneeId))
    .where(eq(tickets.id, id));
  if (!row) throw notFound(m.ticketNotFound);
  const ownServers = await db
    .select({ id: servers.id, name: servers.name, status: servers.status, ip: serverIp, node: nodes.name, deletedAt: servers.deletedAt })
    .from(servers).innerJoin(nodes, eq(nodes.id, servers.nodeId))
    .where(row.ticket.serverId ? or(eq(servers.ownerId, row.customer.id), eq(servers.id, row.ticket.serverId)) : eq(servers.ownerId, row.customer.id))
    .orderBy(asc(servers.vmid));
  const affected = ownServers.find((s) => s.id === row.ticket.serverId);
  const recentTasks = affected
    ? await db.select({ id: serverTasks.id, kind: serverTasks.kind, status: serverTasks.status, startedAt: serverTasks.startedAt })
      .from(serverTasks).where(eq(serverTasks.serverId, affected.id)).orderBy(desc(serverTasks.startedAt)).limit(5)
    : [];
  const t = row.ticket;
  return {
    id: t.id, title: t.title, description: t.description, type: t.type, status: t.status,
    server: affected ? { id: affected.id, name: affected.name } : null,
    createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString(),
    assignee: t.assigneeId && row.assigneeName ? { id: t.assigneeId, name: row.assigneeName } : null,
    mine: t.assigneeId === staff.id,
    waitingSince: iso(t.waitingSince),
    firstResponseAt: iso(t.firstResponseAt),
    customer: {
      id: row.customer.id,
      customerNumber: row.customer.customerNumber,
      name: row.customer.username,
      email: row.customer.email,
      servers: ownServers.filter((s) => !s.deletedAt).map((s) => ({ id: s.id, name: s.name, status: s.status, ip: s.ip })),
    },
    affectedServer: affected
      ? {
        id: affected.id, name: affected.name, status: affected.status, ip: affected.ip, node: affected.node,
        recentTasks: recentTasks.map((t) => ({ id: t.id, kind: t.kind, status: t.status, startedAt: t.startedAt.toISOString() })),
      }
      : null,
  };
}

/** The mail's text for an answer that is only files (the files themselves are never mailed). */
const ATTACHMENT_ONLY_TEXT = 'Der Support hat Ihnen eine Datei gesendet. Sie finden sie im Ticket.';

/** A staff answer (mailed to the customer) or an internal note (never leaves staff: no mail, no customer event). */
export async function postStaffMessage(deps: TicketDeps, staff: Actor, id: string, input: { body: string; internal: boolean; attachmentIds: string[] }): Promise<TicketMessage> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select({ ticket: tickets, customer: customers }).from(tickets)
      .innerJoin(customers, eq(customers.id, tickets.customerId)).where(eq(tickets.id, id)).for('update', { of: tickets });
    if (!row) throw notFound(m.ticketNotFound);
    if (!input.internal && row.ticket.status === 'closed') throw conflict('TICKET_CLOSED', m.ticketIsClosed);
    const now = new Date();
    const [message] = await tx.insert(ticketMessages).values({ ticketId: id, authorId: staff.id, fromStaff: true, internal: input.internal, body: input.body, createdAt: now }).returning();
    await attachUploads(tx, id, staff.id, message!.id, input.attachmentIds);
    if (!input.internal) {
      await tx.update(tickets).set({ updatedAt: now, waitingSince: null, firstResponseAt: row.ticket.firstResponseAt ?? now }).where(eq(tickets.id, id));
      await enqueueMail(tx, ticketAnsweredMail(row.customer.email, row.customer.username, row.ticket.title, input.body || ATTACHMENT_ONLY_TEXT, customerTicketUrl(deps, id)));
    }
    const [author] = await tx.select({ name: users.username }).from(users).where(eq(users.id, staff.id));
    return toMessage({ message: message!, authorName: author?.name ?? null }, 'staff', (await attachmentsOf(tx, [message!.id])).get(message!.id));
  });
}

export async function setTicketStatus(deps: TicketDeps, staff: Actor, id: string, input: TicketStatusInput): Promise<StaffTicketDetail> {
  const updated = await deps.db.update(tickets).set({ status: input.status, updatedAt: new Date() })
    .where(and(eq(tickets.id, id), ne(tickets.status, 'closed'))).returning({ id: tickets.id });
  if (updated.length === 0) {
    await getStaffTicket(deps, staff, id);
    throw conflict('TICKET_ALREADY_CLOSED', m.alreadyClosed);
  }
  return getStaffTicket(deps, staff, id);
}

/**
 * Take-over: one conditional UPDATE, so of any number of parallel attempts exactly one finds the ticket
 * unassigned; the others get 409 with the spec's text. Taking over one's own ticket again is a no-op.
 */
export async function takeOverTicket(deps: TicketDeps, staff: Actor, id: string): Promise<StaffTicketDetail> {
  const taken = await deps.db.update(tickets).set({ assigneeId: staff.id, updatedAt: new Date() })
    .where(and(eq(tickets.id, id), isNull(tickets.assigneeId), ne(tickets.status, 'closed'))).returning({ id: tickets.id });
  if (taken.length === 0) {
    const current = await getStaffTicket(deps, staff, id);
    if (current.status === 'closed') throw conflict('TICKET_ALREADY_CLOSED', m.alreadyClosed);
    if (!current.mine) throw conflict('TICKET_ALREADY_TAKEN', m.alreadyTaken);
    return current;
  }
  return getStaffTicket(deps, staff, id);
}

/** Close: exactly one of parallel attempts changes the row and mails the customer; the others get 409. */
export async function closeTicketAsStaff(deps: TicketDeps, staff: Actor, id: string): Promise<StaffTicketDetail> {
  const closed = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const rows = await tx.update(tickets).set({ status: 'closed', closedAt: now, updatedAt: now, waitingSince: null })
      .where(and(eq(tickets.id, id), ne(tickets.status, 'closed'))).returning({ title: tickets.title, customerId: tickets.customerId });
    const ticket = rows[0];
    if (!ticket) return false;
    await wipeSecrets(tx, id, now);
    const [customer] = await tx.select({ email: users.email, name: users.username }).from(users).where(eq(users.id, ticket.customerId));
    if (customer) await enqueueMail(tx, ticketClosedMail(customer.email, customer.name, ticket.title, customerTicketUrl(deps, id)));
    return true;
  });
  if (!closed) {
    await getStaffTicket(deps, staff, id);
    throw conflict('TICKET_ALREADY_CLOSED', m.alreadyClosed);
  }
  return getStaffTicket(deps, staff, id);
}

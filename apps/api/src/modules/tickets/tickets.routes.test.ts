import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages, ticketMessages as msg, type StaffTicketDetail, type StaffTicketPage, type Ticket, type TicketMessagePage } from '@hp/contract';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { seedServer } from '../../../test/servers.ts';
import { openStream, twoInstancesOnPostgres } from '../../../test/events.ts';
import { TICKET_LIMITS } from './tickets.service.ts';
import { jobs, ticketMessages, tickets } from '../../db/schema/index.ts';

type User = Awaited<ReturnType<typeof createUser>>;

const newTicket = (ctx: TestContext, who: User, payload: Record<string, unknown> = {}) =>
  ctx.app.inject({ method: 'POST', url: '/api/tickets', headers: who.auth, payload: { title: 'Server antwortet nicht', description: 'Seit heute früh keine Verbindung.', type: 'issue', ...payload } });

async function openTicketAs(ctx: TestContext, who: User, payload: Record<string, unknown> = {}) {
  const res = await newTicket(ctx, who, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Ticket>();
}

describeEachDatabase('support tickets', (ctx) => {
  let alice: User;
  let bob: User;
  let employee: User;
  let owner: User;
  beforeAll(async () => {
    alice = await createUser(ctx());
    bob = await createUser(ctx());
    employee = await createUser(ctx(), { role: 'employee' });
    owner = await createUser(ctx(), { role: 'owner' });
  });

  it('a burst of 40 parallel new tickets from one account opens exactly the limit and answers the rest 429 in German', async () => {
    const burster = await createUser(ctx());
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => newTicket(ctx(), burster, { title: `Ticket ${i}` })));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(TICKET_LIMITS.open.limit);
    expect(codes.filter((c) => c === 429)).toHaveLength(40 - TICKET_LIMITS.open.limit);
    const refused = results.find((r) => r.statusCode === 429)!;
    expect(refused.json().error.message).toBe(messages.rateLimited);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(await ctx().database.db.select().from(tickets).where(eq(tickets.customerId, burster.user.id))).toHaveLength(TICKET_LIMITS.open.limit);
  });

  it('opens a ticket with a trimmed title and description, starting open and unassigned, about an own server', async () => {
    const { server } = await seedServer(ctx(), alice.user.id);
    const ticket = await openTicketAs(ctx(), alice, { title: '  Kein Ping  ', description: '  hilfe \n', serverId: server.id, type: 'technical' });
    expect(ticket).toMatchObject({ title: 'Kein Ping', description: 'hilfe', type: 'technical', status: 'open', server: { id: server.id, name: server.name } });
    const list = await ctx().app.inject({ method: 'GET', url: '/api/tickets', headers: alice.auth });
    expect(list.json<{ tickets: Ticket[] }>().tickets.map((t) => t.id)).toContain(ticket.id);
    const [row] = await ctx().database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row!.assigneeId).toBeNull();
  });

  it('refuses an empty title, an empty description, an unknown type and unknown fields with German messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '   ' }, msg.titleRequired],
      [{ description: '' }, msg.descriptionRequired],
      [{ type: 'urgent' }, msg.typeRequired],
      [{ status: 'closed' }, 'Die Eingabe ist ungültig. Bitte prüfen Sie Ihre Angaben.'],
    ];
    for (const [payload, message] of cases) {
      const res = await newTicket(ctx(), alice, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
  });

  it("refuses another customer's server as the affected server (404, no ticket created)", async () => {
    const { server } = await seedServer(ctx(), bob.user.id);
    const before = await ctx().database.db.select().from(tickets).where(eq(tickets.customerId, alice.user.id));
    const res = await newTicket(ctx(), alice, { serverId: server.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(msg.serverNotFound);
    const after = await ctx().database.db.select().from(tickets).where(eq(tickets.customerId, alice.user.id));
    expect(after.length).toBe(before.length);
  });

  it("answers 404 for another customer's ticket on every route, and changes nothing", async () => {
    const ticket = await openTicketAs(ctx(), bob);
    const urls: [string, string, unknown?][] = [
      ['GET', `/api/tickets/${ticket.id}`],
      ['GET', `/api/tickets/${ticket.id}/messages`],
      ['POST', `/api/tickets/${ticket.id}/messages`, { body: 'Hallo' }],
      ['POST', `/api/tickets/${ticket.id}/close`],
    ];
    for (const [method, url, payload] of urls) {
      const res = await ctx().app.inject({ method: method as 'GET', url, headers: alice.auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.message).toBe(msg.ticketNotFound);
    }
    const [row] = await ctx().database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row!.status).toBe('open');
    expect(await ctx().database.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticket.id))).toEqual([]);
    // Staff routes are not a way around it.
    const staffRoute = await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${ticket.id}`, headers: alice.auth });
    expect(staffRoute.statusCode).toBe(403);
  });

  it('refuses empty messages and messages to a closed ticket', async () => {
    const ticket = await openTicketAs(ctx(), alice);
    const empty = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/messages`, headers: alice.auth, payload: { body: ' \n ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(msg.messageRequired);
    const close = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/close`, headers: alice.auth });
    expect(close.json().status).toBe('closed');
    const again = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/close`, headers: alice.auth });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(msg.alreadyClosed);
    const late = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/messages`, headers: alice.auth, payload: { body: 'Noch etwas' } });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(msg.ticketIsClosed);
  });

  it('lists unassigned open tickets for staff with search by title or customer name, filters, sort and paging', async () => {
    const customer = await createUser(ctx());
    const a = await openTicketAs(ctx(), customer, { title: 'Rechnung doppelt ZZQ', type: 'billing' });
    const b = await openTicketAs(ctx(), customer, { title: 'Festplatte voll ZZQ', type: 'problem' });
    const byTitle = await ctx().app.inject({ method: 'GET', url: '/api/staff/tickets?q=zzq', headers: employee.auth });
    expect(byTitle.statusCode).toBe(200);
    const page = byTitle.json<StaffTicketPage>();
    expect(page.items.map((t) => t.id)).toEqual([b.id, a.id]);
    expect(page.total).toBe(2);
    const byName = await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets?q=${customer.username.toUpperCase()}&type=billing`, headers: owner.auth });
    expect(byName.json<StaffTicketPage>().items.map((t) => t.id)).toEqual([a.id]);
    const sorted = await ctx().app.inject({ method: 'GET', url: '/api/staff/tickets?q=zzq&sort=createdAt&pageSize=1&page=2', headers: employee.auth });
    expect(sorted.json<StaffTicketPage>()).toMatchObject({ total: 2, page: 2, pageSize: 1, items: [{ id: b.id }] });
    const waiting = await ctx().app.inject({ method: 'GET', url: '/api/staff/tickets?q=zzq&sort=-waiting', headers: employee.auth });
    expect(waiting.statusCode).toBe(200);
    const wildcard = await ctx().app.inject({ method: 'GET', url: '/api/staff/tickets?q=%25', headers: employee.auth });
    expect(wildcard.statusCode).toBe(200);
    const bad = await ctx().app.inject({ method: 'GET', url: '/api/staff/tickets?sort=customerId', headers: employee.auth });
    expect(bad.statusCode).toBe(400);
    const asCustomer = await ctx().app.inject({ method: 'GET', url: '/api/staff/tickets', headers: customer.auth });
    expect(asCustomer.statusCode).toBe(403);
  });

  it('counts a search past its last page, finds one- and two-character terms and searches the staff member\'s own list by customer name', async () => {
    const customer = await createUser(ctx());
    const staffer = await createUser(ctx(), { role: 'employee' });
    const a = await openTicketAs(ctx(), customer, { title: 'Speicher ÄÖ voll', type: 'problem' });
    const b = await openTicketAs(ctx(), customer, { title: 'Speicher ÄÖ erweitern', type: 'question' });
    const get = (url: string, who: User = staffer) => ctx().app.inject({ method: 'GET', url, headers: who.auth }).then((r) => r.json<StaffTicketPage>());
    expect(await get(`/api/staff/tickets?q=${encodeURIComponent('ÄÖ')}&sort=type`)).toMatchObject({ total: 2, items: [{ id: a.id }, { id: b.id }] });
    expect(await get(`/api/staff/tickets?q=${encodeURIComponent('speicher ÄÖ')}&pageSize=1&page=5`)).toMatchObject({ total: 2, page: 5, items: [] });
    expect(await get('/api/staff/tickets?type=problem&status=open&pageSize=1&page=100000')).toMatchObject({ items: [], page: 100000 });
    await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${b.id}/assign`, headers: staffer.auth });
    expect(await get(`/api/staff/tickets/mine?q=${customer.username.slice(2, 12).toUpperCase()}&sort=-waiting`)).toMatchObject({ total: 1, items: [{ id: b.id }] });
    expect(await get(`/api/staff/tickets?q=${customer.username}`)).toMatchObject({ total: 1, items: [{ id: a.id }] });
  });

  it('shows staff the customer, their servers and the affected server with IP and node', async () => {
    const customer = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), customer.user.id);
    const ticket = await openTicketAs(ctx(), customer, { serverId: server.id });
    const res = await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${ticket.id}`, headers: employee.auth });
    expect(res.statusCode).toBe(200);
    const detail = res.json<StaffTicketDetail>();
    expect(detail.customer).toMatchObject({ customerNumber: customer.user.customerNumber, name: customer.username, email: customer.email });
    expect(detail.customer.servers).toEqual([expect.objectContaining({ id: server.id, status: 'online' })]);
    expect(detail.affectedServer).toMatchObject({ id: server.id, node: node.name, ip: expect.stringMatching(/^10\./), recentTasks: [] });
    await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: customer.auth, payload: { action: 'stop' } });
    const after = (await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${ticket.id}`, headers: employee.auth })).json<StaffTicketDetail>();
    expect(after.affectedServer!.recentTasks).toEqual([expect.objectContaining({ kind: 'stop' })]);
  });

  it('lets exactly one of 10 parallel take-overs win; the others get 409 with the spec text', async () => {
    const ticket = await openTicketAs(ctx(), alice);
    const staff = await Promise.all(Array.from({ length: 10 }, () => createUser(ctx(), { role: 'employee' })));
    const results = await Promise.all(staff.map((s) => ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/assign`, headers: s.auth })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const lost = results.filter((r) => r.statusCode !== 200);
    expect(lost.every((r) => r.statusCode === 409 && r.json().error.message === msg.alreadyTaken)).toBe(true);
    const winner = staff[results.findIndex((r) => r.statusCode === 200)]!;
    expect(results.find((r) => r.statusCode === 200)!.json<StaffTicketDetail>()).toMatchObject({ mine: true, assignee: { name: winner.username } });
    // It left the overview and is in the winner's list.
    const mine = await ctx().app.inject({ method: 'GET', url: '/api/staff/tickets/mine', headers: winner.auth });
    expect(mine.json<StaffTicketPage>().items.map((t) => t.id)).toEqual([ticket.id]);
    const overview = await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets?q=${encodeURIComponent(alice.username)}`, headers: employee.auth });
    expect(overview.json<StaffTicketPage>().items.map((t) => t.id)).not.toContain(ticket.id);
  });

  it('lets exactly one of 10 parallel closes succeed and mails the customer once', async () => {
    const customer = await createUser(ctx());
    const ticket = await openTicketAs(ctx(), customer);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/close`, headers: (i % 2 ? owner : employee).auth })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().error.message === msg.alreadyClosed)).toBe(true);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(9);
    await ctx().app.jobs.drain();
    const mails = ctx().mail.sent.filter((m) => m.to === customer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`/support/${ticket.id}`);
    const status = await ctx().app.inject({ method: 'PUT', url: `/api/staff/tickets/${ticket.id}/status`, headers: employee.auth, payload: { status: 'open' } });
    expect(status.statusCode).toBe(409);
  });

  it('sets the status to open or in progress only', async () => {
    const ticket = await openTicketAs(ctx(), alice);
    const ok = await ctx().app.inject({ method: 'PUT', url: `/api/staff/tickets/${ticket.id}/status`, headers: employee.auth, payload: { status: 'in_progress' } });
    expect(ok.json().status).toBe('in_progress');
    const closed = await ctx().app.inject({ method: 'PUT', url: `/api/staff/tickets/${ticket.id}/status`, headers: employee.auth, payload: { status: 'closed' } });
    expect(closed.statusCode).toBe(400);
    expect(closed.json().error.message).toBe(msg.statusInvalid);
  });

  it('keeps internal notes from the customer: not in the chat, not in a mail; answers reach the customer as text', async () => {
    const customer = await createUser(ctx());
    const ticket = await openTicketAs(ctx(), customer, { title: '<b>Titel</b><script>alert(1)</script>' });
    await ctx().app.jobs.drain();
    // A new, unassigned ticket is mailed to every staff member.
    expect(ctx().mail.sent.some((m) => m.to === employee.email && m.text.includes(`/supporter/${ticket.id}`))).toBe(true);
    const note = await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/messages`, headers: employee.auth, payload: { body: 'GEHEIME-NOTIZ Kunde zahlt spät', internal: true } });
    expect(note.statusCode).toBe(201);
    const answer = await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/messages`, headers: employee.auth, payload: { body: 'Bitte <img src=x onerror=alert(1)> neu starten.' } });
    expect(answer.statusCode).toBe(201);
    const reply = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/messages`, headers: customer.auth, payload: { body: 'Danke!' } });
    expect(reply.statusCode).toBe(201);

    const chat = (await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/messages`, headers: customer.auth })).json<TicketMessagePage>();
    expect(chat.items.map((m) => m.body)).toEqual(['Danke!', 'Bitte <img src=x onerror=alert(1)> neu starten.']);
    expect(chat.items.every((m) => !m.internal && m.authorName === null)).toBe(true);
    expect(JSON.stringify(chat)).not.toContain('GEHEIME-NOTIZ');
    const staffChat = (await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${ticket.id}/messages`, headers: owner.auth })).json<TicketMessagePage>();
    expect(staffChat.items.map((m) => m.internal)).toEqual([false, false, true]);
    expect(staffChat.items[1]!.authorName).toBe(employee.username);

    await ctx().app.jobs.drain();
    const toCustomer = ctx().mail.sent.filter((m) => m.to === customer.email);
    expect(toCustomer).toHaveLength(1);
    expect(toCustomer[0]!.text).toContain('Bitte <img src=x onerror=alert(1)> neu starten.');
    expect(toCustomer[0]!.subject).toContain('<b>Titel</b><script>alert(1)</script>');
    expect(toCustomer[0]).not.toHaveProperty('html');
    expect(toCustomer[0]!.text).toContain(`/support/${ticket.id}`);
    expect(ctx().mail.sent.some((m) => m.text.includes('GEHEIME-NOTIZ'))).toBe(false);
    const queued = await ctx().database.db.select().from(jobs);
    expect(JSON.stringify(queued)).not.toContain('GEHEIME-NOTIZ');

    const [row] = await ctx().database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row!.firstResponseAt).not.toBeNull();
    expect(row!.waitingSince).not.toBeNull();
  });

  it('mails a customer reply on an assigned ticket to the assignee only', async () => {
    const customer = await createUser(ctx());
    const ticket = await openTicketAs(ctx(), customer);
    const supporter = await createUser(ctx(), { role: 'employee' });
    await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/assign`, headers: supporter.auth });
    await ctx().app.jobs.drain();
    const sentBefore = ctx().mail.sent.length;
    await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/messages`, headers: customer.auth, payload: { body: 'Noch da?' } });
    await ctx().app.jobs.drain();
    const newMails = ctx().mail.sent.slice(sentBefore);
    expect(newMails.map((m) => m.to)).toEqual([supporter.email]);
  });

  it('sends no ticket mails to a staff member who switched them off, as assignee or as one of all staff', async () => {
    const quiet = await createUser(ctx(), { role: 'employee' });
    const off = await ctx().app.inject({ method: 'PUT', url: '/api/staff/ticket-mails', headers: quiet.auth, payload: { enabled: false } });
    expect(off.json()).toEqual({ enabled: false });
    expect((await ctx().app.inject({ method: 'GET', url: '/api/staff/ticket-mails', headers: quiet.auth })).json()).toEqual({ enabled: false });
    const customer = await createUser(ctx());
    const ticket = await openTicketAs(ctx(), customer);
    await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/assign`, headers: quiet.auth });
    await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/messages`, headers: customer.auth, payload: { body: 'Hallo?' } });
    await ctx().app.jobs.drain();
    expect(ctx().mail.sent.filter((m) => m.to === quiet.email)).toEqual([]);
    expect(ctx().mail.sent.some((m) => m.to === employee.email && m.text.includes(`/supporter/${ticket.id}`))).toBe(true);
    const customerSetting = await ctx().app.inject({ method: 'PUT', url: '/api/staff/ticket-mails', headers: customer.auth, payload: { enabled: false } });
    expect(customerSetting.statusCode).toBe(403);
  });

  it('pages a chat of 2,000 messages newest first with a cursor', async () => {
    const ticket = await openTicketAs(ctx(), alice);
    const rows = Array.from({ length: 2000 }, (_, i) => ({ ticketId: ticket.id, authorId: alice.user.id, fromStaff: false, body: `Nachricht ${i}` }));
    for (let i = 0; i < rows.length; i += 500) await ctx().database.db.insert(ticketMessages).values(rows.slice(i, i + 500));
    const first = (await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/messages?limit=100`, headers: alice.auth })).json<TicketMessagePage>();
    expect(first.items).toHaveLength(100);
    expect(first.items[0]!.body).toBe('Nachricht 1999');
    const second = (await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/messages?limit=100&before=${first.nextCursor}`, headers: alice.auth })).json<TicketMessagePage>();
    expect(second.items[0]!.body).toBe('Nachricht 1899');
    let cursor: string | null = second.nextCursor;
    let seen = 200;
    while (cursor) {
      const page = (await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/messages?limit=100&before=${cursor}`, headers: alice.auth })).json<TicketMessagePage>();
      seen += page.items.length;
      cursor = page.nextCursor;
    }
    expect(seen).toBe(2000);
    const badCursor = await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/messages?before=abc`, headers: alice.auth });
    expect(badCursor.statusCode).toBe(400);
  });

  it("streams ticket events to the ticket's customer and staff only; an internal note reaches staff only", async () => {
    const baseUrl = await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    const customer = await createUser(ctx());
    const stranger = await createUser(ctx());
    const ticket = await openTicketAs(ctx(), customer);
    const own = await openStream(baseUrl, customer.token);
    const other = await openStream(baseUrl, stranger.token);
    const staff = await openStream(baseUrl, employee.token);
    try {
      const note = await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/messages`, headers: employee.auth, payload: { body: 'intern', internal: true } });
      expect(note.statusCode).toBe(201);
      expect(await staff.waitFor(() => staff.raw.includes('event: ticket.noted') && staff.raw.includes(ticket.id), 2000)).toBe(true);
      await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/messages`, headers: employee.auth, payload: { body: 'Antwort' } });
      expect(await own.waitFor(() => own.raw.includes('event: ticket.changed') && own.raw.includes(ticket.id), 2000)).toBe(true);
      expect(await staff.waitFor(() => staff.raw.includes('event: ticket.changed'), 2000)).toBe(true);
      // Events arrive in commit order: the note came before the answer, so it would be here by now.
      expect(own.raw).not.toContain('ticket.noted');
      await new Promise((r) => setTimeout(r, 200));
      expect(other.raw).not.toContain(ticket.id);
    } finally {
      await Promise.all([own.close(), other.close(), staff.close()]);
    }
  });
});

// Several API instances behind a load balancer: a staff answer written through instance A reaches the
// customer's chat connected to instance B (PostgreSQL NOTIFY, decision 011).
describe.skipIf(!process.env.TEST_DATABASE_URL)('ticket live events across API instances [postgres]', () => {
  const two = twoInstancesOnPostgres();

  it('a staff answer through instance A reaches the customer on instance B within 1 s; a note does not', async () => {
    const customer = await createUser(two.a);
    const staff = await createUser(two.a, { role: 'employee' });
    const ticket = await openTicketAs(two.a, customer);
    const stream = await openStream(two.baseUrlB, customer.token);
    try {
      await two.a.app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/messages`, headers: staff.auth, payload: { body: 'intern', internal: true } });
      const started = Date.now();
      await two.a.app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/messages`, headers: staff.auth, payload: { body: 'Antwort' } });
      expect(await stream.waitFor(() => stream.raw.includes('event: ticket.changed') && stream.raw.includes(ticket.id), 1000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(stream.raw).not.toContain('ticket.noted');
    } finally {
      await stream.close();
    }
  });
});

import { beforeAll, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ticketMessages as msg, type Ticket, type TicketPresence } from '@hp/contract';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { openStream } from '../../../test/events.ts';
import { ticketPresence, users } from '../../db/schema/index.ts';
import { PRESENCE_TTL } from './presence.service.ts';

type User = Awaited<ReturnType<typeof createUser>>;

async function openTicketAs(ctx: TestContext, who: User) {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/tickets', headers: who.auth, payload: { title: 'Wer schaut?', description: 'Bitte prüfen.', type: 'question' } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Ticket>();
}

const beat = (ctx: TestContext, who: User, ticketId: string, typing = false) =>
  ctx.app.inject({ method: 'PUT', url: `/api/staff/tickets/${ticketId}/presence`, headers: who.auth, payload: { typing } });
const viewersFor = async (ctx: TestContext, who: User, ticketId: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/staff/tickets/${ticketId}/presence`, headers: who.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketPresence>().viewers;
};

describeEachDatabase('staff presence in a ticket', (ctx) => {
  let customer: User;
  let anna: User;
  let bernd: User;
  let listening: Promise<string> | undefined;
  const baseUrl = () => (listening ??= ctx().app.listen({ port: 0, host: '127.0.0.1' }));
  beforeAll(async () => {
    customer = await createUser(ctx());
    anna = await createUser(ctx(), { role: 'employee' });
    bernd = await createUser(ctx(), { role: 'owner' });
    // Names that sort predictably, whatever the database's collation.
    await ctx().database.db.update(users).set({ username: `a-${anna.username}` }).where(eq(users.id, anna.user.id));
    anna.username = `a-${anna.username}`;
    await ctx().database.db.update(users).set({ username: `b-${bernd.username}` }).where(eq(users.id, bernd.user.id));
    bernd.username = `b-${bernd.username}`;
  });

  it('shows a viewer and then a typist to the other staff member, never to themselves', async () => {
    const ticket = await openTicketAs(ctx(), customer);
    const first = await beat(ctx(), anna, ticket.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<TicketPresence>()).toEqual({ viewers: [] });
    expect(await viewersFor(ctx(), bernd, ticket.id)).toEqual([{ name: anna.username, typing: false }]);
    expect(await viewersFor(ctx(), anna, ticket.id)).toEqual([]);

    await beat(ctx(), anna, ticket.id, true);
    const fromBernd = await beat(ctx(), bernd, ticket.id);
    expect(fromBernd.json<TicketPresence>().viewers).toEqual([{ name: anna.username, typing: true }]);
    expect(await viewersFor(ctx(), anna, ticket.id)).toEqual([{ name: bernd.username, typing: false }]);

    // A third one: sorted by name.
    const carla = await createUser(ctx(), { role: 'employee' });
    await ctx().database.db.update(users).set({ username: `c-${carla.username}` }).where(eq(users.id, carla.user.id));
    await beat(ctx(), carla, ticket.id);
    expect((await viewersFor(ctx(), bernd, ticket.id)).map((v) => v.name)).toEqual([anna.username, `c-${carla.username}`]);

    // One row per person and ticket, however often the heartbeat comes.
    await beat(ctx(), anna, ticket.id, false);
    await beat(ctx(), anna, ticket.id, false);
    const rows = await ctx().database.db.select().from(ticketPresence).where(and(eq(ticketPresence.ticketId, ticket.id), eq(ticketPresence.userId, anna.user.id)));
    expect(rows).toHaveLength(1);
    const ttl = (rows[0]!.expiresAt.getTime() - Date.now()) / 1000;
    expect(ttl).toBeGreaterThan(PRESENCE_TTL - 5);
    expect(ttl).toBeLessThanOrEqual(PRESENCE_TTL + 1);

    const left = await ctx().app.inject({ method: 'DELETE', url: `/api/staff/tickets/${ticket.id}/presence`, headers: anna.auth });
    expect(left.statusCode).toBe(204);
    expect((await viewersFor(ctx(), bernd, ticket.id)).map((v) => v.name)).toEqual([`c-${carla.username}`]);
    const again = await ctx().app.inject({ method: 'DELETE', url: `/api/staff/tickets/${ticket.id}/presence`, headers: anna.auth });
    expect(again.statusCode).toBe(204);
  });

  it('drops a viewer whose heartbeat ran out; the next heartbeat deletes the row and tells staff', async () => {
    const ticket = await openTicketAs(ctx(), customer);
    await beat(ctx(), anna, ticket.id, true);
    await beat(ctx(), bernd, ticket.id);
    expect(await viewersFor(ctx(), bernd, ticket.id)).toHaveLength(1);
    await ctx().database.db.update(ticketPresence).set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(ticketPresence.ticketId, ticket.id), eq(ticketPresence.userId, anna.user.id)));
    expect(await viewersFor(ctx(), bernd, ticket.id)).toEqual([]);
    const stream = await openStream(await baseUrl(), bernd.token);
    try {
      await beat(ctx(), bernd, ticket.id);
      expect(await stream.waitFor(() => stream.raw.includes('event: ticket.presence') && stream.raw.includes(ticket.id), 2000)).toBe(true);
    } finally {
      await stream.close();
    }
    const rows = await ctx().database.db.select({ userId: ticketPresence.userId }).from(ticketPresence).where(eq(ticketPresence.ticketId, ticket.id));
    expect(rows.map((r) => r.userId)).toEqual([bernd.user.id]);
  });

  it('answers a missing ticket with the German 404 and a bad body with 400', async () => {
    const missing = crypto.randomUUID();
    for (const res of [
      await beat(ctx(), anna, missing),
      await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${missing}/presence`, headers: anna.auth }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(msg.ticketNotFound);
    }
    const ticket = await openTicketAs(ctx(), customer);
    const bad = await ctx().app.inject({ method: 'PUT', url: `/api/staff/tickets/${ticket.id}/presence`, headers: anna.auth, payload: { typing: 'ja' } });
    expect(bad.statusCode).toBe(400);
    const extra = await ctx().app.inject({ method: 'PUT', url: `/api/staff/tickets/${ticket.id}/presence`, headers: anna.auth, payload: { typing: true, userId: bernd.user.id } });
    expect(extra.statusCode).toBe(400);
  });

  it('keeps customers out: 403 on every presence route, even for their own ticket', async () => {
    const ticket = await openTicketAs(ctx(), customer);
    await beat(ctx(), anna, ticket.id);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await ctx().app.inject({ method, url: `/api/staff/tickets/${ticket.id}/presence`, headers: customer.auth, ...(method === 'PUT' ? { payload: { typing: true } } : {}) });
      expect(res.statusCode, method).toBe(403);
      expect(res.body).not.toContain(anna.username);
    }
    expect(await viewersFor(ctx(), bernd, ticket.id)).toEqual([{ name: anna.username, typing: false }]);
  });

  it('sends ticket.presence to staff when someone comes, starts typing or goes, never to the customer; a plain heartbeat is silent', async () => {
    const ticket = await openTicketAs(ctx(), customer);
    const own = await openStream(await baseUrl(), customer.token);
    const staff = await openStream(await baseUrl(), bernd.token);
    const presenceEvents = () => staff.events.filter((e) => e.event === 'ticket.presence' && e.data.includes(ticket.id)).length;
    try {
      await beat(ctx(), anna, ticket.id);
      expect(await staff.waitFor(() => presenceEvents() === 1, 2000)).toBe(true);
      await beat(ctx(), anna, ticket.id, true);
      expect(await staff.waitFor(() => presenceEvents() === 2, 2000)).toBe(true);
      // Only expires_at moves: no event.
      await beat(ctx(), anna, ticket.id, true);
      // A customer-visible change afterwards proves the stream is live and ordered.
      await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/messages`, headers: bernd.auth, payload: { body: 'Antwort' } });
      expect(await own.waitFor(() => own.raw.includes('event: ticket.changed'), 2000)).toBe(true);
      expect(await staff.waitFor(() => staff.raw.includes('event: ticket.changed'), 2000)).toBe(true);
      expect(presenceEvents()).toBe(2);
      await ctx().app.inject({ method: 'DELETE', url: `/api/staff/tickets/${ticket.id}/presence`, headers: anna.auth });
      expect(await staff.waitFor(() => presenceEvents() === 3, 2000)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(own.raw).not.toContain('ticket.presence');
    } finally {
      await Promise.all([own.close(), staff.close()]);
    }
  });
});

import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { customerDetailMessages as dm, emailLinkMessages, type CustomerDetail } from '@hp/contract';
import { createUser, describeEachDatabase, uniqueName } from '../../../test/harness.ts';
import { users } from '../../db/schema/index.ts';

type User = Awaited<ReturnType<typeof createUser>>;

describeEachDatabase('staff-initiated e-mail change', (ctx) => {
  let employee: User;
  let customer: User;
  let other: User;
  beforeAll(async () => {
    employee = await createUser(ctx(), { role: 'employee' });
    customer = await createUser(ctx());
    other = await createUser(ctx());
  });

  const request = (who: User, id: string, newEmail: unknown) =>
    ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${id}/email`, headers: who.auth, payload: { newEmail } });
  const confirm = (payload: Record<string, string> | undefined, ip = '203.0.113.7') =>
    ctx().app.inject({ method: 'POST', url: '/api/account/email/link', payload, remoteAddress: ip });
  const detail = async (id: string) => (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${id}`, headers: employee.auth })).json<CustomerDetail>();
  /** The link from the last mail to `to`, after the code job ran. */
  const linkTo = async (to: string) => {
    await ctx().app.jobs.drain();
    const mail = [...ctx().mail.sent].reverse().find((m) => m.to === to);
    const match = mail?.text.match(/\/email-bestaetigen\?id=([0-9a-f-]{36})&token=([A-Za-z0-9_-]{43})/);
    return match ? { id: match[1]!, token: match[2]! } : undefined;
  };
  const emailOf = async (id: string) => (await ctx().database.db.select({ email: users.email }).from(users).where(eq(users.id, id)))[0]!.email;

  it('mails a link to the new address; the old one stays until the link is confirmed, then the old one is told', async () => {
    const newEmail = `${uniqueName('neu')}@Example.org`;
    const res = await request(employee, customer.user.id, newEmail);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ message: dm.emailLinkSent });
    expect(await emailOf(customer.user.id)).toBe(customer.email);
    const pending = await detail(customer.user.id);
    expect(pending.pendingEmail?.email).toBe(newEmail.toLowerCase());
    expect(new Date(pending.pendingEmail!.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(pending.audit[0]).toMatchObject({ action: 'customer.email_change_requested', changes: [{ field: 'email', from: customer.email, to: newEmail.toLowerCase() }] });

    const link = await linkTo(newEmail.toLowerCase());
    expect(link, 'the mail to the new address carries the link').toBeDefined();
    // The current address hears of it at once.
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.subject === 'Änderung Ihrer E-Mail-Adresse angestoßen' && m.text.includes(newEmail.toLowerCase()))).toBe(true);
    // A wrong token changes nothing.
    const wrong = await confirm({ id: link!.id, token: 'A'.repeat(43) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(emailLinkMessages.invalidLink);
    expect(await emailOf(customer.user.id)).toBe(customer.email);

    const ok = await confirm(link);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ message: emailLinkMessages.confirmed });
    expect(await emailOf(customer.user.id)).toBe(newEmail.toLowerCase());
    const after = await detail(customer.user.id);
    expect(after.pendingEmail).toBeNull();
    expect(after.audit[0]).toMatchObject({ action: 'customer.email_changed', changes: [{ field: 'email', from: customer.email, to: newEmail.toLowerCase() }] });
    await ctx().app.jobs.drain();
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.subject === 'Die E-Mail-Adresse Ihres Kontos wurde geändert')).toBe(true);
    // Single use.
    expect((await confirm(link)).statusCode).toBe(400);
  });

  it('refuses the current address, a taken one, nonsense and customers, with German messages', async () => {
    const same = await request(employee, other.user.id, other.email.toUpperCase());
    expect(same.statusCode).toBe(400);
    expect(same.json().error.message).toBe(dm.emailUnchanged);
    const taken = await request(employee, other.user.id, employee.email);
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.message).toBe(dm.emailInUse);
    const bad = await request(employee, other.user.id, 'kein-at-zeichen');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/E-Mail/);
    expect((await request(other, other.user.id, `${uniqueName('x')}@example.org`)).statusCode).toBe(403);
    expect((await request(employee, employee.user.id, `${uniqueName('x')}@example.org`)).statusCode).toBe(404);
    expect((await confirm({ id: 'nicht-uuid', token: 'x' })).json().error.message).toBe(emailLinkMessages.invalidLink);
    expect(await emailOf(other.user.id)).toBe(other.email);
  });

  it('a newer request voids the older link; a request is limited per customer and hour', async () => {
    const victim = await createUser(ctx());
    const first = `${uniqueName('a')}@example.org`;
    const second = `${uniqueName('b')}@example.org`;
    expect((await request(employee, victim.user.id, first)).statusCode).toBe(202);
    const firstLink = await linkTo(first);
    expect((await request(employee, victim.user.id, second)).statusCode).toBe(202);
    expect((await confirm(firstLink)).statusCode).toBe(400);
    expect(await emailOf(victim.user.id)).toBe(victim.email);
    const codes = await Promise.all(Array.from({ length: 6 }, (_, i) => request(employee, victim.user.id, `${uniqueName(`c${i}`)}@example.org`)));
    expect(codes.map((r) => r.statusCode).filter((s) => s === 429).length).toBeGreaterThanOrEqual(3);
    const limited = codes.find((r) => r.statusCode === 429)!;
    expect(limited.json().error.message).toBe(dm.tooManyEmailChanges);
  });

  it('staff withdraw a pending change: the link stops working and the log says so', async () => {
    const changed = await createUser(ctx());
    const wanted = `${uniqueName('zurueck')}@example.org`;
    expect((await request(employee, changed.user.id, wanted)).statusCode).toBe(202);
    const link = await linkTo(wanted);
    const cancel = () => ctx().app.inject({ method: 'DELETE', url: `/api/staff/customers/${changed.user.id}/email`, headers: employee.auth });
    const res = await cancel();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: dm.emailChangeCancelled });
    expect((await confirm(link)).statusCode).toBe(400);
    expect(await emailOf(changed.user.id)).toBe(changed.email);
    const after = await detail(changed.user.id);
    expect(after.pendingEmail).toBeNull();
    expect(after.audit[0]).toMatchObject({ action: 'customer.email_change_cancelled' });
    const again = await cancel();
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(dm.noPendingEmail);
  });

  it('an address registered by someone else before the link is opened is refused at confirmation', async () => {
    const late = await createUser(ctx());
    const wanted = `${uniqueName('spaet')}@example.org`;
    expect((await request(employee, late.user.id, wanted)).statusCode).toBe(202);
    const link = await linkTo(wanted);
    const thief = await createUser(ctx());
    await ctx().database.db.update(users).set({ email: wanted }).where(eq(users.id, thief.user.id));
    const res = await confirm(link);
    expect(res.statusCode).toBe(400);
    expect(await emailOf(late.user.id)).toBe(late.email);
  });
});

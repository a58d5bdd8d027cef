/**
 * The term of a domain (issue 13, decision 024) through the 'domain-terms' schedule: reminders at
 * env.billing.reminderDays (7 and 1 days), the expiry, the release after graceDays, "auslaufen lassen"
 * (autoRenew off) and a renewal paid while expired. Time moves by setting expires_at (ours and the
 * simulated registry's alike).
 */
import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { describeEachDatabase } from '../../../test/harness.ts';
import { drainJobs, paySimulated } from '../../../test/shop.ts';
import { buyDomain, createDomainCustomer, postDomainCheckout } from '../../../test/domains.ts';
import { domains, orders, simDomainRegistry } from '../../db/schema/index.ts';
import { domainExpiredMail, domainExpiryReminderMail } from '../../drivers/mail/templates.ts';

const DAY = 86_400_000;

describeEachDatabase('domains: reminders, expiry, release, renewal while expired', (ctx) => {
  const setExpiry = async (domainId: string, name: string, expiresAt: Date) => {
    await ctx().database.db.update(domains).set({ expiresAt }).where(eq(domains.id, domainId));
    await ctx().database.db.update(simDomainRegistry).set({ expiresAt }).where(eq(simDomainRegistry.domain, name));
  };
  const tick = async () => {
    await ctx().app.scheduler.runNow('domain-terms');
    await drainJobs(ctx());
  };
  const mailsTo = (email: string, name: string) => ctx().mail.sent.filter((m) => m.to === email && m.subject.includes(name));

  it('7 days before: first reminder with the renew link; 1 day before: the second; no third; at the end: expired; after the grace: released and gone', { timeout: 120_000 }, async () => {
    const { env } = ctx().app.deps;
    expect(env.billing.reminderDays).toEqual([7, 1]);
    const customer = await createDomainCustomer(ctx());
    const { domainId, domain: name } = await buyDomain(ctx(), customer);
    const email = customer.user.email;
    const registered = mailsTo(email, name).length;

    // Far from the end: nothing.
    await tick();
    expect(mailsTo(email, name)).toHaveLength(registered);

    const week = new Date(Date.now() + 7 * DAY - 3_600_000);
    await setExpiry(domainId, name, week);
    await tick();
    await tick(); // twice: still one mail
    const first = mailsTo(email, name).slice(registered);
    expect(first.map((m) => m.subject)).toEqual([domainExpiryReminderMail(email, '', name, week, '').subject]);
    expect(first[0]!.subject).toMatch(new RegExp(`^Ihre Domain ${name.replace(/\./g, '\\.')} läuft am \\d{2}\\.\\d{2}\\.\\d{4} ab$`));
    expect(first[0]!.text).toContain(`${env.publicUrl}/shop/domain?renew=${domainId}`);

    const day = new Date(Date.now() + DAY - 3_600_000);
    await setExpiry(domainId, name, day);
    await tick();
    await tick();
    const second = mailsTo(email, name).slice(registered + 1);
    expect(second.map((m) => m.subject)).toEqual([domainExpiryReminderMail(email, '', name, day, '').subject]);
    expect(second[0]!.text).toContain(`/shop/domain?renew=${domainId}`);
    // No third reminder even closer to the end.
    await setExpiry(domainId, name, new Date(Date.now() + 3_600_000));
    await tick();
    expect(mailsTo(email, name)).toHaveLength(registered + 2);
    expect((await ctx().database.db.select().from(domains).where(eq(domains.id, domainId)))[0]).toMatchObject({ status: 'active', expiryReminderStage: 2 });

    // The term ends: expired, one mail with the release date and the renew link.
    const ended = new Date(Date.now() - 60_000);
    await setExpiry(domainId, name, ended);
    await tick();
    await tick();
    const expired = mailsTo(email, name).slice(registered + 2);
    const releaseAt = new Date(ended.getTime() + env.billing.graceDays * DAY);
    expect(expired.map((m) => m.subject)).toEqual([`Ihre Domain ${name} ist abgelaufen`]);
    expect(expired[0]!.text).toBe(domainExpiredMail(email, customer.user.username, name, releaseAt, `${env.publicUrl}/shop/domain?renew=${domainId}`).text);
    const [row] = await ctx().database.db.select().from(domains).where(eq(domains.id, domainId));
    expect(row).toMatchObject({ status: 'expired', deletedAt: null });
    expect(row!.suspendedAt).not.toBeNull();
    expect((await ctx().app.inject({ method: 'GET', url: '/api/domains', headers: customer.auth })).json().items).toEqual([expect.objectContaining({ id: domainId, status: 'expired' })]);

    // One day before the grace ends: still there.
    await setExpiry(domainId, name, new Date(Date.now() - (env.billing.graceDays - 1) * DAY));
    await tick();
    expect((await ctx().database.db.select().from(domains).where(eq(domains.id, domainId)))[0]!.deletedAt).toBeNull();

    // The grace is over: the release job removes it from the portal and tells the customer once.
    await setExpiry(domainId, name, new Date(Date.now() - env.billing.graceDays * DAY - 60_000));
    await tick();
    await tick();
    const [released] = await ctx().database.db.select().from(domains).where(eq(domains.id, domainId));
    expect(released!.deletedAt).not.toBeNull();
    expect(mailsTo(email, name).slice(registered + 3).map((m) => m.subject)).toEqual([`Ihre Domain ${name} wurde freigegeben`]);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/domains', headers: customer.auth })).json().items).toEqual([]);
    expect((await ctx().app.inject({ method: 'GET', url: `/api/domains/${domainId}`, headers: customer.auth })).statusCode).toBe(404);
  });

  it('autoRenew off ("auslaufen lassen"): no reminders, but the expiry mail still comes', { timeout: 120_000 }, async () => {
    const customer = await createDomainCustomer(ctx());
    const { domainId, domain: name } = await buyDomain(ctx(), customer);
    const off = await ctx().app.inject({ method: 'PUT', url: `/api/domains/${domainId}/auto-renew`, headers: customer.auth, payload: { autoRenew: false } });
    expect(off.statusCode, off.body).toBe(200);
    const email = customer.user.email;
    const before = mailsTo(email, name).length;
    await setExpiry(domainId, name, new Date(Date.now() + 6 * DAY));
    await tick();
    await setExpiry(domainId, name, new Date(Date.now() + DAY / 2));
    await tick();
    expect(mailsTo(email, name)).toHaveLength(before);
    await setExpiry(domainId, name, new Date(Date.now() - 60_000));
    await tick();
    expect(mailsTo(email, name).slice(before).map((m) => m.subject)).toEqual([`Ihre Domain ${name} ist abgelaufen`]);
    expect((await ctx().database.db.select().from(domains).where(eq(domains.id, domainId)))[0]).toMatchObject({ status: 'expired', autoRenew: false });
  });

  it('a renewal paid while expired brings the domain back to active with the new expiry', { timeout: 120_000 }, async () => {
    const customer = await createDomainCustomer(ctx());
    const { domainId, domain: name } = await buyDomain(ctx(), customer);
    const ended = new Date(Date.now() - 2 * DAY);
    await setExpiry(domainId, name, ended);
    await tick();
    expect((await ctx().database.db.select().from(domains).where(eq(domains.id, domainId)))[0]).toMatchObject({ status: 'expired' });
    const detail = await ctx().app.inject({ method: 'GET', url: `/api/domains/${domainId}`, headers: customer.auth });
    expect(detail.json()).toMatchObject({ renewable: true, renewableUntil: new Date(ended.getTime() + ctx().app.deps.env.billing.graceDays * DAY).toISOString() });

    const res = await postDomainCheckout(ctx(), customer.auth, { domainId, action: 'renew', years: 1, acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    await paySimulated(ctx(), res.json().sessionId);
    await drainJobs(ctx());
    const [row] = await ctx().database.db.select().from(domains).where(eq(domains.id, domainId));
    const [registry] = await ctx().database.db.select().from(simDomainRegistry).where(eq(simDomainRegistry.domain, name));
    expect(row).toMatchObject({ status: 'active', suspendedAt: null, expiryReminderStage: 0, deletedAt: null });
    expect(row!.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(row!.expiresAt!.toISOString()).toBe(registry!.expiresAt.toISOString());
    expect(row!.expiresAt!.getUTCFullYear()).toBe(ended.getUTCFullYear() + 1);
    expect((await ctx().database.db.select().from(orders).where(eq(orders.id, res.json().orderId)))[0]).toMatchObject({ status: 'completed' });
    // Later ticks leave it alone.
    await tick();
    expect((await ctx().database.db.select().from(domains).where(eq(domains.id, domainId)))[0]).toMatchObject({ status: 'active', deletedAt: null });
  });
});

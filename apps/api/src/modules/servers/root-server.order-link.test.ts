import { beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { customerDetailMessages as dm, formatEuro, messages, orderLinkMessages, parseOrderLink, priceCents, splitGross, type Communication, type CustomerDetail } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { drainJobs, paySimulated, postCheckout, seedCapacity } from '../../../test/shop.ts';
import { orders, servers, users } from '../../db/schema/index.ts';

type User = Awaited<ReturnType<typeof createUser>>;

describeEachDatabase('"Neue Bestellung": an order link from staff', (ctx) => {
  let employee: User;
  let customer: User;
  beforeAll(async () => {
    employee = await createUser(ctx(), { role: 'employee' });
    customer = await createUser(ctx());
    await seedCapacity(ctx());
  });

  const send = (who: User, id: string, payload: Record<string, unknown>) =>
    ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${id}/order-link`, headers: who.auth, payload });
  const config = { os: 'linux', distro: 'Ubuntu 24.04', cpu: 4, ram: 8, storage: 100, months: 6 } as const;

  it('mails the configuration, its price and a link that prefills exactly it; the mail is logged with the sender; the customer pays it like any order', async () => {
    const res = await send(employee, customer.user.id, { ...config, message: 'Wie besprochen <b>am Telefon</b>:' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ message: orderLinkMessages.sent });
    await ctx().app.jobs.drain();
    const mail = [...ctx().mail.sent].reverse().find((m) => m.to === customer.email)!;
    expect(mail.subject).toBe('Ihre Serverbestellung: bitte prüfen und bezahlen');
    expect(mail.text).toContain('Wie besprochen <b>am Telefon</b>:');
    expect(mail.text).toContain('4 vCPU · 8 GB RAM · 100 GB SSD · Ubuntu 24.04 · 6 Monate');
    expect(mail.text).toContain(`Gesamtpreis: ${formatEuro(priceCents(config))} inkl. 19 % USt., zahlbar im Voraus`);
    const link = new URL(mail.text.match(/https?:\/\/\S+\/shop\/kvm-server\?\S+/)![0]);
    expect(link.searchParams.get('angebot')).toBe('1');
    expect(parseOrderLink((k) => link.searchParams.get(k))).toEqual(config);

    const detail = (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${customer.user.id}`, headers: employee.auth })).json<CustomerDetail>();
    const logged = detail.communications.find((c: Communication) => c.subject === mail.subject)!;
    expect(logged).toMatchObject({ kind: 'email', staff: employee.username });
    expect(logged.body).toContain(link.toString());

    // A Swiss customer is quoted the net price, not taxable in Germany (issue 24).
    await ctx().database.db.update(users).set({ country: 'CH' }).where(eq(users.id, customer.user.id));
    await send(employee, customer.user.id, config);
    await ctx().app.jobs.drain();
    const swiss = [...ctx().mail.sent].reverse().find((m) => m.to === customer.email)!;
    expect(swiss.text).toContain(`Gesamtpreis: ${formatEuro(splitGross(priceCents(config)).netCents)} ohne USt. (nicht im Inland steuerbar), zahlbar`);
    await ctx().database.db.update(users).set({ country: 'DE' }).where(eq(users.id, customer.user.id));

    // The customer follows the link: the ordinary checkout with that configuration, paid and fulfilled.
    const checkout = await postCheckout(ctx(), customer.auth, { ...parseOrderLink((k) => link.searchParams.get(k)), acceptTerms: true });
    expect(checkout.statusCode, checkout.body).toBe(201);
    expect((await paySimulated(ctx(), checkout.json().sessionId)).statusCode).toBeLessThan(400);
    await drainJobs(ctx());
    const [order] = await ctx().database.db.select().from(orders).where(eq(orders.id, checkout.json().orderId));
    expect(order).toMatchObject({ status: 'completed', cpuCores: 4, ramGb: 8, storageGb: 100, months: 6, os: 'Ubuntu 24.04' });
    const owned = await ctx().database.db.select().from(servers).where(and(eq(servers.ownerId, customer.user.id)));
    expect(owned).toHaveLength(1);
  });

  it('refuses an invalid configuration with a German message, and is for staff only', async () => {
    const wrongStep = await send(employee, customer.user.id, { ...config, ram: 7 });
    expect(wrongStep.statusCode).toBe(400);
    expect(wrongStep.json().error.message).toMatch(/Arbeitsspeicher/);
    const mixed = await send(employee, customer.user.id, { ...config, windowsVersion: 'Windows Server 2025' });
    expect(mixed.statusCode).toBe(400);
    const priced = await send(employee, customer.user.id, { ...config, amountCents: 1 });
    expect(priced.statusCode).toBe(400);
    const hidden = await send(employee, customer.user.id, { ...config, message: 'Preis: 10\u202e€ 001' });
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json().error.message).toBe(messages.controlCharacters);
    const long = await send(employee, customer.user.id, { ...config, message: 'x'.repeat(2001) });
    expect(long.json().error.message).toBe(orderLinkMessages.messageTooLong);
    expect((await send(customer, customer.user.id, config)).statusCode).toBe(403);
    const gone = await createUser(ctx());
    await ctx().database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.user.id));
    const deleted = await send(employee, gone.user.id, config);
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json().error.message).toBe(dm.notFound);
  });
});

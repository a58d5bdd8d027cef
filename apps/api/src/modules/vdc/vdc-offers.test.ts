/**
 * "Individuelle Anfrage" and staff offers (issue 25, decision 036): the request opens a "VDC-Anfrage"
 * ticket, staff answer with an offer beyond the sliders, only its customer sees and pays it, paying gives
 * a VDC with exactly the offer's figures at the offer's price, and a withdrawn or expired offer cannot
 * be paid.
 */
import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { formatEuro, VDC_LIMITS, vdcOfferMessages, type VdcOffer } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { drainJobs, paySimulated, seedCapacity } from '../../../test/shop.ts';
import { openStream } from '../../../test/events.ts';
import { orders, tickets, vdcOffers, vdcs } from '../../db/schema/index.ts';

const request = { needs: '96 vCPU, 384 GB RAM und 6 TB Speicher für eine Kubernetes-Umgebung', budget: '1.500 € im Monat', phone: '+49 30 123456' };
/** Beyond every slider: more cores, RAM, storage and addresses than the configurator offers. */
const bigOffer = { cpu: 96, ram: 384, storage: 6000, ipv4: 18, months: 6, priceCents: 654_321, validDays: 10 };

describeEachDatabase('virtual data center: individual request and staff offers', (ctx) => {
  let employee: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    employee = await createUser(ctx(), { role: 'employee' });
  });
  const inject = (auth: Record<string, string>, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  async function sendRequest(customer: { auth: Record<string, string> }) {
    const res = await inject(customer.auth, 'POST', '/api/vdc-requests', request);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().ticketId as string;
  }
  async function makeOffer(ticketId: string, body: Record<string, unknown> = bigOffer) {
    const res = await inject(employee.auth, 'POST', `/api/admin/tickets/${ticketId}/vdc-offers`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as VdcOffer;
  }

  it('opens a "VDC-Anfrage" ticket from the request and tells staff; customers cannot pick the type in a normal ticket', async () => {
    const customer = await createUser(ctx());
    const ticketId = await sendRequest(customer);
    const [ticket] = await ctx().database.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(ticket).toMatchObject({ customerId: customer.user.id, type: 'vdc_request', title: 'VDC-Anfrage', status: 'open' });
    expect(ticket!.description).toContain(request.needs);
    expect(ticket!.description).toContain('Budget: 1.500 € im Monat');
    expect(ticket!.description).toContain('Telefon für Rückfragen: +49 30 123456');
    const own = await inject(customer.auth, 'GET', `/api/tickets/${ticketId}`);
    expect(own.json()).toMatchObject({ type: 'vdc_request', title: 'VDC-Anfrage' });
    await ctx().app.jobs.drain();
    expect(ctx().mail.sent.some((m) => m.to === employee.email && m.text.includes(`/supporter/${ticketId}`))).toBe(true);

    const direct = await inject(customer.auth, 'POST', '/api/tickets', { title: 'VDC', description: 'Bitte ein Angebot', type: 'vdc_request' });
    expect(direct.statusCode).toBe(400);
    const short = await inject(customer.auth, 'POST', '/api/vdc-requests', { needs: 'zu kurz' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.message).toContain('mindestens 20 Zeichen');
  });

  it('staff offer beyond the sliders in the ticket; only its customer sees it, another customer gets 404 and cannot pay it; paying gives a VDC with the offer\'s figures at its price', { timeout: 60_000 }, async () => {
    await seedCapacity(ctx(), { cpuCores: 128, ramGb: 512, storageGb: 8000, ips: 18 });
    const customer = await createUser(ctx());
    const stranger = await createUser(ctx());
    const ticketId = await sendRequest(customer);
    expect(bigOffer.cpu).toBeGreaterThan(VDC_LIMITS.cpu.max);
    expect(bigOffer.ipv4).toBeGreaterThan(VDC_LIMITS.ipv4.max);

    const offer = await makeOffer(ticketId);
    expect(offer).toMatchObject({ ticketId, cpu: 96, ram: 384, storage: 6000, ipv4: 18, months: 6, priceCents: 654_321, status: 'open', payPath: `/shop/vdc-request?offer=${offer.id}` });
    expect(new Date(offer.validUntil).getTime() - Date.now()).toBeGreaterThan(9.9 * 24 * 3600_000);

    // The ticket's chat carries the offer with the customer's price and the link; the customer is mailed.
    const chat = (await inject(customer.auth, 'GET', `/api/tickets/${ticketId}/messages`)).json();
    expect(chat.items[0].body).toContain('96 vCPU · 384 GB RAM · 6000 GB Speicher · 18 IPv4');
    expect(chat.items[0].body).toContain(`${formatEuro(654_321)} (inkl. 19 % USt.)`);
    expect(chat.items[0].body).toContain(`/shop/vdc-request?offer=${offer.id}`);
    await ctx().app.jobs.drain();
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.text.includes(`/shop/vdc-request?offer=${offer.id}`))).toBe(true);

    // Who sees it: the customer and staff; another customer neither the offer nor the ticket's list.
    expect((await inject(customer.auth, 'GET', `/api/vdc-offers/${offer.id}`)).json()).toMatchObject({ id: offer.id, status: 'open' });
    expect((await inject(customer.auth, 'GET', `/api/tickets/${ticketId}/vdc-offers`)).json()).toEqual([offer]);
    expect((await inject(employee.auth, 'GET', `/api/tickets/${ticketId}/vdc-offers`)).json()).toEqual([offer]);
    expect((await inject(stranger.auth, 'GET', `/api/vdc-offers/${offer.id}`)).statusCode).toBe(404);
    expect((await inject(stranger.auth, 'GET', `/api/tickets/${ticketId}/vdc-offers`)).statusCode).toBe(404);
    const foreign = await inject(stranger.auth, 'POST', '/api/shop/vdc/offer-checkout', { offerId: offer.id, acceptTerms: true });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe(vdcOfferMessages.notFound);
    expect(await ctx().database.db.select().from(orders).where(eq(orders.userId, stranger.user.id))).toHaveLength(0);

    // The client cannot bend the figures or the price: the input has no place for them.
    const bent = await inject(customer.auth, 'POST', '/api/shop/vdc/offer-checkout', { offerId: offer.id, acceptTerms: true, priceCents: 100 });
    expect(bent.statusCode).toBe(400);
    const noTerms = await inject(customer.auth, 'POST', '/api/shop/vdc/offer-checkout', { offerId: offer.id });
    expect(noTerms.statusCode).toBe(400);

    const checkout = await inject(customer.auth, 'POST', '/api/shop/vdc/offer-checkout', { offerId: offer.id, acceptTerms: true, name: 'Kubernetes' });
    expect(checkout.statusCode, checkout.body).toBe(201);
    const db = ctx().database.db;
    const [pending] = await db.select().from(orders).where(eq(orders.id, checkout.json().orderId));
    expect(pending).toMatchObject({ product: 'vdc', kind: 'new', status: 'pending', months: 6, amountCents: 654_321, holdCpuCores: 96, holdRamGb: 384, holdStorageGb: 6000 });
    expect(pending!.config).toMatchObject({ offerId: offer.id, cpu: 96, ipv4: 18 });

    await paySimulated(ctx(), checkout.json().sessionId);
    await drainJobs(ctx());
    const [vdc] = await db.select().from(vdcs).where(eq(vdcs.ownerId, customer.user.id));
    expect(vdc).toMatchObject({ status: 'active', name: 'Kubernetes', cpuCores: 96, ramGb: 384, storageGb: 6000, ipv4Count: 18 });
    const [paid] = await db.select().from(orders).where(eq(orders.id, pending!.id));
    expect(paid).toMatchObject({ status: 'completed', subscriptionId: vdc!.id, amountCents: 654_321 });
    const [accepted] = await db.select().from(vdcOffers).where(eq(vdcOffers.id, offer.id));
    expect(accepted).toMatchObject({ status: 'accepted', orderId: pending!.id });
    const detail = (await inject(customer.auth, 'GET', `/api/orders/${pending!.id}`)).json();
    expect(detail.configuration).toMatchObject({ product: 'vdc', fromOffer: true, cpu: 96 });

    // Paid once: a second checkout of the same offer is refused.
    const again = await inject(customer.auth, 'POST', '/api/shop/vdc/offer-checkout', { offerId: offer.id, acceptTerms: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(vdcOfferMessages.accepted);
  });

  it('tells the ticket\'s customer and staff live when an offer is paid or withdrawn; another customer hears nothing', { timeout: 60_000 }, async () => {
    const baseUrl = await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    await seedCapacity(ctx(), { ips: 2 });
    const customer = await createUser(ctx());
    const stranger = await createUser(ctx());
    const ticketId = await sendRequest(customer);
    const small = { cpu: 4, ram: 8, storage: 100, ipv4: 1, months: 1, priceCents: 1_000, validDays: 3 };
    const paid = await makeOffer(ticketId, small);
    const withdrawn = await makeOffer(ticketId, small);
    const checkout = await inject(customer.auth, 'POST', '/api/shop/vdc/offer-checkout', { offerId: paid.id, acceptTerms: true });
    expect(checkout.statusCode, checkout.body).toBe(201);

    // The streams open after the offers' own messages: what they hear comes from the offers alone.
    const own = await openStream(baseUrl, customer.token);
    const other = await openStream(baseUrl, stranger.token);
    const staff = await openStream(baseUrl, employee.token);
    const heard = (s: typeof own) => s.events.filter((e) => e.event === 'ticket.changed' && e.data.includes(ticketId)).length;
    try {
      await paySimulated(ctx(), checkout.json().sessionId);
      await drainJobs(ctx());
      expect(await own.waitFor(() => heard(own) >= 1, 3000), 'customer hears the payment').toBe(true);
      expect(await staff.waitFor(() => heard(staff) >= 1, 3000), 'staff hear the payment').toBe(true);
      const before = { own: heard(own), staff: heard(staff) };
      expect((await inject(employee.auth, 'DELETE', `/api/admin/vdc-offers/${withdrawn.id}`)).statusCode).toBe(200);
      expect(await own.waitFor(() => heard(own) > before.own, 3000), 'customer hears the withdrawal').toBe(true);
      expect(await staff.waitFor(() => heard(staff) > before.staff, 3000), 'staff hear the withdrawal').toBe(true);
      expect(other.raw).not.toContain(ticketId);
    } finally {
      await Promise.all([own.close(), other.close(), staff.close()]);
    }
  });

  it('refuses to pay a withdrawn or an expired offer, and says so when no host has room for it', async () => {
    await seedCapacity(ctx(), { ips: 2 });
    const customer = await createUser(ctx());
    const ticketId = await sendRequest(customer);
    const small = { cpu: 4, ram: 8, storage: 100, ipv4: 1, months: 1, priceCents: 1_000, validDays: 1 };

    const withdrawn = await makeOffer(ticketId, small);
    const del = await inject(employee.auth, 'DELETE', `/api/admin/vdc-offers/${withdrawn.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toMatchObject({ status: 'withdrawn', payPath: null });
    expect((await inject(employee.auth, 'DELETE', `/api/admin/vdc-offers/${withdrawn.id}`)).statusCode).toBe(409);
    const payWithdrawn = await inject(customer.auth, 'POST', '/api/shop/vdc/offer-checkout', { offerId: withdrawn.id, acceptTerms: true });
    expect(payWithdrawn.statusCode).toBe(409);
    expect(payWithdrawn.json().error.message).toBe(vdcOfferMessages.withdrawn);

    const expired = await makeOffer(ticketId, small);
    await ctx().database.db.update(vdcOffers).set({ validUntil: new Date(Date.now() - 1000) }).where(eq(vdcOffers.id, expired.id));
    expect((await inject(customer.auth, 'GET', `/api/vdc-offers/${expired.id}`)).json()).toMatchObject({ status: 'expired', payPath: null });
    const payExpired = await inject(customer.auth, 'POST', '/api/shop/vdc/offer-checkout', { offerId: expired.id, acceptTerms: true });
    expect(payExpired.statusCode).toBe(409);
    expect(payExpired.json().error.message).toBe(vdcOfferMessages.expired);

    const huge = await makeOffer(ticketId, { ...small, cpu: 1000, ram: 8000 });
    const noRoom = await inject(customer.auth, 'POST', '/api/shop/vdc/offer-checkout', { offerId: huge.id, acceptTerms: true });
    expect(noRoom.statusCode).toBe(409);
    expect(noRoom.json().error.message).toBe(vdcOfferMessages.noCapacity);
    expect(await ctx().database.db.select().from(orders).where(eq(orders.userId, customer.user.id))).toHaveLength(0);
  });

  it('makes offers only on a "VDC-Anfrage" ticket of a customer, and only staff', async () => {
    const customer = await createUser(ctx());
    const normal = await inject(customer.auth, 'POST', '/api/tickets', { title: 'Frage', description: 'Wie groß darf ein Pool sein?', type: 'question' });
    expect(normal.statusCode).toBe(201);
    const onNormal = await inject(employee.auth, 'POST', `/api/admin/tickets/${normal.json().id}/vdc-offers`, bigOffer);
    expect(onNormal.statusCode).toBe(409);
    expect(onNormal.json().error.message).toBe(vdcOfferMessages.notARequest);
    expect(await ctx().database.db.select().from(vdcOffers).where(eq(vdcOffers.ticketId, normal.json().id))).toHaveLength(0);

    const ticketId = await sendRequest(customer);
    const byCustomer = await inject(customer.auth, 'POST', `/api/admin/tickets/${ticketId}/vdc-offers`, bigOffer);
    expect(byCustomer.statusCode).toBe(403);
    const missing = await inject(employee.auth, 'POST', `/api/admin/tickets/${crypto.randomUUID()}/vdc-offers`, bigOffer);
    expect(missing.statusCode).toBe(404);
    await inject(employee.auth, 'POST', `/api/staff/tickets/${ticketId}/close`);
    const onClosed = await inject(employee.auth, 'POST', `/api/admin/tickets/${ticketId}/vdc-offers`, bigOffer);
    expect(onClosed.statusCode).toBe(409);
    expect(onClosed.json().error.message).toBe(vdcOfferMessages.ticketClosed);
  });
});

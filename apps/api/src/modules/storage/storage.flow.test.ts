/**
 * Cloud storage (issue 23, decision 034): order, pay, provision on the storage server, the account
 * page, renewal with a plan change, a downgrade below the use, capacity, the term, the deletion guard
 * and the export, and staff's storage servers.
 */
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { daysLeft, GIB, STORAGE_PLANS, storageMessages, storagePriceCents, storageUpgradeCents } from '@hp/contract';
import { createTestContext, createUser, describeEachDatabase } from '../../../test/harness.ts';
import { drainJobs, paySimulated } from '../../../test/shop.ts';
import { buyStorage, postStorageCheckout, seedStorageServer, storageName } from '../../../test/storage.ts';
import { invoices, orders, storageAccounts, storageServers } from '../../db/schema/index.ts';
import { createSimulatedStorage } from '../../drivers/storage/simulated/simulated-storage.ts';

describeEachDatabase('cloud storage: order, pay, provision, use', (ctx) => {
  /** The account on the storage server, wherever the checkout placed it (the suite's servers share one database). */
  const onServer = async (storageId: string) => {
    const [row] = await ctx().database.db.select({ name: storageAccounts.accountName, url: storageServers.url }).from(storageAccounts)
      .innerJoin(storageServers, eq(storageServers.id, storageAccounts.storageServerId)).where(eq(storageAccounts.id, storageId));
    return { url: row!.url, account: await ctx().app.deps.storage.getAccount({ server: { url: row!.url }, userId: row!.name }) };
  };

  it('buys 500 GB for 3 months: one account with the quota on the storage server, the order and one invoice name it', { timeout: 60_000 }, async () => {
    const server = await seedStorageServer(ctx());
    const customer = await createUser(ctx());
    const name = storageName();
    const res = await postStorageCheckout(ctx(), customer.auth, { plan: '500gb', months: 3, accountName: name.toUpperCase(), acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    const db = ctx().database.db;
    const [pending] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(pending).toMatchObject({ product: 'cloud_storage', kind: 'new', status: 'pending', holdStorageGb: 500, amountCents: storagePriceCents({ plan: '500gb', months: 3 }) });
    // The name is lower-cased by the contract; the order holds the quota on the first server with room.
    expect(pending!.config).toMatchObject({ plan: '500gb', accountName: name, storageServerId: server.id });

    await paySimulated(ctx(), sessionId);
    await drainJobs(ctx());
    const [account] = await db.select().from(storageAccounts).where(eq(storageAccounts.ownerId, customer.user.id));
    expect(account).toMatchObject({ status: 'active', plan: '500gb', quotaGb: 500, accountName: name, storageServerId: server.id });
    const [done] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(done).toMatchObject({ status: 'completed', subscriptionId: account!.id });

    const { account: live } = await onServer(account!.id);
    expect(live).toMatchObject({ enabled: true, email: customer.email });
    expect(live!.quotaBytes).toBe(500 * GIB);

    const result = (await ctx().app.inject({ method: 'GET', url: `/api/shop/payment-result?session_id=${sessionId}`, headers: customer.auth })).json();
    expect(result).toMatchObject({ paymentStatus: 'paid', product: 'Cloud-Speicher', productKind: 'cloud_storage', subscriptionPath: `/dashboard/cloud-storage/${account!.id}` });
    const detail = (await ctx().app.inject({ method: 'GET', url: `/api/orders/${orderId}`, headers: customer.auth })).json();
    expect(detail).toMatchObject({ product: 'Cloud-Speicher', configuration: { product: 'cloud_storage', plan: '500gb', planName: '500 GB', accountName: name, quotaGb: 500 } });

    const [invoice] = await db.select().from(invoices).where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice')));
    expect(invoice!.document.lines[0]!.name).toBe('Cloud-Speicher 500 GB');
    expect(invoice!.document.lines[0]!.description).toContain(`Konto ${name}`);
  });

  it('the account page shows use against the quota and the access data; a new password is shown once and works on the server', { timeout: 60_000 }, async () => {
    await seedStorageServer(ctx());
    const customer = await createUser(ctx());
    const { storageId, accountName } = await buyStorage(ctx(), customer);
    const server = await onServer(storageId);
    const list = (await ctx().app.inject({ method: 'GET', url: '/api/storage', headers: customer.auth })).json();
    expect(list.items).toEqual([expect.objectContaining({ id: storageId, accountName, plan: '100gb', planName: '100 GB', quotaBytes: 100 * GIB, status: 'active' })]);
    const detail = await ctx().app.inject({ method: 'GET', url: `/api/storage/${storageId}`, headers: customer.auth });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({
      accountName, webdavUrl: `${server.url}/remote.php/dav/files/${accountName}/`, serverUrl: server.url, liveError: null,
      renewPath: `/shop/cloud-storage?renew=${storageId}`,
    });
    expect(typeof detail.json().usedBytes).toBe('number');

    const pw = await ctx().app.inject({ method: 'POST', url: `/api/storage/${storageId}/password`, headers: customer.auth });
    expect(pw.statusCode, pw.body).toBe(200);
    expect(pw.json().message).toBe(storageMessages.passwordSet);
    expect(pw.json().password).toMatch(/^[A-Za-z0-9]{5}(-[A-Za-z0-9]{5}){3}$/);
    // Never mailed.
    expect(ctx().mail.sent.some((m) => m.text.includes(pw.json().password))).toBe(false);

    // Another customer sees nothing of it.
    const other = await createUser(ctx());
    expect((await ctx().app.inject({ method: 'GET', url: `/api/storage/${storageId}`, headers: other.auth })).statusCode).toBe(404);
    expect((await ctx().app.inject({ method: 'POST', url: `/api/storage/${storageId}/password`, headers: other.auth })).statusCode).toBe(404);
    expect((await ctx().app.inject({ method: 'GET', url: `/api/shop/cloud-storage/renewal/${storageId}`, headers: other.auth })).statusCode).toBe(404);
  });

  it('tells before paying when a name is taken, invalid, reserved or in the customer\'s own open checkout', { timeout: 60_000 }, async () => {
    await seedStorageServer(ctx());
    const [a, b] = [await createUser(ctx()), await createUser(ctx())];
    const { accountName } = await buyStorage(ctx(), a);
    const check = async (user: typeof a, name: string) => (await ctx().app.inject({ method: 'GET', url: `/api/shop/cloud-storage/name/${encodeURIComponent(name)}`, headers: user.auth })).json();
    expect(await check(b, accountName)).toEqual({ available: false, message: storageMessages.accountNameTaken });
    expect(await check(b, accountName.toUpperCase())).toEqual({ available: false, message: storageMessages.accountNameTaken });
    expect(await check(b, 'admin')).toEqual({ available: false, message: storageMessages.accountNameTaken });
    expect(await check(b, '1abc')).toEqual({ available: false, message: storageMessages.accountNameInvalid });
    expect(await check(b, 'a b')).toEqual({ available: false, message: storageMessages.accountNameInvalid });
    const fresh = storageName();
    expect(await check(b, fresh)).toEqual({ available: true, message: null });
    expect((await postStorageCheckout(ctx(), b.auth, { plan: '100gb', months: 1, accountName: fresh, acceptTerms: true })).statusCode).toBe(201);
    expect(await check(a, fresh)).toEqual({ available: false, message: storageMessages.accountNameTaken });
    expect(await check(b, fresh)).toEqual({ available: false, message: storageMessages.accountNameOwnOrder });
    // The checkout refuses the same names with the same words.
    const taken = await postStorageCheckout(ctx(), b.auth, { plan: '100gb', months: 1, accountName, acceptTerms: true });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({ code: 'STORAGE_NAME_TAKEN', message: storageMessages.accountNameTaken });
    const bad = await postStorageCheckout(ctx(), b.auth, { plan: '100gb', months: 1, accountName: 'ä', acceptTerms: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('Kontoname');
    const both = await postStorageCheckout(ctx(), b.auth, { plan: '100gb', months: 1, acceptTerms: true });
    expect(both.statusCode).toBe(400);
  });

  it('renews with a larger plan: the quota changes on the server when paid, the term runs on from the old end', { timeout: 60_000 }, async () => {
    await seedStorageServer(ctx());
    const customer = await createUser(ctx());
    const { storageId, accountName } = await buyStorage(ctx(), customer, { months: 1 });
    const db = ctx().database.db;
    const [before] = await db.select().from(storageAccounts).where(eq(storageAccounts.id, storageId));
    const info = (await ctx().app.inject({ method: 'GET', url: `/api/shop/cloud-storage/renewal/${storageId}`, headers: customer.auth })).json();
    expect(info.renewal).toMatchObject({ storageId, accountName, plan: '100gb' });
    expect(info.renewal.allowedPlans).toEqual(['100gb', '500gb', '1tb', '5tb', '10tb']);
    const res = await postStorageCheckout(ctx(), customer.auth, { plan: '1tb', months: 2, storageId, acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    const [pending] = await db.select().from(orders).where(eq(orders.id, res.json().orderId));
    // The larger plan applies when paid: the days left of the current term cost the difference (decision 034).
    const left = daysLeft(before!.expiresAt, new Date());
    expect(left).toBeGreaterThanOrEqual(28);
    const extra = storageUpgradeCents('100gb', '1tb', left);
    expect(extra).toBe(Math.round(((999 - 299) * left) / 30));
    expect(info.renewal.remainingDays).toBe(left);
    expect(pending).toMatchObject({ kind: 'upgrade', subscriptionId: storageId, holdStorageGb: 1024 - 100, amountCents: storagePriceCents({ plan: '1tb', months: 2 }) + extra });
    await paySimulated(ctx(), res.json().sessionId);
    await drainJobs(ctx());
    const [after] = await db.select().from(storageAccounts).where(eq(storageAccounts.id, storageId));
    expect(after).toMatchObject({ plan: '1tb', quotaGb: 1024, status: 'active' });
    expect(after!.expiresAt!.getTime()).toBeGreaterThan(before!.expiresAt!.getTime() + 55 * 86_400_000);
    expect((await onServer(storageId)).account!.quotaBytes).toBe(1024 * GIB);
    expect(accountName).toBe(after!.accountName);
    const [order] = await db.select().from(orders).where(eq(orders.id, res.json().orderId));
    expect(order!.status).toBe('completed');
    const [invoice] = await db.select().from(invoices).where(and(eq(invoices.orderId, order!.id), eq(invoices.kind, 'invoice')));
    expect(invoice!.document.lines[0]!.description).toContain(`Tarifwechsel von 100 GB, inkl. Aufpreis für die restlichen ${left} Tage der bisherigen Laufzeit`);
  });

  it('never sells more than capacity × overcommit; the shop shows which plans still fit', { timeout: 60_000 }, async () => {
    // One server of its own database, so the other tests' servers do not add room.
    const own = await createTestContext(ctx().kind, { env: { STORAGE_OVERCOMMIT: '1.5' } });
    try {
      await own.database.db.insert((await import('../../db/schema/index.ts')).storageServers).values({ name: 'small', url: 'https://small.example.net', capacityGb: 400 });
      const customer = await createUser(own);
      const shop = (await own.app.inject({ method: 'GET', url: '/api/shop/cloud-storage' })).json();
      expect(shop).toEqual({ available: ['100gb', '500gb'], renewal: null });
      await buyStorage(own, customer, { plan: '500gb' });
      expect((await own.app.inject({ method: 'GET', url: '/api/shop/cloud-storage' })).json().available).toEqual(['100gb']);
      const full = await postStorageCheckout(own, customer.auth, { plan: '500gb', months: 1, accountName: storageName(), acceptTerms: true });
      expect(full.statusCode).toBe(409);
      expect(full.json().error).toMatchObject({ code: 'NO_STORAGE_CAPACITY', message: storageMessages.noCapacity });
      const staff = await createUser(own, { role: 'employee' });
      // Employees see the servers; entering them is the owner's.
      const servers = (await own.app.inject({ method: 'GET', url: '/api/admin/storage-servers', headers: staff.auth })).json();
      expect(servers).toMatchObject({ overcommit: 1.5, items: [{ name: 'small', capacityGb: 400, sellableGb: 600, allocatedGb: 500, accounts: 1 }] });
    } finally {
      await own.close();
    }
  });

  it('at the term\'s end the account is disabled with a warning that files will be deleted; after the grace days it is deleted on the server', { timeout: 60_000 }, async () => {
    await seedStorageServer(ctx());
    const customer = await createUser(ctx());
    const { storageId, accountName } = await buyStorage(ctx(), customer);
    const db = ctx().database.db;
    await db.update(storageAccounts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(storageAccounts.id, storageId));
    await ctx().app.scheduler.runNow('storage-terms');
    await drainJobs(ctx());
    const [suspended] = await db.select().from(storageAccounts).where(eq(storageAccounts.id, storageId));
    expect(suspended!.status).toBe('suspended');
    expect((await onServer(storageId)).account!.enabled).toBe(false);
    const warning = ctx().mail.sent.find((m) => m.to === customer.email && m.subject.includes(accountName) && m.subject.includes('gesperrt'));
    expect(warning?.text).toContain('endgültig gelöscht');
    expect((await ctx().app.inject({ method: 'POST', url: `/api/storage/${storageId}/password`, headers: customer.auth })).statusCode).toBe(409);

    const graceDays = ctx().app.deps.env.billing.graceDays;
    await db.update(storageAccounts).set({ expiresAt: new Date(Date.now() - (graceDays + 1) * 86_400_000) }).where(eq(storageAccounts.id, storageId));
    await ctx().app.scheduler.runNow('storage-terms');
    await drainJobs(ctx());
    const [deleted] = await db.select().from(storageAccounts).where(eq(storageAccounts.id, storageId));
    expect(deleted!.deletedAt).not.toBeNull();
    expect((await onServer(storageId)).account).toBeNull();
    expect(ctx().mail.sent.some((m) => m.to === customer.email && m.subject.includes('wurde gelöscht') && m.text.includes('mit allen Dateien'))).toBe(true);
  });

  it('a renewal of a suspended account logs it in again at once', { timeout: 60_000 }, async () => {
    await seedStorageServer(ctx());
    const customer = await createUser(ctx());
    const { storageId, accountName } = await buyStorage(ctx(), customer);
    const db = ctx().database.db;
    await db.update(storageAccounts).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(storageAccounts.id, storageId));
    await ctx().app.scheduler.runNow('storage-terms');
    await drainJobs(ctx());
    const res = await postStorageCheckout(ctx(), customer.auth, { plan: '100gb', months: 1, storageId, acceptTerms: true });
    expect(res.statusCode, res.body).toBe(201);
    await paySimulated(ctx(), res.json().sessionId);
    await drainJobs(ctx());
    const [back] = await db.select().from(storageAccounts).where(eq(storageAccounts.id, storageId));
    expect(back).toMatchObject({ status: 'active', suspendedAt: null });
    expect((await onServer(storageId)).account).toMatchObject({ enabled: true, userId: accountName });
  });

  it('the customer account cannot be deleted while storage exists; the data export lists it', { timeout: 60_000 }, async () => {
    await seedStorageServer(ctx());
    const customer = await createUser(ctx());
    const { accountName } = await buyStorage(ctx(), customer);
    const del = await ctx().app.inject({ method: 'POST', url: '/api/account/deletion', headers: customer.auth, payload: { currentPassword: customer.password }, remoteAddress: '10.78.0.1' });
    expect(del.statusCode, del.body).toBe(409);
    expect(del.json().error).toMatchObject({ code: 'ACTIVE_STORAGE', message: storageMessages.activeStorage });
    const exported = await ctx().app.inject({ method: 'GET', url: '/api/account/export', headers: customer.auth });
    expect(exported.statusCode).toBe(200);
    const { unzipSync, strFromU8 } = await import('fflate');
    const data = JSON.parse(strFromU8(unzipSync(exported.rawPayload)['daten.json']!)) as { cloudSpeicher: { kontoname: string; tarif: string }[] };
    expect(data.cloudSpeicher).toEqual([expect.objectContaining({ kontoname: accountName, tarif: '100 GB' })]);
    const owner = await createUser(ctx(), { role: 'owner' });
    // Staff see it on the customer page, in the section the product adds through the port.
    const card = (await ctx().app.inject({ method: 'GET', url: `/api/staff/customers/${customer.user.id}`, headers: owner.auth })).json();
    expect(card.productSections).toContainEqual(expect.objectContaining({ kind: 'cloud_storage', title: 'Cloud-Speicher', items: [expect.objectContaining({ name: accountName, status: 'Aktiv' })] }));
    const staffDel = await ctx().app.inject({ method: 'DELETE', url: `/api/staff/customers/${customer.user.id}`, headers: owner.auth });
    expect(staffDel.statusCode).toBe(409);
  });

  it('the owner enters storage servers (public https names only); employees see them but may not add or remove one', { timeout: 60_000 }, async () => {
    const owner = await createUser(ctx(), { role: 'owner' });
    const employee = await createUser(ctx(), { role: 'employee' });
    const customer = await createUser(ctx());
    const post = (who: { auth: Record<string, string> }, payload: Record<string, unknown>) => ctx().app.inject({ method: 'POST', url: '/api/admin/storage-servers', headers: who.auth, payload });
    // The server gets the Nextcloud admin's app password: never plain http, an IP address or a name inside our network.
    for (const url of ['ftp://nope.example.net', 'http://cloud.example.net', 'https://127.0.0.1', 'https://localhost', 'https://2130706433', 'https://169.254.169.254',
      'https://metadata.google.internal', 'https://cloud', 'https://a..b.example', 'https://cloud.example.net:99999', 'https://cloud.example.net/path', 'javascript:alert(1)']) {
      const bad = await post(owner, { name: 'x', url, capacityGb: 1000 });
      expect(bad.statusCode, url).toBe(400);
      expect(bad.json().error.message, url).toBe(storageMessages.serverUrlInvalid);
    }
    expect((await post(owner, { name: 'x', url: 'https://ok.example.net', capacityGb: 10 })).json().error.message).toMatch(/Kapazität/);
    const url = `https://cloud-${storageName()}.example.net`;
    expect((await post(employee, { name: 'cloud-new', url, capacityGb: 2000 })).statusCode).toBe(403);
    expect((await post(customer, { name: 'cloud-new', url, capacityGb: 2000 })).statusCode).toBe(403);
    const made = await post(owner, { name: 'cloud-new', url: `${url.toUpperCase()}:443/`, capacityGb: 2000 });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ name: 'cloud-new', url, capacityGb: 2000, allocatedGb: 0, accounts: 0 });
    expect((await post(owner, { name: 'again', url, capacityGb: 2000 })).statusCode).toBe(409);
    const listed = (await ctx().app.inject({ method: 'GET', url: '/api/admin/storage-servers', headers: employee.auth })).json();
    expect(listed.items.map((s: { url: string }) => s.url)).toContain(url);
    expect((await ctx().app.inject({ method: 'DELETE', url: `/api/admin/storage-servers/${made.json().id}`, headers: employee.auth })).statusCode).toBe(403);
    const huge = await ctx().app.inject({ method: 'DELETE', url: '/api/admin/storage-servers/99999999999', headers: owner.auth });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error.message).toBe('Speicherserver nicht gefunden.');
    expect((await ctx().app.inject({ method: 'DELETE', url: `/api/admin/storage-servers/${made.json().id}`, headers: owner.auth })).statusCode).toBe(204);
  });
});

describeEachDatabase('cloud storage: a downgrade below the use', (ctx) => {
  it('is refused with a German message; the renewal offers only plans the use fits in', { timeout: 60_000 }, async () => {
    // The storage server reports 700 GB in use for every account.
    const own = await createTestContext(ctx().kind, {
      storage: (db) => {
        const sim = createSimulatedStorage(db, { speed: 50 });
        return { ...sim, getAccount: async (ref) => { const a = await sim.getAccount(ref); return a && { ...a, usedBytes: 700 * GIB }; } };
      },
    });
    try {
      await own.database.db.insert((await import('../../db/schema/index.ts')).storageServers).values({ name: 'big', url: 'https://big.example.net', capacityGb: 100_000 });
      const customer = await createUser(own);
      const { storageId } = await buyStorage(own, customer, { plan: '5tb' });
      const info = (await own.app.inject({ method: 'GET', url: `/api/shop/cloud-storage/renewal/${storageId}`, headers: customer.auth })).json();
      expect(info.renewal.allowedPlans).toEqual(['1tb', '5tb', '10tb']);
      const down = await postStorageCheckout(own, customer.auth, { plan: '500gb', months: 1, storageId, acceptTerms: true });
      expect(down.statusCode).toBe(409);
      expect(down.json().error).toMatchObject({ code: 'STORAGE_TOO_SMALL', message: storageMessages.downgradeTooSmall });
      const fits = await postStorageCheckout(own, customer.auth, { plan: '1tb', months: 1, storageId, acceptTerms: true });
      expect(fits.statusCode, fits.body).toBe(201);
      await paySimulated(own, fits.json().sessionId);
      await drainJobs(own);
      const [account] = await own.database.db.select().from(storageAccounts).where(eq(storageAccounts.id, storageId));
      expect(account).toMatchObject({ plan: '1tb', quotaGb: STORAGE_PLANS['1tb'].quotaGb });
    } finally {
      await own.close();
    }
  });
});

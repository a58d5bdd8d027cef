/**
 * Issue 24, step 2: customers state their country and business status with a checked VAT ID. The
 * simulated check (the test default) answers by the number: ending in 0000 invalid, 9999 unavailable,
 * anything else valid with a SIM-… consultation number.
 */
import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import type { InjectOptions } from 'fastify';
import { profileMessages, taxMessages } from '@hp/contract';
import { describeEachDatabase, createUser, uniqueName, STRONG_PASSWORD } from '../../../test/harness.ts';
import { users, vatIdChecks } from '../../db/schema/index.ts';

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.89.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

const austrianCompany = { phone: '', street: 'Ringstraße 1', zipCode: '1010', city: 'Wien', country: 'AT', companyName: 'Alpen Hosting GmbH', industry: 'IT', business: true };

describeEachDatabase('business profile with a checked VAT ID (issue 24)', (ctx) => {
  const call = (opts: InjectOptions) => ctx().app.inject({ ...opts, remoteAddress: nextIp() });
  const save = (auth: Record<string, string>, payload: Record<string, unknown>) => call({ method: 'PUT', url: '/api/account/profile', headers: auth, payload });
  const checksOf = (userId: string) => ctx().database.db.select().from(vatIdChecks).where(eq(vatIdChecks.userId, userId));
  const rowOf = async (userId: string) => (await ctx().database.db.select().from(users).where(eq(users.id, userId)))[0]!;

  it('saves a business profile with a valid ID, records the proof and confirms it', async () => {
    const user = await createUser(ctx());
    const res = await save(user.auth, { ...austrianCompany, vatId: 'atu 1234 5678' });
    expect(res.statusCode, res.body).toBe(200);
    const profile = res.json();
    expect(profile).toMatchObject({ country: 'AT', business: true, vatId: 'ATU12345678', companyName: 'Alpen Hosting GmbH' });
    expect(profile.vatCheck).toMatchObject({ status: 'valid', vatId: 'ATU12345678', service: 'simulated' });
    expect(profile.vatCheck.consultationNumber).toMatch(/^SIM-[0-9A-F]{12}$/);
    expect(profile.vatCheck.message).toMatch(/^Ihre USt-IdNr\. wurde bestätigt \(simulierte Prüfung, Abfragenummer SIM-[0-9A-F]{12}, am \d{2}\.\d{2}\.\d{4}\)\.$/);

    const checks = await checksOf(user.user.id);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ country: 'AT', vatId: 'ATU12345678', status: 'valid', consultationNumber: profile.vatCheck.consultationNumber });
    expect(checks[0]!.matches).toEqual({ name: 'match', street: 'match', zip: 'match', city: 'match' });

    // The profile read later shows the same result; saving again unchanged does not check again.
    const read = await call({ method: 'GET', url: '/api/account/profile', headers: user.auth });
    expect(read.json().vatCheck).toEqual(profile.vatCheck);
    expect((await save(user.auth, { ...austrianCompany, industry: 'Hosting', vatId: 'ATU12345678' })).statusCode).toBe(200);
    expect(await checksOf(user.user.id)).toHaveLength(1);
  });

  it('refuses an ID in the wrong format with the German message and saves nothing', async () => {
    const user = await createUser(ctx());
    const res = await save(user.auth, { ...austrianCompany, vatId: 'ATU1234' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(taxMessages.vatIdWrongFormat('Österreich'));
    const row = await rowOf(user.user.id);
    expect(row).toMatchObject({ country: 'DE', business: false, vatId: null, companyName: '', city: '' });
    expect(await checksOf(user.user.id)).toHaveLength(0);
  });

  it('asks a company to name itself, and takes no VAT ID outside the EU', async () => {
    const user = await createUser(ctx());
    const nameless = await save(user.auth, { ...austrianCompany, companyName: '', vatId: '' });
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json().error.message).toBe(profileMessages.companyNameRequired);
    const swiss = await save(user.auth, { ...austrianCompany, country: 'CH', city: 'Zürich', vatId: 'CHE123456789' });
    expect(swiss.statusCode).toBe(400);
    expect(swiss.json().error.message).toBe(taxMessages.vatIdNotEu);
    const unknownCountry = await save(user.auth, { ...austrianCompany, country: 'XX', vatId: '' });
    expect(unknownCountry.statusCode).toBe(400);
    expect(unknownCountry.json().error.message).toBe(taxMessages.unknownCountry);
    expect(await rowOf(user.user.id)).toMatchObject({ country: 'DE', business: false });

    // A Swiss company without an ID, and a French consumer: countries beyond DE/AT/CH are kept.
    const ok = await save(user.auth, { ...austrianCompany, country: 'CH', city: 'Zürich', vatId: '' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ country: 'CH', business: true, vatId: '', vatCheck: null });
    const french = await save(user.auth, { ...austrianCompany, country: 'FR', city: 'Paris', business: false, vatId: 'FR40303265045' });
    expect(french.statusCode, french.body).toBe(200);
    expect(french.json()).toMatchObject({ country: 'FR', business: false, vatId: '' });
    expect(await checksOf(user.user.id)).toHaveLength(0);
  });

  it('saves an ID that the service says is invalid, with status invalid and the German explanation', async () => {
    const user = await createUser(ctx());
    const res = await save(user.auth, { ...austrianCompany, vatId: 'ATU12340000' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ business: true, vatId: 'ATU12340000' });
    expect(res.json().vatCheck).toMatchObject({ status: 'invalid', consultationNumber: null });
    expect(res.json().vatCheck.message).toBe(taxMessages.vatIdInvalid('19 % deutsche Umsatzsteuer'));
    expect(await rowOf(user.user.id)).toMatchObject({ business: true, vatId: 'ATU12340000', country: 'AT' });
    expect((await checksOf(user.user.id)).map((c) => c.status)).toEqual(['invalid']);
  });

  it('saves the ID when the service is unavailable, explains it and checks again on the next save', async () => {
    const user = await createUser(ctx());
    const res = await save(user.auth, { ...austrianCompany, vatId: 'ATU12349999' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().vatCheck).toMatchObject({ status: 'unavailable', vatId: 'ATU12349999' });
    expect(res.json().vatCheck.message).toBe(taxMessages.vatIdUnavailable('19 % deutsche Umsatzsteuer'));
    expect(await rowOf(user.user.id)).toMatchObject({ vatId: 'ATU12349999' });
    expect((await save(user.auth, { ...austrianCompany, vatId: 'ATU12349999' })).statusCode).toBe(200);
    expect((await checksOf(user.user.id)).map((c) => c.status)).toEqual(['unavailable', 'unavailable']);
  });

  it('shows staff the proof on the customer page; a customer reads neither that page nor another customer\'s proof', async () => {
    const customer = await createUser(ctx());
    const other = await createUser(ctx());
    const employee = await createUser(ctx(), { role: 'employee' });
    const saved = await save(customer.auth, { ...austrianCompany, vatId: 'ATU87654321' });
    expect(saved.statusCode, saved.body).toBe(200);

    const detail = await call({ method: 'GET', url: `/api/staff/customers/${customer.user.id}`, headers: employee.auth });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({
      business: true, vatId: 'ATU87654321', address: { country: 'AT' },
      vatCheck: {
        status: 'valid', country: 'AT', vatId: 'ATU87654321', service: 'simulated', consultationNumber: saved.json().vatCheck.consultationNumber,
        matches: { name: 'match', street: 'match', zip: 'match', city: 'match' },
      },
    });
    expect(Date.parse(detail.json().vatCheck.checkedAt)).not.toBeNaN();

    const plain = await call({ method: 'GET', url: `/api/staff/customers/${other.user.id}`, headers: employee.auth });
    expect(plain.json()).toMatchObject({ business: false, vatId: null, vatCheck: null });

    const snooping = await call({ method: 'GET', url: `/api/staff/customers/${customer.user.id}`, headers: other.auth });
    expect(snooping.statusCode).toBe(403);
    expect(snooping.body).not.toContain('ATU87654321');
    const own = await call({ method: 'GET', url: '/api/account/profile', headers: other.auth });
    expect(own.json()).toMatchObject({ vatId: '', vatCheck: null });
  });

  it('takes country, company and VAT ID at registration, checks the ID afterwards, and refuses a wrong format', async () => {
    const register = (extra: Record<string, unknown>) => {
      const username = uniqueName('reg');
      return call({ method: 'POST', url: '/api/auth/register', payload: { username, email: `${username}@example.com`, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD, ...extra } })
        .then((res) => ({ res, username }));
    };
    const wrong = await register({ country: 'AT', business: true, companyName: 'Alpen Hosting GmbH', vatId: 'ATU1234' });
    expect(wrong.res.statusCode).toBe(400);
    expect(wrong.res.json().error.message).toBe(taxMessages.vatIdWrongFormat('Österreich'));
    expect(await ctx().database.db.select().from(users).where(eq(users.username, wrong.username))).toHaveLength(0);

    const ok = await register({ country: 'AT', business: true, companyName: 'Alpen Hosting GmbH', vatId: 'ATU 1122 3344' });
    expect(ok.res.statusCode, ok.res.body).toBe(201);
    const userId = ok.res.json().userId as string;
    expect(await rowOf(userId)).toMatchObject({ country: 'AT', business: true, companyName: 'Alpen Hosting GmbH', vatId: 'ATU11223344' });
    // The check runs in the background (the answer must not reveal whether the address was known).
    await expect.poll(async () => (await checksOf(userId)).map((c) => c.status), { timeout: 5000 }).toEqual(['valid']);

    // Left out, the fields mean Germany and a consumer, as before.
    const plain = await register({});
    expect(plain.res.statusCode, plain.res.body).toBe(201);
    expect(await rowOf(plain.res.json().userId)).toMatchObject({ country: 'DE', business: false, vatId: null, companyName: '' });
  });

  it('exports business status and VAT ID (Art. 15 DSGVO) and clears them when the account is deleted', async () => {
    const user = await createUser(ctx());
    expect((await save(user.auth, { ...austrianCompany, vatId: 'ATU55667788' })).statusCode).toBe(200);
    const exported = await call({ method: 'GET', url: '/api/account/export', headers: user.auth });
    expect(exported.statusCode).toBe(200);
    const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(exported.rawPayload))['daten.json']!));
    expect(data.konto).toMatchObject({ firma: 'Alpen Hosting GmbH', firmenkunde: true, ustIdNr: 'ATU55667788', adresse: { land: 'AT' } });

    const deleted = await call({ method: 'POST', url: '/api/account/deletion', headers: user.auth, payload: { currentPassword: user.password } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await rowOf(user.user.id)).toMatchObject({ business: false, vatId: null, companyName: '', country: 'DE' });
  });
});

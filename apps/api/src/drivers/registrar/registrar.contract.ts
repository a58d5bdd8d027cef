/**
 * The contract every RegistrarDriver passes: the simulated registry and the INWX driver against the fake
 * INWX server (and the OT&E system where available). Everything is observed through the port only.
 * Pending transfers finish after `settle()` (fake: tick; simulated: the clock moves past the minute).
 *
 * Usage (in a *.test.ts):
 *   describeRegistrarContract('inwx (fake)', async () => ({ driver, settle: async () => fake.tick(), taken, premium }));
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NAMESERVERS, RegistrarError, type RegistrantContact, type RegistrarDriver, type RegistrarErrorCode } from './registrar.ts';

export interface RegistrarContractSetup {
  driver: RegistrarDriver;
  /** Finishes pending transfers. */
  settle: () => Promise<void>;
  /** A name registered elsewhere (not in our account), unlocked, with its auth code. */
  taken: { domain: string; authCode: string };
  /** A free name with a premium price. */
  premium: string;
  cleanup?: () => Promise<void>;
}

export const CONTRACT_CONTACT: RegistrantContact = {
  name: 'Erika Mustermann', company: null, street: 'Heidestraße 17', postalCode: '51147', city: 'Köln', countryCode: 'DE',
  phone: '+49 221 1234567', email: 'erika@example.net',
};

export async function expectRegistrarError(promise: Promise<unknown>, code: RegistrarErrorCode) {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error, `expected a RegistrarError ${code}`).toBeInstanceOf(RegistrarError);
  expect((error as RegistrarError).code).toBe(code);
  // The message is for the customer: German, never the registrar's English text (that belongs in detail).
  expect((error as RegistrarError).message).toMatch(/[äöüß]|\b(der|die|das|ist|nicht|bitte|sie)\b/i);
  expect((error as RegistrarError).message).not.toMatch(/\b(object|exists|parameter|error|session)\b/i);
  return error as RegistrarError;
}

const DAY = 86_400_000;

export function describeRegistrarContract(name: string, setup: () => Promise<RegistrarContractSetup>) {
  describe(`Registrar contract: ${name}`, () => {
    let ctx: RegistrarContractSetup;
    let registrar: RegistrarDriver;
    let contactId: string;
    const run = Date.now().toString(36).slice(-6);
    let counter = 0;
    const fresh = (tld = 'de') => `ct${run}${(counter++).toString(36)}.${tld}`;

    beforeAll(async () => {
      ctx = await setup();
      registrar = ctx.driver;
      contactId = await registrar.saveContact(null, CONTRACT_CONTACT);
    });
    afterAll(async () => {
      await ctx?.cleanup?.();
    });

    it('checks several names at once, in order: free, taken, premium, invalid with a German reason', async () => {
      const free = fresh('com');
      const result = await registrar.check([free, ctx.taken.domain, ctx.premium, 'ab--cd.de', 'a.eu']);
      expect(result.map((r) => [r.domain, r.status])).toEqual([
        [free, 'free'], [ctx.taken.domain, 'taken'], [ctx.premium, 'premium'], ['ab--cd.de', 'invalid'], ['a.eu', 'invalid'],
      ]);
      const premium = result[2]!;
      expect(premium.status === 'premium' && premium.priceCents).toBeGreaterThan(0);
      expect(result[3]).toMatchObject({ reason: expect.stringMatching(/Bindestrich/) });
      expect(result[4]).toMatchObject({ reason: 'Namen unter .eu müssen mindestens 2 Zeichen lang sein.' });
    });

    it('prices per year for the offered extensions; an unknown one is left out', async () => {
      const prices = await registrar.prices(['de', 'com', 'xyz']);
      expect(prices.map((p) => p.tld).sort()).toEqual(['com', 'de']);
      for (const p of prices) {
        expect(p.currency).toBe('EUR');
        expect(p.createCents).toBeGreaterThan(0);
        expect(p.renewCents).toBeGreaterThan(0);
        expect(Number.isInteger(p.transferCents) && p.transferCents >= 0).toBe(true);
      }
    });

    it('a contact is created once and updated under the same id', async () => {
      const id = await registrar.saveContact(null, { ...CONTRACT_CONTACT, company: 'Mustermann GmbH' });
      expect(id).toMatch(/\S/);
      expect(await registrar.saveContact(id, { ...CONTRACT_CONTACT, city: 'Bonn' })).toBe(id);
    });

    it('registers a free name: active with an expiry years ahead, then taken; a second registration is TAKEN', async () => {
      const domain = fresh();
      const before = Date.now();
      const result = await registrar.register({ domain, years: 2, contactId, nameservers: DEFAULT_NAMESERVERS });
      expect(result.status).toBe('active');
      const expires = Date.parse(result.expiresAt!);
      expect(expires).toBeGreaterThan(before + 2 * 365 * DAY - 2 * DAY);
      expect(expires).toBeLessThan(before + 2 * 366 * DAY + 2 * DAY);

      expect(await registrar.check([domain])).toEqual([{ domain, status: 'taken' }]);
      const info = await registrar.info(domain);
      expect(info).toMatchObject({ domain, status: 'active', nameservers: [...DEFAULT_NAMESERVERS] });
      expect(info.expiresAt?.slice(0, 10)).toBe(result.expiresAt!.slice(0, 10));
      await expectRegistrarError(registrar.register({ domain, years: 1, contactId, nameservers: DEFAULT_NAMESERVERS }), 'TAKEN');
      await expectRegistrarError(registrar.register({ domain: ctx.taken.domain, years: 1, contactId, nameservers: DEFAULT_NAMESERVERS }), 'TAKEN');
    });

    it('of two registrations of the same free name at once exactly one wins, the other is TAKEN', async () => {
      const domain = fresh('net');
      const spec = { domain, years: 1, contactId, nameservers: DEFAULT_NAMESERVERS };
      const results = await Promise.allSettled([registrar.register(spec), registrar.register(spec)]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected')!;
      expect(lost.reason).toBeInstanceOf(RegistrarError);
      expect((lost.reason as RegistrarError).code).toBe('TAKEN');
    });

    it('an invalid name or term is INVALID before anything is registered', async () => {
      await expectRegistrarError(registrar.register({ domain: 'ab--cd.de', years: 1, contactId, nameservers: DEFAULT_NAMESERVERS }), 'INVALID');
      const domain = fresh();
      await expectRegistrarError(registrar.register({ domain, years: 11, contactId, nameservers: DEFAULT_NAMESERVERS }), 'INVALID');
      await expectRegistrarError(registrar.register({ domain, years: 1, contactId, nameservers: ['ns1.example.com'] }), 'INVALID');
      expect(await registrar.check([domain])).toEqual([{ domain, status: 'free' }]);
    });

    it('renews from the current expiry; a wrong current expiry is INVALID and changes nothing', async () => {
      const domain = fresh('org');
      await registrar.register({ domain, years: 1, contactId, nameservers: DEFAULT_NAMESERVERS });
      const current = (await registrar.info(domain)).expiresAt!;
      const wrong = new Date(Date.parse(current) + 3 * DAY).toISOString().slice(0, 10);
      const err = await expectRegistrarError(registrar.renew({ domain, years: 1, currentExpiry: wrong }), 'INVALID');
      expect(err.detail).toMatch(/\S/);
      expect((await registrar.info(domain)).expiresAt).toBe(current);

      const renewed = await registrar.renew({ domain, years: 2, currentExpiry: current });
      expect(renewed.expiresAt.slice(0, 10)).toBe(new Date(new Date(current).setUTCFullYear(new Date(current).getUTCFullYear() + 2)).toISOString().slice(0, 10));
      expect((await registrar.info(domain)).expiresAt?.slice(0, 10)).toBe(renewed.expiresAt.slice(0, 10));
    });

    it('nameservers, transfer lock and auth code round trip', async () => {
      const domain = fresh('info');
      await registrar.register({ domain, years: 1, contactId, nameservers: DEFAULT_NAMESERVERS });
      await registrar.setNameservers(domain, ['ns1.example.org', 'ns2.example.org', 'ns3.example.org']);
      expect((await registrar.info(domain)).nameservers).toEqual(['ns1.example.org', 'ns2.example.org', 'ns3.example.org']);
      await registrar.setTransferLock(domain, true);
      expect((await registrar.info(domain)).transferLock).toBe(true);
      await registrar.setTransferLock(domain, false);
      expect((await registrar.info(domain)).transferLock).toBe(false);
      const code = await registrar.getAuthCode(domain);
      expect(code.length).toBeGreaterThanOrEqual(6);
    });

    it('transfer in: a wrong auth code is AUTH_CODE; the right one is pending, then active after settling', async () => {
      const { domain, authCode } = ctx.taken;
      await expectRegistrarError(registrar.transfer({ domain, authCode: `${authCode}-falsch`, contactId }), 'AUTH_CODE');
      const result = await registrar.transfer({ domain, authCode, contactId, nameservers: DEFAULT_NAMESERVERS });
      expect(result).toEqual({ status: 'pending', expiresAt: null });
      const during = await registrar.info(domain).then((i) => i.status, (e: unknown) => (e instanceof RegistrarError ? e.code : e));
      expect(['pending', 'NOT_FOUND']).toContain(during);
      await ctx.settle();
      const info = await registrar.info(domain);
      expect(info.status).toBe('active');
      expect(Date.parse(info.expiresAt!)).toBeGreaterThan(Date.now());
      expect(info.nameservers).toEqual([...DEFAULT_NAMESERVERS]);
    });

    it('a free name cannot be transferred; a name not in our account has no info or auth code', async () => {
      const domain = fresh('com');
      await expectRegistrarError(registrar.transfer({ domain, authCode: 'irgendwas', contactId }), 'NOT_FOUND');
      await expectRegistrarError(registrar.info(domain), 'NOT_FOUND');
      await expectRegistrarError(registrar.getAuthCode(domain), 'NOT_FOUND');
      await expectRegistrarError(registrar.setNameservers(domain, [...DEFAULT_NAMESERVERS]), 'NOT_FOUND');
    });
  });
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_CONTACT, describeRegistrarContract, expectRegistrarError } from '../registrar.contract.ts';
import { domainMessages } from '@hp/contract';
import { DEFAULT_NAMESERVERS, registrarMessages, type RegistrarDriver } from '../registrar.ts';
import { FAKE_INWX_PREMIUM_UNPRICED, FAKE_INWX_TAKEN, startFakeInwx, type FakeInwx } from './fake-inwx.ts';
import { INWX_METHODS } from './inwx-api-table.ts';
import { createInwxRegistrar, parseInwxDate, toInwxPhone, type InwxConfig } from './inwx.ts';

describeRegistrarContract('inwx (fake INWX)', async () => {
  const fake = await startFakeInwx();
  return {
    driver: createInwxRegistrar({ url: fake.url, ...fake.account, timeoutMs: 2000 }),
    settle: async () => fake.tick(),
    taken: FAKE_INWX_TAKEN.find((t) => t.domain === 'example.com')!,
    premium: 'cloud.de',
    cleanup: () => fake.close(),
  };
});

let fake: FakeInwx;
let counter = 0;
const fresh = (tld = 'de') => `inwx${Date.now().toString(36).slice(-5)}${counter++}.${tld}`;

beforeAll(async () => {
  fake = await startFakeInwx();
});
afterAll(async () => {
  await fake.close();
});

/** One logged-in JSON-RPC round trip past the driver: what INWX (and so the fake) answers to a raw request. */
async function rawCall(method: string, params: Record<string, unknown>) {
  const post = (body: object, cookie?: string) =>
    fetch(fake.url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) }, body: JSON.stringify(body) });
  const login = await post({ method: 'account.login', params: { user: fake.account.user, pass: fake.account.password } });
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  return (await post({ method, params }, cookie)).json() as Promise<Record<string, unknown>>;
}

function driver(config: Partial<InwxConfig> = {}): RegistrarDriver {
  return createInwxRegistrar({ url: fake.url, ...fake.account, timeoutMs: 2000, ...config });
}

async function registered(registrar: RegistrarDriver, tld = 'de') {
  const contactId = await registrar.saveContact(null, CONTRACT_CONTACT);
  const domain = fresh(tld);
  await registrar.register({ domain, years: 1, contactId, nameservers: DEFAULT_NAMESERVERS });
  return { domain, contactId };
}

describe('inwx driver against the fake INWX', () => {
  it('logs in once, sends the session cookie and sets renewalMode AUTOEXPIRE on create and transfer', async () => {
    const registrar = driver();
    const before = fake.loginCount;
    const { domain, contactId } = await registered(registrar);
    expect(fake.loginCount).toBe(before + 1);
    expect(fake.domain(domain)).toMatchObject({ ours: true, renewalMode: 'AUTOEXPIRE', ns: [...DEFAULT_NAMESERVERS], contactId: Number(contactId) });
    const create = fake.calls.filter((c) => c.method === 'domain.create').at(-1)!;
    expect(create.params).toMatchObject({ period: '1Y', registrant: Number(contactId), admin: Number(contactId), tech: Number(contactId), billing: Number(contactId) });

    const { domain: other, authCode } = FAKE_INWX_TAKEN.find((t) => t.domain === 'musterfirma.com')!;
    await registrar.transfer({ domain: other, authCode, contactId });
    expect(fake.domain(other)).toMatchObject({ status: 'TRANSFER PENDING', renewalMode: 'AUTOEXPIRE' });
  });

  it('contacts go out in INWX form (+49.221…, PERSON/ORG) with an integer id', async () => {
    const registrar = driver();
    const id = await registrar.saveContact(null, { ...CONTRACT_CONTACT, company: 'Mustermann GmbH' });
    expect(id).toMatch(/^\d+$/);
    expect(fake.contact(id)).toMatchObject({ type: 'ORG', org: 'Mustermann GmbH', voice: '+49.2211234567', pc: '51147', cc: 'DE' });
    await registrar.saveContact(id, { ...CONTRACT_CONTACT, phone: '0228 987654', city: 'Bonn' });
    expect(fake.contact(id)).toMatchObject({ voice: '+49.228987654', city: 'Bonn', org: '' });
    // An id INWX does not know (deleted there) is created anew.
    const renewed = await registrar.saveContact('999999', CONTRACT_CONTACT);
    expect(renewed).not.toBe('999999');
  });

  it('contact.update goes out without `type`, which INWX does not take for that method', async () => {
    const registrar = driver();
    const id = await registrar.saveContact(null, CONTRACT_CONTACT);
    await registrar.saveContact(id, { ...CONTRACT_CONTACT, city: 'Bonn' });
    const update = fake.calls.filter((c) => c.method === 'contact.update').at(-1)!;
    expect(update.params).not.toHaveProperty('type');
    expect(Object.keys(update.params).every((k) => k in INWX_METHODS['contact.update']!.params)).toBe(true);
    expect(fake.contact(id)).toMatchObject({ type: 'PERSON', city: 'Bonn' });
  });

  it('the fake refuses what INWX refuses, with INWX\'s codes and envelope', async () => {
    // contact.update with `type` (what the driver used to send): a parameter the method does not define.
    const contactId = Number(await driver().saveContact(null, CONTRACT_CONTACT));
    const unknownParam = await rawCall('contact.update', { id: contactId, type: 'PERSON', city: 'Bonn' });
    expect(unknownParam).toMatchObject({ code: 2001, msg: 'Command syntax error', reason: 'The following parameter is not allowed for this method: type' });
    expect(fake.contact(contactId)).toMatchObject({ city: 'Köln' });
    // INWX's documented answer to a missing parameter (API documentation 1.4).
    expect(await rawCall('contact.update', { city: 'Bonn' })).toMatchObject({
      code: 2003, msg: 'Required parameter missing', reasonCode: 'MISSING_ID', reason: 'The following parameter is missing: id',
      details: [{ code: 'PARAM_MISSING', msg: "The parameter 'id' is missing" }],
    });
    expect(await rawCall('domain.renew', { domain: 'example.com', period: '1Y', expiration: '01.01.2027' })).toMatchObject({
      code: 2005, msg: 'Parameter value syntax error', reasonCode: 'INVALID_EXPIRATION', details: [{ code: 'PARAM_INVALID' }],
    });
    expect(await rawCall('domain.update', { domain: 'example.com', transferLock: 'yes' })).toMatchObject({ code: 2005, reasonCode: 'INVALID_TRANSFERLOCK' });
    expect(await rawCall('domain.create', { domain: 'x.de', registrant: contactId, period: '11Y' })).toMatchObject({ code: 2004, msg: 'Parameter value range error' });
    expect(await rawCall('domain.create', { domain: 'x.de', registrant: contactId, renewalMode: 'NEVER' })).toMatchObject({ code: 2004 });
    expect(await rawCall('domain.getPrice', { tld: ['de'] })).toMatchObject({ code: 2000, msg: 'Unknown command' });
    // lang and clTRID are accepted by every method; an int may come as digits (the terraform provider sends ids so).
    expect(await rawCall('contact.update', { id: String(contactId), city: 'Bonn', lang: 'de', clTRID: 'MH-1' })).toMatchObject({ code: 1000 });
  });

  it('every method and parameter the driver sends is in the table (a whole life cycle)', async () => {
    const registrar = driver();
    const before = fake.calls.length;
    const { domain, contactId } = await registered(registrar, 'com');
    await registrar.saveContact(contactId, { ...CONTRACT_CONTACT, company: 'Mustermann GmbH' });
    await registrar.check([domain, 'shop.com']);
    await registrar.prices(['de', 'com']);
    const info = await registrar.info(domain);
    await registrar.renew({ domain, years: 1, currentExpiry: info.expiresAt! });
    await registrar.setNameservers(domain, ['ns1.example.org', 'ns2.example.org']);
    await registrar.setTransferLock(domain, false);
    await registrar.getAuthCode(domain);
    // Refused by the registry logic (wrong code), not by the table: the shared fake's names stay untouched.
    await expectRegistrarError(registrar.transfer({ domain: 'example.com', authCode: 'falsch', contactId, nameservers: DEFAULT_NAMESERVERS }), 'AUTH_CODE');
    const sent = fake.calls.slice(before);
    expect(new Set(sent.map((c) => c.method))).toEqual(new Set([
      'account.login', 'contact.create', 'domain.create', 'domain.info', 'contact.update', 'domain.check', 'domain.getprices', 'domain.renew', 'domain.update', 'domain.transfer',
    ]));
    for (const { method, params } of sent) {
      const spec = INWX_METHODS[method]!;
      expect(Object.keys(params).filter((k) => !(k in spec.params) && k !== 'lang' && k !== 'clTRID'), method).toEqual([]);
    }
  });

  it('a new domain is transfer-locked, as INWX defaults transferLock to 1 on create', async () => {
    const registrar = driver();
    const { domain } = await registered(registrar);
    expect(fake.domain(domain)!.transferLock).toBe(true);
    expect((await registrar.info(domain)).transferLock).toBe(true);
  });

  it('prices are INWX\'s yearly prices as they are: a two-year minimum term does not halve them', async () => {
    const prices = await driver().prices(['ai', 'de']);
    // .ai: createPeriod 2, createPrice 69.00 per year (the old driver answered 3450).
    expect(prices.find((p) => p.tld === 'ai')).toEqual({ tld: 'ai', currency: 'EUR', createCents: 6900, renewCents: 6900, transferCents: 6900 });
    expect(prices.find((p) => p.tld === 'de')).toEqual({ tld: 'de', currency: 'EUR', createCents: 420, renewCents: 420, transferCents: 0 });
  });

  it('premium names carry premium.prices.create.price; one whose price cannot be read is not sold', async () => {
    const registrar = driver();
    const [shop, unpriced, free] = await registrar.check(['shop.com', FAKE_INWX_PREMIUM_UNPRICED[0]!, 'musterfirma-neu.com']);
    // The top-level price (9.90, the ordinary registration price) is not the premium price.
    expect(shop).toEqual({ domain: 'shop.com', status: 'premium', priceCents: 89_950 });
    expect(unpriced).toEqual({ domain: FAKE_INWX_PREMIUM_UNPRICED[0], status: 'invalid', reason: domainMessages.premiumWithoutPrice });
    expect(unpriced!.status === 'invalid' && unpriced!.reason).toMatch(/^Premium-Domain, derzeit nicht bestellbar/);
    expect(free).toEqual({ domain: 'musterfirma-neu.com', status: 'free' });
  });

  it('an expired session is renewed with exactly one login and the call succeeds', async () => {
    const registrar = driver();
    const { domain } = await registered(registrar);
    fake.expireSessions();
    const before = fake.loginCount;
    expect((await registrar.info(domain)).status).toBe('active');
    expect(fake.loginCount).toBe(before + 1);
  });

  it('parallel calls run one after another in one session: one login', async () => {
    const registrar = driver();
    const before = fake.loginCount;
    const results = await Promise.all(Array.from({ length: 6 }, () => registrar.check(['musterfirma.de'])));
    expect(results.every((r) => r[0]!.status === 'free')).toBe(true);
    expect(fake.loginCount).toBe(before + 1);
  });

  it('2502 becomes TRY_LATER with the German "später" message', async () => {
    const registrar = driver();
    await registrar.check(['musterfirma.de']);
    fake.setTryLater(true);
    try {
      const err = await expectRegistrarError(registrar.check(['musterfirma.de']), 'TRY_LATER');
      expect(err.message).toBe(registrarMessages.TRY_LATER);
      expect(err.message).toMatch(/bitte versuchen Sie es später erneut/i);
      expect(err.detail).toMatch(/2502/);
    } finally {
      fake.setTryLater(false);
    }
  });

  it('HTTP 429 becomes TRY_LATER too', async () => {
    fake.setTooManyRequests(true);
    try {
      const err = await expectRegistrarError(driver().check(['musterfirma.de']), 'TRY_LATER');
      expect(err.detail).toMatch(/429.*Retry-After 30/);
    } finally {
      fake.setTooManyRequests(false);
    }
  });

  it('a registrar that accepts but never answers is UNAVAILABLE within the budget', async () => {
    const registrar = driver({ timeoutMs: 300 });
    fake.setHanging(true);
    try {
      const started = Date.now();
      const [first, second] = await Promise.all([
        expectRegistrarError(registrar.check(['musterfirma.de']), 'UNAVAILABLE'),
        // Waiting behind the hanging call does not stretch the second caller's budget.
        expectRegistrarError(registrar.check(['musterfirma.net']), 'UNAVAILABLE'),
      ]);
      expect(first.detail).toMatch(/no answer within 300 ms/);
      expect(second.code).toBe('UNAVAILABLE');
      expect(Date.now() - started).toBeLessThan(300 + 700);
    } finally {
      fake.setHanging(false);
    }
    // The session queue is free again.
    expect((await registrar.check(['musterfirma.de']))[0]!.status).toBe('free');
  });

  it('an unreachable registrar (closed port) is UNAVAILABLE', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await expectRegistrarError(driver({ url: `http://127.0.0.1:${port}/jsonrpc/` }).check(['musterfirma.de']), 'UNAVAILABLE');
    expect(err.detail).toMatch(/ECONNREFUSED/);
  });

  it('wrong credentials are AUTH (configuration), the password never in the detail', async () => {
    const err = await expectRegistrarError(driver({ password: 'falsch-geheim' }).check(['musterfirma.de']), 'AUTH');
    expect(err.detail).toMatch(/2200/);
    expect(err.detail).not.toContain('falsch-geheim');
  });

  describe('two-factor account', () => {
    const secret = new OTPAuth.Secret({ size: 20 }).base32;
    let tfa: FakeInwx;
    beforeAll(async () => {
      tfa = await startFakeInwx({ tfaSecret: secret });
    });
    afterAll(() => tfa.close());

    it('unlocks the session with a TOTP after login, and again after the session expired', async () => {
      const registrar = createInwxRegistrar({ url: tfa.url, ...tfa.account, totpSecret: secret, timeoutMs: 2000 });
      expect((await registrar.check(['musterfirma.de']))[0]!.status).toBe('free');
      expect(tfa.unlockCount).toBe(1);
      tfa.expireSessions();
      await registrar.prices(['de']);
      expect([tfa.loginCount, tfa.unlockCount]).toEqual([2, 2]);
    });

    it('without the secret, or with a wrong one, login is AUTH', async () => {
      await expectRegistrarError(createInwxRegistrar({ url: tfa.url, ...tfa.account, timeoutMs: 2000 }).check(['musterfirma.de']), 'AUTH');
      const wrong = new OTPAuth.Secret({ size: 20 }).base32;
      const err = await expectRegistrarError(createInwxRegistrar({ url: tfa.url, ...tfa.account, totpSecret: wrong, timeoutMs: 2000 }).check(['musterfirma.de']), 'AUTH');
      expect(err.detail).toMatch(/account\.unlock: 2200/);
    });
  });

  it('a wrong auth code is AUTH_CODE; a locked domain is PROHIBITED', async () => {
    const registrar = driver();
    const contactId = await registrar.saveContact(null, CONTRACT_CONTACT);
    const err = await expectRegistrarError(registrar.transfer({ domain: 'example.com', authCode: 'falsch', contactId }), 'AUTH_CODE');
    expect(err.detail).toMatch(/2202/);
    await expectRegistrarError(registrar.transfer({ domain: 'google.de', authCode: 'Google-De-0001', contactId }), 'PROHIBITED');
  });

  it('a transfer stays pending (2303 on info) until the tick, then is active', async () => {
    const local = await startFakeInwx();
    try {
      const registrar = createInwxRegistrar({ url: local.url, ...local.account, timeoutMs: 2000 });
      const contactId = await registrar.saveContact(null, CONTRACT_CONTACT);
      const { domain, authCode } = FAKE_INWX_TAKEN[0]!;
      expect(await registrar.transfer({ domain, authCode, contactId })).toEqual({ status: 'pending', expiresAt: null });
      await expectRegistrarError(registrar.info(domain), 'NOT_FOUND');
      local.tick();
      const info = await registrar.info(domain);
      expect(info.status).toBe('active');
      expect(info.expiresAt!.slice(0, 10)).toBe(local.domain(domain)!.exDate.toISOString().slice(0, 10));
    } finally {
      await local.close();
    }
  });

  it('renew sends the current expiry as YYYY-MM-DD; a wrong one is INVALID with the registrar text as detail', async () => {
    const registrar = driver();
    const { domain } = await registered(registrar, 'com');
    const current = (await registrar.info(domain)).expiresAt!;
    const err = await expectRegistrarError(registrar.renew({ domain, years: 1, currentExpiry: '2001-01-01' }), 'INVALID');
    expect(err.detail).toMatch(/2004.*expiration 2001-01-01 does not match/);
    await registrar.renew({ domain, years: 1, currentExpiry: current });
    expect(fake.calls.filter((c) => c.method === 'domain.renew').at(-1)!.params).toEqual({ domain, period: '1Y', expiration: current.slice(0, 10) });
  });

  it('check maps the registry: invalid with reason, premium with its price, and sends only names our rules allow', async () => {
    const registrar = driver();
    const callsBefore = fake.calls.length;
    const result = await registrar.check(['nic.de', 'shop.com', 'ab--cd.de', 'xn--mller-kva.de', 'müller.de']);
    expect(result).toEqual([
      { domain: 'nic.de', status: 'invalid', reason: expect.stringMatching(/Registry/) },
      { domain: 'shop.com', status: 'premium', priceCents: 89_950 },
      { domain: 'ab--cd.de', status: 'invalid', reason: expect.stringMatching(/Bindestrich/) },
      { domain: 'xn--mller-kva.de', status: 'free' },
      { domain: 'müller.de', status: 'invalid', reason: expect.stringMatching(/xn--/) },
    ]);
    const sent = fake.calls.slice(callsBefore).filter((c) => c.method === 'domain.check');
    expect(sent.map((c) => c.params.domain)).toEqual([['nic.de', 'shop.com', 'xn--mller-kva.de']]);
  });

  it.each(['datetime', 'iso', 'timestamp'] as const)('reads exDate written as %s', async (dateFormat) => {
    const local = await startFakeInwx({ dateFormat });
    try {
      const registrar = createInwxRegistrar({ url: local.url, ...local.account, timeoutMs: 2000 });
      const { domain } = await registered(registrar);
      const info = await registrar.info(domain);
      expect(info.expiresAt!.slice(0, 19)).toBe(local.domain(domain)!.exDate.toISOString().slice(0, 19));
      const renewed = await registrar.renew({ domain, years: 2, currentExpiry: info.expiresAt! });
      expect(renewed.expiresAt.slice(0, 10)).toBe(local.domain(domain)!.exDate.toISOString().slice(0, 10));
    } finally {
      await local.close();
    }
  });

  it('date and phone helpers', () => {
    expect(parseInwxDate('2027-03-04 12:30:00')).toBe('2027-03-04T12:30:00.000Z');
    expect(parseInwxDate('2027-03-04')).toBe('2027-03-04T00:00:00.000Z');
    expect(parseInwxDate('20270304T12:30:00')).toBe('2027-03-04T12:30:00.000Z');
    expect(parseInwxDate({ timestamp: 1_804_163_400 })).toBe(new Date(1_804_163_400_000).toISOString());
    expect(parseInwxDate('2027-03-04T12:30:00+01:00')).toBe('2027-03-04T11:30:00.000Z');
    expect(parseInwxDate('')).toBeNull();
    expect(parseInwxDate({})).toBeNull();
    expect(toInwxPhone('+49 30 123456', 'DE')).toBe('+49.30123456');
    expect(toInwxPhone('+4930123456', 'DE')).toBe('+49.30123456');
    expect(toInwxPhone('0043 1 234567', 'AT')).toBe('+43.1234567');
    expect(toInwxPhone('030 / 12 34 56', 'DE')).toBe('+49.30123456');
    expect(toInwxPhone('01 234567', 'AT')).toBe('+43.1234567');
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readEnv } from '../../env.ts';
import { createVatCheck } from './index.ts';
import { createSimulatedVatCheck } from './simulated.ts';
import { createViesVatCheck } from './vies.ts';
import { createEvatrVatCheck } from './evatr.ts';
import { startFakeVies, type FakeVies } from './fake-vies.ts';
import { startFakeEvatr, type FakeEvatr } from './fake-evatr.ts';
import type { VatCheckInput } from './vat-check.ts';

const OWN = { vatId: 'DE123456789' };
const ALPENHOST = { name: 'Alpenhost GmbH', street: 'Mariahilfer Straße 1', zip: '1060', city: 'Wien' };

function input(overrides: Partial<VatCheckInput> = {}): VatCheckInput {
  return { country: 'AT', vatId: 'ATU 1234 5678', requester: OWN, company: ALPENHOST, ...overrides };
}

/** Runs the check and measures it; a check must resolve (never reject). */
async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = Date.now();
  const result = await run();
  return { result, ms: Date.now() - start };
}

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('VIES driver against the fake VIES', () => {
  let fake: FakeVies;
  beforeAll(async () => {
    fake = await startFakeVies();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => fake.reset());
  const vies = () => createViesVatCheck({ url: fake.url, timeoutMs: 500 });

  it('confirms a registered ID with the consultation number and the name and address matches, sending our own ID as requester', async () => {
    const result = await vies().checkVatId(input());
    expect(result).toMatchObject({ status: 'valid', service: 'vies', matches: { name: 'match', street: 'match', zip: 'match', city: 'match' } });
    expect(result.consultationNumber).toMatch(/^WAPI/);
    expect(result.checkedAt).toBeInstanceOf(Date);
    expect(fake.requests.at(-1)!.body).toEqual({
      countryCode: 'AT', vatNumber: 'U12345678', requesterMemberStateCode: 'DE', requesterNumber: '123456789',
      traderName: 'Alpenhost GmbH', traderStreet: 'Mariahilfer Straße 1', traderPostalCode: '1060', traderCity: 'Wien',
    });
  });

  it('reports a company name that differs from the register as a mismatch', async () => {
    const result = await vies().checkVatId(input({ company: { ...ALPENHOST, name: 'Andere GmbH' } }));
    expect(result.status).toBe('valid');
    expect(result.matches).toEqual({ name: 'mismatch', street: 'match', zip: 'match', city: 'match' });
  });

  it('sends Greek IDs with the VAT prefix EL', async () => {
    fake.register({ countryCode: 'EL', vatNumber: '094014201', name: 'Ellas AE', street: 'Odos 1', postalCode: '10431', city: 'Athina' });
    const result = await vies().checkVatId(input({ country: 'GR', vatId: 'EL094014201', company: undefined }));
    expect(result.status).toBe('valid');
    expect(fake.requests.at(-1)!.body).toMatchObject({ countryCode: 'EL', vatNumber: '094014201' });
  });

  it('answers invalid, with a German reason, for an ID VIES does not know', async () => {
    const result = await vies().checkVatId(input({ vatId: 'ATU99999998' }));
    expect(result.status).toBe('invalid');
    expect(result.message).toMatch(/nicht gültig/);
  });

  it('answers unavailable, never throws, for each VIES service error', async () => {
    for (const code of ['MS_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'TIMEOUT', 'MS_MAX_CONCURRENT_REQ', 'GLOBAL_MAX_CONCURRENT_REQ']) {
      fake.failWith(code, code === 'SERVICE_UNAVAILABLE' ? 500 : 200);
      const result = await vies().checkVatId(input());
      expect(result, code).toMatchObject({ status: 'unavailable', service: 'vies', consultationNumber: null });
      expect(result.message).toContain(code);
      expect(result.message).toMatch(/zurzeit nicht möglich/);
    }
  });

  it('answers unavailable when the gateway is down (HTTP 503) or nothing listens', async () => {
    fake.down();
    expect((await vies().checkVatId(input())).status).toBe('unavailable');
    const nobody = createViesVatCheck({ url: 'http://127.0.0.1:1/taxation_customs/vies/rest-api/check-vat-number', timeoutMs: 500 });
    expect((await nobody.checkVatId(input())).status).toBe('unavailable');
  });

  it('gives up a slow answer after the timeout and reports unavailable', async () => {
    fake.slow(3000);
    const { result, ms } = await timed(() => vies().checkVatId(input()));
    expect(result.status).toBe('unavailable');
    expect(result.message).toMatch(/nicht rechtzeitig/);
    expect(ms).toBeLessThan(1500);
  });

  it('refuses malformed requests the way VIES does: half a requester, an unknown country, an unknown field, no JSON', async () => {
    const half = await post(fake.url, { countryCode: 'AT', vatNumber: 'U12345678', requesterMemberStateCode: 'DE' });
    expect(half.json).toEqual({ actionSucceed: false, errorWrappers: [{ error: 'INVALID_REQUESTER_INFO', message: 'INVALID_REQUESTER_INFO' }] });
    expect((await post(fake.url, { countryCode: 'GR', vatNumber: '094014201' })).json.errorWrappers).toEqual([expect.objectContaining({ error: 'INVALID_INPUT' })]);
    expect((await post(fake.url, { country: 'AT', vatNumber: 'U12345678' })).json.errorWrappers).toEqual([expect.objectContaining({ error: 'INVALID_INPUT' })]);
    expect((await post(fake.url, 'countryCode=AT')).status).toBe(400);
    // Without requester VIES answers, but gives no consultation number: no proof.
    const anonymous = await post(fake.url, { countryCode: 'AT', vatNumber: 'U12345678' });
    expect(anonymous.json).toMatchObject({ valid: true, requestIdentifier: '' });
  });

  it('turns INVALID_INPUT into an invalid ID and does not ask VIES for a country without EU VAT IDs', async () => {
    fake.failWith('INVALID_INPUT', 400);
    expect((await vies().checkVatId(input())).status).toBe('invalid');
    const before = fake.requests.length;
    const swiss = await vies().checkVatId(input({ country: 'CH', vatId: 'CHE123456789' }));
    expect(swiss).toMatchObject({ status: 'invalid', message: expect.stringMatching(/keine EU-Umsatzsteuer-Identifikationsnummer/) });
    expect(fake.requests.length).toBe(before);
  });
});

describe('eVatR driver against the fake eVatR', () => {
  let fake: FakeEvatr;
  beforeAll(async () => {
    fake = await startFakeEvatr();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => fake.reset());
  const evatr = () => createEvatrVatCheck({ url: fake.url, timeoutMs: 500 });

  it('confirms a foreign ID qualified: the id as proof and A/B per detail as match/mismatch', async () => {
    const result = await evatr().checkVatId(input({ company: { ...ALPENHOST, zip: '1010' } }));
    expect(result).toMatchObject({ status: 'valid', service: 'evatr', matches: { name: 'match', street: 'match', zip: 'mismatch', city: 'match' } });
    expect(result.consultationNumber).toMatch(/^[0-9a-f]{24}$/);
    expect(fake.requests.at(-1)!.body).toEqual({ anfragendeUstid: 'DE123456789', angefragteUstid: 'ATU12345678', firmenname: 'Alpenhost GmbH', ort: 'Wien', strasse: 'Mariahilfer Straße 1', plz: '1010' });
  });

  it('answers invalid for an ID not assigned (evatr-2001) and one no longer valid (evatr-2006)', async () => {
    const unknown = await evatr().checkVatId(input({ vatId: 'ATU99999998' }));
    expect(unknown).toMatchObject({ status: 'invalid', message: expect.stringMatching(/nicht vergeben/) });
    fake.register({ vatId: 'FR12345678901', name: 'Ancienne SARL', city: 'Paris', validUntil: '2024-12-31' });
    const gone = await evatr().checkVatId(input({ country: 'FR', vatId: 'FR12345678901', company: undefined }));
    expect(gone).toMatchObject({ status: 'invalid', message: expect.stringMatching(/nicht mehr gültig/) });
  });

  it('answers unavailable when the BZSt is down (evatr-0011, 503) or fails inside (evatr-1001), and after the timeout', async () => {
    fake.down();
    expect(await evatr().checkVatId(input())).toMatchObject({ status: 'unavailable', message: expect.stringContaining('evatr-0011') });
    fake.reset();
    fake.failWith('evatr-1001', 503);
    expect((await evatr().checkVatId(input())).status).toBe('unavailable');
    fake.reset();
    fake.slow(3000);
    const { result, ms } = await timed(() => evatr().checkVatId(input()));
    expect(result.status).toBe('unavailable');
    expect(ms).toBeLessThan(1500);
  });

  it('does not ask for German IDs, which eVatR does not confirm', async () => {
    const result = await evatr().checkVatId(input({ country: 'DE', vatId: 'DE987654321' }));
    expect(result.status).toBe('unavailable');
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses malformed requests the way eVatR does', async () => {
    expect((await post(fake.url, { angefragteUstid: 'ATU12345678' })).json.status).toBe('evatr-0002');
    expect((await post(fake.url, { anfragendeUstid: 'ATU12345678', angefragteUstid: 'ATU12345678' })).json.status).toBe('evatr-0004');
    expect((await post(fake.url, { anfragendeUstid: 'DE123456789', angefragteUstid: 'DE987654321' })).json.status).toBe('evatr-0006');
    expect((await post(fake.url, { anfragendeUstid: 'DE123456789', angefragteUstid: 'GR094014201' })).json.status).toBe('evatr-2003');
    expect((await post(fake.url, { UstId_1: 'DE123456789', UstId_2: 'ATU12345678' })).status).toBe(403);
    expect((await post(fake.url, { anfragendeUstid: 'DE123456789', angefragteUstid: 'ATU12345678', firmenname: 'Alpenhost GmbH' })).json.status).toBe('evatr-0003');
  });
});

describe('simulated VAT-ID check', () => {
  const simulated = createSimulatedVatCheck({ now: () => new Date('2026-11-27T12:00:00Z') });

  it('follows its documented rules: …0000 invalid, …9999 unavailable, anything else valid with a stable consultation number', async () => {
    const valid = await simulated.checkVatId(input({ vatId: 'ATU12345678' }));
    expect(valid).toMatchObject({ status: 'valid', service: 'simulated', matches: { name: 'match', street: 'match', zip: 'match', city: 'match' } });
    expect(valid.consultationNumber).toMatch(/^SIM-[0-9A-F]{12}$/);
    expect((await simulated.checkVatId(input({ vatId: 'ATU12345678' }))).consultationNumber).toBe(valid.consultationNumber);
    expect(await simulated.checkVatId(input({ vatId: 'ATU12340000' }))).toMatchObject({ status: 'invalid', consultationNumber: null, message: expect.stringMatching(/nicht gültig/) });
    expect(await simulated.checkVatId(input({ vatId: 'ATU12349999' }))).toMatchObject({ status: 'unavailable', message: expect.stringMatching(/zurzeit nicht möglich/) });
    expect((await simulated.checkVatId(input({ country: 'US', vatId: '123456789' }))).status).toBe('invalid');
  });
});

describe('choosing the VAT-ID check', () => {
  it('defaults to the simulated check and reads VAT_CHECK, VAT_CHECK_URL, VAT_CHECK_TIMEOUT_MS and VAT_CHECK_MAX_AGE_DAYS', () => {
    expect(readEnv({}).vatCheck).toEqual({ driver: 'simulated', url: undefined, timeoutMs: 8000, maxAgeDays: 30 });
    expect(createVatCheck(readEnv({})).service).toBe('simulated');
    const env = readEnv({ VAT_CHECK: 'vies', VAT_CHECK_URL: 'http://127.0.0.1:9/x', VAT_CHECK_TIMEOUT_MS: '2000', VAT_CHECK_MAX_AGE_DAYS: '7', COMPANY_VAT_ID: 'DE123456789' });
    expect(env.vatCheck).toEqual({ driver: 'vies', url: 'http://127.0.0.1:9/x', timeoutMs: 2000, maxAgeDays: 7 });
    expect(createVatCheck(env).service).toBe('vies');
    expect(createVatCheck(readEnv({ VAT_CHECK: 'evatr', COMPANY_VAT_ID: 'DE 123 456 789' })).service).toBe('evatr');
  });

  it('refuses an unknown VAT_CHECK, eVatR without a German own ID and a plain-http address that is not local', () => {
    expect(() => readEnv({ VAT_CHECK: 'bzst' })).toThrow('VAT_CHECK must be simulated, vies or evatr');
    expect(() => createVatCheck(readEnv({ VAT_CHECK: 'evatr', COMPANY_VAT_ID: 'ATU12345678' }))).toThrow(/German VAT ID/);
    expect(() => createVatCheck(readEnv({ VAT_CHECK: 'vies', COMPANY_VAT_ID: 'DE123456789', VAT_CHECK_URL: 'http://vies.example.net/' }))).toThrow(/https/);
  });
});

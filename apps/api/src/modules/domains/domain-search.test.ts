import { describe, expect, it } from 'vitest';
import { DOMAIN_SEARCH_MAX, DomainSearchResult, domainMessages, domainYearCents, premiumYearCents } from '@hp/contract';
import { describeEachDatabase, uniqueName } from '../../../test/harness.ts';
import { RegistrarError, registrarMessages } from '../../drivers/registrar/registrar.ts';
import { AvailabilityCache, SEARCHES_PER_MINUTE, searchMessages } from './domain-search.service.ts';

let ipCounter = 0;
const nextIp = () => `10.13.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

describe('AvailabilityCache', () => {
  it('forgets an answer after its time and stays within its bound', () => {
    let now = 0;
    const cache = new AvailabilityCache(60_000, 3, () => now);
    cache.set({ domain: 'a.de', status: 'free' });
    expect(cache.get('a.de')).toEqual({ domain: 'a.de', status: 'free' });
    now = 60_000;
    expect(cache.get('a.de')).toBeUndefined();
    for (const d of ['b.de', 'c.de', 'd.de', 'e.de']) cache.set({ domain: d, status: 'taken' });
    expect(cache.size).toBe(3);
    expect(cache.get('b.de')).toBeUndefined();
    expect(cache.get('e.de')?.status).toBe('taken');
  });
});

describeEachDatabase('domain search (GET /api/domains/search)', (ctx) => {
  const search = async (q: string, ip = nextIp()) => {
    const res = await ctx().app.inject({ method: 'GET', url: `/api/domains/search?q=${encodeURIComponent(q)}`, remoteAddress: ip });
    return res;
  };
  const result = async (q: string) => {
    const res = await search(q);
    expect(res.statusCode, res.body).toBe(200);
    return DomainSearchResult.parse(res.json());
  };
  /** Counts the names the registrar is asked about; restores the driver afterwards. */
  const counting = async <T>(body: (calls: string[][]) => Promise<T>) => {
    const registrar = ctx().app.deps.registrar;
    const original = registrar.check.bind(registrar);
    const calls: string[][] = [];
    registrar.check = async (domains) => {
      calls.push(domains);
      return original(domains);
    };
    try {
      return await body(calls);
    } finally {
      registrar.check = original;
    }
  };

  it('"musterfirma" (no login): the six extensions, .de free at the list price, .com taken at the transfer price', async () => {
    const data = await result('musterfirma');
    expect(data.error).toBeNull();
    expect(data.invalid).toEqual([]);
    expect(data.items.map((i) => i.domain)).toEqual(['musterfirma.de', 'musterfirma.com', 'musterfirma.net', 'musterfirma.org', 'musterfirma.eu', 'musterfirma.info']);
    const de = data.items.find((i) => i.tld === 'de')!;
    expect(de).toMatchObject({ status: 'free', reason: null, yearCents: domainYearCents('de'), unicode: 'musterfirma.de' });
    expect(de.yearCents).toBe(1080);
    expect(data.items.find((i) => i.tld === 'com')).toMatchObject({ status: 'taken', yearCents: 1440 });
  });

  it('a name with an extension is checked alone; a premium name carries the registry price plus margin and VAT', async () => {
    const data = await result('cloud.de');
    expect(data.items).toHaveLength(1);
    expect(data.items[0]).toMatchObject({ domain: 'cloud.de', status: 'premium', yearCents: premiumYearCents(149_00) });
  });

  it('umlauts: punycode for the registrar, the readable name for the page', async () => {
    const data = await result('Müller-Bäckerei.de');
    expect(data.items).toEqual([expect.objectContaining({ domain: 'xn--mller-bckerei-hfb76a.de', unicode: 'müller-bäckerei.de', status: 'free' })]);
  });

  it('invalid names get the German reason and never reach the registrar; the valid rest is still searched', async () => {
    await counting(async (calls) => {
      const data = await result(`-falsch.de mein_name ${uniqueName('gut')}.com seite.xyz`);
      expect(data.invalid).toEqual([
        { input: '-falsch.de', reason: domainMessages.hyphenEdge },
        { input: 'mein_name', reason: domainMessages.characters },
        { input: 'seite.xyz', reason: domainMessages.tldNotOffered('xyz') },
      ]);
      expect(data.items).toHaveLength(1);
      expect(calls.flat().every((d) => d.endsWith('.com'))).toBe(true);
    });
  });

  it('too many names: the first ones are searched and the German error says why not the rest', async () => {
    const names = Array.from({ length: DOMAIN_SEARCH_MAX + 2 }, (_, i) => `viele${i}-${uniqueName('n')}.de`);
    const data = await result(names.join(' '));
    expect(data.error).toBe(domainMessages.tooMany);
    expect(data.items).toHaveLength(DOMAIN_SEARCH_MAX);
  });

  it('nothing typed: a German error, no registrar call', async () => {
    await counting(async (calls) => {
      expect(await result('  ')).toEqual({ items: [], invalid: [], error: domainMessages.empty });
      expect(calls).toEqual([]);
    });
  });

  it('caches the answers briefly: a second search does not ask the registrar again', async () => {
    const name = uniqueName('cache');
    await counting(async (calls) => {
      const first = await result(name);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toHaveLength(6);
      const again = await result(`${name}.de ${name}`);
      expect(calls).toHaveLength(1);
      expect(again.items.map((i) => i.status)).toEqual(first.items.map((i) => i.status));
    });
  });

  it('limits the searches per client address with a German 429; another address still searches', async () => {
    const ip = nextIp();
    for (let i = 0; i < SEARCHES_PER_MINUTE; i++) expect((await search('musterfirma', ip)).statusCode).toBe(200);
    const limited = await search('musterfirma', ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe(searchMessages.rateLimited);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await search('musterfirma')).statusCode).toBe(200);
  });

  it('registrar unavailable: a German 503, nothing cached', async () => {
    const registrar = ctx().app.deps.registrar;
    const original = registrar.check;
    const name = uniqueName('weg');
    registrar.check = async () => {
      throw new RegistrarError('UNAVAILABLE', undefined, 'connect ECONNREFUSED');
    };
    try {
      const res = await search(name);
      expect(res.statusCode).toBe(503);
      expect(res.json().error.message).toBe(registrarMessages.UNAVAILABLE);
      expect(res.body).not.toContain('ECONNREFUSED');
      registrar.check = async () => {
        throw new Error('socket hang up');
      };
      const other = await search(`${name}.de`);
      expect(other.statusCode).toBe(503);
      expect(other.json().error.message).toBe(registrarMessages.UNAVAILABLE);
    } finally {
      registrar.check = original;
    }
    expect((await result(name)).items).toHaveLength(6);
  });
});

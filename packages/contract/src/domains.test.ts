import { describe, expect, it } from 'vitest';
import {
  DOMAIN_TLDS, DOMAIN_TLD_INFO, domainCandidates, domainMessages, domainToUnicode, domainYearCents, normaliseDomain,
  parseDomainName, parseDomainSearch, validateDomainName,
} from './index.ts';

const reason = (name: string) => {
  const parsed = parseDomainName(name);
  return parsed.valid ? null : parsed.reason;
};

describe('domain extensions', () => {
  it('sells the six extensions at the indicative prices, billed per year', () => {
    expect(DOMAIN_TLDS).toEqual(['de', 'com', 'net', 'org', 'eu', 'info']);
    expect(Object.fromEntries(DOMAIN_TLDS.map((t) => [t, DOMAIN_TLD_INFO[t].monthlyCents]))).toEqual({ de: 90, com: 120, net: 120, org: 120, eu: 90, info: 90 });
    expect(DOMAIN_TLDS.filter((t) => DOMAIN_TLD_INFO[t].popular)).toEqual(['de', 'com']);
    expect(domainYearCents('de')).toBe(1080);
    expect(domainYearCents('com')).toBe(1440);
    for (const t of DOMAIN_TLDS) expect(DOMAIN_TLD_INFO[t].years).toEqual({ min: 1, max: 10 });
  });

  it('gives the six full names to check for an SLD', () => {
    expect(domainCandidates('musterfirma')).toEqual(['musterfirma.de', 'musterfirma.com', 'musterfirma.net', 'musterfirma.org', 'musterfirma.eu', 'musterfirma.info']);
  });
});

describe('parseDomainSearch', () => {
  it('converts Umlaute to punycode like normaliseDomain and keeps the readable form', () => {
    expect(parseDomainName('Müller.de')).toEqual({ valid: true, input: 'Müller.de', sld: 'xn--mller-kva', tld: 'de', ascii: 'xn--mller-kva.de', unicode: 'müller.de' });
    expect(normaliseDomain('müller.de')).toBe('xn--mller-kva.de');
    expect(parseDomainName('straße')).toMatchObject({ valid: true, sld: 'xn--strae-oqa', ascii: 'xn--strae-oqa', unicode: 'straße' });
    expect(parseDomainName('xn--mller-kva.de')).toMatchObject({ valid: true, unicode: 'müller.de' });
    expect(domainToUnicode('xn--bcher-kva.xn--mller-kva.de')).toBe('bücher.müller.de');
  });

  it('splits on spaces, commas and new lines, lower-cases, drops duplicates', () => {
    const search = parseDomainSearch(' Musterfirma,  beispiel.com\nmusterfirma;test-1.eu ');
    expect(search.error).toBeUndefined();
    expect(search.names.map((n) => (n.valid ? n.ascii : n.reason))).toEqual(['musterfirma', 'beispiel.com', 'test-1.eu']);
    expect(search.names[0]).toMatchObject({ valid: true, sld: 'musterfirma' });
    expect((search.names[0] as { tld?: string }).tld).toBeUndefined();
  });

  it('takes at most ten names and says so', () => {
    const many = Array.from({ length: 12 }, (_, i) => `name${i}`).join(' ');
    const search = parseDomainSearch(many);
    expect(search.names).toHaveLength(10);
    expect(search.error).toBe(domainMessages.tooMany);
    expect(parseDomainSearch(' , \n ')).toEqual({ names: [], error: domainMessages.empty });
  });

  it('drops www. and a pasted address', () => {
    expect(parseDomainName('https://www.Beispiel.de/kontakt')).toMatchObject({ valid: true, ascii: 'beispiel.de' });
  });

  it('label lengths: 63 characters are fine, 64 are too long, also after punycode', () => {
    expect(reason(`${'a'.repeat(63)}.de`)).toBeNull();
    expect(reason(`${'a'.repeat(64)}.de`)).toBe(domainMessages.labelTooLong);
    // 60 letters plus one Umlaut become more than 63 in punycode.
    expect(reason(`${'a'.repeat(58)}ü.de`)).toBe(domainMessages.labelTooLong);
    expect(reason(`${'a.'.repeat(130)}de`)).toBe(domainMessages.totalTooLong);
    expect(reason('a.de')).toBeNull();
  });

  it('hyphens: not at the start or end; at positions 3 and 4 only for xn--', () => {
    expect(reason('-abc.de')).toBe(domainMessages.hyphenEdge);
    expect(reason('abc-.de')).toBe(domainMessages.hyphenEdge);
    expect(reason('ab--cd.de')).toBe(domainMessages.hyphens34);
    expect(reason('ab--cd')).toBe(domainMessages.hyphens34);
    expect(reason('a--bc.de')).toBeNull();
    expect(reason('abc--d.de')).toBeNull();
    expect(reason('mein-name.de')).toBeNull();
  });

  it('refuses characters, unknown extensions, subdomains and names too short for the registry', () => {
    expect(reason('foo_bar.de')).toBe(domainMessages.characters);
    expect(reason('foo!.de')).toBe(domainMessages.characters);
    expect(reason('beispiel.xyz')).toBe('Die Endung .xyz bieten wir nicht an.');
    expect(reason('1.2')).toBe('Die Endung .2 bieten wir nicht an.');
    expect(reason('123')).toBeNull();
    expect(reason('shop.beispiel.de')).toBe(domainMessages.subdomain);
    expect(reason('a.eu')).toBe('Namen unter .eu müssen mindestens 2 Zeichen lang sein.');
    expect(reason('ab.eu')).toBeNull();
    expect(reason('.de')).toBe(domainMessages.characters);
    expect(reason('   ')).toBe(domainMessages.empty);
  });

  it('validateDomainName wants a full name with an offered extension', () => {
    expect(validateDomainName('Müller.de')).toEqual({ ascii: 'xn--mller-kva.de', unicode: 'müller.de', sld: 'xn--mller-kva', tld: 'de' });
    expect(validateDomainName('mueller')).toEqual({ reason: domainMessages.tldMissing });
  });
});

describe('mixed scripts (Unicode TR 39 single script, issue 21)', () => {
  it('refuses a label that mixes Latin and Cyrillic or Greek, in the search and for checkout', () => {
    for (const name of ['p\u0430ypal.de', 'g\u043e\u043egle.com', 'ap\u0440le.de', 'micr\u03bfsoft.eu']) {
      expect(parseDomainName(name), name).toMatchObject({ valid: false, reason: domainMessages.mixedScripts });
      expect(validateDomainName(name), name).toEqual({ reason: domainMessages.mixedScripts });
      expect(parseDomainSearch(name).names[0], name).toMatchObject({ valid: false });
    }
  });
  it('accepts one script, with digits and hyphens, and the augmented Japanese and Korean sets', () => {
    for (const name of ['müller.de', 'straße-24.de', 'пример.com', 'παράδειγμα.eu', '東京タワー.com', 'ひらがな漢字.net', '한국어漢字.com', 'česká-firma.eu']) {
      expect(parseDomainName(name), name).toMatchObject({ valid: true });
    }
  });
});

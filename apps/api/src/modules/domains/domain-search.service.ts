import {
  domainCandidates, domainToUnicode, domainYearCents, parseDomainSearch, premiumYearCents,
  type DomainSearchItem, type DomainSearchResult, type DomainTld,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';
import { RegistrarError, type DomainAvailability } from '../../drivers/registrar/registrar.ts';

type SearchDeps = Pick<Deps, 'db' | 'registrar'> & { log?: { warn: (obj: object, msg: string) => void } };

/** Searches per client address and minute (issue 13: "rate-limited per client"). */
export const SEARCHES_PER_MINUTE = 30;
export const searchMessages = {
  rateLimited: 'Sie haben sehr viele Domains in kurzer Zeit gesucht. Bitte warten Sie einen Moment und versuchen Sie es dann erneut.',
} as const;

/** How long one name's availability is reused, and how many names the cache holds at most. */
export const SEARCH_CACHE_MS = 60_000;
export const SEARCH_CACHE_MAX = 5000;

interface Cached { value: DomainAvailability; until: number }

/**
 * A brief in-process cache of the registry's answers, keyed by full ASCII name: repeated searches (the
 * same visitor typing again, a popular name) do not reach the registrar. Per instance, bounded; the
 * order step checks again with the registrar, so a stale "frei" here never sells a taken name.
 */
export class AvailabilityCache {
  private readonly map = new Map<string, Cached>();
  constructor(private readonly ttlMs = SEARCH_CACHE_MS, private readonly max = SEARCH_CACHE_MAX, private readonly now: () => number = Date.now) {}

  get(domain: string): DomainAvailability | undefined {
    const hit = this.map.get(domain);
    if (!hit) return undefined;
    if (hit.until <= this.now()) {
      this.map.delete(domain);
      return undefined;
    }
    return hit.value;
  }

  set(value: DomainAvailability) {
    this.map.delete(value.domain);
    // Map keeps insertion order: the oldest entries go first once the bound is reached.
    while (this.map.size >= this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
    this.map.set(value.domain, { value, until: this.now() + this.ttlMs });
  }

  clear() {
    this.map.clear();
  }

  get size() {
    return this.map.size;
  }
}

/** A registrar failure as the search answers it: German 503 (or 429 when the registrar asks us to wait). */
export function toRegistrarAppError(err: unknown, deps?: SearchDeps): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof RegistrarError) {
    if (err.code !== 'UNAVAILABLE' && err.code !== 'TRY_LATER') deps?.log?.warn({ code: err.code, detail: err.detail }, 'registrar refused a domain check');
    return new AppError(503, `REGISTRAR_${err.code === 'TRY_LATER' ? 'TRY_LATER' : 'UNAVAILABLE'}`, new RegistrarError(err.code === 'TRY_LATER' ? 'TRY_LATER' : 'UNAVAILABLE').message);
  }
  deps?.log?.warn({ err }, 'domain check failed');
  return new AppError(503, 'REGISTRAR_UNAVAILABLE', new RegistrarError('UNAVAILABLE').message);
}

const tldOf = (domain: string) => domain.slice(domain.lastIndexOf('.') + 1) as DomainTld;

/** One registry answer as the search and the order form show it (German reason, yearly gross price). */
export function toItem(answer: DomainAvailability): DomainSearchItem {
  const tld = tldOf(answer.domain);
  const base = { domain: answer.domain, unicode: domainToUnicode(answer.domain), tld };
  switch (answer.status) {
    case 'free':
    case 'taken':
      return { ...base, status: answer.status, reason: null, yearCents: domainYearCents(tld) };
    case 'premium':
      return { ...base, status: 'premium', reason: null, yearCents: premiumYearCents(answer.priceCents) };
    case 'invalid':
      return { ...base, status: 'invalid', reason: answer.reason, yearCents: null };
  }
}

/**
 * GET /api/domains/search: each name without an extension under all six offered extensions, a name with
 * one alone; names our rules refuse are answered with the German reason and never sent to the registrar.
 * One registrar call for every name the cache does not know.
 */
export async function searchDomains(deps: SearchDeps, cache: AvailabilityCache, q: string, ip: string): Promise<DomainSearchResult> {
  const search = parseDomainSearch(q);
  if (!search.names.length) return { items: [], invalid: [], error: search.error ?? null };
  await enforceLimit(deps.db, { key: `domain-search-ip:${ip}`, limit: SEARCHES_PER_MINUTE, windowSeconds: 60 })
    .catch((err: unknown) => {
      if (err instanceof AppError && err.statusCode === 429) throw new AppError(429, err.code, searchMessages.rateLimited, err.details, err.headers);
      throw err;
    });

  const invalid: DomainSearchResult['invalid'] = [];
  const wanted: string[] = [];
  for (const name of search.names) {
    if (!name.valid) invalid.push({ input: name.input, reason: name.reason });
    else for (const full of name.tld ? [name.ascii] : domainCandidates(name.sld)) if (!wanted.includes(full)) wanted.push(full);
  }

  const missing = wanted.filter((d) => cache.get(d) === undefined);
  const fresh = new Map<string, DomainAvailability>();
  if (missing.length) {
    let answers: DomainAvailability[];
    try {
      answers = await deps.registrar.check(missing);
    } catch (err) {
      throw toRegistrarAppError(err, deps);
    }
    for (const a of answers) {
      fresh.set(a.domain, a);
      cache.set(a);
    }
  }

  const items: DomainSearchItem[] = [];
  for (const domain of wanted) {
    const answer = fresh.get(domain) ?? cache.get(domain);
    if (!answer) throw toRegistrarAppError(new RegistrarError('UNAVAILABLE', undefined, `no answer for ${domain}`), deps);
    items.push(toItem(answer));
  }
  return { items, invalid, error: search.error ?? null };
}

/**
 * Domain routes (issue 13) against "Access control" and "Input" of docs/quality/security-and-reliability.md,
 * in the style of hosting/hosting.security.test.ts: every /api/domains* and /api/shop/domain* route × role,
 * unknown and malformed ids, and fuzzed bodies against a real domain. Never a 5xx; errors German.
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { createUser, describeEachDatabase, fuzzDatabase, STRONG_PASSWORD } from '../../../test/harness.ts';
import { buyDomain, createDomainCustomer, freeName } from '../../../test/domains.ts';
import { auditEvents, domains, orders, simDomainRegistry } from '../../db/schema/index.ts';
import { resetCounter } from '../../lib/rate-limit.ts';

/** Every domain route there is; a new route fails the first test until it is added here. */
const DOMAIN_ROUTES = [
  'GET /api/domains/search', 'GET /api/shop/domain', 'POST /api/shop/domain/checkout',
  'GET /api/domains', 'GET /api/domains/:id', 'PUT /api/domains/:id/nameservers', 'PUT /api/domains/:id/transfer-lock',
  'PUT /api/domains/:id/auto-renew', 'POST /api/domains/:id/auth-code',
].sort();

const isDomainRoute = (url: string) => url === '/api/domains' || url.startsWith('/api/domains/') || url.startsWith('/api/shop/domain');
const withBody = (method: string) => !['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(method);

/** A valid body per route, so that a 404 is the answer of the route and not of the schema. */
const validBody = (route: string, password: string): Record<string, unknown> | undefined => ({
  'POST /api/shop/domain/checkout': { domain: freeName(), action: 'register', years: 1, acceptTerms: true },
  'PUT /api/domains/:id/nameservers': { nameservers: ['ns1.example.net', 'ns2.example.net'] },
  'PUT /api/domains/:id/transfer-lock': { locked: false },
  'PUT /api/domains/:id/auto-renew': { autoRenew: false },
  'POST /api/domains/:id/auth-code': { password },
} as Record<string, Record<string, unknown>>)[route];

const GERMAN = /[äöüÄÖÜß]|\b(?:Bitte|bitte|ungültig|Ungültig|nicht|Nicht|Anfrage|Der|Die|Das|Dieser|Diese|Es|Ihr|Ihre|Sie|ist|sind|wurde|kann|muss|bereits|zu|Fehler|oder|Unbekannte|Unbekannter|Mindestens|mindestens|Domain|Nameserver)\b/;
const LEAKS = /\n\s*at\s|Failed query|relation "|node_modules|\.ts:\d+|FST_ERR|ZodError|drizzle|pglite|TypeError|ReferenceError/i;

const parse = (res: LightMyRequestResponse) => {
  try {
    return res.json() as { error?: { code?: unknown; message?: unknown } };
  } catch {
    return undefined;
  }
};

function problemsOf(res: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push(`status ${res.statusCode}`);
  if (res.statusCode >= 400) {
    const body = parse(res);
    if (typeof body?.error?.code !== 'string') problems.push('error.code missing');
    if (typeof body?.error?.message !== 'string') problems.push('error.message missing');
    else if (!GERMAN.test(body.error.message)) problems.push(`message not German: ${body.error.message}`);
    if (LEAKS.test(res.body)) problems.push('internals in the error body');
  }
  return problems;
}
const describeRequest = (o: InjectOptions, res: LightMyRequestResponse) =>
  `${o.method} ${String(o.url).slice(0, 100)} ${String(typeof o.payload === 'string' ? o.payload : JSON.stringify(o.payload ?? '')).slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 160)}`;

const oddStrings = [
  '\u202Eevil\u202C', '\u200B', 'a\u0000b', '😀🔥', '\uD800', 'x'.repeat(100_000), 'ä'.repeat(20_000), '', '   ', '<script>alert(1)</script>',
  "' OR '1'='1' --", '../../../etc/passwd', '%00', '\r\nX-Injected: 1', '１２３', 'null', '-1', '1e309', 'NaN', '__proto__', 'constructor',
  'provider', 'ns1.example.net', 'beispiel.de', STRONG_PASSWORD,
];
const nastyString = fc.oneof(fc.constantFrom(...oddStrings), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }));
const anyValue = fc.oneof(
  nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }), fc.array(nastyString, { maxLength: 5 }), fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
);
const rawCases = [
  { contentType: 'application/json', text: '{' },
  { contentType: 'application/json', text: '' },
  { contentType: 'application/json', text: 'null' },
  { contentType: 'application/json', text: '{"__proto__":{"status":"active","ownerId":"x"}}' },
  { contentType: 'application/json', text: JSON.stringify({ a: 'x'.repeat(300_000) }) },
  { contentType: 'application/json', text: `${'['.repeat(20_000)}${']'.repeat(20_000)}` },
  { contentType: 'text/plain', text: '{"locked":true}' },
  { contentType: 'application/x-www-form-urlencoded', text: 'autoRenew=false' },
];
type FuzzBody = { kind: 'json'; value: unknown } | { kind: 'raw'; contentType: string; text: string };

describeEachDatabase('domain routes: roles, ids, fuzzing (security)', (ctx, kind) => {
  const domainRoutes = () => ctx().app.registeredRoutes.filter((r) => isDomainRoute(r.url));
  const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
  const fill = (url: string, id?: string) => url.replace(':id', id ?? crypto.randomUUID());
  const request = (route: { method: string; url: string }, url: string, headers: Record<string, string>, password = STRONG_PASSWORD): InjectOptions => ({
    method: route.method as InjectOptions['method'], url, headers, ...(withBody(route.method) ? { payload: validBody(key(route), password) ?? {} } : {}),
  });
  const resetLimits = async (userId: string) => {
    await resetCounter(ctx().database.db, `domain-write:${userId}`);
    await resetCounter(ctx().database.db, `domain-order:${userId}`);
  };

  it('the domain routes are exactly the known ones; only the search is public, everything else is for signed-in customers', () => {
    expect(domainRoutes().map(key).sort()).toEqual(DOMAIN_ROUTES);
    for (const r of domainRoutes()) expect(r.access, key(r)).toBe(r.url === '/api/domains/search' ? 'public' : 'customer');
  });

  it('anonymous and a forged token → 401 on every non-public route; nothing is ordered', async () => {
    const before = (await ctx().database.db.select().from(orders)).length;
    const problems: string[] = [];
    for (const route of domainRoutes().filter((r) => r.access !== 'public')) {
      const url = route.url === '/api/shop/domain' ? `${route.url}?domain=${freeName()}` : fill(route.url);
      const opts = request(route, url, {});
      const res = await ctx().app.inject(opts);
      if (res.statusCode !== 401 || parse(res)?.error?.code !== 'UNAUTHORIZED') problems.push(describeRequest(opts, res));
      problems.push(...problemsOf(res).map((p) => `${key(route)}: ${p}`));
      const forged = await ctx().app.inject({ ...opts, headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' } });
      if (forged.statusCode !== 401) problems.push(`forged token: ${describeRequest(opts, forged)}`);
    }
    expect(problems).toEqual([]);
    expect((await ctx().database.db.select().from(orders)).length).toBe(before);
  });

  it('another customer, an employee and an owner get 404 on every :id route of a real domain; nothing changes, no auth code is revealed', { timeout: 120_000 }, async () => {
    const owner = await createDomainCustomer(ctx());
    const { domainId, domain: name } = await buyDomain(ctx(), owner);
    const [before] = await ctx().database.db.select().from(domains).where(eq(domains.id, domainId));
    const [registryBefore] = await ctx().database.db.select().from(simDomainRegistry).where(eq(simDomainRegistry.domain, name));
    const others = [await createDomainCustomer(ctx()), await createUser(ctx(), { role: 'employee' }), await createUser(ctx(), { role: 'owner' })];
    const problems: string[] = [];
    for (const other of others) {
      for (const route of domainRoutes().filter((r) => r.url.includes(':id'))) {
        // With the other's own (correct) password: the password is not what stops them.
        const opts = request(route, fill(route.url, domainId), other.auth, other.password);
        const res = await ctx().app.inject(opts);
        if (res.statusCode !== 404) problems.push(`${other.user.role}: ${describeRequest(opts, res)}`);
        else if (res.json().error.message !== 'Domain nicht gefunden.') problems.push(`${other.user.role} message: ${res.body}`);
        if (res.body.includes(name) || res.body.includes(domainId)) problems.push(`${other.user.role} sees the domain: ${res.body}`);
        problems.push(...problemsOf(res).map((p) => `${key(route)}: ${p}`));
      }
      const list = await ctx().app.inject({ method: 'GET', url: '/api/domains', headers: other.auth });
      expect(list.statusCode).toBe(200);
      expect(list.json().items).toEqual([]);
      // Nor may they renew it through the checkout.
      const renew = await ctx().app.inject({ method: 'POST', url: '/api/shop/domain/checkout', headers: other.auth, payload: { domainId, action: 'renew', years: 1, acceptTerms: true } });
      if (renew.statusCode !== 404) problems.push(`${other.user.role} renew: ${renew.statusCode} ${renew.body}`);
    }
    expect(problems).toEqual([]);
    const [after] = await ctx().database.db.select().from(domains).where(eq(domains.id, domainId));
    expect(after).toEqual(before);
    const [registryAfter] = await ctx().database.db.select().from(simDomainRegistry).where(eq(simDomainRegistry.domain, name));
    expect(registryAfter).toEqual(registryBefore);
    expect(await ctx().database.db.select().from(auditEvents).where(eq(auditEvents.targetId, domainId))).toEqual([]);
  });

  it('unknown uuid → 404, malformed ids → 400 or 404 (never 500), German', async () => {
    const customer = await createDomainCustomer(ctx());
    const badIds = ['abc', '1', '0', '-1', '00000000-0000-0000-0000-00000000000g', `${crypto.randomUUID()}x`, '%00', '..%2F..%2Fetc', '%E2%80%AE', 'x'.repeat(100), '1%20or%201%3D1', "'"];
    const problems: string[] = [];
    for (const route of domainRoutes().filter((r) => r.url.includes(':id'))) {
      const unknownOpts = request(route, fill(route.url), customer.auth, customer.password);
      const unknown = await ctx().app.inject(unknownOpts);
      if (unknown.statusCode !== 404) problems.push(`unknown: ${describeRequest(unknownOpts, unknown)}`);
      problems.push(...problemsOf(unknown).map((p) => `${key(route)} unknown: ${p}`));
      for (const bad of badIds) {
        const opts = request(route, fill(route.url, bad), customer.auth, customer.password);
        const res = await ctx().app.inject(opts);
        if (![400, 404].includes(res.statusCode)) problems.push(`bad id: ${describeRequest(opts, res)}`);
        problems.push(...problemsOf(res).map((p) => `${key(route)} id ${bad}: ${p}`));
      }
      await resetLimits(customer.user.id);
    }
    expect(problems).toEqual([]);
    // A malformed uuid in the renew checkout and in the quote are refused in German too.
    const renew = await ctx().app.inject({ method: 'POST', url: '/api/shop/domain/checkout', headers: customer.auth, payload: { domainId: 'abc', action: 'renew', years: 1, acceptTerms: true } });
    expect([400, 404]).toContain(renew.statusCode);
    expect(problemsOf(renew)).toEqual([]);
    for (const q of ['', 'domain=', `domain=${'a'.repeat(300)}.de`, 'domain=%00.de', 'domain=beispiel.de&action=steal', 'domain[]=a&domain[]=b', 'domain=..%2F..%2Fetc']) {
      const res = await ctx().app.inject({ method: 'GET', url: `/api/shop/domain?${q}`, headers: customer.auth });
      expect(res.statusCode, `${q} → ${res.body}`).toBe(400);
      expect(problemsOf(res), q).toEqual([]);
    }
  });

  it.runIf(kind === fuzzDatabase())('fuzzes the checkout and every PUT/POST route of a real domain with 150 bodies each: never 5xx, errors are German', { timeout: 600_000 }, async () => {
    const { app } = ctx();
    const owner = await createDomainCustomer(ctx());
    const { domainId, domain: name } = await buyDomain(ctx(), owner);
    const routes = domainRoutes().filter((r) => ['POST', 'PUT'].includes(r.method));
    expect(routes.length).toBe(5);
    const doc = app.swagger() as { paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>> };
    const problems: string[] = [];
    const counts = new Map<number, number>();
    for (const route of routes) {
      const valid = validBody(key(route), owner.password) ?? {};
      const props = doc.paths?.[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema?.properties;
      const keys = Object.keys(props ?? {}).length ? Object.keys(props ?? {}) : Object.keys(valid);
      const bodies: fc.Arbitrary<FuzzBody> = fc.oneof(
        fc.jsonValue({ maxDepth: 4 }).map((value): FuzzBody => ({ kind: 'json', value })),
        fc.record(Object.fromEntries(keys.map((k) => [k, anyValue])), { requiredKeys: [] }).map((value): FuzzBody => ({ kind: 'json', value })),
        fc.tuple(fc.constantFrom(...keys), anyValue, fc.dictionary(nastyString, anyValue, { maxKeys: 2 }))
          .map(([k, v, extra]): FuzzBody => ({ kind: 'json', value: { ...extra, ...valid, [k]: v } })),
        fc.integer({ min: 10, max: 2000 }).map((depth): FuzzBody => ({ kind: 'json', value: JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown })),
        fc.constantFrom(...rawCases).map((c): FuzzBody => ({ kind: 'raw', ...c })),
      );
      await fc.assert(
        fc.asyncProperty(bodies, async (body) => {
          const headers: Record<string, string> = { ...owner.auth };
          const opts: InjectOptions = { method: route.method as InjectOptions['method'], url: fill(route.url, domainId), headers };
          if (body.kind === 'json') {
            headers['content-type'] = 'application/json';
            opts.payload = JSON.stringify(body.value) ?? 'null';
          } else {
            headers['content-type'] = body.contentType;
            opts.payload = body.text;
          }
          await resetLimits(owner.user.id);
          const res = await app.inject(opts);
          counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
          const found = problemsOf(res);
          if (found.length) problems.push(`${describeRequest(opts, res)}: ${found.join('; ')}`);
        }),
        { numRuns: 150 },
      );
    }
    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
    expect([...counts.keys()].every((s) => [200, 201, 400, 404, 409, 413, 415].includes(s)), JSON.stringify([...counts])).toBe(true);
    expect(counts.get(400) ?? 0).toBeGreaterThan(routes.length * 75);
    // The domain is still the owner's and still there.
    const detail = await ctx().app.inject({ method: 'GET', url: `/api/domains/${domainId}`, headers: owner.auth });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ id: domainId, domain: name, status: 'active' });
  });
});

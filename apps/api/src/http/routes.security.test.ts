/**
 * "Access control" (for the routes that exist) and "Input" of docs/quality/security-and-reliability.md:
 * the authorization matrix generated from the registered routes, fuzzing of every route, mass
 * assignment, security headers, CORS, and what error responses and bodies must never contain.
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import fc from 'fast-check';
import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { messages } from '@hp/contract';
import { describeEachDatabase, fuzzDatabase, createUser } from '../../test/harness.ts';
import { rowsOf } from '../lib/rate-limit.ts';
import { openSession } from '../modules/auth/sessions.ts';
import { accessPolicies, authPlugin, type AccessPolicy, type RegisteredRoute } from './auth.ts';
import { AppError } from './errors.ts';

type Who = 'anonymous' | 'customer' | 'employee' | 'owner';
const everyone: Who[] = ['anonymous', 'customer', 'employee', 'owner'];
const EVIL = 'https://evil.example';

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.${200 + ((ipCounter >> 16) & 31)}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

// ── Helpers shared by the matrix, the fuzzing and the header checks ────────────────────────────

/**
 * Routes outside the matrix: the SPA catch-all, the pages the server renders as HTML like it (the
 * changelog and the status page, decision 016: a 404 there is the HTML page "Eintrag nicht gefunden", not a
 * JSON error) and the Swagger UI (third-party pages, no API).
 */
const serverRenderedPages = ['/changelog', '/Changelog', '/changelog/:id', '/status'];
const isCatchAllOrDocs = (url: string) => url === '/*' || serverRenderedPages.includes(url) || url === '/api/docs' || url.startsWith('/api/docs/');

/**
 * The German-language heuristic for error messages, tuned to the catalogue in
 * packages/contract/src/messages.ts (checked by a test below so it cannot drift) and to the schemas'
 * own messages, which reach the client verbatim since decision 010 ('Unbekannte Aktion.').
 */
const GERMAN = /[äöüÄÖÜß]|\b(?:Bitte|bitte|ungültig|Ungültig|nicht|Nicht|Anfrage|Der|Die|Das|Dieser|Diese|Es|Ihr|Ihre|Sie|ist|sind|wurde|kann|muss|musst|Du|bereits|zu|Fehler|oder|erfolgreich|Unbekannte|Unbekannter|Interner|Serverfehler)\b/;
const looksGerman = (text: string) => GERMAN.test(text);

const SECRET_KEYS = /^(password_?hash|totp_?secret|totp_?pending_?secret|code_?hash|refresh_?token_?hash)$/i;
function secretKeysIn(value: unknown, path = '$'): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(SECRET_KEYS.test(k) ? [`${path}.${k}`] : []), ...secretKeysIn(v, `${path}.${k}`)]);
}

/** Stack frames, SQL, file paths and framework internals must never reach a client. */
const LEAKS: [string, RegExp][] = [
  ['stack frame', /\n\s*at\s|\bat\s+\S+\s+\(.*:\d+:\d+\)|\bat\s+(?:async\s+)?[\w.<>]+\s+\(/],
  ['SQL', /\b(?:select\s.+\sfrom|insert\s+into|update\s+\S+\s+set|delete\s+from)\b|Failed query|relation "|syntax error at|violates .* constraint/i],
  ['file path', /\/work\/|\/home\/|\/usr\/|node_modules|\.(?:ts|js|mjs|cjs):\d+|[A-Z]:\\/],
  ['internals', /FST_ERR|ZodError|drizzle|pglite|DrizzleQueryError|TypeError|ReferenceError|SyntaxError/i],
];
/**
 * The leaks in a response body. A match that is text the request itself sent (a fuzzed key such as
 * `B:\\` listed back under "Unbekannte Schlüssel") is an echo of the client's own input, not a leak.
 */
const leaksIn = (body: string, sent = '') => LEAKS.filter(([, re]) =>
  [...body.matchAll(new RegExp(re.source, `${re.flags.replace('g', '')}g`))].some((m) => !sent.includes(m[0]))).map(([name]) => name);

/** What a request sent as text: its URL (raw and decoded) and its body, as the server received them. */
function sentText(opts: InjectOptions): string {
  const url = String(opts.url ?? '');
  let decoded = '';
  try {
    decoded = decodeURIComponent(url);
  } catch { /* not decodable: the raw URL is enough */ }
  const payload = typeof opts.payload === 'string' ? opts.payload : opts.payload === undefined ? '' : JSON.stringify(opts.payload);
  return `${url}\n${decoded}\n${payload}`;
}

function securityHeaderProblems(res: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  const csp = String(res.headers['content-security-policy'] ?? '');
  const directives = new Map(
    csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
      const [name, ...values] = d.split(/\s+/);
      return [name!.toLowerCase(), values] as const;
    }),
  );
  if (!csp) problems.push('no content-security-policy');
  if (!directives.get('default-src')?.includes("'self'")) problems.push(`default-src without 'self': ${csp}`);
  const scriptSrc = directives.get('script-src') ?? directives.get('default-src') ?? [];
  if (scriptSrc.includes("'unsafe-inline'") || scriptSrc.includes("'unsafe-eval'")) problems.push(`unsafe script-src: ${scriptSrc.join(' ')}`);
  if (res.headers['x-content-type-options'] !== 'nosniff') problems.push('x-content-type-options is not nosniff');
  if (!res.headers['referrer-policy']) problems.push('no referrer-policy');
  if (!res.headers['x-frame-options'] && !directives.has('frame-ancestors')) problems.push('neither x-frame-options nor frame-ancestors');
  return problems;
}

const parseJson = (res: LightMyRequestResponse): unknown => {
  try {
    return res.json();
  } catch {
    return undefined;
  }
};

/** Everything a response must satisfy, whatever the request was. Returns the violations. */
function responseProblems(res: LightMyRequestResponse, sent = ''): string[] {
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push(`status ${res.statusCode}`);
  problems.push(...securityHeaderProblems(res));
  const body = parseJson(res) as { error?: { code?: unknown; message?: unknown }; requestId?: unknown } | undefined;
  problems.push(...secretKeysIn(body).map((k) => `secret key ${k} in the body`));
  if (res.statusCode >= 400) {
    if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) problems.push(`error without JSON content type: ${res.headers['content-type']}`);
    if (typeof body?.error?.code !== 'string' || !body.error.code) problems.push('error.code missing');
    if (typeof body?.error?.message !== 'string') problems.push('error.message missing');
    else if (!looksGerman(body.error.message)) problems.push(`message not German: ${body.error.message}`);
    if (typeof body?.requestId !== 'string' || body.requestId !== res.headers['x-request-id']) problems.push('requestId missing or not the x-request-id');
    problems.push(...leaksIn(res.body, sent).map((l) => `${l} in the error body`));
  }
  return problems;
}

const describeRequest = (opts: InjectOptions) => {
  const payload = typeof opts.payload === 'string' ? opts.payload : JSON.stringify(opts.payload ?? null);
  return `${opts.method} ${String(opts.url).slice(0, 120)} ${(payload ?? '').slice(0, 160)}`;
};

// ── Authorization matrix ─────────────────────────────────────────────────────────────────────────

const expectation = (access: AccessPolicy, who: Who): 'allowed' | 401 | 403 => {
  if (access === 'public') return 'allowed';
  if (who === 'anonymous') return 401;
  if (access === 'customer') return 'allowed';
  if (access === 'staff') return who === 'customer' ? 403 : 'allowed';
  return who === 'owner' ? 'allowed' : 403;
};

/** Public routes whose own credential is not the bearer token may answer 401 for a missing one. */
const OWN_CREDENTIAL_401 = new Set(['POST /api/auth/refresh']);

const withBody = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);

/** Replaces path parameters with a plausible value: a uuid where the API expects one, else a number. */
function concreteUrl(app: FastifyInstance, url: string) {
  type Doc = { paths?: Record<string, Record<string, { parameters?: { name: string; in: string; schema?: { format?: string; type?: string } }[] }>> };
  // The probe app of the self-test has no OpenAPI document.
  const doc = (typeof app.swagger === 'function' ? app.swagger() : undefined) as Doc | undefined;
  const ops = doc?.paths?.[url.replace(/:(\w+)/g, '{$1}')] ?? {};
  const params = Object.values(ops).flatMap((op) => op.parameters ?? []);
  return url
    .replace(/:(\w+)/g, (_, name: string) => {
      const schema = params.find((p) => p.in === 'path' && p.name === name)?.schema;
      if (schema?.format === 'uuid') return crypto.randomUUID();
      if (schema?.type === 'integer' || schema?.type === 'number') return '987654';
      return '1';
    })
    .replace(/\*$/, 'probe');
}

/**
 * Sends every route × {anonymous, customer, employee, owner} and returns what the policy did not
 * predict. The requests run in `lanes` parallel lanes, each with its own accounts (`tokenFor(who, lane)`
 * opens a fresh session per request), so that a route ending its caller's sessions (logout, password
 * change) cannot spoil a request of another lane, and the matrix does not wait on one database round
 * trip at a time (on a loaded CI machine the sequential version once took over 30 s).
 */
async function matrixViolations(app: FastifyInstance, routes: RegisteredRoute[], tokenFor: (who: Who, lane: number) => Promise<string | undefined>, lanes = 1) {
  const violations: string[] = [];
  const check = async (route: RegisteredRoute, who: Who, lane: number) => {
    const token = await tokenFor(who, lane);
    const res = await app.inject({
      method: route.method as InjectOptions['method'],
      url: concreteUrl(app, route.url),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(withBody(route.method) ? { payload: {} } : {}),
      remoteAddress: nextIp(),
    });
    const code = (parseJson(res) as { error?: { code?: string } } | undefined)?.error?.code;
    const want = expectation(route.access!, who);
    const label = `${route.method} ${route.url} [${route.access}] as ${who}`;
    if (want === 401 && !(res.statusCode === 401 && code === 'UNAUTHORIZED')) violations.push(`${label}: expected 401 UNAUTHORIZED, got ${res.statusCode} ${code}`);
    if (want === 403 && !(res.statusCode === 403 && code === 'FORBIDDEN')) violations.push(`${label}: expected 403 FORBIDDEN, got ${res.statusCode} ${code}`);
    if (want === 'allowed') {
      const refused = res.statusCode === 403 || (res.statusCode === 401 && !OWN_CREDENTIAL_401.has(`${route.method} ${route.url}`));
      if (refused) violations.push(`${label}: expected access, got ${res.statusCode} ${code}`);
    }
    if (res.statusCode >= 500) violations.push(`${label}: ${res.statusCode}`);
  };
  await Promise.all(Array.from({ length: lanes }, async (_, lane) => {
    for (let i = lane; i < routes.length; i += lanes) {
      for (const who of everyone) await check(routes[i]!, who, lane);
    }
  }));
  return violations.sort();
}

const withoutPolicy = (routes: RegisteredRoute[]) =>
  routes.filter((r) => !r.access || !accessPolicies.includes(r.access)).map((r) => `${r.method} ${r.url}`);

// ── Fuzzing ──────────────────────────────────────────────────────────────────────────────────────

type FuzzBody = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; contentType: string; text: string };

const oddStrings = [
  '\u202Eevil\u202C', '\u200F\u200E\u200B', 'a\u0000b', '\u0000', '😀🔥👩‍👩‍👧‍👦', '\uD800', 'x\uDC00', 'x'.repeat(100_000), 'ä'.repeat(50_000), '',
  '   ', '<script>alert(1)</script>', "' OR '1'='1' --", '../../../etc/passwd', '%00', '\r\nX-Injected: 1', '１２３４５６', '١٢٣٤', 'e\u0301', '\uFEFF',
  'null', '-1', '1e309', 'NaN', '00000000-0000-0000-0000-000000000000', '__proto__', 'constructor',
];
const nastyString = fc.oneof(fc.constantFrom(...oddStrings), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }));
const anyValue = fc.oneof(
  nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }),
  fc.array(nastyString, { maxLength: 3 }), fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
);

/** Raw bodies every route gets: malformed JSON, prototype keys, oversize, wrong content types. */
const rawCases: { contentType: string; text: string }[] = [
  { contentType: 'application/json', text: '{' },
  { contentType: 'application/json', text: '{"a":1,}' },
  { contentType: 'application/json', text: "{'a':1}" },
  { contentType: 'application/json', text: '[1,2' },
  { contentType: 'application/json', text: 'undefined' },
  { contentType: 'application/json', text: '' },
  { contentType: 'application/json', text: '\u0000' },
  { contentType: 'application/json', text: '{"a":"\\ud800","b":"\\u0000"}' },
  { contentType: 'application/json', text: '{"__proto__":{"role":"owner","isAdmin":true}}' },
  { contentType: 'application/json', text: '{"constructor":{"prototype":{"role":"owner"}}}' },
  { contentType: 'application/json', text: JSON.stringify({ a: 'x'.repeat(300_000) }) },
  { contentType: 'application/json', text: `${'['.repeat(50_000)}${']'.repeat(50_000)}` },
  { contentType: 'application/json', text: '9'.repeat(400) },
  { contentType: 'application/json; charset=utf-16', text: '{}' },
  { contentType: 'text/plain', text: '{"username":"a","password":"b"}' },
  { contentType: 'application/x-www-form-urlencoded', text: 'username=a&password=b&role=owner' },
  { contentType: 'multipart/form-data; boundary=x', text: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n' },
  { contentType: 'application/xml', text: '<a>1</a>' },
];

/** Property names of a route's JSON body from the OpenAPI document (unions included). */
function bodyKeys(app: FastifyInstance, route: RegisteredRoute): string[] {
  const doc = app.swagger() as { paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>> };
  const op = doc.paths?.[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
  const keys = new Set<string>();
  const walk = (schema: unknown, depth = 0) => {
    if (!schema || typeof schema !== 'object' || depth > 4) return;
    const s = schema as { properties?: Record<string, unknown>; anyOf?: unknown[]; oneOf?: unknown[]; allOf?: unknown[] };
    for (const k of Object.keys(s.properties ?? {})) keys.add(k);
    for (const sub of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) walk(sub, depth + 1);
  };
  walk(op?.requestBody?.content?.['application/json']?.schema);
  return [...keys];
}

/**
 * Lone surrogates cannot be percent-encoded; they become U+FFFD. Malformed and over-long (> 100
 * characters, Fastify's maxParamLength) path segments are a separate test, see the known defect below.
 */
const encodeSegment = (s: string) => {
  const chars = [...s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')].slice(0, 100);
  while (encodeURIComponent(chars.join('')).length > 100) chars.pop();
  return encodeURIComponent(chars.join('')) || '1';
};

function toRequest(route: RegisteredRoute, url: string, body: FuzzBody, query: Record<string, string>, token: string | undefined): InjectOptions {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) search.append(k.replace(/[\uD800-\uDFFF]/g, '?'), v.replace(/[\uD800-\uDFFF]/g, '?'));
  const qs = search.toString();
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const opts: InjectOptions = { method: route.method as InjectOptions['method'], url: qs ? `${url}?${qs}` : url, headers, remoteAddress: nextIp() };
  if (body.kind === 'json') {
    headers['content-type'] = 'application/json';
    opts.payload = JSON.stringify(body.value) ?? 'null';
  } else if (body.kind === 'raw') {
    headers['content-type'] = body.contentType;
    opts.payload = body.text;
  }
  return opts;
}

describeEachDatabase('routes: access matrix, fuzzing, headers (security)', (ctx, kind) => {
  const rows = async (query: ReturnType<typeof sql>) => rowsOf(await ctx().database.db.execute(query));
  type Accounts = Record<Exclude<Who, 'anonymous'>, Awaited<ReturnType<typeof createUser>>>;
  const lanes = new Map<number, Promise<Accounts>>();
  /** One customer, employee and owner per lane of the matrix (lane 0 also serves the fuzzing). */
  const accounts = (lane = 0) => {
    if (!lanes.has(lane)) {
      lanes.set(lane, (async () => ({
        customer: await createUser(ctx(), { role: 'customer' }),
        employee: await createUser(ctx(), { role: 'employee' }),
        owner: await createUser(ctx(), { role: 'owner' }),
      }))());
    }
    return lanes.get(lane)!;
  };
  /** A fresh session per request, so that a logout in the matrix cannot spoil later requests. */
  const tokenFor = async (who: Who, lane = 0) => {
    if (who === 'anonymous') return undefined;
    const user = (await accounts(lane))[who].user;
    return (await openSession(ctx().database.db, ctx().app.deps.secrets, user, 'matrix')).token;
  };
  const apiRoutes = () => ctx().app.registeredRoutes.filter((r) => !isCatchAllOrDocs(r.url));

  it('the leak check finds paths, SQL and stack frames, but not the client\'s own input echoed back', () => {
    expect(leaksIn('{"error":{"message":"at handler (/work/main/apps/api/src/x.ts:10:5)"}}')).toEqual(['stack frame', 'file path']);
    expect(leaksIn('{"error":{"message":"Failed query: select * from users"}}')).toEqual(['SQL']);
    // A fuzzed key that looks like a Windows path, listed back as an unknown key: an echo.
    const sent = JSON.stringify({ 'B:\\x': 1 });
    expect(leaksIn(JSON.stringify({ error: { message: 'Unbekannte Schlüssel: "B:\\x"' } }), sent)).toEqual([]);
    // The same text when the client did not send it is a leak.
    expect(leaksIn(JSON.stringify({ error: { message: 'Unbekannte Schlüssel: "B:\\x"' } }), '{}')).toEqual(['file path']);
  });

  it('the German-message heuristic accepts the whole catalogue and rejects framework English', () => {
    for (const text of Object.values(messages)) expect(looksGerman(text), text).toBe(true);
    for (const english of ['Not Found', 'Bad Request', "body must have required property 'username'", 'Route GET:/x not found', "'/%E0' is not a valid url component", 'Internal Server Error', 'Unsupported Media Type', 'Request body is too large']) {
      expect(looksGerman(english), english).toBe(false);
    }
  });

  it('every registered route declares an access policy; the catch-all and the API docs are public', () => {
    const routes = ctx().app.registeredRoutes;
    expect(routes.length).toBeGreaterThan(15);
    expect(withoutPolicy(routes), 'routes without an access policy').toEqual([]);
    const special = routes.filter((r) => isCatchAllOrDocs(r.url));
    expect(special.map((r) => r.url)).toEqual(expect.arrayContaining(['/*', '/api/docs', ...serverRenderedPages]));
    for (const r of special) expect(r.access, `${r.method} ${r.url}`).toBe('public');
  });

  it('enforces the generated authorization matrix: every route × {anonymous, customer, employee, owner}', { timeout: 120_000 }, async () => {
    const routes = apiRoutes();
    expect(routes.some((r) => r.access === 'customer')).toBe(true);
    expect(await matrixViolations(ctx().app, routes, tokenFor, 4)).toEqual([]);
  });

  it('the matrix check itself catches a route without a policy and a route that lets the wrong role in', async () => {
    const { secrets } = ctx().app.deps;
    const probe = Fastify();
    probe.decorate('db', ctx().database.db);
    const routes: RegisteredRoute[] = [];
    await probe.register(authPlugin, { jwtKey: secrets.jwtKey, routes });
    probe.setErrorHandler((err, req, reply) => {
      if (err instanceof AppError) return reply.status(err.statusCode).send({ error: { code: err.code, message: err.message }, requestId: req.id });
      return reply.status(500).send({ error: { code: 'SERVER_ERROR', message: messages.serverError }, requestId: req.id });
    });
    for (const access of [...accessPolicies, undefined]) {
      probe.post(`/probe/${access ?? 'none'}/:id`, { config: access ? { access } : {} }, async () => ({ ok: true }));
    }
    await probe.ready();
    try {
      expect(withoutPolicy(routes)).toEqual(['POST /probe/none/:id']);
      // The policy-less route is refused for everyone at request time.
      const none = await probe.inject({ method: 'POST', url: '/probe/none/1', headers: { authorization: `Bearer ${await tokenFor('owner')}` }, payload: {} });
      expect(none.statusCode).toBe(403);
      // Staff and owner routes are checked for real …
      const declared = routes.filter((r) => r.access);
      expect(declared.map((r) => r.access).sort()).toEqual(['customer', 'owner', 'public', 'staff']);
      expect(await matrixViolations(probe, declared, tokenFor)).toEqual([]);
      // … and a route that admits more than its declared policy is reported.
      const lying = [{ method: 'POST', url: '/probe/public/:id', access: 'owner' as const }, { method: 'POST', url: '/probe/customer/:id', access: 'staff' as const }];
      const violations = await matrixViolations(probe, lying, tokenFor);
      expect(violations).toEqual(expect.arrayContaining([
        expect.stringContaining('POST /probe/public/:id [owner] as anonymous: expected 401'),
        expect.stringContaining('POST /probe/public/:id [owner] as employee: expected 403'),
        expect.stringContaining('POST /probe/customer/:id [staff] as customer: expected 403'),
      ]));
    } finally {
      await probe.close();
    }
  });

  it.runIf(kind === fuzzDatabase())('fuzzes every route (body, params, query) as owner and anonymous: never 5xx, errors are German JSON', { timeout: 300_000 }, async () => {
    const { app } = ctx();
    const owner = (await accounts()).owner;
    const routes = apiRoutes();
    const problems: string[] = [];
    const check = (opts: InjectOptions, res: LightMyRequestResponse) => {
      const found = responseProblems(res, sentText(opts));
      if (found.length) problems.push(`${describeRequest(opts)} → ${res.statusCode} ${res.body.slice(0, 200)}: ${found.join('; ')}`);
      return found.length === 0;
    };

    for (const route of routes) {
      const keys = bodyKeys(app, route);
      const bodies: fc.Arbitrary<FuzzBody> = withBody(route.method)
        ? fc.oneof(
          fc.jsonValue().map((value): FuzzBody => ({ kind: 'json', value })),
          // The route's own fields with values of any type …
          fc.record(Object.fromEntries((keys.length ? keys : ['a']).map((k) => [k, anyValue])), { requiredKeys: [] }).map((value): FuzzBody => ({ kind: 'json', value })),
          // … or with strings of the right type but odd content, plus unexpected extra keys.
          fc.tuple(fc.record(Object.fromEntries((keys.length ? keys : ['a']).map((k) => [k, nastyString]))), fc.dictionary(nastyString, anyValue, { maxKeys: 2 }))
            .map(([own, extra]): FuzzBody => ({ kind: 'json', value: { ...extra, ...own } })),
          fc.constantFrom(...rawCases).map((c): FuzzBody => ({ kind: 'raw', ...c })),
        )
        : fc.constant<FuzzBody>({ kind: 'none' });
      const params = route.url.includes(':') ? fc.oneof(nastyString, fc.integer().map(String), fc.constant(crypto.randomUUID())) : fc.constant('');
      const query = fc.dictionary(nastyString, nastyString, { maxKeys: 3 });

      for (const who of ['owner', 'anonymous'] as const) {
        // A fresh session per route: fuzzing the logout must not sign the owner out of the next route.
        const token = who === 'owner' ? (await openSession(app.db, app.deps.secrets, owner.user, 'fuzz')).token : undefined;
        const url = (param: string) => route.url.replace(/:(\w+)/g, () => encodeSegment(param)).replace(/\*$/, 'x');
        // Deterministic part: every raw case, and every odd string in every field of the route's body.
        const fixed: FuzzBody[] = withBody(route.method)
          ? [
            ...rawCases.map((c): FuzzBody => ({ kind: 'raw', ...c })),
            ...oddStrings.map((odd): FuzzBody => ({ kind: 'json', value: Object.fromEntries((keys.length ? keys : ['a']).map((k) => [k, odd])) })),
          ]
          : [];
        for (const body of fixed) {
          const opts = toRequest(route, concreteUrl(app, route.url), body, {}, token);
          check(opts, await app.inject(opts));
        }
        // Problems are collected rather than thrown, so one run reports every failing route at once;
        // an exception inside inject still fails the property (and the test).
        await fc.assert(
          fc.asyncProperty(bodies, params, query, async (body, param, q) => {
            const opts = toRequest(route, url(param), body, q, token);
            check(opts, await app.inject(opts));
          }),
          { numRuns: 20 },
        );
      }
    }
    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
  });

  it('refuses mass assignment on the profile: role, unknown keys and prototype keys → 400, nothing applied', async () => {
    const user = await createUser(ctx());
    const before = (await rows(sql`select role, customer_number, password_hash, email from users where id = ${user.user.id}`))[0];
    // The e-mail address is no profile field any more: it changes only with password and code (item 11).
    const profile = { phone: '+49 30 123', street: 'Hauptstraße 1', zipCode: '10115', city: 'Berlin', country: 'DE', companyName: '', industry: '' };
    const attempts: { name: string; payload: string }[] = [
      { name: 'role', payload: JSON.stringify({ ...profile, role: 'owner' }) },
      { name: 'email', payload: JSON.stringify({ ...profile, email: 'angreifer@example.com' }) },
      { name: 'customerId', payload: JSON.stringify({ ...profile, customerId: '1' }) },
      { name: 'passwordHash', payload: JSON.stringify({ ...profile, passwordHash: 'x' }) },
      { name: 'totpEnabled', payload: JSON.stringify({ ...profile, totpEnabled: false }) },
      { name: 'emailVerifiedAt', payload: JSON.stringify({ ...profile, emailVerifiedAt: null }) },
      { name: '__proto__', payload: `{"__proto__":{"role":"owner"},${JSON.stringify(profile).slice(1)}` },
      { name: 'constructor', payload: JSON.stringify({ ...profile, constructor: { prototype: { role: 'owner' } } }) },
    ];
    for (const attempt of attempts) {
      const res = await ctx().app.inject({ method: 'PUT', url: '/api/account/profile', headers: { ...user.auth, 'content-type': 'application/json' }, payload: attempt.payload });
      expect(res.statusCode, `${attempt.name}: ${res.body}`).toBe(400);
      expect(responseProblems(res), attempt.name).toEqual([]);
    }
    const after = (await rows(sql`select role, customer_number, password_hash, email from users where id = ${user.user.id}`))[0];
    expect(after).toEqual(before);
    expect((await rows(sql`select street from users where id = ${user.user.id}`))[0]).toEqual({ street: '' });
    // Control: the same profile without extra keys is saved.
    const ok = await ctx().app.inject({ method: 'PUT', url: '/api/account/profile', headers: user.auth, payload: profile });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await rows(sql`select role, street from users where id = ${user.user.id}`))[0]).toEqual({ role: 'customer', street: 'Hauptstraße 1' });
  });

  it('sets the security headers on every kind of response and never reflects a foreign Origin', async () => {
    const { app } = ctx();
    const user = await createUser(ctx());
    const requests: InjectOptions[] = [
      { method: 'GET', url: '/api/health' },
      { method: 'GET', url: '/api/auth/me', headers: user.auth },
      { method: 'GET', url: '/api/auth/me' },
      { method: 'POST', url: '/api/auth/login', payload: {} },
      { method: 'GET', url: '/api/does-not-exist' },
      { method: 'DELETE', url: '/api/auth/me' },
      { method: 'OPTIONS', url: '/api/auth/login', headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } },
      { method: 'GET', url: '/' },
      { method: 'GET', url: '/impressum' },
      { method: 'GET', url: '/konto/profil' },
      { method: 'GET', url: '/gibt-es-nicht-123' },
      { method: 'GET', url: '/favicon.svg' },
      { method: 'GET', url: '/api/openapi.json' },
      { method: 'GET', url: '/api/docs' },
    ];
    for (const base of requests) {
      const opts = { ...base, headers: { ...base.headers, origin: EVIL }, remoteAddress: nextIp() };
      const res = await app.inject(opts);
      expect(res.statusCode, describeRequest(opts)).toBeLessThan(500);
      expect(securityHeaderProblems(res), describeRequest(opts)).toEqual([]);
      const allowOrigin = res.headers['access-control-allow-origin'];
      expect([undefined, app.deps.env.publicUrl], `${describeRequest(opts)} access-control-allow-origin`).toContain(allowOrigin);
      if (allowOrigin !== app.deps.env.publicUrl) expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      if (String(base.url).startsWith('/api/') && res.statusCode >= 400) expect(responseProblems(res), describeRequest(opts)).toEqual([]);
    }
  });

  it('never returns password hashes or TOTP secrets, also for an account with MFA', async () => {
    const { app } = ctx();
    const user = await createUser(ctx());
    const setup = await app.inject({ method: 'POST', url: '/api/account/mfa/setup', headers: user.auth });
    expect(setup.statusCode).toBe(200);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.json().secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const enabled = await app.inject({ method: 'POST', url: '/api/account/mfa/enable', headers: user.auth, payload: { code: totp.generate({ timestamp: Date.now() }) } });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const [stored] = (await rows(sql`select password_hash, totp_secret from users where id = ${user.user.id}`)) as { password_hash: string; totp_secret: string }[];
    expect(stored!.totp_secret).toBeTruthy();
    const profile = { phone: '', street: '', zipCode: '', city: '', country: 'DE', companyName: '', industry: '' };
    for (const opts of [
      { method: 'GET', url: '/api/auth/me', headers: user.auth },
      { method: 'GET', url: '/api/account/profile', headers: user.auth },
      { method: 'PUT', url: '/api/account/profile', headers: user.auth, payload: profile },
      { method: 'POST', url: '/api/auth/login', payload: { username: user.username, password: user.password } },
    ] as InjectOptions[]) {
      const res = await app.inject({ ...opts, remoteAddress: nextIp() });
      expect(res.statusCode, describeRequest(opts)).toBe(200);
      expect(secretKeysIn(res.json()), describeRequest(opts)).toEqual([]);
      for (const key of ['password_hash', 'passwordHash', 'totp_secret', 'totpSecret', 'totpPendingSecret']) expect(res.body).not.toContain(key);
      expect(res.body).not.toContain(stored!.password_hash);
      expect(res.body).not.toContain(stored!.totp_secret);
      expect(res.body).not.toContain(setup.json().secret);
    }
  });

  it('a server error answers with the German generic message: no stack trace, SQL or path', async () => {
    const { app, database } = ctx();
    const user = await createUser(ctx());
    await database.db.execute(sql`alter table sessions rename to sessions_hidden`);
    let res: LightMyRequestResponse;
    try {
      res = await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.auth });
    } finally {
      await database.db.execute(sql`alter table sessions_hidden rename to sessions`);
    }
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'SERVER_ERROR', message: messages.serverError }, requestId: res.headers['x-request-id'] });
    expect(leaksIn(res.body)).toEqual([]);
    expect(res.body).not.toMatch(/sessions|relation|select/i);
    expect(securityHeaderProblems(res)).toEqual([]);
    // And the API works again afterwards.
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.auth })).statusCode).toBe(200);
  });

  // Fastify's router answers malformed percent-encoding itself, before any hook; `frameworkErrors` in
  // app.ts turns that into German JSON with the security headers. Over-long parameters reach the routes.
  it('answers malformed URLs and over-long path parameters with German JSON and the security headers', async () => {
    for (const url of ['/api/auth/me%', '/api/status/services/%E0%A4%A', '/%E0%A4%A', `/api/status/services/${'9'.repeat(101)}`]) {
      const res = await ctx().app.inject({ method: 'GET', url, remoteAddress: nextIp() });
      expect([400, 404], url).toContain(res.statusCode);
      expect(responseProblems(res), url).toEqual([]);
    }
  });
});

/**
 * Web hosting routes (decision 022) against "Access control" and "Input" of
 * docs/quality/security-and-reliability.md: every /api/hosting*, /api/shop/webhosting* and
 * /api/admin/hosting-servers* route × role, unknown and malformed ids, fuzzed bodies against a real
 * package, and the per-customer write limit under a parallel burst. Style and heuristics as in
 * http/routes.security.test.ts (which checks the whole API more coarsely).
 */
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { messages } from '@hp/contract';
import { createUser, describeEachDatabase, fuzzDatabase, STRONG_PASSWORD } from '../../../test/harness.ts';
import { buyHosting, seedHostingServer, unique } from '../../../test/hosting.ts';
import { hostingPackages, hostingServers } from '../../db/schema/index.ts';
import { resetCounter } from '../../lib/rate-limit.ts';

/** Every hosting route there is; a new route fails the first test until it is added here (and so checked below). */
const HOSTING_ROUTES = [
  'GET /api/shop/webhosting', 'GET /api/shop/webhosting/renewal/:id', 'POST /api/shop/webhosting/checkout',
  'GET /api/hosting', 'GET /api/hosting/:id', 'PUT /api/hosting/:id/php',
  'POST /api/hosting/:id/domains', 'DELETE /api/hosting/:id/domains/:itemId', 'POST /api/hosting/:id/domains/:itemId/ssl',
  'GET /api/hosting/:id/databases', 'POST /api/hosting/:id/databases', 'DELETE /api/hosting/:id/databases/:itemId',
  'PUT /api/hosting/:id/database-users/:itemId/password', 'PUT /api/hosting/:id/ftp-password', 'PUT /api/hosting/:id/panel-password',
  'GET /api/hosting/:id/backups', 'POST /api/hosting/:id/backups', 'POST /api/hosting/:id/backups/:itemId/restore',
  'POST /api/hosting/:id/backups/:itemId/download', 'PUT /api/hosting/:id/backup-schedule',
  'POST /api/hosting/:id/app', 'POST /api/hosting/:id/app/update',
  'GET /api/hosting/:id/access', 'POST /api/hosting/:id/access', 'DELETE /api/hosting/:id/access/:username',
  'GET /api/admin/hosting-servers', 'POST /api/admin/hosting-servers', 'DELETE /api/admin/hosting-servers/:id',
  // Website tab: application tools, plugins, themes
  'POST /api/hosting/:id/app/tools', 'POST /api/hosting/:id/app/plugins/:itemId/update', 'PUT /api/hosting/:id/app/plugins/:itemId',
  'POST /api/hosting/:id/app/themes/:itemId/activate',
  // Database users without a database ("Benutzer erstellen").
  'POST /api/hosting/:id/database-users', 'DELETE /api/hosting/:id/database-users/:itemId',
].sort();

const isHostingRoute = (url: string) => url === '/api/hosting' || url.startsWith('/api/hosting/') || url.startsWith('/api/shop/webhosting') || url.startsWith('/api/admin/hosting-servers');
const withBody = (method: string) => !['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(method);

const password = STRONG_PASSWORD;
/** A valid body per route, so that a 404/403 is the answer of the route and not of the schema. */
const VALID_BODY: Record<string, Record<string, unknown>> = {
  'POST /api/shop/webhosting/checkout': { plan: 'starter', months: 1, domainType: 'subdomain', subdomain: 'gueltig', acceptTerms: true },
  'PUT /api/hosting/:id/php': { memoryLimitMb: 256 },
  'POST /api/hosting/:id/domains': { domain: 'beispiel-zusatz.de' },
  'POST /api/hosting/:id/databases': { name: 'shop', password, confirmPassword: password },
  'PUT /api/hosting/:id/database-users/:itemId/password': { password, confirmPassword: password },
  'PUT /api/hosting/:id/ftp-password': { password, confirmPassword: password },
  'PUT /api/hosting/:id/panel-password': { password, confirmPassword: password },
  'PUT /api/hosting/:id/backup-schedule': { frequency: 'daily', retentionDays: 14 },
  'POST /api/hosting/:id/app': { kind: 'wordpress' },
  'POST /api/hosting/:id/access': { username: 'jemand' },
  'POST /api/admin/hosting-servers': { name: 'web-neu', hostname: 'web-neu.example.net', panelServerId: '777', slots: 3 },
  'POST /api/hosting/:id/app/tools': { tool: 'security-check' },
  'PUT /api/hosting/:id/app/plugins/:itemId': { active: false },
  'POST /api/hosting/:id/database-users': { name: 'leser', password, confirmPassword: password },
};

/**
 * The German-language heuristic of routes.security.test.ts (tuned to the message catalogue), plus the
 * words of the hosting schemas' short messages ('Mindestens 1 Paket.' has none of the others).
 */
const GERMAN = /[äöüÄÖÜß]|\b(?:Bitte|bitte|ungültig|Ungültig|nicht|Nicht|Anfrage|Der|Die|Das|Dieser|Diese|Es|Ihr|Ihre|Sie|ist|sind|wurde|kann|muss|musst|Du|bereits|zu|Fehler|oder|erfolgreich|Unbekannte|Unbekannter|Mindestens|mindestens|Paket|Pakete)\b/;
const LEAKS = /\n\s*at\s|Failed query|relation "|node_modules|\.ts:\d+|FST_ERR|ZodError|drizzle|pglite|TypeError|ReferenceError/i;

const parse = (res: LightMyRequestResponse) => {
  try {
    return res.json() as { error?: { code?: unknown; message?: unknown } };
  } catch {
    return undefined;
  }
};

/** What every answer must satisfy: no 5xx; an error is `{error:{code,message}}` with a German message and no internals. */
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

// Fuzz material (as in routes.security.test.ts, smaller).
const oddStrings = [
  '\u202Eevil\u202C', '\u200B', 'a\u0000b', '😀🔥👩‍👩‍👧‍👦', '\uD800', 'x'.repeat(100_000), 'ä'.repeat(20_000), '', '   ', '<script>alert(1)</script>',
  "' OR '1'='1' --", '../../../etc/passwd', '%00', '\r\nX-Injected: 1', '１２３', 'e\u0301', '\uFEFF', 'null', '-1', '1e309', 'NaN', '__proto__', 'constructor',
  '8.2', 'wordpress', 'daily', 'beispiel.de', STRONG_PASSWORD,
];
const nastyString = fc.oneof(fc.constantFrom(...oddStrings), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }));
const anyValue = fc.oneof(
  nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom(128, 256, 512, 30, 60, 7, 14, 30, 90),
  fc.jsonValue({ maxDepth: 3 }), fc.array(nastyString, { maxLength: 3 }), fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
);
const rawCases = [
  { contentType: 'application/json', text: '{' },
  { contentType: 'application/json', text: '' },
  { contentType: 'application/json', text: 'null' },
  { contentType: 'application/json', text: '{"__proto__":{"status":"active","ownerId":"x"}}' },
  { contentType: 'application/json', text: '{"constructor":{"prototype":{"role":"owner"}}}' },
  { contentType: 'application/json', text: JSON.stringify({ a: 'x'.repeat(300_000) }) },
  { contentType: 'application/json', text: `${'['.repeat(20_000)}${']'.repeat(20_000)}` },
  { contentType: 'text/plain', text: '{"memoryLimitMb":256}' },
  { contentType: 'application/x-www-form-urlencoded', text: 'kind=wordpress' },
];
type FuzzBody = { kind: 'json'; value: unknown } | { kind: 'raw'; contentType: string; text: string };

describeEachDatabase('web hosting routes: roles, ids, fuzzing, write limit (security)', (ctx, kind) => {
  // Slots for every package bought below (the suite's database starts without hosting servers).
  beforeAll(async () => {
    await seedHostingServer(ctx(), 100);
  });
  const hostingRoutes = () => ctx().app.registeredRoutes.filter((r) => isHostingRoute(r.url));
  const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
  const fill = (url: string, values: { id?: string; itemId?: string; username?: string }) =>
    url.replace(':id', values.id ?? crypto.randomUUID()).replace(':itemId', values.itemId ?? '1').replace(':username', values.username ?? 'jemand');
  const request = (route: { method: string; url: string }, url: string, headers: Record<string, string>): InjectOptions => ({
    method: route.method as InjectOptions['method'], url, headers, ...(withBody(route.method) ? { payload: VALID_BODY[key(route)] ?? {} } : {}),
  });

  it('the hosting routes are exactly the known ones, each with its access policy', () => {
    expect(hostingRoutes().map(key).sort()).toEqual(HOSTING_ROUTES);
    for (const r of hostingRoutes()) {
      const want = r.url === '/api/shop/webhosting' ? 'public' : r.url.startsWith('/api/admin/') ? 'staff' : 'customer';
      expect(r.access, key(r)).toBe(want);
    }
  });

  it('anonymous → 401 on every non-public route (with and without a body); the public shop info answers', async () => {
    const problems: string[] = [];
    for (const route of hostingRoutes()) {
      const opts = request(route, fill(route.url, { id: route.url.includes('hosting-servers') ? '1' : undefined }), {});
      const res = await ctx().app.inject(opts);
      if (route.access === 'public') {
        if (res.statusCode !== 200) problems.push(`public ${describeRequest(opts, res)}`);
        continue;
      }
      if (res.statusCode !== 401 || parse(res)?.error?.code !== 'UNAUTHORIZED') problems.push(describeRequest(opts, res));
      problems.push(...problemsOf(res).map((p) => `${key(route)}: ${p}`));
      // A forged or expired token is no better than none.
      const forged = await ctx().app.inject({ ...opts, headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' } });
      if (forged.statusCode !== 401) problems.push(`forged token: ${describeRequest(opts, forged)}`);
    }
    expect(problems).toEqual([]);
  });

  it('a customer → 403 on every /api/admin/hosting-servers route; nothing is created or deleted', async () => {
    const customer = await createUser(ctx());
    const before = await ctx().database.db.select().from(hostingServers);
    for (const route of hostingRoutes().filter((r) => r.url.startsWith('/api/admin/'))) {
      const opts = request(route, fill(route.url, { id: String(before[0]?.id ?? 1) }), customer.auth);
      const res = await ctx().app.inject(opts);
      expect(res.statusCode, describeRequest(opts, res)).toBe(403);
      expect(parse(res)?.error?.code).toBe('FORBIDDEN');
      expect(problemsOf(res)).toEqual([]);
    }
    expect(await ctx().database.db.select().from(hostingServers)).toEqual(before);
  });

  it('an employee lists, creates and deletes hosting servers; bad input and a server in use are refused in German', async () => {
    const employee = await createUser(ctx(), { role: 'employee' });
    const post = (payload: Record<string, unknown>) => ctx().app.inject({ method: 'POST', url: '/api/admin/hosting-servers', headers: employee.auth, payload });
    const panelServerId = String(100_000 + Math.floor(Math.random() * 800_000));
    const valid = { name: 'web-neu', hostname: `${unique('web')}.example.net`, panelServerId, slots: 3 };

    const list = await ctx().app.inject({ method: 'GET', url: '/api/admin/hosting-servers', headers: employee.auth });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ panel: 'Simuliertes Panel (Demo)' });

    const refusals: [Record<string, unknown>, string][] = [
      [{ ...valid, hostname: 'kein hostname!' }, 'gültigen Hostnamen'],
      [{ ...valid, hostname: '' }, 'gültigen Hostnamen'],
      [{ ...valid, panelServerId: 'abc' }, 'Server-ID im Panel ist eine Zahl'],
      [{ ...valid, panelServerId: '-1' }, 'Server-ID im Panel ist eine Zahl'],
      [{ ...valid, panelServerId: 7 }, 'Server-ID im Panel'],
      [{ ...valid, slots: 0 }, 'Mindestens 1 Paket'],
      [{ ...valid, slots: 1.5 }, 'ganze Zahl'],
      [{ ...valid, slots: '3' }, 'Anzahl Pakete'],
      [{ ...valid, name: 'x' }, 'mindestens 2 Zeichen'],
      [{ ...valid, used: 0, id: 1 }, ''],
    ];
    for (const [payload, text] of refusals) {
      const res = await post(payload);
      expect(res.statusCode, `${JSON.stringify(payload)} → ${res.body}`).toBe(400);
      expect(problemsOf(res), JSON.stringify(payload)).toEqual([]);
      expect(parse(res)!.error!.message as string).toContain(text);
    }
    expect((await ctx().database.db.select().from(hostingServers).where(eq(hostingServers.panelServerId, panelServerId)))).toEqual([]);

    const created = await post(valid);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: 'web-neu', hostname: valid.hostname, panelServerId, slots: 3, used: 0, held: 0 });
    const again = await post({ ...valid, hostname: `${unique('web')}.example.net` });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain('bereits eingetragen');
    const del = await ctx().app.inject({ method: 'DELETE', url: `/api/admin/hosting-servers/${created.json().id}`, headers: employee.auth });
    expect(del.statusCode, del.body).toBe(204);
    const gone = await ctx().app.inject({ method: 'DELETE', url: `/api/admin/hosting-servers/${created.json().id}`, headers: employee.auth });
    expect(gone.statusCode).toBe(404);
    expect(problemsOf(gone)).toEqual([]);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999', '%00', 'x'.repeat(90)]) {
      const res = await ctx().app.inject({ method: 'DELETE', url: `/api/admin/hosting-servers/${bad}`, headers: employee.auth });
      expect([400, 404], `${bad} → ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      expect(problemsOf(res), bad).toEqual([]);
    }

    // A server with a package on it stays.
    const customer = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), customer);
    const [pkg] = await ctx().database.db.select().from(hostingPackages).where(eq(hostingPackages.id, packageId));
    const inUse = await ctx().app.inject({ method: 'DELETE', url: `/api/admin/hosting-servers/${pkg!.hostingServerId}`, headers: employee.auth });
    expect(inUse.statusCode, inUse.body).toBe(409);
    expect(inUse.json().error.message).toMatch(/^Auf diesem Server liegen noch \d+ Hosting-Pakete\./);
    expect(problemsOf(inUse)).toEqual([]);
    const [server] = await ctx().database.db.select().from(hostingServers).where(eq(hostingServers.id, pkg!.hostingServerId));
    expect(server!.deletedAt).toBeNull();

    // Staff rights are not package rights: the employee does not see the customer's package.
    expect((await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: employee.auth })).statusCode).toBe(404);
  });

  it('every customer route with an unknown uuid → 404, with a malformed id → 400 or 404 (never 500); a stranger gets 404 on a real package', async () => {
    const owner = await createUser(ctx());
    const stranger = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), owner);
    const snapshot = async () => {
      const detail = (await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: owner.auth })).json();
      const dbs = (await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}/databases`, headers: owner.auth })).json();
      const shares = (await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}/access`, headers: owner.auth })).json();
      // SSL and pending changes move on by themselves (the panel's timers); everything a request could change is here.
      const { phpVersion, memoryLimitMb, maxExecutionTimeS, backupFrequency, backupCopies, retentionDays, ftp, app } = detail.site;
      const domains = detail.site.domains.map((d: { id: string; domain: string; type: string }) => `${d.id}:${d.domain}:${d.type}`);
      return { status: detail.status, websiteType: detail.websiteType, site: { phpVersion, memoryLimitMb, maxExecutionTimeS, backupFrequency, backupCopies, retentionDays, ftp, app, domains }, dbs, shares };
    };
    const before = await snapshot();
    const routes = hostingRoutes().filter((r) => r.access === 'customer' && r.url.includes(':id'));
    expect(routes.length).toBeGreaterThan(20);
    const problems: string[] = [];
    const badIds = ['abc', '1', '0', '-1', '00000000-0000-0000-0000-00000000000g', `${crypto.randomUUID()}x`, '%00', '..%2F..%2Fetc', '%E2%80%AE', 'x'.repeat(100), '1%20or%201%3D1', "'"];
    for (const route of routes) {
      const unknownOpts = request(route, fill(route.url, {}), owner.auth);
      const unknown = await ctx().app.inject(unknownOpts);
      if (unknown.statusCode !== 404) problems.push(`unknown uuid: ${describeRequest(unknownOpts, unknown)}`);
      problems.push(...problemsOf(unknown).map((p) => `${key(route)} unknown: ${p}`));

      const strangerOpts = request(route, fill(route.url, { id: packageId }), stranger.auth);
      const foreign = await ctx().app.inject(strangerOpts);
      if (foreign.statusCode !== 404) problems.push(`stranger: ${describeRequest(strangerOpts, foreign)}`);
      if (foreign.body.includes(packageId)) problems.push(`stranger sees the id: ${describeRequest(strangerOpts, foreign)}`);

      for (const bad of badIds) {
        const opts = request(route, fill(route.url, { id: bad }), owner.auth);
        const res = await ctx().app.inject(opts);
        if (![400, 404].includes(res.statusCode)) problems.push(`bad id: ${describeRequest(opts, res)}`);
        problems.push(...problemsOf(res).map((p) => `${key(route)} id ${bad}: ${p}`));
      }
      // Malformed item ids on a real package: refused, never a 500.
      if (route.url.includes(':itemId')) {
        for (const bad of ['%00', 'a'.repeat(65), '..%2F1', '%F0%9F%98%80', '1;drop', '']) {
          const opts = request(route, fill(route.url, { id: packageId, itemId: bad }), owner.auth);
          const res = await ctx().app.inject(opts);
          if (![400, 404].includes(res.statusCode)) problems.push(`bad item id: ${describeRequest(opts, res)}`);
          problems.push(...problemsOf(res).map((p) => `${key(route)} item ${bad}: ${p}`));
        }
      }
      await resetCounter(ctx().database.db, `hosting-write:${owner.user.id}`);
      await resetCounter(ctx().database.db, `hosting-write:${stranger.user.id}`);
    }
    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
    // Nothing the stranger sent reached the package.
    expect(await snapshot()).toEqual(before);
  });

  it.runIf(kind === fuzzDatabase())('fuzzes every POST/PUT route of a real package with 200 bodies each: never 5xx, errors are German {error:{message}}', { timeout: 600_000 }, async () => {
    const { app } = ctx();
    const owner = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), owner);
    const routes = hostingRoutes().filter((r) => ['POST', 'PUT'].includes(r.method) && r.url.startsWith('/api/hosting/:id'));
    expect(routes.length).toBeGreaterThanOrEqual(14);
    const doc = app.swagger() as { paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>> };
    const problems: string[] = [];
    const counts = new Map<number, number>();

    for (const route of routes) {
      const props = doc.paths?.[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema?.properties;
      const keys = Object.keys(props ?? {}).length ? Object.keys(props ?? {}) : Object.keys(VALID_BODY[key(route)] ?? { a: 1 });
      const bodies: fc.Arbitrary<FuzzBody> = fc.oneof(
        fc.jsonValue({ maxDepth: 4 }).map((value): FuzzBody => ({ kind: 'json', value })),
        // The route's own fields with values of any type, some missing …
        fc.record(Object.fromEntries(keys.map((k) => [k, anyValue])), { requiredKeys: [] }).map((value): FuzzBody => ({ kind: 'json', value })),
        // … a valid body with one field replaced by an odd value, plus unexpected extra keys.
        fc.tuple(fc.constantFrom(...keys), anyValue, fc.dictionary(nastyString, anyValue, { maxKeys: 2 }))
          .map(([k, v, extra]): FuzzBody => ({ kind: 'json', value: { ...extra, ...(VALID_BODY[key(route)] ?? {}), [k]: v } })),
        // … deeply nested objects.
        fc.integer({ min: 10, max: 2000 }).map((depth): FuzzBody => ({ kind: 'json', value: JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown })),
        fc.constantFrom(...rawCases).map((c): FuzzBody => ({ kind: 'raw', ...c })),
      );
      const itemIds = fc.oneof(fc.constantFrom('1', '2', '999', 'f1', 'abc_-'), nastyString.map((s) => encodeURIComponent(s.slice(0, 30).replace(/[\uD800-\uDFFF]/g, '?')) || '1'));
      await fc.assert(
        fc.asyncProperty(bodies, itemIds, async (body, itemId) => {
          const headers: Record<string, string> = { ...owner.auth };
          const opts: InjectOptions = { method: route.method as InjectOptions['method'], url: fill(route.url, { id: packageId, itemId }), headers };
          if (body.kind === 'json') {
            headers['content-type'] = 'application/json';
            opts.payload = JSON.stringify(body.value) ?? 'null';
          } else {
            headers['content-type'] = body.contentType;
            opts.payload = body.text;
          }
          // The write limit is proven below; here every body reaches the route's own checks, not a 429.
          await resetCounter(ctx().database.db, `hosting-write:${owner.user.id}`);
          const res = await app.inject(opts);
          counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
          const found = problemsOf(res);
          if (found.length) problems.push(`${describeRequest(opts, res)}: ${found.join('; ')}`);
        }),
        { numRuns: 200 },
      );
    }
    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
    // Mostly refused by the schemas, and no status outside what the routes declare.
    expect([...counts.keys()].every((s) => [200, 201, 202, 400, 404, 409, 413, 415].includes(s)), JSON.stringify([...counts])).toBe(true);
    expect(counts.get(400) ?? 0).toBeGreaterThan(routes.length * 100);
    // The package is still the owner's and works.
    const detail = await app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: owner.auth });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ access: 'owner', panelError: null });
    const [pkg] = await ctx().database.db.select().from(hostingPackages).where(eq(hostingPackages.id, packageId));
    expect(pkg).toMatchObject({ ownerId: owner.user.id, deletedAt: null });
  });

  it('fuzzes the shop checkout (customer) and the hosting-server form (employee): never 5xx, errors are German', { timeout: 300_000 }, async () => {
    const customer = await createUser(ctx());
    const employee = await createUser(ctx(), { role: 'employee' });
    const problems: string[] = [];
    const cases: [string, Record<string, string>, Record<string, unknown>][] = [
      ['/api/shop/webhosting/checkout', customer.auth, VALID_BODY['POST /api/shop/webhosting/checkout']!],
      ['/api/admin/hosting-servers', employee.auth, VALID_BODY['POST /api/admin/hosting-servers']!],
    ];
    for (const [url, auth, valid] of cases) {
      const keys = [...Object.keys(valid), 'domain', 'packageId'];
      const bodies: fc.Arbitrary<unknown> = fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record(Object.fromEntries(keys.map((k) => [k, anyValue])), { requiredKeys: [] }),
        fc.tuple(fc.constantFrom(...keys), anyValue, fc.dictionary(nastyString, anyValue, { maxKeys: 2 })).map(([k, v, extra]) => ({ ...extra, ...valid, [k]: v })),
      );
      await fc.assert(fc.asyncProperty(bodies, async (body) => {
        const opts: InjectOptions = { method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) ?? 'null' };
        const res = await ctx().app.inject(opts);
        const found = problemsOf(res);
        if (found.length) problems.push(`${describeRequest(opts, res)}: ${found.join('; ')}`);
      }), { numRuns: 100 });
    }
    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
  });

  it('a burst of 100 parallel PHP changes from one customer: at most 60 pass (60 per 10 min), the rest 429 in German with Retry-After', { timeout: 120_000 }, async () => {
    const customer = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), customer);
    await resetCounter(ctx().database.db, `hosting-write:${customer.user.id}`);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => ctx().app.inject({
      method: 'PUT', url: `/api/hosting/${packageId}/php`, headers: customer.auth, payload: { memoryLimitMb: i % 2 ? 256 : 512 },
    })));
    const byStatus = new Map<number, number>();
    for (const r of results) byStatus.set(r.statusCode, (byStatus.get(r.statusCode) ?? 0) + 1);
    expect([...byStatus.keys()].sort(), JSON.stringify([...byStatus])).toEqual([200, 429]);
    expect(byStatus.get(200)).toBeLessThanOrEqual(60);
    expect(byStatus.get(200)).toBe(60);
    expect(byStatus.get(429)).toBe(40);
    const limited = results.find((r) => r.statusCode === 429)!;
    expect(limited.json().error).toMatchObject({ code: 'RATE_LIMITED', message: messages.rateLimited });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Still limited afterwards, also on another write route and another package of the same customer …
    expect((await ctx().app.inject({ method: 'PUT', url: `/api/hosting/${packageId}/ftp-password`, headers: customer.auth, payload: { password, confirmPassword: password } })).statusCode).toBe(429);
    // … while reading works, and another customer is not affected.
    expect((await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: customer.auth })).statusCode).toBe(200);
    const other = await createUser(ctx());
    const { packageId: otherPackage } = await buyHosting(ctx(), other);
    expect((await ctx().app.inject({ method: 'PUT', url: `/api/hosting/${otherPackage}/php`, headers: other.auth, payload: { memoryLimitMb: 128 } })).statusCode).toBe(200);
  });

  it('parallel creations cannot exceed the plan: 20 databases and 10 domains at once on Professional (10 / 5)', { timeout: 120_000 }, async () => {
    const customer = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), customer, { plan: 'professional' });
    const url = `/api/hosting/${packageId}`;
    const post = (suffix: string, payload: Record<string, unknown>) => ctx().app.inject({ method: 'POST', url: `${url}${suffix}`, headers: customer.auth, payload });
    const refusedInGerman = (results: LightMyRequestResponse[]) => {
      for (const r of results.filter((x) => x.statusCode !== 201)) {
        expect(r.statusCode, r.body).toBe(409);
        expect(problemsOf(r)).toEqual([]);
      }
    };
    await resetCounter(ctx().database.db, `hosting-write:${customer.user.id}`);

    const dbBurst = await Promise.all(Array.from({ length: 20 }, (_, i) => post('/databases', { name: `burst${i}`, password, confirmPassword: password })));
    refusedInGerman(dbBurst);
    let dbs = (await ctx().app.inject({ method: 'GET', url: `${url}/databases`, headers: customer.auth })).json();
    expect(dbs.limit).toBe(10);
    expect(dbs.databases.length).toBeLessThanOrEqual(10);
    expect(dbs.databases.length).toBe(dbBurst.filter((r) => r.statusCode === 201).length);
    // No user without its database was left behind by a refused request.
    expect(dbs.users.length).toBe(dbs.databases.length);
    // One after the other, the plan fills up to exactly its limit and not beyond.
    for (let i = 0; i < 12; i++) await post('/databases', { name: `seq${i}`, password, confirmPassword: password });
    dbs = (await ctx().app.inject({ method: 'GET', url: `${url}/databases`, headers: customer.auth })).json();
    expect(dbs.databases.length).toBe(10);
    const over = await post('/databases', { name: 'zuviel', password, confirmPassword: password });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.code).toBe('DATABASE_LIMIT');

    await resetCounter(ctx().database.db, `hosting-write:${customer.user.id}`);
    const domainBurst = await Promise.all(Array.from({ length: 10 }, () => post('/domains', { domain: `${unique('burst')}.de` })));
    refusedInGerman(domainBurst);
    const domainsNow = async () => (await ctx().app.inject({ method: 'GET', url, headers: customer.auth })).json().site.domains as unknown[];
    expect((await domainsNow()).length).toBeLessThanOrEqual(5);
    for (let i = 0; i < 6; i++) await post('/domains', { domain: `${unique('seq')}.de` });
    expect(await domainsNow()).toHaveLength(5);
    expect((await post('/domains', { domain: `${unique('zuviel')}.de` })).json().error.code).toBe('DOMAIN_LIMIT');
  });
});

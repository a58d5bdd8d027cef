/**
 * npm run bench — performance checks of ../shared/quality/performance.md that apply so far.
 *
 *  1. Authenticated read (GET /api/account/profile: token check + session lookup + profile query)
 *     against "the limit": a bare Fastify route doing the same JWT check and SQL with a raw pg pool,
 *     started in the same run. Target: ≥ 0.8 of its req/s, p99 ≤ 1.5× its p99.
 *  2. Login flood: p99 of GET /api/status quiet vs. while 20 connections log in (argon2id) the whole
 *     time. Target: ≤ 3× the quiet p99.
 *  3. Web hosting: the customer's package list (GET /api/hosting) against a raw reference with the same
 *     SQL (target as 1.), and the package page (GET /api/hosting/:id: our database plus nine calls to the
 *     simulated panel), for orientation.
 *
 * Database: BENCH_DATABASE_URL or TEST_DATABASE_URL (a throwaway database is created), else PGlite.
 * Duration per measurement: BENCH_SECONDS (default 10); comparisons with the reference alternate in three
 * rounds of a third of that and keep each side's best round.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { jwtVerify } from 'jose';
import { sql } from 'drizzle-orm';
import { createTestContext, createUser } from '../test/harness.ts';
import { buyHosting, seedHostingServer } from '../test/hosting.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

interface Result { rps: number; p99: number; errors: number; non2xx: number }
async function measure(url: string, opts: Partial<autocannon.Options> = {}): Promise<Result> {
  const r = await autocannon({ url, connections: 10, duration: seconds, ...opts });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}
/**
 * Reference and product measured in turns (three rounds, each side's best round counts), so a burst of
 * other load on the machine does not land on one side only and decide the ratio.
 */
async function compare(refUrl: string, ourUrl: string, opts: Partial<autocannon.Options> = {}): Promise<{ ref: Result; ours: Result }> {
  const best = (a: Result | null, b: Result) => (!a || b.rps > a.rps ? b : a);
  let ref: Result | null = null;
  let ours: Result | null = null;
  const slice = Math.max(2, Math.round(seconds / 3));
  for (let round = 0; round < 3; round++) {
    ref = best(ref, await measure(refUrl, { ...opts, duration: slice }));
    ours = best(ours, await measure(ourUrl, { ...opts, duration: slice }));
  }
  return { ref: ref!, ours: ours! };
}
const fmt = (r: Result) => `${r.rps.toFixed(0).padStart(6)} req/s  p99 ${String(r.p99).padStart(4)} ms${r.non2xx || r.errors ? `  (non-2xx ${r.non2xx}, errors ${r.errors})` : ''}`;

const kind = baseUrl ? 'postgres' : 'pglite';
if (baseUrl) process.env.TEST_DATABASE_URL = baseUrl;
console.log(`Datenbank: ${kind}, ${seconds} s je Messung, 10 Verbindungen\n`);
const ctx = await createTestContext(kind);
const user = await createUser(ctx);
await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const appUrl = `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`;

// The reference: the same work without our framework layers (validation, serialization, hooks),
// on a raw pg pool. Only on PostgreSQL, as in performance.md.
const reference = Fastify({ logger: false });
let pool: pg.Pool | undefined;
if (kind === 'postgres') {
  const result = (await ctx.database.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
  const url = new URL(baseUrl!);
  url.pathname = `/${result.rows[0]!.name}`;
  pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  const key = ctx.app.deps.secrets.jwtKey;
  reference.get('/profile', async (req, reply) => {
    const { payload } = await jwtVerify((req.headers.authorization ?? '').slice(7), key, { algorithms: ['HS256'] });
    const session = await pool!.query(
      'select u.id, u.role from sessions s join users u on u.id = s.user_id where s.id = $1 and s.user_id = $2 and s.revoked_at is null and s.expires_at > now()',
      [payload.sid, payload.sub],
    );
    if (!session.rows.length) return reply.code(401).send({});
    const { rows: [row] } = await pool!.query('select username, customer_number, email, phone, street, zip_code, city, country, company_name, industry, totp_enabled from users where id = $1', [payload.sub]);
    return { username: row.username, customerId: String(row.customer_number), email: row.email, phone: row.phone, street: row.street, zipCode: row.zip_code, city: row.city, country: row.country, companyName: row.company_name, industry: row.industry, mfaEnabled: row.totp_enabled };
  });
  reference.get('/hosting', async (req, reply) => {
    const { payload } = await jwtVerify((req.headers.authorization ?? '').slice(7), key, { algorithms: ['HS256'] });
    const session = await pool!.query(
      'select u.id, u.role from sessions s join users u on u.id = s.user_id where s.id = $1 and s.user_id = $2 and s.revoked_at is null and s.expires_at > now()',
      [payload.sid, payload.sub],
    );
    if (!session.rows.length) return reply.code(401).send({});
    const { rows } = await pool!.query(
      `select p.* from hosting_packages p left join hosting_access a on a.package_id = p.id and a.user_id = $1
       where p.deleted_at is null and (p.owner_id = $1 or a.user_id = $1) order by p.created_at desc`, [payload.sub]);
    return { items: rows.map((r) => ({ id: r.id, name: r.name, plan: r.plan, status: r.status, statusMessage: r.status_message, primaryDomain: r.primary_domain, expiresAt: r.expires_at, access: r.owner_id === payload.sub ? 'owner' : 'shared' })) };
  });
}
await reference.listen({ port: 0, host: '127.0.0.1' });
const refUrl = `http://127.0.0.1:${(reference.server.address() as { port: number }).port}`;
const headers = { authorization: `Bearer ${user.token}` };

console.log('1) Authentifiziertes Profil (Token + Sitzung + Profil)');
await measure(`${appUrl}/api/account/profile`, { headers, duration: 2 }); // warm-up
const { ref, ours } = kind === 'postgres'
  ? await compare(`${refUrl}/profile`, `${appUrl}/api/account/profile`, { headers })
  : { ref: null, ours: await measure(`${appUrl}/api/account/profile`, { headers }) };
if (ref) {
  console.log(`   Referenz (Fastify + pg):  ${fmt(ref)}`);
  console.log(`   Produkt:                  ${fmt(ours)}`);
  const okRps = ours.rps >= 0.8 * ref.rps;
  const okP99 = ours.p99 <= Math.max(1.5 * ref.p99, ref.p99 + 2);
  console.log(`   Ziel ≥ 0,8× req/s: ${(ours.rps / ref.rps).toFixed(2)}× ${okRps ? 'OK' : 'VERFEHLT'} · p99 ≤ 1,5×: ${(ours.p99 / Math.max(ref.p99, 1)).toFixed(2)}× ${okP99 ? 'OK' : 'VERFEHLT'}\n`);
} else {
  console.log(`   Produkt (PGlite):         ${fmt(ours)}  (Referenzvergleich nur auf PostgreSQL)\n`);
}

console.log('2) Login-Flut: GET /api/status ruhig und während 20 Verbindungen sich anmelden');
const quiet = await measure(`${appUrl}/api/status`);
// Limits count every attempt while it runs (count first, check second; decision 003), so 20 parallel
// logins to one account from one address would partly be refused with a cheap 429. One account per
// connection keeps the flood made of real argon2 checks; loopback allows only one client address, and
// 20 attempts in flight stay below its limit of 30.
const floodUsers = await Promise.all(Array.from({ length: 20 }, () => createUser(ctx)));
const loginBodies = floodUsers.map((u) => JSON.stringify({ username: u.username, password: u.password }));
let nextLogin = 0;
const flood = autocannon({
  url: `${appUrl}/api/auth/login`, method: 'POST', connections: 20, duration: seconds + 2,
  headers: { 'content-type': 'application/json' },
  requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: loginBodies[nextLogin++ % loginBodies.length] }) }],
});
await new Promise((r) => setTimeout(r, 1000));
const loud = await measure(`${appUrl}/api/status`);
const floodResult = await flood;
console.log(`   ruhig:          ${fmt(quiet)}`);
console.log(`   bei Login-Flut: ${fmt(loud)}   (Logins: ${floodResult.requests.average.toFixed(0)}/s, p99 ${floodResult.latency.p99} ms${floodResult.non2xx ? `, non-2xx ${floodResult.non2xx}` : ''})`);
const okFlood = loud.p99 <= Math.max(3 * quiet.p99, quiet.p99 + 5);
console.log(`   Ziel p99 ≤ 3× ruhig: ${(loud.p99 / Math.max(quiet.p99, 1)).toFixed(2)}× ${okFlood ? 'OK' : 'VERFEHLT'}`);

console.log('\n3) Webhosting: Paketliste und Paketseite (simuliertes Panel)');
const hostingServer = await seedHostingServer(ctx, 10);
void hostingServer;
const buyer = { auth: headers };
const { packageId } = await buyHosting(ctx, buyer);
await buyHosting(ctx, buyer, { plan: 'starter' });
await measure(`${appUrl}/api/hosting`, { headers, duration: 2 }); // warm-up
const { ref: refList, ours: ourList } = kind === 'postgres'
  ? await compare(`${refUrl}/hosting`, `${appUrl}/api/hosting`, { headers })
  : { ref: null, ours: await measure(`${appUrl}/api/hosting`, { headers }) };
if (refList) {
  console.log(`   Liste, Referenz:   ${fmt(refList)}`);
  console.log(`   Liste, Produkt:    ${fmt(ourList)}`);
  const okRps = ourList.rps >= 0.8 * refList.rps;
  const okP99 = ourList.p99 <= Math.max(1.5 * refList.p99, refList.p99 + 2);
  console.log(`   Ziel ≥ 0,8× req/s: ${(ourList.rps / refList.rps).toFixed(2)}× ${okRps ? 'OK' : 'VERFEHLT'} · p99 ≤ 1,5×: ${(ourList.p99 / Math.max(refList.p99, 1)).toFixed(2)}× ${okP99 ? 'OK' : 'VERFEHLT'}`);
} else {
  console.log(`   Liste (PGlite):    ${fmt(ourList)}`);
}
const detail = await measure(`${appUrl}/api/hosting/${packageId}`, { headers });
console.log(`   Paketseite:        ${fmt(detail)}  (zur Orientierung: mit ISPConfig bestimmt das Panel die Zeit)`);

await reference.close();
await pool?.end();
await ctx.close();

/**
 * npm run bench:events — live events at customer scale (issue 22, docs/decisions/029), on one instance:
 *
 *  1. 1,000 customers, each with a server and an open stream; one transaction changes all 1,000 servers.
 *     Target: every customer hears about their own server, p95 ≤ 500 ms and max ≤ 2 s after the commit;
 *     no customer hears about another's.
 *  2. 10,000 idle streams (1,000 customers × 10 tabs). Target: ≤ 500 MB resident memory of the API
 *     process (the clients run in a process of their own: 10,000 sockets on each side would pass the
 *     per-process file limit).
 *
 * Database: BENCH_DATABASE_URL or TEST_DATABASE_URL (a throwaway database is created), else PGlite.
 * BENCH_CUSTOMERS (default 1000) and BENCH_TABS (default 10) scale it down for a quick look.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { inArray, sql } from 'drizzle-orm';
import { createTestContext } from '../test/harness.ts';
import { nodes, servers, users } from '../src/db/schema/index.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { openSession } from '../src/modules/auth/sessions.ts';

const customers = Number(process.env.BENCH_CUSTOMERS ?? 1000);
const tabs = Number(process.env.BENCH_TABS ?? 10);
const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const kind = baseUrl ? 'postgres' : 'pglite';
if (baseUrl) process.env.TEST_DATABASE_URL = baseUrl;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
console.log(`Datenbank: ${kind}, ${customers} Kunden, Last ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);

const ctx = await createTestContext(kind);
await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const port = (ctx.app.server.address() as { port: number }).port;
const db = ctx.database.db;

// ── Data: customers with one server each, sessions ──
const passwordHash = await hashPassword('Sicher!Passwort1');
const stamp = Date.now().toString(36);
const created = await db.insert(users).values(Array.from({ length: customers }, (_, i) => ({
  username: `bench${stamp}${i}`, email: `bench${stamp}${i}@example.com`, role: 'customer' as const, passwordHash, emailVerifiedAt: new Date(),
}))).returning();
const [node] = await db.insert(nodes).values({ name: `bench-node-${stamp}`, host: '10.0.0.1', cpuCores: 64, ramGb: 256, storageGb: 4000, status: 'online' }).returning();
const owned = await db.insert(servers).values(created.map((u, i) => ({
  vmid: 1_000_000 + i, name: `bench-${i}`, ownerId: u.id, nodeId: node!.id, os: 'Debian 12', cpuCores: 2, ramGb: 4, storageGb: 50, status: 'online' as const,
}))).returning({ id: servers.id, ownerId: servers.ownerId });
const serverOf = new Map(owned.map((s) => [s.ownerId!, s.id]));
const tokens: { userId: string; token: string }[] = [];
for (const user of created) tokens.push({ userId: user.id, token: (await openSession(db, ctx.app.deps.secrets, user, 'bench')).token });

// ── A lean SSE client: records when each server id is first heard ──
interface Client { userId: string; heard: Map<string, number>; req: http.ClientRequest }
function connect(userId: string, token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const heard = new Map<string, number>();
    const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('error', () => {}); // a stream the bench destroys ends with ECONNRESET
      let ready = false;
      res.on('data', (chunk: string) => {
        if (!ready && chunk.includes('event: ready')) {
          ready = true;
          resolve({ userId, heard, req });
        }
        for (const match of chunk.matchAll(/"serverId":"([0-9a-f-]{36})"/g)) if (!heard.has(match[1]!)) heard.set(match[1]!, performance.now());
      });
    });
    req.on('error', (err) => {
      if (!req.destroyed) reject(err);
    });
  });
}
async function openAll(count: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < count; i += 100) {
    clients.push(...await Promise.all(tokens.slice(0, count).slice(i, i + 100).map((t) => connect(t.userId, t.token))));
  }
  return clients;
}
const closeAll = (clients: Client[]) => clients.forEach((c) => c.req.destroy());

let failed = false;
const check = (label: string, ok: boolean, detail: string) => {
  if (!ok) failed = true;
  console.log(`${ok ? 'OK   ' : 'FEHLT'} ${label}: ${detail}`);
};

// ── 1. Burst ──
{
  const clients = await openAll(customers);
  await new Promise((r) => setTimeout(r, 200));
  const t0 = performance.now();
  await db.update(servers).set({ status: 'offline' }).where(inArray(servers.id, owned.map((s) => s.id)));
  const committed = performance.now();
  const deadline = committed + 5000;
  while (performance.now() < deadline && clients.some((c) => !c.heard.has(serverOf.get(c.userId)!))) await new Promise((r) => setTimeout(r, 10));
  const latencies = clients.map((c) => (c.heard.get(serverOf.get(c.userId)!) ?? Infinity) - committed).sort((a, b) => a - b);
  const p95 = latencies[Math.floor(latencies.length * 0.95) - 1] ?? latencies.at(-1)!;
  const max = latencies.at(-1)!;
  const foreign = clients.filter((c) => [...c.heard.keys()].some((id) => id !== serverOf.get(c.userId))).length;
  console.log(`Burst: ${customers} Änderungen in einer Transaktion (${(committed - t0).toFixed(0)} ms bis zum Commit)`);
  check('Burst p95 ≤ 500 ms', p95 <= 500, `${p95.toFixed(0)} ms`);
  check('Burst max ≤ 2 s', max <= 2000, Number.isFinite(max) ? `${max.toFixed(0)} ms` : `${latencies.filter((l) => !Number.isFinite(l)).length} Kunden ohne Ereignis`);
  check('Keine fremden Ereignisse', foreign === 0, `${foreign} Kunden hörten fremde Server`);
  closeAll(clients);
  await new Promise((r) => setTimeout(r, 500));
}

// ── 2. Idle streams ──
{
  globalThis.gc?.();
  const before = process.memoryUsage();
  const tokensFile = path.join(os.tmpdir(), `hp-bench-tokens-${process.pid}.json`);
  fs.writeFileSync(tokensFile, JSON.stringify(tokens.map((t) => t.token)));
  const clients = spawn(process.execPath, [fileURLToPath(new URL('./stream-clients.mjs', import.meta.url)), String(port), tokensFile, String(tabs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const opened = await new Promise<number>((resolve, reject) => {
    let out = '';
    clients.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    clients.once('exit', (code) => reject(new Error(`clients exited with ${code}`)));
  });
  await new Promise((r) => setTimeout(r, 500));
  globalThis.gc?.();
  const after = process.memoryUsage();
  console.log(`Leerlauf: ${opened} Streams (Clients in eigenem Prozess), Server-RSS ${mb(before.rss)} → ${mb(after.rss)}, Heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)} (${((after.rss - before.rss) / opened / 1024).toFixed(1)} KB je Stream)`);
  check(`${opened} Streams ≤ 500 MB`, after.rss <= 500 * 1024 * 1024, mb(after.rss));
  clients.stdin.end();
  await new Promise((r) => clients.once('exit', r));
  fs.rmSync(tokensFile, { force: true });
}

await db.execute(sql`select 1`);
console.log(`\nLast danach: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await ctx.close();
process.exit(failed ? 1 : 0);

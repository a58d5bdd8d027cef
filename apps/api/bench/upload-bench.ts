/**
 * npm run bench:uploads — issue 21, item 1: three parallel 10 MB uploads must not stall the instance.
 *
 * Runs the API as shipped (its own process, NODE_ENV=production, LOG_LEVEL=info, the default pool) on
 * PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL: a throwaway database) or else PGlite, with the demo
 * data. 20 connections read GET /api/status, first quietly, then while the demo customer uploads three
 * 10 MB text logs at once to a ticket, round after round.
 * Targets: the status p99 under uploads ≤ 3× its quiet p99; the process's memory grows by at most 100 MB
 * per running upload (peak RSS during the uploads minus RSS before them, divided by three).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { MAX_ATTACHMENT_BYTES } from '@hp/contract';
import { freshPostgres } from '../test/databases.ts';
import { freePort } from '../test/net.ts';
import { startServer, waitForHealth } from '../test/processes.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

// A throwaway database on PostgreSQL (the tests' helper; the server applies the migrations), else PGlite.
if (base) process.env.TEST_DATABASE_URL = base;
const pgDatabase = base ? await freshPostgres('hp_bench_uploads') : undefined;
const databaseUrl = pgDatabase?.url;
const dropDatabase = pgDatabase?.drop ?? (async () => {});
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-bench-uploads-'));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const server = startServer({
  PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, DATA_DIR: dataDir, LOG_LEVEL: 'info', SEED_DEMO: 'true',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const cleanup = async () => {
  server.child.kill('SIGTERM');
  await server.exited;
  await dropDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
};

try {
  await waitForHealth(server, origin);
  const pid = server.child.pid!;
  const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

  const accounts = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as { role: string; username: string; password: string }[];
  const customer = accounts.find((a) => a.role === 'customer')!;
  const login = await fetch(`${origin}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: customer.username, password: customer.password }) });
  const { token } = await login.json() as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const ticket = await (await fetch(`${origin}/api/tickets`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Logdatei', description: 'Drei große Logs anbei.', type: 'problem' }) })).json() as { id: string };

  const line = '2026-11-27 12:00:01 app[4711]: request handled in 12 ms, status 200, bytes 5120\n';
  const log = Buffer.from(line.repeat(Math.ceil(MAX_ATTACHMENT_BYTES / line.length))).subarray(0, MAX_ATTACHMENT_BYTES);
  const uploadOnce = async () => {
    const started = performance.now();
    const res = await fetch(`${origin}/api/tickets/${ticket.id}/attachments?name=app.log`, { method: 'POST', headers: { ...auth, 'content-type': 'application/octet-stream' }, body: log });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    return performance.now() - started;
  };

  const readStatus = async () => {
    const r = await autocannon({ url: `${origin}/api/status`, connections: 20, duration: seconds });
    return { p99: r.latency.p99, rps: r.requests.average, errors: r.errors + r.non2xx };
  };

  await uploadOnce(); // warm-up: code paths, buffers
  await readStatus();
  const quiet = await readStatus();

  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb()); }, 25);
  // The customer may upload 60 files an hour (UPLOAD_LIMIT): three uploaders with 19 each, and the
  // status readers run exactly as long as the uploads do.
  const uploadTimes: number[] = [];
  let readers: autocannon.Instance | undefined;
  const loadedResult = new Promise<autocannon.Result>((resolve, reject) => {
    readers = autocannon({ url: `${origin}/api/status`, connections: 20, duration: 600 }, (err, result) => (err ? reject(err) : resolve(result)));
  });
  await Promise.all(Array.from({ length: 3 }, async () => {
    for (let i = 0; i < 19; i++) uploadTimes.push(await uploadOnce());
  }));
  readers!.stop();
  const r = await loadedResult;
  const loaded = { p99: r.latency.p99, rps: r.requests.average, errors: r.errors + r.non2xx };
  clearInterval(sampler);

  const perUpload = (peak - before) / 3;
  const ratio = loaded.p99 / Math.max(1, quiet.p99);
  const rows = [
    ['Datenbank', databaseUrl ? 'PostgreSQL' : 'PGlite'],
    ['Last (1/5/15 min)', os.loadavg().map((l) => l.toFixed(1)).join(' / ')],
    ['GET /api/status ruhig', `${quiet.rps.toFixed(0)} req/s, p99 ${quiet.p99} ms`],
    ['… während 3 Uploads à 10 MB', `${loaded.rps.toFixed(0)} req/s, p99 ${loaded.p99} ms (${ratio.toFixed(2)}× ruhig, Ziel ≤ 3×)${loaded.errors ? `, ${loaded.errors} Fehler` : ''}`],
    ['Uploads', `${uploadTimes.length} (3 parallel), je ${Math.round(uploadTimes.reduce((a, b) => a + b, 0) / uploadTimes.length)} ms im Mittel`],
    ['Speicher (RSS)', `vorher ${before.toFixed(0)} MB, Spitze ${peak.toFixed(0)} MB: +${perUpload.toFixed(0)} MB je laufendem Upload (Ziel ≤ 100 MB)`],
  ];
  for (const [k, v] of rows) console.log(`${k!.padEnd(30)} ${v}`);
  const ok = ratio <= 3 && perUpload <= 100 && loaded.errors === 0 && quiet.errors === 0;
  console.log(ok ? '\nZiele erreicht.' : '\nZiel verfehlt.');
  process.exitCode = ok ? 0 : 1;
} finally {
  await cleanup();
}

/**
 * npm run bench:changelog-pages — response times of the server-rendered changelog (decision 016):
 * `/changelog` and `/changelog/{id}` as HTML, beside the JSON API of the same data and a prerendered
 * static page as references measured in the same run (performance.md: compare side by side).
 * Needs a built web (`npm run build`); runs on PGlite in memory, or on BENCH_DATABASE_URL's PostgreSQL
 * (a throwaway database there). 100 sequential requests per case after 20 warm-up requests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTestContext } from '../test/harness.ts';
import { seedChangelog } from '../src/modules/changelog/changelog.seed.ts';
import { listChangelog } from '../src/modules/changelog/changelog.service.ts';

const requests = Number(process.env.BENCH_REQUESTS ?? 100);
if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const ctx = await createTestContext(process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite');
if (!fs.existsSync(path.join(ctx.app.deps.env.webDist, '.ssr', 'entry-server.js'))) {
  console.error('Die Weboberfläche ist nicht gebaut (npm run build).');
  await ctx.close();
  process.exit(2);
}
await seedChangelog(ctx.database.db);
const [entry] = (await listChangelog(ctx.app.deps)).entries;
await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
async function measure(url: string, expected: number) {
  const once = async () => {
    const res = await fetch(url);
    await res.text();
    if (res.status !== expected) throw new Error(`${url}: ${res.status}`);
  };
  for (let i = 0; i < 20; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95), p99: quantile(times, 0.99) };
}

const cases: [string, string, number][] = [
  ['/changelog (HTML, serverseitig gerendert)', `${base}/changelog`, 200],
  ['/changelog/{id} (HTML, serverseitig gerendert)', `${base}/changelog/${entry!.id}`, 200],
  ['/changelog/{unbekannt} (HTML, 404)', `${base}/changelog/00000000-0000-4000-8000-000000000000`, 404],
  ['Referenz: GET /api/changelog (JSON)', `${base}/api/changelog`, 200],
  ['Referenz: GET /api/changelog/{id} (JSON)', `${base}/api/changelog/${entry!.id}`, 200],
  ['Referenz: /faq (vorgerendert, statisch)', `${base}/faq`, 200],
];
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');
console.log(`${ctx.kind}, je ${requests} Anfragen nacheinander nach 20 zum Aufwärmen; Last vorher ${load()} bei ${os.cpus().length} Kernen\n`);
console.log(`${'Fall'.padEnd(50)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)}`);
for (const [name, url, status] of cases) {
  const r = await measure(url, status);
  console.log(`${name.padEnd(50)} ${r.p50.toFixed(1).padStart(7)} ${r.p95.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(7)}`);
}
// A React render without the reuse of documents (as after every change of the data): the bundle itself.
const { pathToFileURL } = await import('node:url');
const ssrDir = path.join(ctx.app.deps.env.webDist, '.ssr');
const ssr = (await import(pathToFileURL(path.join(ssrDir, 'entry-server.js')).href)) as { renderDocument(t: string, u: string, q: unknown[]): Promise<string>; changelogKeys: { list: unknown[] } };
const template = fs.readFileSync(path.join(ssrDir, 'template.html'), 'utf8');
const data = await listChangelog(ctx.app.deps);
const times: number[] = [];
for (let i = 0; i < 20 + requests; i++) {
  const start = performance.now();
  await ssr.renderDocument(template, '/changelog', [{ key: ssr.changelogKeys.list, data }]);
  if (i >= 20) times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
console.log(`${'React-Render /changelog ohne Wiederverwendung'.padEnd(50)} ${quantile(times, 0.5).toFixed(1).padStart(7)} ${quantile(times, 0.95).toFixed(1).padStart(7)} ${quantile(times, 0.99).toFixed(1).padStart(7)}`);
console.log(`\nLast nachher: ${load()}`);
await ctx.close();
process.exit(0);

/**
 * npm run bench:start — time from process start to the first 200 of the home page, as `npm start` ships
 * it (compiled, `node apps/api/dist/server.js`) and, for comparison, through the TypeScript loader.
 * Targets (issue 22): ≤ 2 s on PostgreSQL, ≤ 4 s on an existing PGlite installation.
 *
 * Needs `npm run build` first. PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (a throwaway database
 * is created and migrated by a first start); without one only PGlite is measured.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const compiled = path.join(repo, 'apps/api/dist/server.js');
if (!fs.existsSync(compiled)) {
  console.error('apps/api/dist/server.js fehlt: zuerst npm run build');
  process.exit(1);
}
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
let port = 5480;

async function firstPage(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; line: string }> {
  const p = port++;
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: repo, env: { ...process.env, ...env, PORT: String(p), PUBLIC_URL: `http://127.0.0.1:${p}`, NODE_ENV: 'production', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Server beendet: ${out.slice(-500)}`);
      try {
        const res = await fetch(`http://127.0.0.1:${p}/`);
        if (res.status === 200) {
          const ms = performance.now() - started;
          await new Promise((r) => setTimeout(r, 50));
          return { ms, line: /gestartet in [\d.]+ s/.exec(out)?.[0] ?? '' };
        }
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) throw new Error('kein Start in 120 s');
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function measure(label: string, env: NodeJS.ProcessEnv, targetMs: number) {
  const variants: [string, string[]][] = [['kompiliert', ['--enable-source-maps', compiled]], ['tsx', ['--import', 'tsx', path.join(repo, 'apps/api/src/server.ts')]]];
  // The first start creates (PGlite) or migrates (PostgreSQL) the database; it is not counted.
  await firstPage(variants[0]![1], env);
  let failed = false;
  for (const [name, args] of variants) {
    const times: number[] = [];
    let line = '';
    for (let i = 0; i < rounds; i++) {
      const r = await firstPage(args, env);
      times.push(r.ms);
      line = r.line;
    }
    const best = Math.min(...times);
    const ok = name !== 'kompiliert' || best <= targetMs;
    if (!ok) failed = true;
    console.log(`${name === 'kompiliert' ? (ok ? 'OK   ' : 'FEHLT') : '     '} ${label}, ${name}: erste Seite nach ${times.map((t) => (t / 1000).toFixed(2)).join(' / ')} s (bestes ${(best / 1000).toFixed(2)} s${name === 'kompiliert' ? `, Ziel ≤ ${targetMs / 1000} s` : ''}; Startzeile: ${line})`);
  }
  return failed;
}

console.log(`Last ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
let failed = false;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-start-'));
failed = (await measure('PGlite (bestehende Installation)', { DATA_DIR: dataDir, DATABASE_URL: '' }, 4000)) || failed;

const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (baseUrl) {
  const name = `bench_start_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  try {
    failed = (await measure('PostgreSQL', { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'hp-start-pg-')), DATABASE_URL: url.toString() }, 2000)) || failed;
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
console.log(`\nLast danach ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
process.exit(failed ? 1 : 0);

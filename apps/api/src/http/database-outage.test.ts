import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@hp/contract';
import { createTestContext, createUser, type TestContext } from '../../test/harness.ts';
import { freePort } from '../../test/net.ts';

/**
 * A PostgreSQL outage under load, on a throwaway cluster of this test (initdb + pg_ctl on a free port),
 * never the machine's shared server: stopped for a while, then started again.
 */
const binDir = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'].find((d) => fs.existsSync(path.join(d, 'initdb')));
const isRoot = process.getuid?.() === 0;

function asPostgres(cmd: string, args: string[]) {
  const bin = path.join(binDir!, cmd);
  // initdb refuses to run as root; the cluster belongs to the postgres user then.
  return isRoot ? execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'pipe' }) : execFileSync(bin, args, { stdio: 'pipe' });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!binDir)('PostgreSQL outage under load', () => {
  let dir: string;
  let port: number;
  let ctx: TestContext & { close: () => Promise<void> };
  const log: string[] = [];
  const start = () => asPostgres('pg_ctl', ['-D', path.join(dir, 'data'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-l', path.join(dir, 'server.log'), '-w', 'start']);
  const stop = () => asPostgres('pg_ctl', ['-D', path.join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-pg-outage-'));
    fs.chmodSync(dir, 0o777);
    port = await freePort();
    asPostgres('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    start();
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => log.push(...chunk.toString().split('\n').filter(Boolean)));
    ctx = await createTestContext('postgres', { databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, log: { level: 'info', stream } });
  }, 120_000);

  afterAll(async () => {
    await ctx?.close().catch(() => {});
    try { stop(); } catch { /* already stopped */ }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while the database is down, logs a few lines without SQL, and recovers by itself', async () => {
    const { auth, email } = await createUser(ctx);
    const read = () => ctx.app.inject({ method: 'GET', url: '/api/account/profile', headers: auth });
    expect((await read()).statusCode).toBe(200);

    stop();
    const outageStart = Date.now();
    const answers: { status: number; retryAfter?: string; code?: string; message?: string }[] = [];
    // 6 s of load: 10 parallel requests at a time.
    while (Date.now() - outageStart < 6000) {
      const batch = await Promise.all(Array.from({ length: 10 }, read));
      for (const res of batch) {
        const body = res.json() as { error?: { code: string; message: string } };
        answers.push({ status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined, code: body.error?.code, message: body.error?.message });
      }
    }
    const seconds = (Date.now() - outageStart) / 1000;
    expect(answers.length).toBeGreaterThan(50);
    for (const a of answers) expect(a).toMatchObject({ status: 503, retryAfter: '5', code: 'UNAVAILABLE', message: messages.unavailable });

    // One line per 5 s, not one per request; never SQL, parameters or the customer's address.
    const outageLines = log.filter((l) => l.includes('database unavailable'));
    expect(outageLines.length).toBeGreaterThanOrEqual(1);
    expect(outageLines.length).toBeLessThanOrEqual(Math.ceil(seconds / 5) + 1);
    expect(log.filter((l) => l.includes('"level":50')).length).toBeLessThanOrEqual(Math.ceil(seconds / 5) + 1);
    for (const line of log) {
      expect(line).not.toMatch(/params:|select |from "sessions"|Failed query/i);
      expect(line).not.toContain(email);
    }

    start();
    let recovered = false;
    for (let i = 0; i < 50 && !recovered; i++) {
      recovered = (await read()).statusCode === 200;
      if (!recovered) await sleep(200);
    }
    expect(recovered).toBe(true);
  }, 90_000);
});

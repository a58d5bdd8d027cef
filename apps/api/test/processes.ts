import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshPostgres } from './databases.ts';

/** Tests that run real API processes (crash tests, two instances on one PostgreSQL). */

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A throwaway migrated PostgreSQL database (a copy of the run's template). */
export async function freshPg() {
  return freshPostgres('hp_crash');
}

/**
 * Starts an API process. `compiled`: the build `npm start` runs (apps/api/dist/server.js, made by
 * `npm run build:api`) instead of the sources through tsx; `build`: the same, from the folder the unit
 * test run compiled the current sources into (global-setup.ts, `inject('apiBuild')`). `discardStdout`:
 * the log goes to /dev/null instead of being collected (benchmarks at LOG_LEVEL=info; errors still
 * reach `output()`).
 */
export function startServer(env: Record<string, string>, opts: { compiled?: boolean; build?: string; discardStdout?: boolean } = {}): { child: ChildProcess; exited: Promise<number | null>; output: () => string } {
  let out = '';
  const args = opts.build ? ['--enable-source-maps', path.join(opts.build, 'server.js')]
    : opts.compiled ? ['--enable-source-maps', 'apps/api/dist/server.js'] : ['--import', 'tsx', 'apps/api/src/server.ts'];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot, env: { ...process.env, VITEST: '', NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', opts.discardStdout ? 'ignore' : 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ? -1 : code)));
  return { child, exited, output: () => out };
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch { /* not yet */ }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Waits for the server to answer; a server that exits instead fails at once, with its output. */
export async function waitForHealth(run: ReturnType<typeof startServer>, origin: string) {
  // Generous: under the full suite's load on two cores, transpiling and migrating can take a while.
  const healthy = waitFor('health', async () => (await fetch(`${origin}/api/health`)).ok, 90_000);
  const died = run.exited.then((code) => { throw new Error(`server exited with ${code} before it was healthy`); });
  // The loser settles later (the server is killed on purpose further on): nobody must see that as unhandled.
  healthy.catch(() => {});
  died.catch(() => {});
  await Promise.race([healthy, died]).catch((err: Error) => {
    throw new Error(`${err.message}\n${run.output().slice(-2000)}`);
  });
}


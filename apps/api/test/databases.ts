import crypto from 'node:crypto';
import fs from 'node:fs';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';

/**
 * Test databases are copies of the one migrated in test/global-setup.ts (docs/decisions/025): PGlite
 * loads the dumped image, PostgreSQL copies the template. Without the global setup (a single file run
 * through another config) they migrate from scratch as before.
 */
/** What the global setup provided; nothing outside a Vitest run (the benchmarks use the harness too). */
function provided<K extends 'pgliteImage' | 'postgresTemplate'>(key: K): string | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

let image: Promise<Blob | undefined> | undefined;
function pgliteImage(): Promise<Blob | undefined> {
  image ??= (async () => {
    const file = provided('pgliteImage');
    if (!file || !fs.existsSync(file)) return undefined;
    return new Blob([await fs.promises.readFile(file)]);
  })();
  return image;
}

/** A migrated in-memory PGlite. */
export async function freshPglite(): Promise<Database> {
  const loaded = await pgliteImage();
  return openDatabase({ dataDir: 'memory://', ...(loaded ? { image: loaded } : {}) });
}

/** A throwaway migrated database on TEST_DATABASE_URL: its URL and how to drop it (also while connected). */
export async function freshPostgres(prefix = 'hp_test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const template = provided('postgresTemplate');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

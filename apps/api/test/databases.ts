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

/**
 * The migrated image, read once per worker. Node's own `Blob.arrayBuffer()` copied all 44 MB through a
 * stream on every open (about 0.5 CPU-s each); this Blob hands PGlite the one buffer. PGlite only reads it:
 * its untar copies every file out into its in-memory file system.
 */
class SharedImage extends Blob {
  constructor(private readonly shared: ArrayBuffer) {
    super([]);
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.shared);
  }
}

let image: Promise<Blob | undefined> | undefined;
function pgliteImage(): Promise<Blob | undefined> {
  image ??= (async () => {
    const file = provided('pgliteImage');
    if (!file || !fs.existsSync(file)) return undefined;
    const bytes = await fs.promises.readFile(file);
    return new SharedImage(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  })();
  return image;
}

/**
 * A test database holds a few hundred rows: 4 MB of shared buffers (512 pages) instead of PostgreSQL's 128 MB,
 * which PGlite zeroes in WebAssembly at every open (128 MB: about 0.8 CPU-s; 16 MB: 0.44; 4 MB: 0.36, measured
 * 2026-11-29 alone, six opens each). A page that leaves the buffers is copied from PGlite's in-memory files
 * when read again. No test depends on the buffer size.
 */
const testSettings = { shared_buffers: '4MB', max_connections: '10' };

/** A migrated in-memory PGlite. */
export async function freshPglite(): Promise<Database> {
  const loaded = await pgliteImage();
  return openDatabase({ dataDir: 'memory://', pgliteSettings: testSettings, ...(loaded ? { image: loaded } : {}) });
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

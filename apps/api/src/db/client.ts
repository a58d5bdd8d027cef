import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PGliteInterface } from '@electric-sql/pglite';
import * as schema from './schema/index.ts';
import { readTextTypesOnce } from './pglite-parsers.ts';

export type Schema = typeof schema;
/** The common surface of the PGlite and node-postgres Drizzle databases. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The handle inside `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** For the live-event listener (drivers/realtime): its own connection on PostgreSQL, PGlite's listen(). */
  listenVia: { kind: 'postgres'; url: string } | { kind: 'pglite'; client: PGliteInterface };
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Opens the database and applies the committed migrations.
 * `url` undefined → embedded PGlite in `dataDir` (or in memory when dataDir is 'memory://').
 * `image`: a PGlite data directory dumped by `dumpDataDir` to start from (the tests' migrated copy);
 * the migrations still run and find nothing left to apply.
 * `pgliteSettings`: server settings PGlite starts with (`-c name=value`), for example the tests' smaller
 * shared buffers; PostgreSQL servers have their own configuration.
 */
export async function openDatabase(opts: { url?: string; dataDir?: string; image?: Blob; pgliteSettings?: Record<string, string> }): Promise<Database> {
  if (opts.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: opts.url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10), connectionTimeoutMillis: 5000 });
    // A lost connection must not crash the process; queries fail with 503 until the server is back.
    pool.on('error', () => {});
    const db = drizzle(pool, { schema }) as unknown as Db;
    // Several instances may start at once: only one applies migrations.
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock(723001)');
      const applied = async () => Number((await client.query('select count(*) as n from drizzle.__drizzle_migrations').catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n);
      const before = await applied();
      await migrate(drizzle(client, { schema }), { migrationsFolder });
      // New tables and indexes start without statistics: until autovacuum gets to them the planner may
      // pick sequential scans (seen on a reused benchmark database). A migration run ends with ANALYZE.
      if ((await applied()) !== before) await client.query('analyze');
    } finally {
      await client.query('select pg_advisory_unlock(723001)').catch(() => {});
      client.release();
    }
    return { db, kind: 'postgres', close: () => pool.end(), listenVia: { kind: 'postgres', url: opts.url } };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = opts.dataDir ?? 'memory://';
  if (!dir.startsWith('memory://')) fs.mkdirSync(dir, { recursive: true });
  const settings = Object.entries(opts.pgliteSettings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const client = await PGlite.create(dir, {
    extensions: { pg_trgm },
    ...(opts.image ? { loadDataDir: opts.image } : {}),
    ...(settings.length ? { startParams: [...PGlite.defaultStartParams, ...settings] } : {}),
  });
  const db = drizzle(readTextTypesOnce(client), { schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close(), listenVia: { kind: 'pglite', client } };
}

export async function pingDatabase(db: Db) {
  await db.execute(sql`select 1`);
}

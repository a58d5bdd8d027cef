import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from './client.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('migrations on PostgreSQL [postgres]', () => {
  it('end with ANALYZE when they applied something, so new tables and indexes have statistics at once', async () => {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `hp_analyze_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    try {
      const database = await openDatabase({ url: url.toString() });
      try {
        const result = (await database.db.execute(sql`select last_analyze from pg_stat_user_tables where relname = 'users'`)) as unknown as { rows: { last_analyze: Date | null }[] };
        expect(result.rows[0]?.last_analyze).toBeTruthy();
      } finally {
        await database.close();
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});

import { describe, expect, it, vi } from 'vitest';
import { PGlite, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { PglitePreparedQuery } from 'drizzle-orm/pglite/session';
import { NoopLogger } from 'drizzle-orm/logger';
import { NoopCache } from 'drizzle-orm/cache/core';
import { freshPglite } from '../../test/databases.ts';
import { drizzleTextTypes } from './pglite-parsers.ts';

type Parsers = Record<string, (value: string) => unknown>;
/** The options Drizzle itself hands PGlite with each query, in its two result modes. */
function drizzleQueryOptions() {
  const query = new PglitePreparedQuery({} as never, 'select 1', [], new NoopLogger(), new NoopCache(), undefined, undefined, undefined, undefined, false);
  const { queryConfig, rawQueryConfig } = query as unknown as Record<'queryConfig' | 'rawQueryConfig', { rowMode: 'array' | 'object'; parsers: Parsers }>;
  return { queryConfig, rawQueryConfig };
}

// Every type the parsers touch, as single values, arrays and null, and a few PGlite parses itself.
const probe = `select timestamptz '2026-11-29 10:00:00.123+01' as tstz, timestamp '2026-11-29 10:00:00' as ts, date '2026-11-29' as d,
  interval '1 day 02:03:04' as i, array[1.5, 2]::numeric[] as nums, array[timestamptz '2026-01-01 00:00+00', null]::timestamptz[] as tstzs,
  array[timestamp '2026-01-01 12:00']::timestamp[] as tss, array[interval '3 hours']::interval[] as ivs, array[date '2026-02-28']::date[] as ds,
  12::int as n, 12.5::numeric as num, '{"a":1}'::jsonb as j, array[1, 2]::int[] as ints, true as b, null::timestamptz as none`;

describe('PGlite reads the types Drizzle keeps as text once per client', () => {
  it('has the list Drizzle hands PGlite with each query, for both result modes', () => {
    for (const config of Object.values(drizzleQueryOptions())) {
      expect(Object.keys(config.parsers).map(Number).sort()).toEqual([...drizzleTextTypes].sort());
      for (const parse of Object.values(config.parsers)) expect(parse('x')).toBe('x');
    }
  });

  it('gives the values Drizzle got before, in and outside transactions, and no query hands PGlite parsers', async () => {
    const spy = vi.spyOn(PGlite.prototype, 'query');
    const database = await freshPglite();
    try {
      if (database.listenVia.kind !== 'pglite') throw new Error('expected PGlite');
      const client = database.listenVia.client as PGlite;
      const { rawQueryConfig } = drizzleQueryOptions();
      // What Drizzle's own options gave, straight from PGlite's unwrapped method.
      const [before] = (await PGlite.prototype.query.call(client, probe, [], rawQueryConfig)).rows as Record<string, unknown>[];
      expect(before).toMatchObject({ tstz: expect.any(String), tstzs: '{"2026-01-01 00:00:00+00",NULL}', nums: '{1.5,2}', n: 12, j: { a: 1 }, ints: [1, 2], b: true, none: null });

      spy.mockClear();
      const rows = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
      expect(rows(await database.db.execute(sql.raw(probe)))[0]).toEqual(before);
      expect(await database.db.transaction(async (tx) => rows(await tx.execute(sql.raw(probe)))[0])).toEqual(before);
      const calls = spy.mock.calls.filter(([, , options]) => options !== undefined);
      expect(calls.length).toBeGreaterThan(0);
      for (const [, , options] of calls) expect(options?.parsers).toBeUndefined();

      // A caller's own parsers for other types still reach PGlite and apply.
      const own = await client.query<{ n: unknown; t: unknown }>(`select 7::int4 as n, timestamp '2026-01-01 12:00' as t`, [], { parsers: { [types.INT4]: (v: string) => `int ${v}` } });
      expect(own.rows[0]).toEqual({ n: 'int 7', t: '2026-01-01 12:00:00' });
    } finally {
      spy.mockRestore();
      await database.close();
    }
  });
});

import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from './rate-limit.ts';

/**
 * One piece of work per key at a time, across API instances, without holding a transaction open while
 * it runs (the work may call a remote panel or registrar that writes to the database itself). The lease
 * is a row in the shared rate_limits table; a process that dies frees it after `seconds`. Returns null
 * when someone else holds it: the caller answers "already running".
 */
export async function withLease<T>(db: Pick<Db, 'execute'>, key: string, seconds: number, work: () => Promise<T>): Promise<{ value: T } | null> {
  const [lease] = rowsOf(await db.execute(sql`
    insert into rate_limits (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set window_start = now(), count = 1
      where rate_limits.window_start < now() - make_interval(secs => ${seconds})
    returning window_start::text as since`)) as { since: string }[];
  if (!lease) return null;
  try {
    return { value: await work() };
  } finally {
    await db.execute(sql`delete from rate_limits where key = ${key} and window_start = ${lease.since}::timestamptz`).catch(() => undefined);
  }
}

import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { tooManyRequests } from '../http/errors.ts';

export interface LimitRule {
  /** e.g. `login-ip:1.2.3.4` */
  key: string;
  limit: number;
  windowSeconds: number;
}

interface Counter { count: number; retryAfter: number }

/**
 * Fixed-window counters in PostgreSQL, so the limits hold across several API instances.
 * One upsert per hit; the window restarts when it has passed.
 */
export async function hitCounter(db: Db, rule: LimitRule): Promise<Counter> {
  const result = await db.execute(sql`
    insert into rate_limits (key, window_start, count) values (${rule.key}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start < now() - make_interval(secs => ${rule.windowSeconds}) then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - make_interval(secs => ${rule.windowSeconds}) then now() else rate_limits.window_start end
    returning count, extract(epoch from (window_start + make_interval(secs => ${rule.windowSeconds}) - now()))::float as retry_after`);
  const row = rowsOf(result)[0] as { count: number; retry_after: number };
  return { count: Number(row.count), retryAfter: Number(row.retry_after) };
}

export async function resetCounter(db: Db, key: string) {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

/**
 * Counts the request and throws 429 with Retry-After once the limit is exceeded. The count comes
 * first and the check second, in one upsert that returns the new value: of any number of parallel
 * requests exactly `limit` see a count within the limit, so a burst cannot run more checks (password,
 * TOTP, code) than the limit allows. Never peek at a counter and count later; that is the race the
 * outside review found (200 parallel logins ran 150 password checks against a limit of 10).
 */
export async function enforceLimit(db: Db, rule: LimitRule) {
  const c = await hitCounter(db, rule);
  if (c.count > rule.limit) throw tooManyRequests(c.retryAfter);
}

/**
 * Gives a counted attempt back, for limits that should only be used up by failures (a correct login
 * from a shared office address). Only after the attempt passed `enforceLimit`.
 */
export async function refundAttempt(db: Db, rule: LimitRule) {
  await db.execute(sql`
    update rate_limits set count = greatest(count - 1, 0)
    where key = ${rule.key} and window_start >= now() - make_interval(secs => ${rule.windowSeconds})`);
}

/** node-postgres returns { rows }, PGlite returns { rows } too, but typed differently. */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  const r = result as { rows?: Record<string, unknown>[] };
  return r.rows ?? (result as Record<string, unknown>[]);
}

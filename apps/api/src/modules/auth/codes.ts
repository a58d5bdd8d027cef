import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { oneTimeCodes } from '../../db/schema/index.ts';
import { hmac, randomCode, safeEqualHex } from '../../lib/secrets.ts';
import { rowsOf } from '../../lib/rate-limit.ts';

export const CODE_LENGTH = 4;
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_ATTEMPTS = 5;
export type CodePurpose = 'verify_email' | 'reset_password';

/** Creates a fresh code for the account and purpose, voiding any earlier unused one. */
export async function issueCode(db: Db, key: Buffer, opts: { userId: string | null; purpose: CodePurpose; emailKey?: string }) {
  const code = opts.userId ? randomCode(CODE_LENGTH) : null;
  if (opts.userId) {
    await db.update(oneTimeCodes).set({ usedAt: new Date() })
      .where(and(eq(oneTimeCodes.userId, opts.userId), eq(oneTimeCodes.purpose, opts.purpose), isNull(oneTimeCodes.usedAt)));
  }
  const [row] = await db.insert(oneTimeCodes).values({
    userId: opts.userId,
    purpose: opts.purpose,
    emailKey: opts.emailKey ?? null,
    codeHash: code ? hmac(key, `${opts.purpose}:${code}`) : null,
    expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
  }).returning({ id: oneTimeCodes.id });
  return { id: row!.id, code };
}

/**
 * Checks a code: counts the try first (so parallel guesses cannot exceed the limit), then marks it used
 * exactly once. Returns the user id on success. Bound to purpose and account by the row and the hash.
 */
export async function consumeCode(db: Db, key: Buffer, where: { id?: string; userId?: string; emailKey?: string; purpose: CodePurpose }, code: string): Promise<{ id: string; userId: string } | null> {
  const target = where.id
    ? sql`id = ${where.id}`
    : where.emailKey
      ? sql`id = (select id from one_time_codes where email_key = ${where.emailKey} and purpose = ${where.purpose} and used_at is null order by created_at desc limit 1)`
      : sql`id = (select id from one_time_codes where user_id = ${where.userId!} and purpose = ${where.purpose} and used_at is null order by created_at desc limit 1)`;
  const counted = rowsOf(await db.execute(sql`
    update one_time_codes set attempts = attempts + 1
    where ${target} and purpose = ${where.purpose} and used_at is null and expires_at > now() and attempts < ${CODE_MAX_ATTEMPTS}
    returning id, user_id, code_hash`))[0] as { id: string; user_id: string | null; code_hash: string | null } | undefined;
  if (!counted || !counted.user_id || !counted.code_hash) return null;
  if (!safeEqualHex(counted.code_hash, hmac(key, `${where.purpose}:${code}`))) return null;
  const used = await db.update(oneTimeCodes).set({ usedAt: new Date() })
    .where(and(eq(oneTimeCodes.id, counted.id), isNull(oneTimeCodes.usedAt)))
    .returning({ id: oneTimeCodes.id });
  return used.length ? { id: counted.id, userId: counted.user_id } : null;
}

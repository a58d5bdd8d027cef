import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { oneTimeCodes } from '../../db/schema/index.ts';
import { hmac, randomCode, randomToken, safeEqualHex } from '../../lib/secrets.ts';
import { rowsOf } from '../../lib/rate-limit.ts';

export const CODE_LENGTH = 4;
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_ATTEMPTS = 5;
/**
 * `staff_change_email`: an e-mail change staff started for a customer. It is confirmed by a link to the
 * new address, so its "code" is a 256-bit token (randomToken) and it lives for days, not minutes.
 */
export type CodePurpose = 'verify_email' | 'reset_password' | 'change_email' | 'staff_change_email';

/**
 * Opens a code for the account and purpose, voiding any earlier unused one. The code itself is drawn
 * later by the mail job (drawCode), so the request answers before any mail work and does the same for
 * known and unknown addresses (review item 15). A row without an account (unknown address) or one the
 * job refuses to draw (an e-mail change to a taken address) can never be confirmed.
 */
export async function issueCode(db: Db, opts: { userId: string | null; purpose: CodePurpose; emailKey?: string; newEmail?: string; ttlMinutes?: number }) {
  if (opts.userId) {
    await db.update(oneTimeCodes).set({ usedAt: new Date() })
      .where(and(eq(oneTimeCodes.userId, opts.userId), eq(oneTimeCodes.purpose, opts.purpose), isNull(oneTimeCodes.usedAt)));
  }
  const [row] = await db.insert(oneTimeCodes).values({
    userId: opts.userId,
    purpose: opts.purpose,
    emailKey: opts.emailKey ?? null,
    newEmail: opts.newEmail ?? null,
    codeHash: null,
    expiresAt: new Date(Date.now() + (opts.ttlMinutes ?? CODE_TTL_MINUTES) * 60_000),
  }).returning({ id: oneTimeCodes.id });
  return { id: row!.id };
}

/**
 * Draws the code of an open, unexpired code row of an account from the CSPRNG and stores its keyed
 * hash. Returns the plain code for the mail, or null. Drawing again (a retried mail job) replaces the
 * earlier code, so only the code of the last mail works.
 */
export async function drawCode(db: Db, key: Buffer, codeId: string) {
  const target = rowsOf(await db.execute(sql`
    select purpose from one_time_codes where id = ${codeId} and user_id is not null and used_at is null and expires_at > now()`))[0] as { purpose: CodePurpose } | undefined;
  if (!target) return null;
  const code = target.purpose === 'staff_change_email' ? randomToken() : randomCode(CODE_LENGTH);
  const drawn = await db.update(oneTimeCodes).set({ codeHash: hmac(key, `${target.purpose}:${code}`) })
    .where(and(eq(oneTimeCodes.id, codeId), isNull(oneTimeCodes.usedAt), sql`${oneTimeCodes.expiresAt} > now()`))
    .returning({ id: oneTimeCodes.id });
  return drawn.length ? code : null;
}

/**
 * Checks a code: counts the try first (so parallel guesses cannot exceed the limit), then marks it used
 * exactly once. Returns the user id on success. Bound to purpose and account by the row and the hash.
 */
export async function consumeCode(db: Db, key: Buffer, where: { id?: string; userId?: string; emailKey?: string; purpose: CodePurpose }, code: string): Promise<{ id: string; userId: string; newEmail: string | null } | null> {
  const target = where.id
    ? sql`id = ${where.id}`
    : where.emailKey
      ? sql`id = (select id from one_time_codes where email_key = ${where.emailKey} and purpose = ${where.purpose} and used_at is null order by created_at desc limit 1)`
      : sql`id = (select id from one_time_codes where user_id = ${where.userId!} and purpose = ${where.purpose} and used_at is null order by created_at desc limit 1)`;
  const counted = rowsOf(await db.execute(sql`
    update one_time_codes set attempts = attempts + 1
    where ${target} and purpose = ${where.purpose} and used_at is null and expires_at > now() and attempts < ${CODE_MAX_ATTEMPTS}
    returning id, user_id, code_hash, new_email`))[0] as { id: string; user_id: string | null; code_hash: string | null; new_email: string | null } | undefined;
  if (!counted || !counted.user_id || !counted.code_hash) return null;
  if (!safeEqualHex(counted.code_hash, hmac(key, `${where.purpose}:${code}`))) return null;
  const used = await db.update(oneTimeCodes).set({ usedAt: new Date() })
    .where(and(eq(oneTimeCodes.id, counted.id), isNull(oneTimeCodes.usedAt)))
    .returning({ id: oneTimeCodes.id });
  return used.length ? { id: counted.id, userId: counted.user_id, newEmail: counted.new_email } : null;
}

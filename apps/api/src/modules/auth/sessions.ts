import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Role } from '@hp/contract';
import type { Db, Tx } from '../../db/client.ts';
import { sessions } from '../../db/schema/index.ts';
import { hmac, randomToken, safeEqualHex, type Secrets } from '../../lib/secrets.ts';
import { ACCESS_TOKEN_TTL_SECONDS, signToken } from '../../lib/tokens.ts';

export const REFRESH_TTL_DAYS = 30;
export const REFRESH_COOKIE = 'hp_rt';

interface SessionUser { id: string; customerNumber: number; role: Role }

export const accessTokenFor = (secrets: Secrets, user: SessionUser, sessionId: string) =>
  signToken(secrets.jwtKey, { sub: user.id, pur: 'access', sid: sessionId, customerId: String(user.customerNumber), role: user.role }, ACCESS_TOKEN_TTL_SECONDS);

/** Opens a session: a short-lived access token plus a rotating refresh token (cookie value). */
export async function openSession(db: Db, secrets: Secrets, user: SessionUser, userAgent = '') {
  const secret = randomToken();
  const [row] = await db.insert(sessions).values({
    userId: user.id,
    role: user.role,
    refreshTokenHash: hmac(secrets.hmacKey, secret),
    expiresAt: new Date(Date.now() + REFRESH_TTL_DAYS * 86_400_000),
    userAgent: userAgent.slice(0, 200),
  }).returning({ id: sessions.id });
  const sessionId = row!.id;
  return { token: await accessTokenFor(secrets, user, sessionId), refreshToken: `${sessionId}.${secret}` };
}

export function parseRefreshToken(value: string | undefined) {
  if (!value) return null;
  const [sessionId, secret] = value.split('.');
  if (!sessionId || !secret || !/^[0-9a-f-]{36}$/i.test(sessionId)) return null;
  return { sessionId, secret };
}

/** How long the immediately previous refresh token still yields the current one (two tabs, one cookie). */
export const REFRESH_GRACE_SECONDS = 30;

/**
 * The successor of a refresh secret is derived from it (keyed), not drawn at random: a second refresh
 * with the same cookie can then be handed the very same successor without the server storing it.
 * Without the key nobody can compute it.
 */
const successorOf = (secrets: Secrets, sessionId: string, secret: string) => hmac(secrets.hmacKey, `refresh:${sessionId}:${secret}`);

/**
 * Rotates the refresh token. Reuse detection with a grace window (docs/decisions/002):
 * - the current token → rotated to its successor;
 * - the immediately previous token within REFRESH_GRACE_SECONDS of that rotation (a parallel refresh
 *   from another tab sent the same cookie) → the same successor again, the session lives on;
 * - anything else (an older token, or the previous one after the window) was copied: the whole session
 *   is revoked.
 */
export async function rotateSession(db: Db, secrets: Secrets, sessionId: string, secret: string) {
  const row = await db.query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
  if (!row || row.revokedAt || row.expiresAt < new Date()) return null;
  const presentedHash = hmac(secrets.hmacKey, secret);
  const next = successorOf(secrets, sessionId, secret);
  const nextHash = hmac(secrets.hmacKey, next);
  const rotated = { userId: row.userId, role: row.role, refreshToken: `${sessionId}.${next}` };

  if (safeEqualHex(row.refreshTokenHash, presentedHash)) {
    const updated = await db.update(sessions)
      .set({ refreshTokenHash: nextHash, lastUsedAt: new Date(), rotatedAt: sql`now()` })
      .where(and(eq(sessions.id, sessionId), eq(sessions.refreshTokenHash, presentedHash), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    if (updated.length) return rotated;
    // A parallel refresh with the same cookie won the update: the grace check below decides.
  }
  const successorIsCurrent = await db.select({ id: sessions.id }).from(sessions).where(and(
    eq(sessions.id, sessionId),
    eq(sessions.refreshTokenHash, nextHash),
    isNull(sessions.revokedAt),
    gt(sessions.rotatedAt, sql`now() - make_interval(secs => ${REFRESH_GRACE_SECONDS})`),
  ));
  if (successorIsCurrent.length) return rotated;
  await revokeSession(db, sessionId);
  return null;
}

export async function revokeSession(db: Db, sessionId: string) {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Ends every session of the account (inside a caller's transaction, too). */
export async function revokeAllSessions(db: Db | Tx, userId: string, exceptSessionId?: string) {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(
    eq(sessions.userId, userId),
    isNull(sessions.revokedAt),
    exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
  ));
}

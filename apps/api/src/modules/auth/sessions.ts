import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Role } from '@hp/contract';
import type { Db } from '../../db/client.ts';
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

/**
 * Rotates the refresh token. Presenting an already-rotated token means it was copied: the whole
 * session is revoked (refresh token reuse detection).
 */
export async function rotateSession(db: Db, secrets: Secrets, sessionId: string, secret: string) {
  const row = await db.query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
  if (!row || row.revokedAt || row.expiresAt < new Date()) return null;
  if (!safeEqualHex(row.refreshTokenHash, hmac(secrets.hmacKey, secret))) {
    await revokeSession(db, sessionId);
    return null;
  }
  const next = randomToken();
  const updated = await db.update(sessions)
    .set({ refreshTokenHash: hmac(secrets.hmacKey, next), lastUsedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.refreshTokenHash, row.refreshTokenHash), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id, userId: sessions.userId });
  if (!updated.length) return null;
  return { userId: row.userId, role: row.role, refreshToken: `${sessionId}.${next}` };
}

export async function revokeSession(db: Db, sessionId: string) {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(db: Db, userId: string, exceptSessionId?: string) {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(
    eq(sessions.userId, userId),
    isNull(sessions.revokedAt),
    exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
  ));
}

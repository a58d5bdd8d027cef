import crypto from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { conflict } from '../../http/errors.ts';
import { hitCounter } from '../../lib/rate-limit.ts';
import { CONSOLE_TOKEN_TTL_SECONDS, signToken, verifyToken } from '../../lib/tokens.ts';
import type { ConsoleConnection } from '../../drivers/hypervisor/hypervisor.ts';
import { findAccessibleServer, toAppError, vmOf } from './server-access.ts';

type ConsoleDeps = Pick<Deps, 'db' | 'hypervisor' | 'secrets'>;

/** Close codes the browser page understands (4xxx: application codes of RFC 6455). */
export const CONSOLE_CLOSE = {
  /** Token missing, forged, expired, used, for another server, or the session has ended. */
  unauthorized: { code: 4401, reason: 'Konsolenzugang ungültig oder abgelaufen. Bitte öffnen Sie die Konsole erneut.' },
  notFound: { code: 4404, reason: 'Server nicht gefunden.' },
  notOnline: { code: 4409, reason: 'Die Konsole ist nur verfügbar, wenn der Server läuft.' },
  unavailable: { code: 1011, reason: 'Die Konsole ist derzeit nicht erreichbar.' },
  idle: { code: 4000, reason: 'Die Konsole wurde wegen Inaktivität getrennt.' },
  ended: { code: 1000, reason: 'Die Konsolensitzung wurde beendet.' },
  tooLarge: { code: 1009, reason: 'Nachricht zu groß.' },
} as const;

export const CONSOLE_IDLE_MS = 15 * 60_000;
export const CONSOLE_MAX_MESSAGE_BYTES = 64 * 1024;

const CONSOLE_NOT_ONLINE = CONSOLE_CLOSE.notOnline.reason;

/**
 * POST /api/servers/:id/console-token: a 60-second token for one websocket to this server's console,
 * bound to the user and the session. Only for a running server.
 */
export async function issueConsoleToken(deps: ConsoleDeps, user: RequestUser, serverId: string) {
  const { server } = await findAccessibleServer(deps.db, user, serverId);
  if (server.status !== 'online') throw conflict('SERVER_NOT_ONLINE', CONSOLE_NOT_ONLINE);
  const token = await signToken(deps.secrets.jwtKey, { sub: user.id, pur: 'console', sid: user.sessionId, srv: server.id, jti: crypto.randomUUID() }, CONSOLE_TOKEN_TTL_SECONDS);
  return { token, expiresIn: CONSOLE_TOKEN_TTL_SECONDS };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The session of the token, checked like http/auth.ts does for bearer tokens (revocation applies at once). */
async function sessionUser(db: Db, userId: string, sessionId: string): Promise<RequestUser | null> {
  const [row] = await db
    .select({ userId: users.id, role: users.role, sessionRole: sessions.role, customerNumber: users.customerNumber, username: users.username, disabledAt: users.disabledAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
    .limit(1);
  if (!row || row.disabledAt || row.role !== row.sessionRole) return null;
  return { id: row.userId, sessionId, customerId: String(row.customerNumber), username: row.username, role: row.role };
}

export type ConsoleOpenResult =
  | { ok: true; connection: ConsoleConnection; user: RequestUser }
  | { ok: false; close: (typeof CONSOLE_CLOSE)[keyof typeof CONSOLE_CLOSE] };

/**
 * Checks a console token and opens the console. Order: signature, expiry and purpose; the server of
 * the URL; the session; then the token is consumed (single use, see below); then ownership and
 * status of the server are checked again and the hypervisor opens the terminal.
 *
 * Single use across API instances: the token's jti is recorded in the shared `rate_limits` table
 * (a counter `console-jti:{jti}` with limit 1, window longer than the token's lifetime), so a second
 * connection with the same token – on any instance – finds the counter at 2 and is refused. One small
 * row per opened console stays in the table (nothing prunes rate_limits yet; a periodic
 * `delete … where window_start < now() - interval '1 day'` would cover all counters).
 */
export async function openConsoleFor(deps: ConsoleDeps, serverId: string, token: string | undefined): Promise<ConsoleOpenResult> {
  const refuse = { ok: false as const, close: CONSOLE_CLOSE.unauthorized };
  if (!token || token.length > 2048 || !UUID.test(serverId)) return refuse;
  const claims = await verifyToken(deps.secrets.jwtKey, token, 'console');
  if (!claims || claims.srv !== serverId || typeof claims.sid !== 'string' || typeof claims.jti !== 'string') return refuse;
  if (!UUID.test(claims.sid) || !UUID.test(claims.sub) || !UUID.test(claims.jti)) return refuse;
  const user = await sessionUser(deps.db, claims.sub, claims.sid);
  if (!user) return refuse;
  const used = await hitCounter(deps.db, { key: `console-jti:${claims.jti}`, limit: 1, windowSeconds: CONSOLE_TOKEN_TTL_SECONDS * 2 });
  if (used.count > 1) return refuse;

  let found;
  try {
    found = await findAccessibleServer(deps.db, user, serverId);
  } catch {
    return { ok: false, close: CONSOLE_CLOSE.notFound };
  }
  if (found.server.status !== 'online') return { ok: false, close: CONSOLE_CLOSE.notOnline };
  try {
    const connection = await deps.hypervisor.openConsole(vmOf(found.server, found.node));
    return { ok: true, connection, user };
  } catch (err) {
    const appError = toAppError(err);
    return { ok: false, close: appError.statusCode === 400 ? CONSOLE_CLOSE.notOnline : CONSOLE_CLOSE.unavailable };
  }
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiError, CurrentUser, LoginInput, LoginResult, MessageResult, MfaLoginInput, RegisterInput, RegisterResult,
  ResendVerificationInput, ResendVerificationResult, ResetCompleteInput, ResetRequestInput, ResetRequestResult,
  ResetVerifyInput, ResetVerifyResult, TokenResult, VerifyEmailInput, VerifyEmailResult, messages,
} from '@hp/contract';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import { unauthorized } from '../../http/errors.ts';
import {
  completeMfaLogin, completePasswordReset, login, registerAccount, requestPasswordReset, resendVerification, verifyEmail, verifyResetCode,
} from './auth.service.ts';
import { parseRefreshToken, REFRESH_COOKIE, REFRESH_TTL_DAYS, revokeSession, rotateSession, accessTokenFor } from './sessions.ts';
import { signedInRoutes } from '../../http/auth.ts';
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS, knownAccounts, rememberAccount } from './known-devices.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 429: ApiError };

export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log, jobs: app.jobs };
  const secure = app.deps.env.publicUrl.startsWith('https://');

  const setRefreshCookie = (reply: FastifyReply, value: string) =>
    reply.setCookie(REFRESH_COOKIE, value, { httpOnly: true, sameSite: 'strict', secure, path: '/api/auth', maxAge: REFRESH_TTL_DAYS * 86400 });
  const clearRefreshCookie = (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, { path: '/api/auth' });
  // After a completed login the browser is a known device of the account (known-devices.ts).
  const rememberDevice = (req: FastifyRequest, reply: FastifyReply, userId: string) =>
    reply.setCookie(DEVICE_COOKIE, rememberAccount(app.deps.secrets, req.cookies[DEVICE_COOKIE], userId), { httpOnly: true, sameSite: 'strict', secure, path: '/api/auth', maxAge: DEVICE_COOKIE_DAYS * 86400 });

  r.post('/api/auth/register', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Konto registrieren', body: RegisterInput, response: { 201: RegisterResult, ...errors } },
  }, async (req, reply) => reply.code(201).send(await registerAccount(deps, req.body, req.ip)));

  r.post('/api/auth/verify-email', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'E-Mail-Adresse mit dem 4-stelligen Code bestätigen (mit loginToken zugleich anmelden)', body: VerifyEmailInput, response: { 200: VerifyEmailResult, ...errors } },
  }, async (req, reply) => {
    const { message, session } = await verifyEmail(deps, req.body, req.ip, req.headers['user-agent'] ?? '');
    if (!session) return { message };
    setRefreshCookie(reply, session.refreshToken);
    rememberDevice(req, reply, session.userId);
    return { message, token: session.token };
  });

  r.post('/api/auth/verify-email/resend', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Bestätigungscode erneut senden (höchstens alle 60 s)', body: ResendVerificationInput, response: { 200: ResendVerificationResult, ...errors } },
  }, async (req) => resendVerification(deps, req.body, req.ip));

  r.post('/api/auth/login', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Anmelden', body: LoginInput, response: { 200: LoginResult, ...errors } },
  }, async (req, reply) => {
    const result = await login(deps, req.body, req.ip, req.headers['user-agent'] ?? '', knownAccounts(app.deps.secrets, req.cookies[DEVICE_COOKIE]));
    if ('refreshToken' in result) {
      setRefreshCookie(reply, result.refreshToken);
      rememberDevice(req, reply, result.userId);
      return { token: result.token };
    }
    return result;
  });

  r.post('/api/auth/mfa', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Anmeldung mit TOTP- oder Backup-Code abschließen', body: MfaLoginInput, response: { 200: TokenResult, ...errors } },
  }, async (req, reply) => {
    const session = await completeMfaLogin(deps, req.body, req.headers['user-agent'] ?? '');
    setRefreshCookie(reply, session.refreshToken);
    rememberDevice(req, reply, session.userId);
    return { token: session.token };
  });

  r.post('/api/auth/refresh', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Neues Zugriffstoken über das Refresh-Cookie', response: { 200: TokenResult, 401: ApiError } },
  }, async (req, reply) => {
    const parsed = parseRefreshToken(req.cookies[REFRESH_COOKIE]);
    const rotated = parsed && (await rotateSession(app.db, app.deps.secrets, parsed.sessionId, parsed.secret));
    const user = rotated && (await app.db.query.users.findFirst({ where: eq(users.id, rotated.userId) }));
    // A role change ends the session (as for the access token): no new token for the old role.
    if (!parsed || !rotated || !user || user.disabledAt || user.role !== rotated.role) {
      clearRefreshCookie(reply);
      throw unauthorized(messages.sessionExpired, 'SESSION_EXPIRED');
    }
    setRefreshCookie(reply, rotated.refreshToken);
    return { token: await accessTokenFor(app.deps.secrets, user, parsed.sessionId) };
  });

  r.post('/api/auth/logout', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Abmelden (beendet die Sitzung sofort)', response: { 204: z.null() } },
  }, async (req, reply) => {
    const parsed = parseRefreshToken(req.cookies[REFRESH_COOKIE]);
    if (req.user) await revokeSession(app.db, req.user.sessionId);
    else if (parsed) {
      const ok = await rotateSession(app.db, app.deps.secrets, parsed.sessionId, parsed.secret);
      if (ok) await revokeSession(app.db, parsed.sessionId);
    }
    clearRefreshCookie(reply);
    return reply.code(204).send(null);
  });

  u.get('/api/auth/me', {
    config: { access: 'customer' },
    schema: { tags: ['auth'], summary: 'Angemeldetes Konto', response: { 200: CurrentUser, 401: ApiError } },
  }, async (req) => {
    const user = await app.db.query.users.findFirst({ where: eq(users.id, req.user.id) });
    if (!user) throw unauthorized();
    return { id: user.id, customerId: String(user.customerNumber), username: user.username, email: user.email, role: user.role, mfaEnabled: user.totpEnabled };
  });

  r.post('/api/auth/password-reset/request', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Passwort zurücksetzen, Schritt 1: Code per E-Mail', body: ResetRequestInput, response: { 200: ResetRequestResult, ...errors } },
  }, async (req) => requestPasswordReset(deps, req.body, req.ip));

  r.post('/api/auth/password-reset/verify', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Passwort zurücksetzen, Schritt 2: Code prüfen', body: ResetVerifyInput, response: { 200: ResetVerifyResult, ...errors } },
  }, async (req) => verifyResetCode(deps, req.body, req.ip));

  r.post('/api/auth/password-reset/complete', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Passwort zurücksetzen, Schritt 3: neues Passwort', body: ResetCompleteInput, response: { 200: MessageResult, ...errors } },
  }, async (req) => completePasswordReset(deps, req.body));
}

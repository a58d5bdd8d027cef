/**
 * "Accounts and sessions" of docs/quality/security-and-reliability.md: one `it` per line of that
 * section (plus the revocation and refresh-rotation halves of the token line), each against the real
 * HTTP routes and the database state behind them.
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { SignJWT } from 'jose';
import * as OTPAuth from 'otpauth';
import { messages } from '@hp/contract';
import type { InjectOptions } from 'fastify';
import { describeEachDatabase, createUser, uniqueName, STRONG_PASSWORD } from '../../../test/harness.ts';
import { rowsOf } from '../../lib/rate-limit.ts';
import { signToken } from '../../lib/tokens.ts';
import { limits } from './auth.service.ts';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MINUTES } from './codes.ts';
import { REFRESH_COOKIE } from './sessions.ts';
import { DEVICE_COOKIE } from './known-devices.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Every test uses its own client addresses so that the per-IP limits of one test never leak into another.
let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const withoutRequestId = (body: { requestId?: string }) => ({ ...body, requestId: undefined });

describeEachDatabase('accounts and sessions (security)', (ctx) => {
  const call = (opts: InjectOptions & { ip?: string }) => {
    const { ip, ...rest } = opts;
    return ctx().app.inject({ ...rest, remoteAddress: ip ?? nextIp() });
  };
  const rows = async <T = Record<string, unknown>>(query: SQL) => rowsOf(await ctx().database.db.execute(query)) as T[];

  async function register(opts: { username?: string; email?: string; password?: string } = {}) {
    const username = opts.username ?? uniqueName('sec');
    const email = opts.email ?? `${username}@example.com`;
    const password = opts.password ?? STRONG_PASSWORD;
    const res = await call({ method: 'POST', url: '/api/auth/register', payload: { username, email, password, confirmPassword: password } });
    return { res, username, email, password, userId: res.statusCode === 201 ? (res.json().userId as string) : '' };
  }
  const verifyEmail = (userId: string, code: string, ip?: string) =>
    call({ method: 'POST', url: '/api/auth/verify-email', payload: { userId, code }, ip });
  const login = (username: string, password: string, ip?: string) =>
    call({ method: 'POST', url: '/api/auth/login', payload: { username, password }, ip });
  const me = (token: string) => call({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
  const requestReset = (email: string, ip?: string) => call({ method: 'POST', url: '/api/auth/password-reset/request', payload: { email }, ip });
  const verifyReset = (resetId: string, code: string, ip?: string) => call({ method: 'POST', url: '/api/auth/password-reset/verify', payload: { resetId, code }, ip });
  const completeReset = (resetToken: string, newPassword: string) =>
    call({ method: 'POST', url: '/api/auth/password-reset/complete', payload: { resetToken, newPassword } });
  const refresh = (cookie: string) => call({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: cookie } });
  /** Mails leave through the job queue (review item 15): deliver what is queued, then read the outbox. */
  const sentMail = async () => {
    await ctx().app.jobs.drain();
    return ctx().mail.sent;
  };
  const lastCode = async (email: string) => {
    await sentMail();
    const code = ctx().mail.lastCode(email);
    expect(code, `a code was mailed to ${email}`).toMatch(/^[A-Z0-9]{4}$/);
    return code!;
  };
  /** A syntactically valid code that is certainly not `code`. */
  const otherCode = (code: string, n = 0) => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const candidates = Array.from({ length: 10 }, (_, i) => alphabet[(i * 7 + n) % 36]!.repeat(4)).filter((c) => c !== code);
    return candidates[0]!;
  };
  const resetMailsTo = async (email: string) => (await sentMail()).filter((m) => m.to === email && m.subject === 'Passwort zurücksetzen').length;

  /** A verified account created through the API (registration + mailed code). */
  async function registeredAndVerified(password = STRONG_PASSWORD) {
    const reg = await register({ password });
    expect(reg.res.statusCode, reg.res.body).toBe(201);
    const verified = await verifyEmail(reg.userId, await lastCode(reg.email));
    expect(verified.statusCode, verified.body).toBe(200);
    return reg;
  }

  async function resetPassword(email: string, newPassword: string) {
    const requested = await requestReset(email);
    expect(requested.statusCode, requested.body).toBe(200);
    const verified = await verifyReset(requested.json().resetId, await lastCode(email));
    expect(verified.statusCode, verified.body).toBe(200);
    const { resetToken } = verified.json() as { resetToken: string };
    const completed = await completeReset(resetToken, newPassword);
    expect(completed.statusCode, completed.body).toBe(200);
    return { resetToken, resetId: requested.json().resetId as string };
  }

  async function enableMfa(token: string) {
    const setup = await call({ method: 'POST', url: '/api/account/mfa/setup', headers: bearer(token) });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json() as { secret: string };
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const enabled = await call({ method: 'POST', url: '/api/account/mfa/enable', headers: bearer(token), payload: { code: totp.generate({ timestamp: Date.now() }) } });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const { backupCodes } = enabled.json() as { backupCodes: string[] };
    expect(backupCodes).toHaveLength(10);
    return { secret, totp, backupCodes };
  }

  // ── Password ≥ 8 and ≤ 64 characters; long umlaut password not truncated; argon2id (6.2, 11.4.2) ──
  it('accepts passwords of 8..64 characters only, keeps a 64-character umlaut password whole and stores argon2id', async () => {
    for (const password of ['Ab1!xyz', `${'Ab1!'.repeat(16)}x`]) {
      const tooShortOrLong = await register({ password });
      expect(tooShortOrLong.res.statusCode, `${[...password].length} characters`).toBe(400);
      expect(tooShortOrLong.res.json().error).toMatchObject({ code: 'PASSWORT_TO_SHORT', message: messages.PASSWORT_TO_SHORT });
    }
    // The bounds themselves are allowed: exactly 8 characters registers.
    expect((await register({ password: 'Ab1!xyzw' })).res.statusCode).toBe(201);

    // 64 code points (well over 64 bytes in UTF-8), umlauts mixed with digits and special characters.
    const password = `${'ÄÖÜäöüß1!'.repeat(7)}Z`;
    expect([...password].length).toBe(64);
    expect(Buffer.byteLength(password)).toBeGreaterThan(100);
    const account = await registeredAndVerified(password);
    const ok = await login(account.username, password);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().token).toEqual(expect.any(String));
    // Decomposed umlauts (as some keyboards send them) are the same password.
    expect((await login(account.username, password.normalize('NFD'))).statusCode).toBe(200);
    // No truncation: the last character counts, and so does a missing one.
    for (const wrong of [`${password.slice(0, -1)}Y`, password.slice(0, -1), `${password.slice(0, 40)}`]) {
      const res = await login(account.username, wrong);
      expect(res.statusCode, `login with ${[...wrong].length} characters`).toBe(401);
      expect(res.json().error.code).toBe('INVALID_DATA');
    }

    const [row] = await rows<{ password_hash: string }>(sql`select password_hash from users where id = ${account.userId}`);
    expect(row!.password_hash.startsWith('$argon2id$')).toBe(true);
    expect(row!.password_hash).not.toContain(password);

    // The same bounds hold when the password is changed in the profile.
    const user = await createUser(ctx());
    const tooLong = await call({ method: 'POST', url: '/api/account/password', headers: user.auth, payload: { currentPassword: user.password, newPassword: `${'Äb!'.repeat(21)}xy` } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toMatchObject({ code: 'PASSWORT_TO_SHORT', message: messages.PASSWORT_TO_SHORT });
  });

  // ── 30 wrong logins from one address → 429 with Retry-After; the real owner still gets in (6.3.1) ──
  it('answers 429 with Retry-After after 30 failed logins from one address, while the owner still signs in from elsewhere', async () => {
    const owner = await createUser(ctx());
    // The owner's own browser holds the device cookie of an earlier login (the account-wide brake of
    // docs/decisions/026 lets it pass; this test is about the per-address limits).
    const device = (await login(owner.username, owner.password)).cookies.find((c) => c.name === DEVICE_COOKIE)!.value;
    const ownLogin = (ip: string) => call({ method: 'POST', url: '/api/auth/login', payload: { username: owner.username, password: owner.password }, ip, cookies: { [DEVICE_COOKIE]: device } });
    const attacker = nextIp();
    expect(limits.loginPerIp).toBe(30);
    // Below the per-account limit for the owner's name, the rest spread over other names.
    for (let i = 0; i < limits.loginPerIp; i++) {
      const name = i < limits.loginPerIpAndAccount - 1 ? owner.username : uniqueName('ghost');
      const res = await login(name, 'Falsch!Passwort9', attacker);
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
      expect(res.json().error.code).toBe('INVALID_DATA');
    }
    const blocked = await login(uniqueName('ghost'), 'Falsch!Passwort9', attacker);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatchObject({ code: 'RATE_LIMITED', message: messages.rateLimited });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${blocked.headers['retry-after']}`).toBe(true);
    // Even the right password from the blocked address is refused …
    expect((await ownLogin(attacker)).statusCode).toBe(429);
    // … but the owner elsewhere is not locked out.
    const elsewhere = await ownLogin(nextIp());
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);

    // Per address and account: 10 failures for one name from one address block that pair only (another
    // account, whose account-wide budget is untouched).
    const pairOwner = await createUser(ctx());
    const second = nextIp();
    for (let i = 0; i < limits.loginPerIpAndAccount; i++) expect((await login(pairOwner.email, 'Falsch!Passwort9', second)).statusCode).toBe(401);
    const pairBlocked = await login(pairOwner.username, pairOwner.password, second);
    expect(pairBlocked.statusCode).toBe(429);
    expect(Number(pairBlocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(pairOwner.username, pairOwner.password, nextIp())).statusCode).toBe(200);
  });

  // ── Login, registration and reset answer the same for known and unknown users (6.3.8) ──
  it('answers login, registration and reset requests the same for known and unknown accounts', async () => {
    const known = await createUser(ctx());

    // Login: wrong password for a known name vs. an unknown name.
    const wrongPassword = await login(known.username, 'Falsch!Passwort9');
    const unknownName = await login(uniqueName('nobody'), 'Falsch!Passwort9');
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownName.statusCode).toBe(401);
    expect(withoutRequestId(wrongPassword.json())).toEqual(withoutRequestId(unknownName.json()));
    expect(wrongPassword.json().error).toEqual({ code: 'INVALID_DATA', message: messages.invalidLogin });

    // Registration: a taken e-mail address looks like a fresh one (the owner gets a notice instead).
    const fresh = await register();
    const takenName = uniqueName('taken');
    const taken = await register({ username: takenName, email: known.email.toUpperCase() });
    expect(fresh.res.statusCode).toBe(201);
    expect(taken.res.statusCode).toBe(201);
    expect(Object.keys(taken.res.json()).sort()).toEqual(Object.keys(fresh.res.json()).sort());
    expect({ ...taken.res.json(), userId: 'x' }).toEqual({ ...fresh.res.json(), userId: 'x' });
    expect(taken.userId).toMatch(UUID);
    expect(fresh.userId).toMatch(UUID);
    expect(await rows(sql`select id from users where username = ${takenName}`)).toHaveLength(0);
    expect((await sentMail()).some((m) => m.to === known.email && m.subject.startsWith('Registrierungsversuch'))).toBe(true);
    // The follow-up calls the verification page makes must not tell the two apart either.
    const resendFresh = await call({ method: 'POST', url: '/api/auth/verify-email/resend', payload: { userId: fresh.userId } });
    const resendTaken = await call({ method: 'POST', url: '/api/auth/verify-email/resend', payload: { userId: taken.userId } });
    expect(resendTaken.statusCode, `resend: real ${resendFresh.statusCode} ${resendFresh.body} vs. fake ${resendTaken.body}`).toBe(resendFresh.statusCode);
    expect(resendTaken.json().error?.code).toBe(resendFresh.json().error?.code);
    const codeFresh = await verifyEmail(fresh.userId, 'ZZZZ');
    const codeTaken = await verifyEmail(taken.userId, 'ZZZZ');
    expect(codeFresh.statusCode).toBe(400);
    expect(withoutRequestId(codeTaken.json())).toEqual(withoutRequestId(codeFresh.json()));

    // Password reset: a reset id either way, and the same throttling afterwards.
    const unknownEmail = `${uniqueName('nobody')}@example.com`;
    const knownReset = await requestReset(known.email);
    const unknownReset = await requestReset(unknownEmail);
    expect(knownReset.statusCode).toBe(200);
    expect(unknownReset.statusCode).toBe(200);
    expect(Object.keys(knownReset.json())).toEqual(['resetId']);
    expect(Object.keys(unknownReset.json())).toEqual(['resetId']);
    expect(knownReset.json().resetId).toMatch(UUID);
    expect(unknownReset.json().resetId).toMatch(UUID);
    const againKnown = await requestReset(known.email);
    const againUnknown = await requestReset(unknownEmail);
    expect(againKnown.statusCode).toBe(400);
    expect(withoutRequestId(againUnknown.json())).toEqual(withoutRequestId(againKnown.json()));
    const wrongKnown = await verifyReset(knownReset.json().resetId, otherCode(await lastCode(known.email)));
    const wrongUnknown = await verifyReset(unknownReset.json().resetId, 'ZZZZ');
    expect(wrongKnown.statusCode).toBe(400);
    expect(withoutRequestId(wrongUnknown.json())).toEqual(withoutRequestId(wrongKnown.json()));
    expect((await sentMail()).filter((m) => m.to === unknownEmail)).toHaveLength(0);
  });

  // ── Codes: single use, bound to account and purpose, 5 tries, 10 minutes, one reset mail (6.5, 6.6, 2.4.1) ──
  it('enforces single-use, account- and purpose-bound codes with 5 tries, 10 minutes and one reset per 5 minutes', async () => {
    const { db } = ctx().database;

    // A used code fails (verification and reset).
    const used = await register();
    const usedCode = await lastCode(used.email);
    expect((await verifyEmail(used.userId, usedCode)).statusCode).toBe(200);
    const reused = await verifyEmail(used.userId, usedCode);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toEqual({ code: 'INVALID_CODE', message: messages.invalidVerificationCode });
    const resetUser = await createUser(ctx());
    const firstReset = await requestReset(resetUser.email);
    const resetCode = await lastCode(resetUser.email);
    expect((await verifyReset(firstReset.json().resetId, resetCode)).statusCode).toBe(200);
    const resetReused = await verifyReset(firstReset.json().resetId, resetCode);
    expect(resetReused.statusCode).toBe(400);
    expect(resetReused.json().error).toEqual({ code: 'INVALID_CODE', message: messages.invalidOrExpiredCode });

    // A verification code of account A fails for account B.
    const a = await register();
    const b = await register();
    const codeA = await lastCode(a.email);
    const codeB = await lastCode(b.email);
    expect(codeA, 'two random codes collided; rerun').not.toBe(codeB);
    expect((await verifyEmail(b.userId, codeA)).statusCode).toBe(400);
    expect(await rows(sql`select id from users where id = ${b.userId} and email_verified_at is not null`)).toHaveLength(0);
    expect((await verifyEmail(b.userId, codeB)).statusCode).toBe(200);
    expect((await verifyEmail(a.userId, codeA)).statusCode).toBe(200);

    // A reset code fails as a verification code, and a verification code fails as a reset code.
    const both = await register();
    const verificationCode = await lastCode(both.email);
    const reset = await requestReset(both.email);
    const resetCodeOfBoth = await lastCode(both.email);
    expect(resetCodeOfBoth, 'two random codes collided; rerun').not.toBe(verificationCode);
    expect((await verifyEmail(both.userId, resetCodeOfBoth)).statusCode).toBe(400);
    expect((await verifyReset(reset.json().resetId, verificationCode)).statusCode).toBe(400);
    expect((await verifyEmail(both.userId, verificationCode)).statusCode).toBe(200);
    expect((await verifyReset(reset.json().resetId, resetCodeOfBoth)).statusCode).toBe(200);

    // The 6th try fails even with the right code.
    const tries = await register();
    const right = await lastCode(tries.email);
    const ip = nextIp();
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
      const wrong = await verifyEmail(tries.userId, otherCode(right, i), ip);
      expect(wrong.statusCode, `wrong try ${i + 1}`).toBe(400);
      expect(wrong.json().error.code).toBe('INVALID_CODE');
    }
    const sixth = await verifyEmail(tries.userId, right, ip);
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().error.code).toBe('INVALID_CODE');
    expect(await rows(sql`select id from users where id = ${tries.userId} and email_verified_at is not null`)).toHaveLength(0);
    const [attempts] = await rows<{ attempts: number }>(sql`select attempts from one_time_codes where user_id = ${tries.userId} and purpose = 'verify_email'`);
    expect(Number(attempts!.attempts)).toBe(CODE_MAX_ATTEMPTS);
    // The same for reset codes.
    const resetTries = await createUser(ctx());
    const resetTriesId = (await requestReset(resetTries.email)).json().resetId as string;
    const rightReset = await lastCode(resetTries.email);
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) expect((await verifyReset(resetTriesId, otherCode(rightReset, i), ip)).statusCode).toBe(400);
    expect((await verifyReset(resetTriesId, rightReset, ip)).statusCode).toBe(400);

    // Valid for at most 10 minutes: issued with that lifetime, refused once it has passed, accepted just before.
    const [lifetime] = await rows<{ seconds: number }>(sql`select extract(epoch from expires_at - created_at)::float as seconds from one_time_codes where user_id = ${tries.userId}`);
    expect(Number(lifetime!.seconds)).toBeLessThanOrEqual(CODE_TTL_MINUTES * 60 + 1);
    const old = await register();
    const oldCode = await lastCode(old.email);
    await db.execute(sql`update one_time_codes set created_at = now() - interval '10 minutes 1 second', expires_at = now() - interval '1 second' where user_id = ${old.userId}`);
    expect((await verifyEmail(old.userId, oldCode)).statusCode).toBe(400);
    const almost = await register();
    await db.execute(sql`update one_time_codes set created_at = now() - interval '9 minutes', expires_at = now() + interval '1 minute' where user_id = ${almost.userId}`);
    expect((await verifyEmail(almost.userId, await lastCode(almost.email))).statusCode).toBe(200);
    const oldReset = await createUser(ctx());
    const oldResetId = (await requestReset(oldReset.email)).json().resetId as string;
    const oldResetCode = await lastCode(oldReset.email);
    await db.execute(sql`update one_time_codes set created_at = now() - interval '10 minutes 1 second', expires_at = now() - interval '1 second' where id = ${oldResetId}`);
    expect((await verifyReset(oldResetId, oldResetCode)).statusCode).toBe(400);

    // 20 parallel reset requests for one address → exactly one mail and one 200 (each from its own address).
    const target = await createUser(ctx());
    const parallel = await Promise.all(Array.from({ length: 20 }, () => requestReset(target.email)));
    const statuses = parallel.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200), statuses.join(',')).toHaveLength(1);
    for (const r of parallel.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toEqual({ code: 'RESET_TOO_EARLY', message: messages.resetTooEarly });
    }
    expect(await resetMailsTo(target.email)).toBe(1);
    expect(await rows(sql`select id from one_time_codes where user_id = ${target.user.id} and purpose = 'reset_password'`)).toHaveLength(1);

    // A second request within 5 minutes is refused with the spec's message; after 5 minutes it works again.
    const again = await createUser(ctx());
    expect((await requestReset(again.email)).statusCode).toBe(200);
    const firstCode = await lastCode(again.email);
    const tooEarly = await requestReset(again.email);
    expect(tooEarly.statusCode).toBe(400);
    expect(tooEarly.json().error.message).toBe('Es kann nur alle 5 Minuten ein Code angefordert werden.');
    expect(await resetMailsTo(again.email)).toBe(1);
    await db.execute(sql`update one_time_codes set created_at = now() - interval '5 minutes 1 second' where user_id = ${again.user.id}`);
    const later = await requestReset(again.email);
    expect(later.statusCode).toBe(200);
    expect(await resetMailsTo(again.email)).toBe(2);
    const secondCode = await lastCode(again.email);
    if (secondCode !== firstCode) expect((await verifyReset(later.json().resetId, firstCode)).statusCode).toBe(400);
    expect((await verifyReset(later.json().resetId, secondCode)).statusCode).toBe(200);

    // The full reset flow changes the password, ends the old sessions and the token works once.
    const flow = await createUser(ctx());
    const otherSession = await login(flow.username, flow.password);
    expect(otherSession.statusCode).toBe(200);
    expect((await me(flow.token)).statusCode).toBe(200);
    const newPassword = 'Neues!Passwort';
    const { resetToken } = await resetPassword(flow.email, newPassword);
    expect((await sentMail()).some((m) => m.to === flow.email && m.subject === 'Ihr Passwort wurde geändert')).toBe(true);
    expect((await me(flow.token)).statusCode).toBe(401);
    expect((await me(otherSession.json().token)).statusCode).toBe(401);
    expect((await refresh(flow.refreshToken)).statusCode).toBe(401);
    expect((await login(flow.username, flow.password)).statusCode).toBe(401);
    expect((await login(flow.username, newPassword)).statusCode).toBe(200);
    const twice = await completeReset(resetToken, 'Drittes!Passwort');
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toEqual({ code: 'RESET_FAILED', message: messages.resetFailed });
    expect((await login(flow.username, 'Drittes!Passwort')).statusCode).toBe(401);
    expect((await login(flow.username, newPassword)).statusCode).toBe(200);
  });

  // ── TOTP: no replay, not switched off by a reset, hashed backup codes ──
  it('accepts a TOTP code once, a backup code once, keeps MFA over a password reset and stores backup codes hashed', async () => {
    const user = await createUser(ctx());
    const { secret, totp, backupCodes } = await enableMfa(user.token);

    const startMfa = async (password = user.password) => {
      const res = await login(user.username, password);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { mfaRequired?: boolean; mfaToken?: string; token?: string };
      expect(body.mfaRequired).toBe(true);
      expect(body.token).toBeUndefined();
      expect(res.cookies.find((c) => c.name === REFRESH_COOKIE)).toBeUndefined();
      return body.mfaToken!;
    };
    const finishMfa = (mfaToken: string, payload: { code?: string; backupCode?: string }) =>
      call({ method: 'POST', url: '/api/auth/mfa', payload: { mfaToken, ...payload } });

    // The MFA-pending token is no access token.
    const pending = await startMfa();
    const pendingAsAccess = await me(pending);
    expect(pendingAsAccess.statusCode).toBe(401);

    // A code of the next time step works once; the same code again (and an older step) is refused.
    const now = Date.now();
    const nextStep = totp.generate({ timestamp: now + 30_000 });
    const first = await finishMfa(pending, { code: nextStep });
    expect(first.statusCode, first.body).toBe(200);
    expect((await me(first.json().token)).statusCode).toBe(200);
    const replay = await finishMfa(await startMfa(), { code: nextStep });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toEqual({ code: 'MFA_INVALID', message: messages.mfaWrongCode });
    const currentStep = totp.generate({ timestamp: now });
    if (currentStep !== nextStep) expect((await finishMfa(await startMfa(), { code: currentStep })).statusCode).toBe(400);

    // A backup code works once (with or without the dash), not twice.
    const backup = backupCodes[0]!;
    expect(backup).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
    const withBackup = await finishMfa(await startMfa(), { backupCode: backup });
    expect(withBackup.statusCode, withBackup.body).toBe(200);
    const backupAgain = await finishMfa(await startMfa(), { backupCode: backup.replace('-', '') });
    expect(backupAgain.statusCode).toBe(400);
    expect(backupAgain.json().error).toEqual({ code: 'MFA_INVALID', message: messages.mfaBackupCodeInvalid });
    expect((await finishMfa(await startMfa(), { backupCode: backupCodes[1]!.replace('-', '').toLowerCase() })).statusCode).toBe(200);

    // Stored hashed: no plaintext backup code and no plaintext TOTP secret in the database.
    const stored = await rows<{ code_hash: string; used_at: unknown }>(sql`select code_hash, used_at from backup_codes where user_id = ${user.user.id}`);
    expect(stored).toHaveLength(10);
    expect(stored.filter((r) => r.used_at !== null)).toHaveLength(2);
    const dump = JSON.stringify(await rows(sql`select * from backup_codes where user_id = ${user.user.id}`));
    for (const code of backupCodes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replace('-', ''));
    }
    for (const r of stored) expect(r.code_hash).toMatch(/^[0-9a-f]{64}$/);
    const userDump = JSON.stringify(await rows(sql`select * from users where id = ${user.user.id}`));
    expect(userDump).not.toContain(secret);

    // A password reset does not switch MFA off.
    await resetPassword(user.email, 'Neues!Passwort');
    const [row] = await rows<{ totp_enabled: boolean }>(sql`select totp_enabled from users where id = ${user.user.id}`);
    expect(row!.totp_enabled).toBe(true);
    const afterReset = await startMfa('Neues!Passwort');
    expect((await me(afterReset)).statusCode).toBe(401);
    const later = await finishMfa(afterReset, { backupCode: backupCodes[2]! });
    expect(later.statusCode, later.body).toBe(200);
  });

  // ── Forged tokens → 401; tokens of another purpose are no access tokens ──
  it('refuses forged, expired and other-purpose tokens with 401', async () => {
    const user = await createUser(ctx());
    const { jwtKey } = ctx().app.deps.secrets;
    const [header, payload, signature] = user.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: user.user.id, pur: 'access', role: 'customer' });
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const sid = claims.sid as string;
    const accessClaims = { sub: user.user.id, pur: 'access' as const, sid, customerId: String(user.user.customerNumber), role: 'customer' as const };

    // Controls: the real token and one freshly signed with the real key work, so each 401 below is the forgery's.
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await me(await signToken(jwtKey, accessClaims, 60))).statusCode).toBe(200);
    expect(JSON.parse(Buffer.from(header, 'base64url').toString('utf8'))).toMatchObject({ alg: 'HS256' });

    const otherKey = new Uint8Array(crypto.randomBytes(32));
    const forged: Record<string, string> = {
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'alg none, role owner': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, role: 'owner' })}.`,
      'wrong key': await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(otherKey),
      'right key, other algorithm (HS512)': await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(jwtKey),
      'flipped role claim': `${header}.${b64({ ...claims, role: 'owner' })}.${signature}`,
      'flipped subject': `${header}.${b64({ ...claims, sub: crypto.randomUUID() })}.${signature}`,
      'signature stripped': `${header}.${payload}.`,
      'garbage': 'not.a.jwt',
      'expired': await signToken(jwtKey, accessClaims, -10),
      'MFA-pending purpose': await signToken(jwtKey, { sub: user.user.id, pur: 'mfa' }, 300),
      'password-reset purpose': await signToken(jwtKey, { sub: user.user.id, pur: 'password_reset', cid: crypto.randomUUID() }, 300),
      // A token of another purpose that carries every access claim is still refused.
      'MFA purpose with access claims': await new SignJWT({ ...claims, pur: 'mfa' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(jwtKey),
      'no purpose': await new SignJWT({ ...claims, pur: undefined }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(jwtKey),
    };
    for (const [name, token] of Object.entries(forged)) {
      const res = await me(token);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(401);
      expect(res.json().error.code, name).toBe('UNAUTHORIZED');
      // A public route ignores the bad token rather than acting on it.
      const logout = await call({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
      expect(logout.statusCode, name).toBe(204);
    }
    // None of the logouts with forged tokens ended the real session.
    expect((await me(user.token)).statusCode).toBe(200);

    // A real MFA-pending token from the login is refused too.
    const mfaUser = await createUser(ctx());
    await enableMfa(mfaUser.token);
    const pending = await login(mfaUser.username, mfaUser.password);
    expect(pending.json().mfaRequired).toBe(true);
    expect((await me(pending.json().mfaToken)).statusCode).toBe(401);
    // And a real reset token.
    const requested = await requestReset(mfaUser.email);
    const verified = await verifyReset(requested.json().resetId, await lastCode(mfaUser.email));
    expect((await me(verified.json().resetToken)).statusCode).toBe(401);
  });

  // ── Logout, password change, role change, disabled account → the old token is refused at once ──
  it('revokes the access token at once on logout, password change, role change and disabling', async () => {
    const { db } = ctx().database;

    const loggedOut = await createUser(ctx());
    expect((await me(loggedOut.token)).statusCode).toBe(200);
    const logout = await call({ method: 'POST', url: '/api/auth/logout', headers: loggedOut.auth });
    expect(logout.statusCode).toBe(204);
    const afterLogout = await me(loggedOut.token);
    expect(afterLogout.statusCode).toBe(401);
    expect(afterLogout.json().error).toEqual({ code: 'SESSION_EXPIRED', message: messages.sessionExpired });
    expect((await refresh(loggedOut.refreshToken)).statusCode).toBe(401);

    const changer = await createUser(ctx());
    const otherDevice = await login(changer.username, changer.password);
    const newPassword = 'Anderes!Passwort';
    const changed = await call({ method: 'POST', url: '/api/account/password', headers: changer.auth, payload: { currentPassword: changer.password, newPassword } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(changer.token)).statusCode).toBe(401);
    expect((await me(otherDevice.json().token)).statusCode).toBe(401);
    expect((await me(changed.json().token)).statusCode).toBe(200);
    const newCookie = changed.cookies.find((c) => c.name === REFRESH_COOKIE);
    expect(newCookie?.httpOnly).toBe(true);
    expect((await refresh(newCookie!.value)).statusCode).toBe(200);
    expect((await login(changer.username, changer.password)).statusCode).toBe(401);
    expect((await login(changer.username, newPassword)).statusCode).toBe(200);
    // A wrong current password changes nothing.
    const wrongCurrent = await call({ method: 'POST', url: '/api/account/password', headers: bearer(changed.json().token), payload: { currentPassword: 'Falsch!Pw1', newPassword: 'Noch!Anderes' } });
    expect(wrongCurrent.statusCode).toBe(400);
    expect(wrongCurrent.json().error.code).toBe('CURRENT_PASSWORD_WRONG');
    expect((await me(changed.json().token)).statusCode).toBe(200);

    for (const role of ['employee', 'owner'] as const) {
      const promoted = await createUser(ctx());
      await db.execute(sql`update users set role = ${role} where id = ${promoted.user.id}`);
      expect((await me(promoted.token)).statusCode, `customer → ${role}`).toBe(401);
      // The refresh cookie of that session yields no new token either.
      const refreshed = await refresh(promoted.refreshToken);
      expect(refreshed.statusCode, `refresh after customer → ${role}: ${refreshed.body}`).toBe(401);
      const fresh = await login(promoted.username, promoted.password);
      const meAgain = await me(fresh.json().token);
      expect(meAgain.statusCode).toBe(200);
      expect(meAgain.json().role).toBe(role);
    }
    const demoted = await createUser(ctx(), { role: 'owner' });
    await db.execute(sql`update users set role = 'customer' where id = ${demoted.user.id}`);
    expect((await me(demoted.token)).statusCode).toBe(401);

    const disabled = await createUser(ctx());
    await db.execute(sql`update users set disabled_at = now() where id = ${disabled.user.id}`);
    expect((await me(disabled.token)).statusCode).toBe(401);
    expect((await refresh(disabled.refreshToken)).statusCode).toBe(401);
    const disabledLogin = await login(disabled.username, disabled.password);
    expect(disabledLogin.statusCode).toBe(403);
    expect(disabledLogin.json().error).toEqual({ code: 'ACCOUNT_DISABLED', message: messages.accountDisabled });
  });

  // ── Refresh rotation with reuse detection ──
  it('rotates the refresh cookie and revokes the session when an old cookie is replayed', async () => {
    const user = await createUser(ctx());
    const first = await refresh(user.refreshToken);
    expect(first.statusCode, first.body).toBe(200);
    const rotated = first.cookies.find((c) => c.name === REFRESH_COOKIE);
    expect(rotated).toBeDefined();
    expect(rotated!.value).not.toBe(user.refreshToken);
    expect(rotated!).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    const token = first.json().token as string;
    expect(token.split('.')).toHaveLength(3);
    expect((await me(token)).statusCode).toBe(200);

    const second = await refresh(rotated!.value);
    expect(second.statusCode).toBe(200);
    const newest = second.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;

    // Replaying the first (already rotated) cookie: refused, and the whole session is gone.
    const replay = await refresh(user.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('SESSION_EXPIRED');
    expect((await refresh(newest)).statusCode).toBe(401);
    expect((await me(second.json().token)).statusCode).toBe(401);
    const [session] = await rows<{ revoked_at: unknown }>(sql`select revoked_at from sessions where id = ${user.refreshToken.split('.')[0]!}`);
    expect(session!.revoked_at).not.toBeNull();

    // Without or with a malformed cookie there is no token.
    expect((await call({ method: 'POST', url: '/api/auth/refresh' })).statusCode).toBe(401);
    expect((await refresh('garbage')).statusCode).toBe(401);
    expect((await refresh(`${crypto.randomUUID()}.${'x'.repeat(43)}`)).statusCode).toBe(401);
  });
});

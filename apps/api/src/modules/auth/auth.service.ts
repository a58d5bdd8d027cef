import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { messages, type LoginInput, type RegisterInput } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { users, oneTimeCodes, backupCodes } from '../../db/schema/index.ts';
import { AppError, badRequest, tooManyRequests, unauthorized } from '../../http/errors.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { enforceLimit, hitCounter, refundAttempt, resetCounter, rowsOf } from '../../lib/rate-limit.ts';
import { decryptSecret, hmac } from '../../lib/secrets.ts';
import { MFA_TOKEN_TTL_SECONDS, RESET_TOKEN_TTL_SECONDS, signToken, verifyToken, VERIFY_LOGIN_TOKEN_TTL_SECONDS } from '../../lib/tokens.ts';
import { passwordChangedMail, registrationAttemptMail } from '../../drivers/mail/templates.ts';
import type { JobRunner } from '../../jobs/queue.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { enqueueCodeMail } from './code-mail.ts';
import { consumeCode, issueCode } from './codes.ts';
import { openSession, revokeAllSessions } from './sessions.ts';
import { checkAndRecord } from '../tax/vat-id.service.ts';
import { businessFields } from '../tax/vat-profile.ts';

type AuthDeps = Pick<Deps, 'db' | 'secrets'> & {
  log?: { error: (obj: object, msg: string) => void };
  /** Wakes the job runner after a mail was queued (tests drain the queue themselves). */
  jobs?: Pick<JobRunner, 'kick'>;
  /** For the VAT ID given at registration (issue 24); without it the ID waits for the profile's next save. */
  vatCheck?: Deps['vatCheck'];
  env?: Deps['env'];
};

export const RESEND_BLOCK_SECONDS = 60;
export const RESET_INTERVAL_SECONDS = 5 * 60;
const WINDOW = 15 * 60;
export const limits = {
  loginPerIp: 30,
  loginPerIpAndAccount: 10,
  /**
   * Account-wide brake (docs/decisions/026): failed logins of one account from browsers it never signed
   * in with, counted over all addresses in a day. The first ten pass; after that one attempt per slot,
   * the slot doubling from 2 s up to 15 min. Known devices pass.
   */
  loginPerAccountFree: 10,
  loginAccountMaxDelaySeconds: 15 * 60,
  registerPerIp: 20,
  codeTriesPerIp: 30,
  resetRequestsPerIp: 10,
  mfaTriesPerAccount: 10,
  /** Password change, e-mail change and MFA off ask for the current password: shared per account. */
  currentPasswordPerAccount: 10,
};

const emailKey = (deps: AuthDeps, email: string) => hmac(deps.secrets.hmacKey, `email:${email.trim().toLowerCase()}`);

/**
 * Mails go out through durable jobs (jobs/mail.ts, auth/code-mail.ts), never on the request path: the answer does
 * not wait for (or depend on) the mail server, and known and unknown addresses take the same time.
 */
const wakeMailer = (deps: AuthDeps) => deps.jobs?.kick();

// ── Registration and e-mail verification ────────────────────────────────────────────────────────

/**
 * Names a customer may not take, because other customers would read them as the company speaking:
 * role and mailbox names, and look-alikes of a staff member's user name. Compared without case, dots,
 * dashes, underscores and trailing digits ("Support_1" is "support").
 */
const RESERVED_NAMES = new Set([
  'admin', 'administrator', 'root', 'support', 'staff', 'team', 'service', 'kundenservice', 'help', 'hilfe', 'info',
  'kontakt', 'contact', 'billing', 'buchhaltung', 'rechnung', 'rechnungen', 'security', 'sicherheit', 'abuse',
  'postmaster', 'hostmaster', 'webmaster', 'noreply', 'system', 'sysadmin', 'api', 'moderator', 'owner', 'inhaber',
  'mitarbeiter', 'employee', 'musterhost',
]);
const RESERVED_PREFIXES = ['admin', 'support', 'staff', 'root', 'sysadmin', 'noreply'];
const comparableName = (name: string) => name.toLowerCase().replace(/[._-]/g, '').replace(/\d+$/, '');

async function isReservedName(deps: AuthDeps, username: string) {
  const name = comparableName(username);
  if (RESERVED_NAMES.has(name) || RESERVED_PREFIXES.some((p) => name.startsWith(p))) return true;
  const staff = await deps.db.select({ username: users.username }).from(users).where(sql`${users.role} in ('employee', 'owner') and ${users.deletedAt} is null`);
  return staff.some((s) => comparableName(s.username) === name);
}

/**
 * Creates a customer account and mails the verification code. A taken e-mail address is not
 * revealed: the answer looks the same and the address owner gets a notice instead.
 */
export async function registerAccount(deps: AuthDeps, input: RegisterInput, ip: string) {
  await enforceLimit(deps.db, { key: `register-ip:${ip}`, limit: limits.registerPerIp, windowSeconds: 3600 });
  const username = input.username.trim();
  const email = input.email.trim().toLowerCase();
  if (await isReservedName(deps, username)) throw badRequest('USERNAME_RESERVED', messages.usernameReserved);
  const taken = await deps.db.select({ id: users.id, username: users.username, email: users.email }).from(users)
    .where(or(sql`lower(${users.username}) = ${username.toLowerCase()}`, sql`lower(${users.email}) = ${email}`));
  if (taken.some((u) => u.username.toLowerCase() === username.toLowerCase())) {
    throw badRequest('DATA_EXISTS', messages.DATA_EXISTS);
  }
  const passwordHash = await hashPassword(input.password);
  if (taken.length) {
    await enqueueMail(deps.db, registrationAttemptMail(email));
    wakeMailer(deps);
    return { code: 'REGISTRATION_SUCCESSFUL' as const, message: messages.REGISTRATION_SUCCESSFUL, userId: await stubAccountId(deps) };
  }
  const country = input.country ?? 'DE';
  const business = businessFields({ business: false, vatId: null }, { country, business: input.business ?? false, vatId: input.vatId ?? '' });
  if ('error' in business) throw badRequest('VAT_ID_FORMAT', business.error);
  const inserted = await deps.db.insert(users).values({
    username, email, passwordHash, role: 'customer', country, companyName: input.companyName ?? '', ...business,
  }).onConflictDoNothing().returning({ id: users.id });
  const created = inserted[0];
  if (!created) {
    // Lost a race against a parallel registration of the same name or address.
    const again = await deps.db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
    if (again.length) throw badRequest('DATA_EXISTS', messages.DATA_EXISTS);
    return { code: 'REGISTRATION_SUCCESSFUL' as const, message: messages.REGISTRATION_SUCCESSFUL, userId: await stubAccountId(deps) };
  }
  const issued = await issueCode(deps.db, { userId: created.id, purpose: 'verify_email' });
  await enqueueCodeMail(deps.db, issued.id);
  wakeMailer(deps);
  // The VAT ID is checked in the background: the answer must not differ (in content or time) from the
  // one for an address that is already registered. The profile shows the result; a check that did
  // not happen is made on the profile's next save (needsRecheck).
  if (business.vatId && deps.vatCheck && deps.env) {
    const { vatCheck, env } = deps;
    const vatId = business.vatId;
    void checkAndRecord({ db: deps.db, env, vatCheck }, created.id, { country, vatId }) // no address yet to compare
      .catch((err: unknown) => deps.log?.error({ err }, 'VAT-ID check after registration failed'));
  }
  return { code: 'REGISTRATION_SUCCESSFUL' as const, message: messages.REGISTRATION_SUCCESSFUL, userId: created.id };
}

/**
 * The id handed out when no account was created. Its resend timer starts now, as a real account's
 * would with its first code, so the verification page cannot tell the two apart.
 */
async function stubAccountId(deps: AuthDeps) {
  const id = crypto.randomUUID();
  await hitCounter(deps.db, stubResendRule(id));
  return id;
}
const stubResendRule = (userId: string) => ({ key: `resend-stub:${userId}`, limit: 1, windowSeconds: RESEND_BLOCK_SECONDS });

const codeIpRule = (ip: string) => ({ key: `code-ip:${ip}`, limit: limits.codeTriesPerIp, windowSeconds: WINDOW });

/**
 * Confirms the address with the mailed code. When the verification was asked for by a login (its
 * `loginToken`: the password was right moments ago), the code completes that login: the answer carries
 * a session, so the user continues where they were (a checkout, the account page) instead of signing
 * in again. Without a valid token of the same account only the address is confirmed.
 */
export async function verifyEmail(deps: AuthDeps, input: { userId: string; code: string; loginToken?: string }, ip: string, userAgent = '') {
  const ipRule = codeIpRule(ip);
  await enforceLimit(deps.db, ipRule);
  const ok = await consumeCode(deps.db, deps.secrets.hmacKey, { userId: input.userId, purpose: 'verify_email' }, input.code);
  if (!ok) throw badRequest('INVALID_CODE', messages.invalidVerificationCode);
  // Only wrong codes use up the address's budget.
  await refundAttempt(deps.db, ipRule);
  await deps.db.update(users).set({ emailVerifiedAt: new Date() }).where(and(eq(users.id, ok.userId), isNull(users.emailVerifiedAt)));
  const claims = input.loginToken ? await verifyToken(deps.secrets.jwtKey, input.loginToken, 'verify_login') : null;
  const user = claims?.sub === ok.userId ? await deps.db.query.users.findFirst({ where: eq(users.id, ok.userId) }) : undefined;
  // Two-factor accounts still give their second factor (they sign in as usual).
  if (!user || user.disabledAt || user.deletedAt || user.totpEnabled) return { message: messages.emailVerified, session: null };
  return { message: messages.emailVerifiedSignedIn, session: await finishLogin(deps, user, userAgent) };
}

/** Sends a new code unless one was sent in the last 60 s. Unknown or verified accounts get the same answer. */
export async function resendVerification(deps: AuthDeps, input: { userId: string }, ip: string) {
  await enforceLimit(deps.db, { key: `resend-ip:${ip}`, limit: limits.codeTriesPerIp, windowSeconds: WINDOW });
  const user = await deps.db.query.users.findFirst({ where: eq(users.id, input.userId) });
  if (!user || user.emailVerifiedAt) {
    // Same answers as for a real, unverified account: blocked for 60 s after each (pretended) code.
    const stub = await hitCounter(deps.db, stubResendRule(input.userId));
    if (stub.count > 1) throw tooManyRequests(Math.ceil(stub.retryAfter), messages.resendTooEarly, 'RESEND_TOO_EARLY');
    return { retryAfterSeconds: RESEND_BLOCK_SECONDS };
  }
  const wait = await secondsUntilResend(deps, user.id);
  if (wait > 0) throw tooManyRequests(wait, messages.resendTooEarly, 'RESEND_TOO_EARLY');
  const issued = await issueCode(deps.db, { userId: user.id, purpose: 'verify_email' });
  await enqueueCodeMail(deps.db, issued.id);
  wakeMailer(deps);
  return { retryAfterSeconds: RESEND_BLOCK_SECONDS };
}

async function secondsUntilResend(deps: AuthDeps, userId: string) {
  const [last] = await deps.db.select({ createdAt: oneTimeCodes.createdAt }).from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, 'verify_email')))
    .orderBy(desc(oneTimeCodes.createdAt)).limit(1);
  if (!last) return 0;
  return Math.ceil(RESEND_BLOCK_SECONDS - (Date.now() - last.createdAt.getTime()) / 1000);
}

// ── Login, MFA, sessions ────────────────────────────────────────────────────────────────────────

const ACCOUNT_WINDOW = 24 * 3600;

/**
 * The account-wide brake: counts the attempt (count first, check second, like every limit), and past
 * the free attempts lets one attempt through per slot of growing length. A refused attempt gives its
 * count back, so an attacker's rejected flood does not lengthen the slots further. Returns the counted
 * rule, to be refunded when the password was right.
 */
async function brakeAccount(deps: AuthDeps, accountKey: string) {
  const rule = { key: `login-account:${accountKey}`, limit: Number.MAX_SAFE_INTEGER, windowSeconds: ACCOUNT_WINDOW };
  const counted = await hitCounter(deps.db, rule);
  const over = counted.count - limits.loginPerAccountFree;
  if (over > 0) {
    const delay = Math.min(2 ** over, limits.loginAccountMaxDelaySeconds);
    const slot = await hitCounter(deps.db, { key: `login-account-slot:${accountKey}`, limit: 1, windowSeconds: delay });
    if (slot.count > 1) {
      await refundAttempt(deps.db, rule);
      throw tooManyRequests(slot.retryAfter);
    }
  }
  return rule;
}

/**
 * `knownAccounts`: the accounts the browser's device cookie names (known-devices.ts); such a browser
 * skips the account-wide brake.
 */
export async function login(deps: AuthDeps, input: LoginInput, ip: string, userAgent: string, knownAccounts: readonly string[] = []) {
  const name = input.username.trim().toLowerCase();
  const ipRule = { key: `login-ip:${ip}`, limit: limits.loginPerIp, windowSeconds: WINDOW };
  // Count first, check second (lib/rate-limit.ts): a parallel burst runs at most `limit` password checks.
  await enforceLimit(deps.db, ipRule);

  const found = await deps.db.query.users.findFirst({ where: or(sql`lower(${users.username}) = ${name}`, sql`lower(${users.email}) = ${name}`) });
  // A deleted (anonymised) account answers exactly like an unknown one (docs/decisions/018).
  const user = found?.deletedAt ? undefined : found;
  // Keyed by the account, not by the name typed: user name and e-mail address share one budget.
  const accountKey = hmac(deps.secrets.hmacKey, user ? `user:${user.id}` : name);
  const accountRule = { key: `login-ip-account:${ip}:${accountKey}`, limit: limits.loginPerIpAndAccount, windowSeconds: WINDOW };
  await enforceLimit(deps.db, accountRule);
  // Unknown names are braked the same way, so the brake does not tell which names exist.
  const accountWide = user && knownAccounts.includes(user.id) ? undefined : await brakeAccount(deps, accountKey);
  const valid = user ? await verifyPassword(user.passwordHash, input.password) : (await burnPasswordCheck(input.password), false);
  if (!user || !valid) throw unauthorized(messages.invalidLogin, 'INVALID_DATA');
  // Only failures use up the budgets: the right password gives its attempt back (an office behind one
  // address) and clears the account's failures from this address. The account-wide count only gets
  // this attempt back: the owner's success must not hand an attacker ten new free guesses.
  await refundAttempt(deps.db, ipRule);
  await resetCounter(deps.db, accountRule.key);
  if (accountWide) await refundAttempt(deps.db, accountWide);
  if (user.disabledAt) throw new AppError(403, 'ACCOUNT_DISABLED', messages.accountDisabled);
  if (!user.emailVerifiedAt) {
    if ((await secondsUntilResend(deps, user.id)) <= 0) {
      const issued = await issueCode(deps.db, { userId: user.id, purpose: 'verify_email' });
      await enqueueCodeMail(deps.db, issued.id);
      wakeMailer(deps);
    }
    const loginToken = await signToken(deps.secrets.jwtKey, { sub: user.id, pur: 'verify_login' }, VERIFY_LOGIN_TOKEN_TTL_SECONDS);
    throw new AppError(403, 'EMAIL_NOT_VERIFIED', messages.emailNotVerified, { userId: user.id, loginToken });
  }
  if (user.totpEnabled) {
    return { mfaRequired: true as const, mfaToken: await signToken(deps.secrets.jwtKey, { sub: user.id, pur: 'mfa' }, MFA_TOKEN_TTL_SECONDS) };
  }
  return finishLogin(deps, user, userAgent);
}

async function finishLogin(deps: AuthDeps, user: typeof users.$inferSelect, userAgent: string) {
  await deps.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id));
  return { ...(await openSession(deps.db, deps.secrets, user, userAgent)), userId: user.id };
}

export function totpFor(secretBase32: string, label: string) {
  return new OTPAuth.TOTP({ issuer: 'Musterhost', label, algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secretBase32) });
}

/**
 * Accepts a TOTP code of the previous, current or next 30-s step, and only once: the step is stored
 * and a code of the same or an earlier step is refused afterwards.
 */
export async function acceptTotp(deps: Pick<Deps, 'db' | 'secrets'>, user: { id: string; username: string }, sealedSecret: string, code: string) {
  const totp = totpFor(decryptSecret(deps.secrets.encryptionKey, sealedSecret), user.username);
  const delta = totp.validate({ token: code, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(Date.now() / 1000 / 30) + delta;
  const updated = rowsOf(await deps.db.execute(sql`
    update users set totp_last_step = ${step} where id = ${user.id} and (totp_last_step is null or totp_last_step < ${step}) returning id`));
  return updated.length === 1;
}

/** TOTP and backup-code tries per account, shared by the login and switching MFA off. */
export const mfaRule = (userId: string) => ({ key: `mfa-account:${userId}`, limit: limits.mfaTriesPerAccount, windowSeconds: WINDOW });

/**
 * Checks the current password before a sensitive change (password, e-mail address, MFA off). Limited
 * per account like the login, counted before the check: a stolen access token is no licence to guess
 * the password. The right password clears the failures.
 */
export async function checkCurrentPassword(deps: Pick<Deps, 'db'>, user: { id: string; passwordHash: string }, password: string) {
  const rule = { key: `current-password-account:${user.id}`, limit: limits.currentPasswordPerAccount, windowSeconds: WINDOW };
  await enforceLimit(deps.db, rule);
  if (!(await verifyPassword(user.passwordHash, password))) throw badRequest('CURRENT_PASSWORD_WRONG', messages.currentPasswordWrong);
  await resetCounter(deps.db, rule.key);
}

export async function completeMfaLogin(deps: AuthDeps, input: { mfaToken: string; code?: string; backupCode?: string }, userAgent: string) {
  const claims = await verifyToken(deps.secrets.jwtKey, input.mfaToken, 'mfa');
  if (!claims) throw unauthorized(messages.sessionExpired, 'MFA_TOKEN_INVALID');
  const rule = mfaRule(claims.sub);
  await enforceLimit(deps.db, rule);
  const user = await deps.db.query.users.findFirst({ where: eq(users.id, claims.sub) });
  if (!user || !user.totpEnabled || !user.totpSecret || user.disabledAt) throw unauthorized(messages.sessionExpired, 'MFA_TOKEN_INVALID');

  let ok = false;
  if (input.code) {
    ok = await acceptTotp(deps, user, user.totpSecret, input.code);
  } else if (input.backupCode) {
    const used = await deps.db.update(backupCodes).set({ usedAt: new Date() })
      .where(and(eq(backupCodes.userId, user.id), eq(backupCodes.codeHash, hmac(deps.secrets.hmacKey, `backup:${input.backupCode}`)), isNull(backupCodes.usedAt)))
      .returning({ id: backupCodes.id });
    ok = used.length === 1;
  }
  if (!ok) throw badRequest('MFA_INVALID', input.backupCode ? messages.mfaBackupCodeInvalid : messages.mfaWrongCode);
  await resetCounter(deps.db, rule.key);
  return finishLogin(deps, user, userAgent);
}

// ── Password reset ──────────────────────────────────────────────────────────────────────────────

/**
 * Step 1. Answers the same for known and unknown addresses (a reset id either way) and allows one
 * request per address per 5 minutes, decided under a per-address lock so parallel requests send one mail.
 */
export async function requestPasswordReset(deps: AuthDeps, input: { email: string }, ip: string) {
  await enforceLimit(deps.db, { key: `reset-ip:${ip}`, limit: limits.resetRequestsPerIp, windowSeconds: WINDOW });
  const key = emailKey(deps, input.email);
  const outcome = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    const recent = await tx.select({ id: oneTimeCodes.id }).from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.emailKey, key), eq(oneTimeCodes.purpose, 'reset_password'), gt(oneTimeCodes.createdAt, new Date(Date.now() - RESET_INTERVAL_SECONDS * 1000))))
      .limit(1);
    if (recent.length) return null;
    const user = await tx.query.users.findFirst({ where: sql`lower(${users.email}) = ${input.email.trim().toLowerCase()}` });
    const issued = await issueCode(tx, { userId: user && !user.disabledAt ? user.id : null, purpose: 'reset_password', emailKey: key });
    // Queued for unknown addresses too (the job finds no account and sends nothing): the same work.
    await enqueueCodeMail(tx, issued.id);
    return { resetId: issued.id };
  });
  if (!outcome) throw badRequest('RESET_TOO_EARLY', messages.resetTooEarly);
  wakeMailer(deps);
  return { resetId: outcome.resetId };
}

/**
 * Step 2. A correct code yields a short-lived, single-use reset token for step 3. The code is named by
 * the resetId of step 1 or by the e-mail address (the newest open code of that address), so a user who
 * left the page can still use the mailed code. The tries are counted per code either way.
 */
export async function verifyResetCode(deps: AuthDeps, input: { resetId?: string; email?: string; code: string }, ip: string) {
  const ipRule = codeIpRule(ip);
  await enforceLimit(deps.db, ipRule);
  const target = input.resetId ? { id: input.resetId } : { emailKey: emailKey(deps, input.email ?? '') };
  const ok = await consumeCode(deps.db, deps.secrets.hmacKey, { ...target, purpose: 'reset_password' }, input.code);
  if (!ok) throw badRequest('INVALID_CODE', messages.invalidOrExpiredCode);
  await refundAttempt(deps.db, ipRule);
  return { resetToken: await signToken(deps.secrets.jwtKey, { sub: ok.userId, pur: 'password_reset', cid: ok.id }, RESET_TOKEN_TTL_SECONDS) };
}

/** Step 3. Sets the new password and ends every session. MFA stays as it was. */
export async function completePasswordReset(deps: AuthDeps, input: { resetToken: string; newPassword: string }) {
  const claims = await verifyToken(deps.secrets.jwtKey, input.resetToken, 'password_reset');
  if (!claims || typeof claims.cid !== 'string') throw badRequest('RESET_FAILED', messages.resetFailed);
  const spent = await deps.db.update(oneTimeCodes).set({ consumedAt: new Date() })
    .where(and(eq(oneTimeCodes.id, claims.cid), eq(oneTimeCodes.userId, claims.sub), isNull(oneTimeCodes.consumedAt), sql`${oneTimeCodes.usedAt} is not null`))
    .returning({ id: oneTimeCodes.id });
  if (!spent.length) throw badRequest('RESET_FAILED', messages.resetFailed);
  const passwordHash = await hashPassword(input.newPassword);
  const [user] = await deps.db.update(users).set({ passwordHash }).where(eq(users.id, claims.sub)).returning({ email: users.email, username: users.username });
  if (!user) throw badRequest('RESET_FAILED', messages.resetFailed);
  await revokeAllSessions(deps.db, claims.sub);
  await enqueueMail(deps.db, passwordChangedMail(user.email, user.username));
  wakeMailer(deps);
  return { message: messages.passwordChanged };
}

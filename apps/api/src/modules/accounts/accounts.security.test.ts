/**
 * Account settings after the outside review (issue 8): MFA enrolment ends the other sessions (18b),
 * profile text without control characters (18c) and the confirmed e-mail change (11).
 */
import { expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { messages } from '@hp/contract';
import { describeEachDatabase, createUser, uniqueName, STRONG_PASSWORD } from '../../../test/harness.ts';
import { rowsOf } from '../../lib/rate-limit.ts';
import { CODE_MAX_ATTEMPTS } from '../auth/codes.ts';
import { REFRESH_COOKIE } from '../auth/sessions.ts';
import { EMAIL_CHANGES_PER_HOUR } from './accounts.service.ts';

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.88.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describeEachDatabase('account settings (security)', (ctx) => {
  const call = (opts: InjectOptions & { ip?: string }) => {
    const { ip, ...rest } = opts;
    return ctx().app.inject({ ...rest, remoteAddress: ip ?? nextIp() });
  };
  const me = (token: string) => call({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
  const login = (username: string, password: string) => call({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

  it('ends the other sessions when MFA is switched on, and keeps the current one', async () => {
    const user = await createUser(ctx());
    const otherDevice = await login(user.username, user.password);
    expect(otherDevice.statusCode, otherDevice.body).toBe(200);
    const otherToken = otherDevice.json().token as string;
    const otherCookie = otherDevice.cookies.find((c) => c.name === REFRESH_COOKIE)!.value;
    expect((await me(otherToken)).statusCode).toBe(200);

    const setup = await call({ method: 'POST', url: '/api/account/mfa/setup', headers: user.auth });
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.json().secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const enabled = await call({ method: 'POST', url: '/api/account/mfa/enable', headers: user.auth, payload: { code: totp.generate() } });
    expect(enabled.statusCode, enabled.body).toBe(200);

    expect((await me(user.token)).statusCode).toBe(200);
    expect((await me(otherToken)).statusCode).toBe(401);
    expect((await call({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: otherCookie } })).statusCode).toBe(401);
    expect((await call({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: user.refreshToken } })).statusCode).toBe(200);
  });

  it('refuses bidi controls and invisible characters in the profile and the registration with a German message', async () => {
    const user = await createUser(ctx());
    const profile = { phone: '', street: 'Hauptstraße 1', zipCode: '12345', city: 'Köln', country: 'DE', companyName: 'Müller GmbH', industry: '' };
    const saved = await call({ method: 'PUT', url: '/api/account/profile', headers: user.auth, payload: profile });
    expect(saved.statusCode, saved.body).toBe(200);
    for (const [field, value] of [['companyName', 'ACME \u202Egnp.exe'], ['street', 'Haupt\u2066straße 1'], ['city', 'K\u200Böln'], ['industry', 'IT\u0007']] as const) {
      const res = await call({ method: 'PUT', url: '/api/account/profile', headers: user.auth, payload: { ...profile, [field]: value } });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error).toMatchObject({ message: messages.controlCharacters });
      expect(res.json().error.message).toBe('Bitte verwenden Sie keine Steuerzeichen.');
    }
    const stored = await call({ method: 'GET', url: '/api/account/profile', headers: user.auth });
    expect(stored.json()).toMatchObject({ street: 'Hauptstraße 1', city: 'Köln', companyName: 'Müller GmbH', industry: '' });

    const username = uniqueName('bidi');
    const registration = await call({ method: 'POST', url: '/api/auth/register', payload: { username: `${username}\u202E`, email: `${username}@example.com`, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD } });
    expect(registration.statusCode).toBe(400);
    expect(registration.json().error.message).toBe(messages.controlCharacters);
  });

  // ── E-mail change (review item 11) ──
  const requestChange = (auth: Record<string, string>, newEmail: string, currentPassword: string) =>
    call({ method: 'POST', url: '/api/account/email', headers: auth, payload: { newEmail, currentPassword } });
  const confirmChange = (auth: Record<string, string>, code: string) => call({ method: 'POST', url: '/api/account/email/confirm', headers: auth, payload: { code } });
  const mailsTo = async (email: string) => {
    await ctx().app.jobs.drain();
    return ctx().mail.sent.filter((m) => m.to === email);
  };
  const storedEmail = async (userId: string) => (rowsOf(await ctx().database.db.execute(sql`select email from users where id = ${userId}`))[0] as { email: string }).email;
  const withoutRequestId = (body: { requestId?: string }) => ({ ...body, requestId: undefined });

  it('changes the e-mail address only with the current password and the code sent to the new address, and tells the old address', async () => {
    const user = await createUser(ctx());
    const newEmail = `${uniqueName('neu')}@example.com`;

    // An access token alone no longer moves the account: the profile refuses the field …
    const viaProfile = await call({ method: 'PUT', url: '/api/account/profile', headers: user.auth, payload: { email: newEmail, phone: '', street: '', zipCode: '', city: '', country: 'DE', companyName: '', industry: '' } });
    expect(viaProfile.statusCode).toBe(400);
    // … and the change needs the current password.
    const wrongPassword = await requestChange(user.auth, newEmail, 'Falsch!Passwort9');
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().error).toEqual({ code: 'CURRENT_PASSWORD_WRONG', message: messages.currentPasswordWrong });
    expect(await mailsTo(newEmail)).toHaveLength(0);

    const requested = await requestChange(user.auth, newEmail.toUpperCase(), user.password);
    expect(requested.statusCode, requested.body).toBe(200);
    expect(requested.json()).toEqual({ message: 'Wir haben einen Bestätigungscode an die neue Adresse gesendet.' });
    // Nothing changes before the code is confirmed.
    expect(await storedEmail(user.user.id)).toBe(user.email);
    const codeMails = await mailsTo(newEmail);
    expect(codeMails).toHaveLength(1);
    expect(codeMails[0]!.subject).toBe('Bestätigen Sie Ihre neue E-Mail-Adresse');
    expect(await mailsTo(user.email)).toHaveLength(0);
    const code = ctx().mail.lastCode(newEmail)!;
    expect(code).toMatch(/^[A-Z0-9]{4}$/);
    const [row] = rowsOf(await ctx().database.db.execute(sql`select code_hash from one_time_codes where user_id = ${user.user.id} and purpose = 'change_email'`));
    expect(row!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(String(row!.code_hash)).not.toContain(code);

    const wrong = await confirmChange(user.auth, code === 'ZZZZ' ? 'YYYY' : 'ZZZZ');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toEqual({ code: 'INVALID_CODE', message: messages.invalidOrExpiredCode });
    expect(await storedEmail(user.user.id)).toBe(user.email);

    const confirmed = await confirmChange(user.auth, code.toLowerCase());
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ email: newEmail });
    expect(await storedEmail(user.user.id)).toBe(newEmail);
    // Single use.
    expect((await confirmChange(user.auth, code)).statusCode).toBe(400);

    // The old address is told, with the way to report it.
    const notices = await mailsTo(user.email);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.subject).toBe('Die E-Mail-Adresse Ihres Kontos wurde geändert');
    expect(notices[0]!.text).toContain(newEmail);
    expect(notices[0]!.text).toContain(`Falls Sie das nicht waren, ändern Sie Ihr Passwort und wenden Sie sich an den Support: ${ctx().app.deps.env.company.email}`);

    // The new address signs in; a reset for the old one reaches nobody.
    expect((await call({ method: 'POST', url: '/api/auth/login', payload: { username: newEmail, password: user.password } })).statusCode).toBe(200);
    expect((await call({ method: 'POST', url: '/api/auth/password-reset/request', payload: { email: user.email } })).statusCode).toBe(200);
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('answers a change to a registered address exactly like one to a free address, sends nothing there and never confirms it', async () => {
    const owner = await createUser(ctx());
    const attacker = await createUser(ctx());
    const control = await createUser(ctx());
    const taken = await requestChange(attacker.auth, owner.email.toUpperCase(), attacker.password);
    const free = await requestChange(control.auth, `${uniqueName('frei')}@example.com`, control.password);
    expect(taken.statusCode).toBe(200);
    expect(free.statusCode).toBe(200);
    expect(withoutRequestId(taken.json())).toEqual(withoutRequestId(free.json()));
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(free.headers).sort());

    expect(await mailsTo(owner.email)).toHaveLength(0);
    const [row] = rowsOf(await ctx().database.db.execute(sql`select code_hash, new_email from one_time_codes where user_id = ${attacker.user.id} and purpose = 'change_email'`));
    expect(row).toEqual({ code_hash: null, new_email: owner.email });
    // No code exists, so every try fails until the tries are used up.
    for (let i = 0; i < CODE_MAX_ATTEMPTS + 1; i++) {
      const res = await confirmChange(attacker.auth, ['AAAA', 'BBBB', 'CCCC', 'DDDD', 'EEEE', 'FFFF'][i]!);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('INVALID_CODE');
    }
    expect(await storedEmail(attacker.user.id)).toBe(attacker.email);
    expect(await storedEmail(owner.user.id)).toBe(owner.email);
  });

  it('binds the change code to its purpose and account, voids it after 5 wrong tries and limits change requests', async () => {
    const user = await createUser(ctx());
    const other = await createUser(ctx());
    const newEmail = `${uniqueName('neu')}@example.com`;
    expect((await requestChange(user.auth, newEmail, user.password)).statusCode).toBe(200);
    await mailsTo(newEmail);
    const code = ctx().mail.lastCode(newEmail)!;
    // Another account cannot use it, and it is no e-mail verification code.
    expect((await confirmChange(other.auth, code)).statusCode).toBe(400);
    expect((await call({ method: 'POST', url: '/api/auth/verify-email', payload: { userId: user.user.id, code } })).statusCode).toBe(400);
    // The 6th try fails even with the right code.
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) expect((await confirmChange(user.auth, ['AAAA', 'BBBB', 'CCCC', 'DDDD', 'EEEE'].filter((c) => c !== code)[i] ?? 'GGGG')).statusCode).toBe(400);
    expect((await confirmChange(user.auth, code)).statusCode).toBe(400);
    expect(await storedEmail(user.user.id)).toBe(user.email);
    // Changing to the current address is pointless and says so.
    const same = await requestChange(user.auth, user.email, user.password);
    expect(same.json().error).toEqual({ code: 'EMAIL_UNCHANGED', message: messages.emailUnchanged });

    // Requests are limited per account (with the right password, too).
    const limited = await createUser(ctx());
    const answers: number[] = [];
    for (let i = 0; i < EMAIL_CHANGES_PER_HOUR + 1; i++) answers.push((await requestChange(limited.auth, `${uniqueName('x')}@example.com`, limited.password)).statusCode);
    expect(answers).toEqual([...Array(EMAIL_CHANGES_PER_HOUR).fill(200), 429]);
  });
});

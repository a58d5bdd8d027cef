/**
 * Review items 10 and 14: every failure limit is atomic (count first, check second). A burst of 200
 * parallel requests runs at most the limit's number of password, TOTP or code checks, on PGlite and on
 * PostgreSQL. Password checks are counted at the argon2 verification, TOTP checks at the validation.
 */
import { expect, it, vi } from 'vitest';
import * as OTPAuth from 'otpauth';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { messages } from '@hp/contract';
import { describeEachDatabase, createUser, uniqueName, STRONG_PASSWORD } from '../../../test/harness.ts';
import { limits } from './auth.service.ts';

const counted = vi.hoisted(() => ({ passwordChecks: 0 }));
vi.mock('../../lib/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../lib/passwords.ts')>();
  return {
    ...real,
    verifyPassword: async (stored: string, password: string) => {
      counted.passwordChecks++;
      return real.verifyPassword(stored, password);
    },
  };
});

const BURST = 200;
let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.99.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};
const statuses = (responses: LightMyRequestResponse[]) => responses.map((r) => r.statusCode);
const notLimited = (responses: LightMyRequestResponse[]) => responses.filter((r) => r.statusCode !== 429);

describeEachDatabase('failure limits under parallel bursts (security)', (ctx) => {
  const call = (opts: InjectOptions & { ip?: string }) => {
    const { ip, ...rest } = opts;
    return ctx().app.inject({ ...rest, remoteAddress: ip ?? nextIp() });
  };
  const burst = (make: (i: number) => InjectOptions & { ip?: string }) => Promise.all(Array.from({ length: BURST }, (_, i) => call(make(i))));
  const expectRateLimited = (responses: LightMyRequestResponse[]) => {
    for (const r of responses.filter((x) => x.statusCode === 429)) {
      expect(r.json().error).toMatchObject({ code: 'RATE_LIMITED', message: messages.rateLimited });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
  };

  async function enableMfa(token: string) {
    const setup = await call({ method: 'POST', url: '/api/account/mfa/setup', headers: { authorization: `Bearer ${token}` } });
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.json().secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const enabled = await call({ method: 'POST', url: '/api/account/mfa/enable', headers: { authorization: `Bearer ${token}` }, payload: { code: totp.generate() } });
    expect(enabled.statusCode, enabled.body).toBe(200);
    return totp;
  }
  /** Six digits that are no valid code of the previous, current or next step. */
  const wrongTotp = (totp: OTPAuth.TOTP) => {
    const valid = new Set([-30_000, 0, 30_000].map((d) => totp.generate({ timestamp: Date.now() + d })));
    return ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
  };

  it('runs at most 10 password checks for 200 parallel wrong logins to one account from one address, and the owner still signs in elsewhere', async () => {
    const owner = await createUser(ctx());
    const attacker = nextIp();
    counted.passwordChecks = 0;
    const responses = await burst(() => ({ method: 'POST', url: '/api/auth/login', payload: { username: owner.username, password: 'Falsch!Passwort9' }, ip: attacker }));
    expect(counted.passwordChecks, statuses(responses).join(',')).toBeLessThanOrEqual(limits.loginPerIpAndAccount);
    expect(counted.passwordChecks).toBeGreaterThan(0);
    const answered = notLimited(responses);
    expect(answered.length).toBe(counted.passwordChecks);
    for (const r of answered) expect(r.json().error.code).toBe('INVALID_DATA');
    expectRateLimited(responses);

    // The blocked address stays blocked even with the right password; the owner elsewhere gets in.
    expect((await call({ method: 'POST', url: '/api/auth/login', payload: { username: owner.username, password: owner.password }, ip: attacker })).statusCode).toBe(429);
    const elsewhere = await call({ method: 'POST', url: '/api/auth/login', payload: { username: owner.username, password: owner.password } });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });

  it('runs at most 10 TOTP checks for 200 parallel wrong MFA codes for one account', async () => {
    const user = await createUser(ctx());
    const totp = await enableMfa(user.token);
    const pending = await call({ method: 'POST', url: '/api/auth/login', payload: { username: user.username, password: user.password } });
    const { mfaToken } = pending.json() as { mfaToken: string };
    expect(mfaToken).toEqual(expect.any(String));
    const validate = vi.spyOn(OTPAuth.TOTP.prototype, 'validate');
    try {
      const code = wrongTotp(totp);
      validate.mockClear();
      const responses = await burst(() => ({ method: 'POST', url: '/api/auth/mfa', payload: { mfaToken, code } }));
      expect(validate.mock.calls.length, statuses(responses).join(',')).toBeLessThanOrEqual(limits.mfaTriesPerAccount);
      expect(validate.mock.calls.length).toBeGreaterThan(0);
      expect(notLimited(responses).length).toBe(validate.mock.calls.length);
      for (const r of notLimited(responses)) expect(r.json().error.code).toBe('MFA_INVALID');
      expectRateLimited(responses);
      // The right code is refused too until the window has passed: guessing has no way around it.
      expect((await call({ method: 'POST', url: '/api/auth/mfa', payload: { mfaToken, code: totp.generate({ timestamp: Date.now() + 30_000 }) } })).statusCode).toBe(429);
    } finally {
      validate.mockRestore();
    }
  });

  it('takes at most 30 code tries from one address in 200 parallel wrong verification and reset codes', async () => {
    const username = uniqueName('burst');
    const reg = await call({ method: 'POST', url: '/api/auth/register', payload: { username, email: `${username}@example.com`, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD } });
    expect(reg.statusCode).toBe(201);
    const { userId } = reg.json() as { userId: string };
    const ip = nextIp();
    const verify = await burst(() => ({ method: 'POST', url: '/api/auth/verify-email', payload: { userId, code: 'ZZZZ' }, ip }));
    expect(notLimited(verify).length, statuses(verify).join(',')).toBeLessThanOrEqual(limits.codeTriesPerIp);
    expect(notLimited(verify).length).toBeGreaterThan(0);
    for (const r of notLimited(verify)) expect(r.json().error.code).toBe('INVALID_CODE');
    expectRateLimited(verify);

    const resetUser = await createUser(ctx());
    const requested = await call({ method: 'POST', url: '/api/auth/password-reset/request', payload: { email: resetUser.email } });
    expect(requested.statusCode).toBe(200);
    const resetIp = nextIp();
    const reset = await burst(() => ({ method: 'POST', url: '/api/auth/password-reset/verify', payload: { resetId: requested.json().resetId, code: 'ZZZZ' }, ip: resetIp }));
    expect(notLimited(reset).length, statuses(reset).join(',')).toBeLessThanOrEqual(limits.codeTriesPerIp);
    expect(notLimited(reset).length).toBeGreaterThan(0);
    for (const r of notLimited(reset)) expect(r.json().error.code).toBe('INVALID_CODE');
    expectRateLimited(reset);
  });

  it('lets at most 10 reset requests and 20 registrations from one address through in 200 parallel requests', async () => {
    const ip = nextIp();
    const resets = await burst((i) => ({ method: 'POST', url: '/api/auth/password-reset/request', payload: { email: `${uniqueName(`nobody${i}x`)}@example.com` }, ip }));
    expect(notLimited(resets).length, statuses(resets).join(',')).toBeLessThanOrEqual(limits.resetRequestsPerIp);
    for (const r of notLimited(resets)) expect(r.statusCode).toBe(200);
    expectRateLimited(resets);

    const registerIp = nextIp();
    const prefix = uniqueName('reg');
    const registrations = await burst((i) => ({
      method: 'POST', url: '/api/auth/register', ip: registerIp,
      payload: { username: `${prefix}x${i}`, email: `${prefix}x${i}@example.com`, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD },
    }));
    expect(notLimited(registrations).length, statuses(registrations).join(',')).toBeLessThanOrEqual(limits.registerPerIp);
    for (const r of notLimited(registrations)) expect(r.statusCode).toBe(201);
    expectRateLimited(registrations);
  });

  it('runs at most 10 current-password checks for 200 parallel wrong guesses on a password change, and then refuses the right password as well', async () => {
    const user = await createUser(ctx());
    counted.passwordChecks = 0;
    const responses = await burst(() => ({ method: 'POST', url: '/api/account/password', headers: user.auth, payload: { currentPassword: 'Falsch!Passwort9', newPassword: 'Neues!Passwort' } }));
    expect(counted.passwordChecks, statuses(responses).join(',')).toBeLessThanOrEqual(limits.currentPasswordPerAccount);
    expect(counted.passwordChecks).toBeGreaterThan(0);
    expect(notLimited(responses).length).toBe(counted.passwordChecks);
    for (const r of notLimited(responses)) expect(r.json().error.code).toBe('CURRENT_PASSWORD_WRONG');
    expectRateLimited(responses);
    const right = await call({ method: 'POST', url: '/api/account/password', headers: user.auth, payload: { currentPassword: user.password, newPassword: 'Neues!Passwort' } });
    expect(right.statusCode).toBe(429);
    expect((await call({ method: 'POST', url: '/api/auth/login', payload: { username: user.username, password: user.password } })).statusCode).toBe(200);
  });

  it('runs at most 10 current-password checks for 200 parallel wrong guesses on an e-mail change', async () => {
    const user = await createUser(ctx());
    counted.passwordChecks = 0;
    const responses = await burst((i) => ({ method: 'POST', url: '/api/account/email', headers: user.auth, payload: { newEmail: `neu${i}-${user.email}`, currentPassword: 'Falsch!Passwort9' } }));
    expect(counted.passwordChecks, statuses(responses).join(',')).toBeLessThanOrEqual(limits.currentPasswordPerAccount);
    expect(counted.passwordChecks).toBeGreaterThan(0);
    for (const r of notLimited(responses)) expect(r.json().error.code).toBe('CURRENT_PASSWORD_WRONG');
    expectRateLimited(responses);
  });

  it('shares the current-password limit between password change and MFA switch-off, and limits the MFA code there too', async () => {
    // 10 wrong guesses one after another, then the right password: refused (the review: 100 wrong, then 200).
    const user = await createUser(ctx());
    const totp = await enableMfa(user.token);
    for (let i = 0; i < limits.currentPasswordPerAccount; i++) {
      const wrong = i % 2
        ? await call({ method: 'POST', url: '/api/account/password', headers: user.auth, payload: { currentPassword: `Falsch!Passwort${i}`, newPassword: 'Neues!Passwort' } })
        : await call({ method: 'POST', url: '/api/account/mfa/disable', headers: user.auth, payload: { password: `Falsch!Passwort${i}`, code: totp.generate() } });
      expect(wrong.statusCode, `guess ${i + 1}`).toBe(400);
      expect(wrong.json().error.code).toBe('CURRENT_PASSWORD_WRONG');
    }
    const disable = await call({ method: 'POST', url: '/api/account/mfa/disable', headers: user.auth, payload: { password: user.password, code: totp.generate({ timestamp: Date.now() + 30_000 }) } });
    expect(disable.statusCode).toBe(429);
    const change = await call({ method: 'POST', url: '/api/account/password', headers: user.auth, payload: { currentPassword: user.password, newPassword: 'Neues!Passwort' } });
    expect(change.statusCode).toBe(429);

    // With the password known, the TOTP code of the switch-off is limited like the MFA login.
    const other = await createUser(ctx());
    const otherTotp = await enableMfa(other.token);
    const validate = vi.spyOn(OTPAuth.TOTP.prototype, 'validate');
    try {
      validate.mockClear();
      const code = wrongTotp(otherTotp);
      // The right password passes every time (and clears its counter), so a smaller burst keeps this quick.
      const responses = await Promise.all(Array.from({ length: 40 }, () => call({ method: 'POST', url: '/api/account/mfa/disable', headers: other.auth, payload: { password: other.password, code } })));
      expect(validate.mock.calls.length, statuses(responses).join(',')).toBeLessThanOrEqual(limits.mfaTriesPerAccount);
      expect(validate.mock.calls.length).toBeGreaterThan(0);
      for (const r of notLimited(responses)) expect(r.json().error.code).toBe('MFA_INVALID');
    } finally {
      validate.mockRestore();
    }
  });
});

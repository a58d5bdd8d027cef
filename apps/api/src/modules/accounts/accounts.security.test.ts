/**
 * Account settings after the outside review (issue 8): MFA enrolment ends the other sessions (18b),
 * profile text without control characters (18c) and the confirmed e-mail change (11).
 */
import { expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import type { InjectOptions } from 'fastify';
import { messages } from '@hp/contract';
import { describeEachDatabase, createUser, uniqueName, STRONG_PASSWORD } from '../../../test/harness.ts';
import { REFRESH_COOKIE } from '../auth/sessions.ts';

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
    const profile = { email: user.email, phone: '', street: 'Hauptstraße 1', zipCode: '12345', city: 'Köln', country: 'DE', companyName: 'Müller GmbH', industry: '' };
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
});

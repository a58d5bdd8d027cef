import { expect, it } from 'vitest';
import { messages } from '@hp/contract';
import { createUser, describeEachDatabase, uniqueName, STRONG_PASSWORD } from '../../../test/harness.ts';

describeEachDatabase('account flow', (ctx) => {
  it('registers, verifies the e-mail with the mailed code, logs in and reads the own account', async () => {
    const { app, mail } = ctx();
    const username = uniqueName('flow');
    const email = `${username}@example.com`;
    const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD } });
    expect(reg.statusCode).toBe(201);
    const { userId } = reg.json();

    const early = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: STRONG_PASSWORD } });
    expect(early.statusCode).toBe(403);
    expect(early.json().error.code).toBe('EMAIL_NOT_VERIFIED');

    // The code mail goes out through the job queue after the answer (review item 15).
    expect(mail.lastCode(email)).toBeUndefined();
    await app.jobs.drain();
    const code = mail.lastCode(email)!;
    expect(code).toMatch(/^[A-Z0-9]{4}$/);
    const verified = await app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { userId, code: code.toLowerCase() } });
    expect(verified.statusCode).toBe(200);

    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: STRONG_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const { token } = login.json();
    expect(login.cookies.find((c) => c.name === 'hp_rt')?.httpOnly).toBe(true);

    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username, role: 'customer', mfaEnabled: false });
  });

  it('a login refused for an unverified address continues signed in once the mailed code is entered; the code alone signs nobody in', async () => {
    const { app, mail } = ctx();
    const register = async () => {
      const username = uniqueName('spaet');
      const email = `${username}@example.com`;
      const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD } });
      return { username, email, userId: reg.json().userId as string };
    };
    const verify = (payload: object) => app.inject({ method: 'POST', url: '/api/auth/verify-email', payload });
    const me = (token: string) => app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

    // e.g. on the way to a checkout: the password is right, the address not yet confirmed.
    const late = await register();
    const refused = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: late.username, password: STRONG_PASSWORD } });
    expect(refused.statusCode).toBe(403);
    const { userId, loginToken } = refused.json().error.details;
    expect(userId).toBe(late.userId);
    expect(loginToken).toEqual(expect.any(String));
    await app.jobs.drain();

    // Another account's login token does not sign anyone in; its own code only confirms that address.
    const other = await register();
    await app.jobs.drain();
    const otherVerified = await verify({ userId: other.userId, code: mail.lastCode(other.email)!, loginToken });
    expect(otherVerified.statusCode).toBe(200);
    expect(otherVerified.json()).toEqual({ message: 'Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt anmelden.' });
    expect(otherVerified.cookies.find((c) => c.name === 'hp_rt')).toBeUndefined();
    // A forged token is ignored the same way (the address is still confirmed by the code).
    const forgedUser = await register();
    await app.jobs.drain();
    const forged = await verify({ userId: forgedUser.userId, code: mail.lastCode(forgedUser.email)!, loginToken: `${loginToken.slice(0, -4)}AAAA` });
    expect(forged.json().token).toBeUndefined();

    const verified = await verify({ userId, code: mail.lastCode(late.email)!, loginToken });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().message).toBe('Ihre E-Mail-Adresse ist bestätigt.');
    expect(verified.cookies.find((c) => c.name === 'hp_rt')?.httpOnly).toBe(true);
    const signedIn = await me(verified.json().token);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ username: late.username, role: 'customer' });
  });

  it('resets the password with the mailed code and the e-mail address alone, for a user who left the page after requesting it', async () => {
    const { app, mail } = ctx();
    const user = await createUser(ctx());
    const other = await createUser(ctx());
    const verify = (payload: object) => app.inject({ method: 'POST', url: '/api/auth/password-reset/verify', payload });
    // The request's resetId is lost with the page; only the mail remains.
    expect((await app.inject({ method: 'POST', url: '/api/auth/password-reset/request', payload: { email: user.email } })).statusCode).toBe(200);
    const again = await app.inject({ method: 'POST', url: '/api/auth/password-reset/request', payload: { email: user.email } });
    expect(again.json().error.message).toBe(messages.resetTooEarly);
    await app.jobs.drain();
    const code = mail.lastCode(user.email)!;

    // Another account's address, an unknown address or a wrong code: the same German 400.
    const wrongCode = code === 'AAAA' ? 'BBBB' : 'AAAA';
    for (const payload of [{ email: other.email, code }, { email: `${uniqueName('niemand')}@example.com`, code }, { email: user.email, code: wrongCode }]) {
      const res = await verify(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBe(messages.invalidOrExpiredCode);
    }
    expect((await verify({ code })).statusCode).toBe(400);

    const verified = await verify({ email: user.email.toUpperCase(), code: code.toLowerCase() });
    expect(verified.statusCode).toBe(200);
    const newPassword = 'Neues!Passwort2';
    const done = await app.inject({ method: 'POST', url: '/api/auth/password-reset/complete', payload: { resetToken: verified.json().resetToken, newPassword } });
    expect(done.statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: user.username, password: newPassword } })).statusCode).toBe(200);
    // Single use: the code does not work a second time.
    expect((await verify({ email: user.email, code })).statusCode).toBe(400);
  });
});

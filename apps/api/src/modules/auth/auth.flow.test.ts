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

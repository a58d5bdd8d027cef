import { expect, it } from 'vitest';
import { describeEachDatabase, uniqueName, STRONG_PASSWORD } from '../../../test/harness.ts';

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
});

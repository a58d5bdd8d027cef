/**
 * "Logs of the whole test suite contain no password, code, token, TOTP secret or API key"
 * (docs/quality/security-and-reliability.md, Operations): the account lifecycle runs against the app's
 * real pino logger at level info, writing into a buffer, and the captured text is searched for every
 * secret the flow handled.
 */
import { createSimulatedHypervisor } from '../drivers/hypervisor/simulated/simulated.ts';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { readEnv } from '../env.ts';
import type { Database } from '../db/client.ts';
import { freshPglite } from '../../test/databases.ts';
import { loadSecrets } from '../lib/secrets.ts';
import { createPaymentProvider } from '../drivers/payments/index.ts';
import { buildApp } from '../app.ts';
import { MemoryMailer, uniqueName } from '../../test/harness.ts';
import { REFRESH_COOKIE } from '../modules/auth/sessions.ts';

describe('logging (no secrets in the log, a reqId on every request line)', () => {
  let app: FastifyInstance;
  let database: Database;
  const mail = new MemoryMailer();
  const chunks: string[] = [];
  const logText = () => chunks.join('');

  beforeAll(async () => {
    database = await freshPglite();
    const env = { ...readEnv({ ...process.env, VITEST: 'true' }), logLevel: 'info', isTest: true };
    const secrets = await loadSecrets(database.db, undefined);
    const logStream = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(chunk.toString());
        callback();
      },
    });
    app = await buildApp({ db: database.db, mail, env, secrets, logStream, hypervisor: createSimulatedHypervisor(database.db), payments: await createPaymentProvider(env, database.db, secrets) });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('runs register → verify → login → refresh → MFA → reset → password change without logging a secret', async () => {
    /** Every secret the flow sees; none of them may appear in the log. */
    const secrets: { name: string; value: string }[] = [];
    const keep = (name: string, value: string | undefined) => {
      expect(value, name).toBeTruthy();
      secrets.push({ name, value: value! });
      return value!;
    };
    let requests = 0;
    const call = async (opts: InjectOptions) => {
      requests += 1;
      return app.inject(opts);
    };
    const cookieOf = (res: Awaited<ReturnType<typeof call>>, name: string) => keep(name, res.cookies.find((c) => c.name === REFRESH_COOKIE)?.value);

    const username = uniqueName('logflow');
    const email = `${username}@example.com`;
    const password = keep('password', 'Geheim!Passwort1');

    // Registration, including a refused attempt whose body carries a password.
    const mismatch = keep('refused password', 'Anderes!Geheim2');
    expect((await call({ method: 'POST', url: '/api/auth/register', payload: { username, email, password: mismatch, confirmPassword: `${mismatch}x` } })).statusCode).toBe(400);
    const reg = await call({ method: 'POST', url: '/api/auth/register', payload: { username, email, password, confirmPassword: password } });
    expect(reg.statusCode).toBe(201);
    const { userId } = reg.json() as { userId: string };
    await app.jobs.drain();
    const verificationCode = keep('verification code', mail.lastCode(email));
    expect((await call({ method: 'POST', url: '/api/auth/verify-email', payload: { userId, code: verificationCode === 'AAAA' ? 'BBBB' : 'AAAA' } })).statusCode).toBe(400);
    expect((await call({ method: 'POST', url: '/api/auth/verify-email', payload: { userId, code: verificationCode } })).statusCode).toBe(200);

    // Login (a failed one first), refresh, the own account.
    const wrongPassword = keep('wrong password', 'Falsch!Passwort9');
    expect((await call({ method: 'POST', url: '/api/auth/login', payload: { username, password: wrongPassword } })).statusCode).toBe(401);
    const login = await call({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    expect(login.statusCode).toBe(200);
    keep('access token', login.json().token);
    const refreshed = await call({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: cookieOf(login, 'refresh token') } });
    expect(refreshed.statusCode).toBe(200);
    cookieOf(refreshed, 'rotated refresh token');
    const token = keep('refreshed access token', refreshed.json().token);
    const auth = { authorization: `Bearer ${token}` };
    expect((await call({ method: 'GET', url: '/api/auth/me', headers: auth })).statusCode).toBe(200);

    // MFA enrolment.
    const setup = await call({ method: 'POST', url: '/api/account/mfa/setup', headers: auth });
    expect(setup.statusCode).toBe(200);
    const secret = keep('TOTP secret', setup.json().secret);
    keep('otpauth URL', setup.json().otpauthUrl);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const now = Date.now();
    const enable = await call({ method: 'POST', url: '/api/account/mfa/enable', headers: auth, payload: { code: keep('TOTP code (enable)', totp.generate({ timestamp: now })) } });
    expect(enable.statusCode).toBe(200);
    const backupCodes = enable.json().backupCodes as string[];
    for (const code of backupCodes) {
      keep('backup code', code);
      keep('backup code (no dash)', code.replace('-', ''));
    }
    expect((await call({ method: 'POST', url: '/api/auth/logout', headers: auth })).statusCode).toBe(204);

    // Login with MFA: a wrong code, then the next step's code.
    const mfaLogin = await call({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    const mfaToken = keep('MFA token', mfaLogin.json().mfaToken);
    const nextCode = keep('TOTP code (login)', totp.generate({ timestamp: now + 30_000 }));
    const wrongTotp = nextCode === '000000' ? '111111' : '000000';
    expect((await call({ method: 'POST', url: '/api/auth/mfa', payload: { mfaToken, code: wrongTotp } })).statusCode).toBe(400);
    const mfa = await call({ method: 'POST', url: '/api/auth/mfa', payload: { mfaToken, code: nextCode } });
    expect(mfa.statusCode).toBe(200);
    keep('access token after MFA', mfa.json().token);
    cookieOf(mfa, 'refresh token after MFA');

    // Password reset.
    const requested = await call({ method: 'POST', url: '/api/auth/password-reset/request', payload: { email } });
    expect(requested.statusCode).toBe(200);
    await app.jobs.drain();
    const resetCode = keep('reset code', mail.lastCode(email));
    const verified = await call({ method: 'POST', url: '/api/auth/password-reset/verify', payload: { resetId: requested.json().resetId, code: resetCode } });
    expect(verified.statusCode).toBe(200);
    const resetToken = keep('reset token', verified.json().resetToken);
    const newPassword = keep('new password', 'Zurueck!Gesetzt3');
    expect((await call({ method: 'POST', url: '/api/auth/password-reset/complete', payload: { resetToken, newPassword } })).statusCode).toBe(200);

    // Login after the reset with a backup code, then a password change.
    const again = await call({ method: 'POST', url: '/api/auth/login', payload: { username: email, password: newPassword } });
    const mfaToken2 = keep('second MFA token', again.json().mfaToken);
    const withBackup = await call({ method: 'POST', url: '/api/auth/mfa', payload: { mfaToken: mfaToken2, backupCode: backupCodes[0] } });
    expect(withBackup.statusCode).toBe(200);
    const token3 = keep('access token after backup code', withBackup.json().token);
    const changedPassword = keep('changed password', 'Nochmal!Neu4');
    const changed = await call({ method: 'POST', url: '/api/account/password', headers: { authorization: `Bearer ${token3}` }, payload: { currentPassword: newPassword, newPassword: changedPassword } });
    expect(changed.statusCode).toBe(200);
    keep('access token after password change', changed.json().token);
    cookieOf(changed, 'refresh token after password change');

    // A careless future log line with secrets in well-known fields is redacted by the logger config.
    app.log.info({ body: { password, code: verificationCode, token, mfaToken, resetToken, secret, backupCode: backupCodes[1] } }, 'redaction probe');

    // ── The log ──
    const text = logText();
    const lines = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.some((l) => l.msg === 'redaction probe')).toBe(true);
    for (const { name, value } of secrets) {
      // Short codes must not match inside longer numbers or words (timestamps, ids).
      const pattern = value.length <= 10
        ? new RegExp(`(?<![A-Za-z0-9])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`)
        : undefined;
      const found = pattern ? pattern.test(text) : text.includes(value);
      expect(found, `${name} appears in the log`).toBe(false);
      // Parts of a token (e.g. only the signature of a JWT, only the secret of a refresh token) neither.
      for (const part of value.split(/[.]/).filter((p) => p.length >= 20)) expect(text.includes(part), `part of ${name} appears in the log`).toBe(false);
    }

    // Every request line carries a request id; every request was logged.
    // One line per request (docs/decisions/029), with its status and duration.
    const requestLines = lines.filter((l) => 'req' in l || 'res' in l || l.msg === 'incoming request' || l.msg === 'request completed');
    expect(requestLines.filter((l) => l.msg === 'request')).toHaveLength(requests);
    expect(requestLines).toHaveLength(requests);
    for (const line of requestLines) expect(line, JSON.stringify(line)).toMatchObject({ res: { statusCode: expect.any(Number) }, ms: expect.any(Number) });
    for (const line of requestLines) expect(typeof line.reqId === 'string' && /^[0-9a-f-]{36}$/.test(line.reqId), JSON.stringify(line)).toBe(true);
    // The logged URL has no query string and the request line no headers (authorization, cookies).
    for (const line of requestLines.filter((l) => l.req)) {
      expect(Object.keys(line.req as object).sort()).toEqual(['method', 'remoteAddress', 'url']);
    }
    expect(text).not.toMatch(/authorization|cookie|set-cookie/i);
  });

  it('logs health checks and static files only at debug level, pages and API calls at info', async () => {
    const before = chunks.length;
    await app.inject({ method: 'GET', url: '/api/health' });
    await app.inject({ method: 'GET', url: '/favicon.svg' });
    await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    await app.inject({ method: 'GET', url: '/api/status' });
    const lines = chunks.slice(before).join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg?: string; req?: { url: string } });
    expect(lines.filter((l) => l.msg === 'request').map((l) => l.req?.url)).toEqual(['/api/status']);
  });
});

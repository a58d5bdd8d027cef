/**
 * Validation failures carry the contract's own message (or zod's German default) and, for registration,
 * the spec's code attached in the schema (decision 010). Each case goes through the real API.
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { messages, RegisterInput } from '@hp/contract';
import { z } from 'zod';
import { createUser, describeEachDatabase, STRONG_PASSWORD, uniqueName } from '../../test/harness.ts';

describeEachDatabase('validation messages come from the contract (decision 010)', (ctx) => {
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, opts: { headers?: Record<string, string>; payload?: unknown } = {}) =>
    ctx().app.inject({ method, url, headers: opts.headers, ...(opts.payload === undefined ? {} : { payload: opts.payload as object }) });
  const error = (res: { statusCode: number; body: string; json: () => { error: { code: string; message: string } } }) => {
    expect(res.statusCode, res.body).toBe(400);
    return res.json().error;
  };

  it("answers an invalid server id on every /api/servers/:id route with 'Server nicht gefunden.'", async () => {
    const { auth } = await createUser(ctx());
    const routes = ctx().app.registeredRoutes.filter((r) => r.url.startsWith('/api/servers/:id') && !r.url.includes('/console'));
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const url = route.url.replace(':id', 'kein-server').replace(':appId', 'nginx').replace(':username', 'jemand').replace(':backupId', crypto.randomUUID()).replace(':pos', '1');
      const res = await call(route.method as 'GET', url, { headers: auth, payload: route.method === 'GET' ? undefined : {} });
      expect(error(res), `${route.method} ${route.url}`).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Server nicht gefunden.' });
    }
  });

  it("answers an unknown power action with 'Unbekannte Aktion.'", async () => {
    const { auth } = await createUser(ctx());
    const res = await call('POST', `/api/servers/${crypto.randomUUID()}/power`, { headers: auth, payload: { action: 'destroy' } });
    expect(error(res)).toEqual({ code: 'VALIDATION_ERROR', message: 'Unbekannte Aktion.', details: { field: 'action' } });
  });

  it('answers registration failures with the spec code and its message', async () => {
    const valid = () => {
      const username = uniqueName('val');
      return { username, email: `${username}@example.com`, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD };
    };
    const cases: [Record<string, unknown>, keyof typeof messages][] = [
      [{ username: '' }, 'NULL_FORUM'],
      [{ username: 'ab' }, 'USER_TO_SHORT'],
      [{ username: 'mit leerzeichen' }, 'USER_INVALID'],
      [{ username: 'x'.repeat(33) }, 'USER_INVALID'],
      [{ email: '' }, 'NO_EMAIL'],
      [{ email: 'keine-mail' }, 'NO_KORREKT_EMAIL'],
      [{ password: 'Kurz!1a', confirmPassword: 'Kurz!1a' }, 'PASSWORT_TO_SHORT'],
      [{ password: '', confirmPassword: '' }, 'NULL_FORUM'],
      [{ password: 'sicherpasswort1', confirmPassword: 'sicherpasswort1' }, 'PASSWORT_NOT'],
      [{ confirmPassword: 'Anders!Passwort1' }, 'PASSWORT_NOT_IDENTICALLY'],
    ];
    for (const [change, code] of cases) {
      const res = await call('POST', '/api/auth/register', { payload: { ...valid(), ...change } });
      expect(error(res), JSON.stringify(change)).toMatchObject({ code, message: messages[code] });
    }
    // The same code travels wherever the shared password rule applies (profile password change).
    const user = await createUser(ctx());
    const tooShort = await call('POST', '/api/account/password', { headers: user.auth, payload: { currentPassword: user.password, newPassword: 'Ab!1' } });
    expect(error(tooShort)).toMatchObject({ code: 'PASSWORT_TO_SHORT', message: messages.PASSWORT_TO_SHORT });
  });

  it('answers failures of zod built-in checks in German', async () => {
    // A field without a message of its own: zod's German locale, configured once in the contract.
    const wrongType = error(await call('POST', '/api/auth/password-reset/complete', { payload: { resetToken: 42, newPassword: STRONG_PASSWORD } }));
    expect(wrongType).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Ungültige Eingabe: erwartet Text, erhalten Zahl.' });

    // Unknown keys of strict objects.
    const { auth } = await createUser(ctx());
    const unknownKey = error(await call('POST', `/api/servers/${crypto.randomUUID()}/power`, { headers: auth, payload: { action: 'start', force: true } }));
    expect(unknownKey).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Unbekannter Schlüssel: "force"' });

    // The same messages in the browser: the contract's schemas parse with the German locale too.
    expect(z.string().safeParse(42).error?.issues[0]?.message).toBe('Ungültige Eingabe: erwartet Text, erhalten Zahl.');
    expect(z.string().min(3).safeParse('a').error?.issues[0]?.message).toBe('Die Eingabe ist zu kurz (mindestens 3 Zeichen).');
    expect(RegisterInput.safeParse({}).error?.issues[0]?.message).toBe(messages.NULL_FORUM);
  });
});

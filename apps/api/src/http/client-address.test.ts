/**
 * The client address behind proxies (issue 21, item 2; docs/decisions/026). A proxy appends the address it
 * saw to X-Forwarded-For; whatever stands left of it the client wrote itself. The client is the first
 * untrusted address counted from the right, so a forged first entry changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../env.ts';
import { createTestContext, createUser, uniqueName, type TestContext } from '../../test/harness.ts';
import { limits } from '../modules/auth/auth.service.ts';

describe('TRUST_PROXY parsing', () => {
  it('takes false, true (one hop), a hop count, or addresses and CIDR ranges, and refuses anything else', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1,fd00::/8')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    for (const bad of ['yes', '10.0.0.0/33', 'proxy.example.com', '1.2.3.4/8/1']) expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
  });
});

async function contextWith(trustProxy: string) {
  return createTestContext('pglite', {
    env: { TRUST_PROXY: trustProxy },
    beforeReady: (app) => app.get('/api/test/client-address', { config: { access: 'public' } }, async (req) => ({ ip: req.ip })),
  });
}

describe('client address with TRUST_PROXY=true (one proxy)', () => {
  let ctx: TestContext & { close: () => Promise<void> };
  beforeAll(async () => { ctx = await contextWith('true'); });
  afterAll(async () => { await ctx?.close(); });

  const ipFor = async (forwardedFor: string) =>
    (await ctx.app.inject({ method: 'GET', url: '/api/test/client-address', headers: { 'x-forwarded-for': forwardedFor } })).json().ip as string;

  it('is the entry the proxy appended, not the client-written first one', async () => {
    expect(await ipFor('6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
    expect(await ipFor('203.0.113.7')).toBe('203.0.113.7');
  });

  it('a forged first entry does not reset the per-address login limit', async () => {
    const user = await createUser(ctx);
    const attempt = (name: string, forged: string, real: string) => ctx.app.inject({
      method: 'POST', url: '/api/auth/login', payload: { username: name, password: 'Falsch!Passwort9' }, headers: { 'x-forwarded-for': `${forged}, ${real}` },
    });
    // A new name each time, so that no per-account limit is what stops it.
    for (let i = 0; i < limits.loginPerIp; i++) {
      const res = await attempt(uniqueName('ghost'), `10.0.${i}.${i + 1}`, '198.51.100.23');
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const blocked = await attempt(user.username, '10.99.99.99', '198.51.100.23');
    expect(blocked.statusCode).toBe(429);
    // Another real client is not affected.
    expect((await attempt(user.username, '10.99.99.99', '198.51.100.24')).statusCode).toBe(401);
  });
});

describe('client address with a list of trusted proxies', () => {
  let ctx: TestContext & { close: () => Promise<void> };
  beforeAll(async () => { ctx = await contextWith('127.0.0.1, 10.0.0.0/8'); });
  afterAll(async () => { await ctx?.close(); });

  it('skips every trusted proxy from the right and stops at the first untrusted address', async () => {
    const ipFor = async (forwardedFor: string) =>
      (await ctx.app.inject({ method: 'GET', url: '/api/test/client-address', headers: { 'x-forwarded-for': forwardedFor } })).json().ip as string;
    expect(await ipFor('6.6.6.6, 198.51.100.4, 10.1.2.3')).toBe('198.51.100.4');
    // A client that claims to be a trusted proxy on the left is still only a client.
    expect(await ipFor('10.0.0.5, 198.51.100.4')).toBe('198.51.100.4');
  });
});

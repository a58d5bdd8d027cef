/**
 * Review item 17: no API answer with personal data may be stored by a browser or a proxy: every /api
 * route answers with `Cache-Control: no-store`. The exception since decision 029: public data that is
 * the same for everyone (status page, changelog) is served from memory with an ETag and a short public
 * lifetime. The web pages keep their own caching; hashed build assets are immutable.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestContext, describeEachDatabase, createUser } from '../../test/harness.ts';
import { REFRESH_COOKIE } from '../modules/auth/sessions.ts';

let ipCounter = 0;
const nextIp = () => `10.77.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

describeEachDatabase('caching of API answers', (ctx) => {
  it('marks login, refresh, the own account and the profile as no-store', async () => {
    const user = await createUser(ctx());
    const { app } = ctx();
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: user.username, password: user.password }, remoteAddress: nextIp() });
    expect(login.statusCode, login.body).toBe(200);
    const refresh = await app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: user.refreshToken } });
    expect(refresh.statusCode, refresh.body).toBe(200);
    const token = refresh.json().token as string;
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    const profile = await app.inject({ method: 'GET', url: '/api/account/profile', headers: { authorization: `Bearer ${token}` } });
    for (const [name, res] of Object.entries({ login, refresh, me, profile })) {
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['cache-control'], name).toBe('no-store');
    }
  });

  /** Public answers that are the same for everyone (decision 029), with their lifetime. */
  const PUBLIC_DATA: Record<string, string> = {
    'GET /api/status': 'public, max-age=0, s-maxage=15',
    'GET /api/changelog': 'public, max-age=0, s-maxage=60',
  };

  it('marks every registered API route no-store, errors included, except the public data; not the web pages', async () => {
    const { app } = ctx();
    const routes = app.registeredRoutes.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));
    expect(routes.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const route of routes) {
      const url = route.url.replace(/:(\w+)/g, () => crypto.randomUUID());
      const res = await app.inject({
        method: route.method as InjectOptions['method'], url, remoteAddress: nextIp(),
        ...(['GET', 'DELETE'].includes(route.method) ? {} : { payload: {} }),
      });
      const expected = res.statusCode === 200 ? PUBLIC_DATA[`${route.method} ${route.url}`] ?? 'no-store' : 'no-store';
      if (res.headers['cache-control'] !== expected) missing.push(`${route.method} ${route.url} → ${res.statusCode} ${String(res.headers['cache-control'])}`);
    }
    expect(missing).toEqual([]);

    // The public status answer is kept briefly (with a validator); an unknown API path is not.
    const status = await app.inject({ method: 'GET', url: '/api/status' });
    expect(status.statusCode).toBe(200);
    expect(status.headers['cache-control']).toBe(PUBLIC_DATA['GET /api/status']);
    expect(status.headers.etag).toBeTruthy();
    const unknown = await app.inject({ method: 'GET', url: '/api/gibt-es-nicht' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBe('no-store');

    // Pages are not API answers: they keep their revalidation policy.
    const page = await app.inject({ method: 'GET', url: '/faq' });
    expect(page.headers['cache-control']).not.toBe('no-store');
  });

});

describe('caching of web files', () => {
  let ctx: Awaited<ReturnType<typeof createTestContext>>;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-dist-'));
  const script = 'export const hello = "Hallo";\n'.repeat(200);
  const page = '<!doctype html><html lang="de"><head><meta name="csp-nonce" content="__CSP_NONCE__" /><title>FAQ</title></head><body><h1>Häufige Fragen</h1></body></html>';
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app-AbC123.js'), script);
    fs.writeFileSync(path.join(dist, 'assets', 'app-AbC123.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\n');
    fs.mkdirSync(path.join(dist, 'faq'));
    fs.writeFileSync(path.join(dist, 'faq', 'index.html'), page);
    ctx = await createTestContext('pglite', { env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves hashed build assets immutable for a year and precompressed as built; other files for an hour', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/app-AbC123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.rawPayload.equals(fs.readFileSync(path.join(dist, 'assets', 'app-AbC123.js.br')))).toBe(true);
    const plain = await ctx.app.inject({ method: 'GET', url: '/assets/app-AbC123.js' });
    expect(plain.body).toBe(script);
    const robots = await ctx.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('gives a prerendered page a validator: 304 without a new policy while the page is unchanged, the page again with its nonce otherwise', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/faq' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]{27}"$/);
    const nonce = /content="([0-9a-f]{32})"/.exec(first.body)![1]!;
    expect(String(first.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);

    // The browser still holds the page: no body, and no policy, so it keeps the one stored with its nonce.
    const again = await ctx.app.inject({ method: 'GET', url: '/faq', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['content-security-policy']).toBeUndefined();
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['x-frame-options']).toBeDefined();

    // Another validator (an older build): the whole page, with a fresh nonce that its policy names.
    const other = await ctx.app.inject({ method: 'GET', url: '/faq', headers: { 'if-none-match': 'W/"aaaaaaaaaaaaaaaaaaaaaaaaaaa"' } });
    expect(other.statusCode).toBe(200);
    const fresh = /content="([0-9a-f]{32})"/.exec(other.body)![1]!;
    expect(fresh).not.toBe(nonce);
    expect(String(other.headers['content-security-policy'])).toContain(`'nonce-${fresh}'`);
    expect(other.headers.etag).toBe(etag);

    // A new build of the page changes the validator.
    fs.writeFileSync(path.join(dist, 'faq', 'index.html'), page.replace('Häufige Fragen', 'Fragen und Antworten'));
    const rebuilt = await ctx.app.inject({ method: 'GET', url: '/faq', headers: { 'if-none-match': etag } });
    expect(rebuilt.statusCode).toBe(200);
    expect(rebuilt.body).toContain('Fragen und Antworten');
    expect(rebuilt.headers.etag).not.toBe(etag);
  });

  it('gives an unknown path its 404 page without a validator', async () => {
    fs.mkdirSync(path.join(dist, '404'), { recursive: true });
    fs.writeFileSync(path.join(dist, '404', 'index.html'), page.replace('Häufige Fragen', 'Seite nicht gefunden'));
    const res = await ctx.app.inject({ method: 'GET', url: '/gibt-es-nicht' });
    expect(res.statusCode).toBe(404);
    expect(res.headers.etag).toBeUndefined();
  });
});

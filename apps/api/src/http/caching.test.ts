/**
 * Review item 17: no API answer may be stored by a browser or a proxy. Every /api route (public ones
 * such as the status page included: they must be fresh, and the price of refetching them is small)
 * answers with `Cache-Control: no-store`; the web pages keep their own caching.
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { describeEachDatabase, createUser } from '../../test/harness.ts';
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

  it('marks every registered API route no-store, errors and public answers included, but not the web pages', async () => {
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
      if (res.headers['cache-control'] !== 'no-store') missing.push(`${route.method} ${route.url} → ${res.statusCode} ${String(res.headers['cache-control'])}`);
    }
    expect(missing).toEqual([]);

    // The public status answer as well (decided: fresh over cacheable), and an unknown API path.
    const status = await app.inject({ method: 'GET', url: '/api/status' });
    expect(status.statusCode).toBe(200);
    expect(status.headers['cache-control']).toBe('no-store');
    const unknown = await app.inject({ method: 'GET', url: '/api/gibt-es-nicht' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBe('no-store');

    // Pages are not API answers: they keep their revalidation policy.
    const page = await app.inject({ method: 'GET', url: '/faq' });
    expect(page.headers['cache-control']).not.toBe('no-store');
  });
});

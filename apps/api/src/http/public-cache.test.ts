import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createUser, describeEachDatabase } from '../../test/harness.ts';
import { statusServices } from '../db/schema/index.ts';
import { PublicCache } from './public-cache.ts';

describe('PublicCache', () => {
  it('loads once for concurrent misses, keeps the entry for its lifetime and loads again after it', async () => {
    let now = 0;
    let loads = 0;
    const cache = new PublicCache(1000, () => now);
    const load = async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 5));
      return { n: loads };
    };
    const [a, b] = await Promise.all([cache.get('status', 'page', load, JSON.stringify), cache.get('status', 'page', load, JSON.stringify)]);
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(a.body).toBe('{"n":1}');
    now = 999;
    expect((await cache.get('status', 'page', load, JSON.stringify)).body).toBe('{"n":1}');
    now = 1000;
    expect((await cache.get('status', 'page', load, JSON.stringify)).body).toBe('{"n":2}');
  });

  it('does not keep what was loaded while a change was announced, nor a failed load', async () => {
    const cache = new PublicCache(60_000);
    let value = 'old';
    let release!: () => void;
    const slow = () => new Promise<string>((resolve) => { release = () => resolve(value); });
    const pending = cache.get('changelog', 'list', slow, (v) => v);
    value = 'new';
    cache.invalidate('changelog');
    release();
    expect((await pending).body).toBe('new'); // the request that asked still gets an answer
    expect((await cache.get('changelog', 'list', async () => 'fresh', (v) => v)).body).toBe('fresh');

    await expect(cache.get('changelog', 'entry:x', async () => { throw new Error('404'); }, String)).rejects.toThrow('404');
    expect((await cache.get('changelog', 'entry:x', async () => 'found', String)).body).toBe('found');
    // Other topics are untouched by an invalidation.
    const status = await cache.get('status', 'page', async () => 's1', String);
    cache.invalidate('changelog');
    expect(await cache.get('status', 'page', async () => 's2', String)).toBe(status);
  });
});

describe('PublicCache size', () => {
  it('keeps at most maxEntries, dropping the oldest loads first', async () => {
    const cache = new PublicCache(60_000, Date.now, 3);
    for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.get('changelog', key, async () => key, String);
    expect(cache.size).toBe(3);
    let loads = 0;
    await cache.get('changelog', 'e', async () => { loads += 1; return 'e2'; }, String);
    expect(loads).toBe(0);
    await cache.get('changelog', 'a', async () => { loads += 1; return 'a2'; }, String);
    expect(loads).toBe(1);
  });
});

describeEachDatabase('public data from memory with ETag', (ctx) => {
  it('keeps one entry per changelog id whatever its letter case (no memory growth by respelling an id)', async () => {
    const staff = await createUser(ctx(), { role: 'employee' });
    const created = await ctx().app.inject({ method: 'POST', url: '/api/staff/changelog', headers: staff.auth, payload: { version: '', releaseDate: '2026-11-27', type: 'improvement', highlight: false, title: 'Cache-Schreibweisen', description: 'Probe', changes: [{ title: 'Probe', description: 'x', type: 'bugfix' }] } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const before = ctx().app.publicCache.size;
    const spellings = [id, id.toUpperCase(), id.replace(/[a-f]/, (c) => c.toUpperCase())];
    for (const spelling of spellings) expect((await ctx().app.inject({ method: 'GET', url: `/api/changelog/${spelling}` })).statusCode).toBe(200);
    expect(ctx().app.publicCache.size - before).toBe(1);
  });

  it('answers /api/status with an ETag, 304 for a client that holds it, and a short public lifetime', async () => {
    const first = await ctx().app.inject({ method: 'GET', url: '/api/status' });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=15');
    const again = await ctx().app.inject({ method: 'GET', url: '/api/status', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const other = await ctx().app.inject({ method: 'GET', url: '/api/status', headers: { 'if-none-match': 'W/"something-else"' } });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual(first.json());
  });

  it('shows a change by staff at once on the writing instance, with a new ETag', async () => {
    const staff = await createUser(ctx(), { role: 'employee' });
    const before = await ctx().app.inject({ method: 'GET', url: '/api/status' });
    const created = await ctx().app.inject({ method: 'POST', url: '/api/status/incidents', headers: staff.auth, payload: { title: 'Cache-Probe', severity: 'minor', status: 'investigating', message: 'Wir prüfen.' } });
    expect(created.statusCode).toBe(201);
    const after = await ctx().app.inject({ method: 'GET', url: '/api/status' });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().incidents.map((i: { title: string }) => i.title)).toContain('Cache-Probe');
  });

  it('drops the copy when the data changes by another path (another instance, a script): the trigger notifies within 1 s', async () => {
    await ctx().app.ready();
    const name = `Probe ${Date.now()}`;
    const before = await ctx().app.inject({ method: 'GET', url: '/api/status' });
    expect(before.json().services.map((s: { name: string }) => s.name)).not.toContain(name);
    // Written straight into the database: no route of this instance ran.
    await ctx().database.db.insert(statusServices).values({ name, status: 'operational', position: 999 });
    const deadline = Date.now() + 1000;
    let names: string[] = [];
    while (Date.now() < deadline) {
      names = (await ctx().app.inject({ method: 'GET', url: '/api/status' })).json().services.map((s: { name: string }) => s.name);
      if (names.includes(name)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(names).toContain(name);
    await ctx().database.db.delete(statusServices).where(sql`${statusServices.name} = ${name}`);
  });
});

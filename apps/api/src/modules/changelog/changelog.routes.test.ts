import { beforeAll, expect, it } from 'vitest';
import { changelogMessages as msg, type ChangelogDetail, type ChangelogEntry, type ChangelogList } from '@hp/contract';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { changelogEntries } from '../../db/schema/index.ts';
import { seedChangelog } from './changelog.seed.ts';

type User = Awaited<ReturnType<typeof createUser>>;

const entry = (over: Record<string, unknown> = {}) => ({
  title: 'Neue Firewall', description: 'Regeln pro Server.', version: 'v3.0.0', releaseDate: '2026-11-20', type: 'feature', highlight: true,
  changes: [{ title: 'Regeln', description: 'Eingehend und ausgehend.', type: 'feature' }, { title: 'Vorlagen', description: 'Für Webserver.', type: 'improvement' }],
  ...over,
});

async function publish(ctx: TestContext, who: User, over: Record<string, unknown> = {}) {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/staff/changelog', headers: who.auth, payload: entry(over) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ChangelogEntry>();
}

describeEachDatabase('changelog', (ctx) => {
  let customer: User;
  let employee: User;
  beforeAll(async () => {
    customer = await createUser(ctx());
    employee = await createUser(ctx(), { role: 'employee' });
    await ctx().database.db.delete(changelogEntries);
  });

  it('seeds the spec entries once, newest first, readable without an account', async () => {
    await seedChangelog(ctx().database.db);
    await seedChangelog(ctx().database.db);
    const res = await ctx().app.inject({ method: 'GET', url: '/api/changelog' });
    expect(res.statusCode).toBe(200);
    const list = res.json<ChangelogList>().entries;
    expect(list.map((e) => [e.version, e.releaseDate, e.type, e.highlight])).toEqual([
      ['v2.5.0', '2024-03-15', 'feature', true], ['v2.4.2', '2024-02-28', 'improvement', false], ['v2.4.0', '2024-02-10', 'feature', true],
    ]);
    // Public data from memory with a validator and a short public lifetime (docs/decisions/029).
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=60');
    expect(res.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
  });

  it('staff publish with numbered changes; detail links the older and newer entry in the public order', async () => {
    const newest = await publish(ctx(), employee, { releaseDate: '2026-11-21', version: '' });
    expect(newest.version).toBeNull();
    expect(newest.changes.map((c) => c.id)).toEqual(['c1', 'c2']);
    const middle = await publish(ctx(), employee, { releaseDate: '2026-11-20' });
    const detail = await ctx().app.inject({ method: 'GET', url: `/api/changelog/${middle.id}` });
    const d = detail.json<ChangelogDetail>();
    expect(d.newerId).toBe(newest.id);
    const older = await ctx().app.inject({ method: 'GET', url: `/api/changelog/${d.olderId}` });
    expect(older.json<ChangelogDetail>().version).toBe('v2.5.0');
    expect((await ctx().app.inject({ method: 'GET', url: `/api/changelog/${newest.id}` })).json<ChangelogDetail>().newerId).toBeNull();
  });

  it('edits and deletes; an unknown id is a 404 with the spec text', async () => {
    const e = await publish(ctx(), employee);
    const edited = await ctx().app.inject({ method: 'PUT', url: `/api/staff/changelog/${e.id}`, headers: employee.auth, payload: entry({ title: 'Umbenannt', changes: [{ title: 'Nur eine', description: 'x', type: 'bugfix' }] }) });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<ChangelogEntry>()).toMatchObject({ title: 'Umbenannt', changes: [{ id: 'c1', title: 'Nur eine' }] });
    expect((await ctx().app.inject({ method: 'DELETE', url: `/api/staff/changelog/${e.id}`, headers: employee.auth })).statusCode).toBe(204);
    const gone = await ctx().app.inject({ method: 'GET', url: `/api/changelog/${e.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe(msg.notFoundText);
    expect((await ctx().app.inject({ method: 'DELETE', url: `/api/staff/changelog/${e.id}`, headers: employee.auth })).statusCode).toBe(404);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/changelog/v2.5.0' })).statusCode).toBe(400);
  });

  it('only staff write; customers 403, visitors 401', async () => {
    const asCustomer = await ctx().app.inject({ method: 'POST', url: '/api/staff/changelog', headers: customer.auth, payload: entry() });
    expect(asCustomer.statusCode).toBe(403);
    expect((await ctx().app.inject({ method: 'POST', url: '/api/staff/changelog', payload: entry() })).statusCode).toBe(401);
  });

  it('refuses missing fields, impossible dates and an empty change list in German', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: ' ' }, msg.titleRequired],
      [{ description: '' }, msg.descriptionRequired],
      [{ releaseDate: '2024-02-30' }, msg.releaseDateRequired],
      [{ releaseDate: '15.03.2024' }, msg.releaseDateRequired],
      [{ type: 'release' }, msg.typeRequired],
      [{ changes: [] }, msg.changesRequired],
      [{ changes: [{ title: '', description: 'x', type: 'feature' }] }, msg.changeTitleRequired],
      [{ changes: [{ title: 'x', description: ' ', type: 'feature' }] }, msg.changeDescriptionRequired],
    ];
    for (const [over, message] of cases) {
      const res = await ctx().app.inject({ method: 'POST', url: '/api/staff/changelog', headers: employee.auth, payload: entry(over) });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
  });

  it('offers an Atom feed with markup escaped', async () => {
    const e = await publish(ctx(), employee, { title: '<script>alert(1)</script> & mehr' });
    const res = await ctx().app.inject({ method: 'GET', url: '/changelog.atom' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(res.body).toContain(`<id>urn:uuid:${e.id}</id>`);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; mehr');
    expect(res.body).not.toContain('<script>');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { hostingMessages } from '@hp/contract';
import { createTestContext, createUser, databaseKinds, type TestContext } from '../../../test/harness.ts';
import { buyHosting, seedHostingServer } from '../../../test/hosting.ts';
import { hostingPackages } from '../../db/schema/index.ts';
import { createSimulatedHosting } from '../../drivers/hosting/simulated/simulated-hosting.ts';
import { simulatedPanelPath } from '../../drivers/hosting/index.ts';

/**
 * The Website tab's application tools (Sicherheits-Check, Datenbank optimieren, Alle aktualisieren) and
 * the plugin and theme actions, through the HTTP API on the simulated panel with a clock the test moves:
 * jobs run a while, one at a time, and their results show on the package page.
 */
for (const kind of databaseKinds()) {
  describe(`web hosting: WordPress tools, plugins and themes [${kind}]`, () => {
    let ctx: TestContext & { close: () => Promise<void> };
    let offset = 0;
    /** Moves the panel's clock past any running job (the longest takes 45 s). */
    const later = (ms = 60_000) => { offset += ms; };
    let owner: Awaited<ReturnType<typeof createUser>>;
    let packageId: string;

    beforeAll(async () => {
      ctx = await createTestContext(kind, {
        hosting: (db) => createSimulatedHosting(db, { speed: 1, now: () => Date.now() + offset, panelUrl: `http://localhost${simulatedPanelPath}` }),
      });
      await seedHostingServer(ctx, 10);
      owner = await createUser(ctx);
      ({ packageId } = await buyHosting(ctx, owner));
    }, 60_000);
    afterAll(async () => {
      await ctx?.close();
    });

    const call = (method: 'GET' | 'POST' | 'PUT', suffix: string, payload?: Record<string, unknown>, auth = owner.auth, id = packageId) =>
      ctx.app.inject({ method, url: `/api/hosting/${id}${suffix}`, headers: auth, ...(payload ? { payload } : {}) });
    const app = async () => (await call('GET', '')).json().site.app as {
      state: string; version: string; latestVersion: string; job: { kind: string; target: string | null } | null;
      plugins: { slug: string; name: string; version: string; latestVersion: string; update: string; active: boolean }[];
      themes: { slug: string; name: string; version: string; latestVersion: string; update: string; active: boolean }[];
      lastSecurityCheck: { at: string; findings: { severity: string; text: string }[] } | null;
      lastOptimized: { at: string; savedMb: number } | null;
    };

    it('before WordPress is installed the tools answer 404 in German', async () => {
      const res = await call('POST', '/app/tools', { tool: 'security-check' });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error.message).toBe(hostingMessages.appMissing);
    });

    it('the security check runs a while, blocks a second tool (409), and then lists German findings from the site', async () => {
      expect((await call('POST', '/app', { kind: 'wordpress' })).statusCode).toBe(202);
      later();
      expect(await app()).toMatchObject({ state: 'installed', job: null, lastSecurityCheck: null });

      const started = await call('POST', '/app/tools', { tool: 'security-check' });
      expect(started.statusCode, started.body).toBe(202);
      expect(started.json().message).toContain('Sicherheits-Check läuft');
      expect((await app()).job).toMatchObject({ kind: 'security-check' });

      const second = await call('POST', '/app/tools', { tool: 'optimize-database' });
      expect(second.statusCode).toBe(409);
      expect(second.json().error).toMatchObject({ code: 'HOSTING_PENDING' });
      expect(second.json().error.message).toContain('bereits ein gleichartiger Vorgang');
      expect((await call('POST', '/app/plugins/akismet/update')).statusCode).toBe(409);

      later();
      const check = (await app()).lastSecurityCheck!;
      expect(check.findings).toContainEqual({ severity: 'critical', text: expect.stringContaining('„Contact Form 7“ 5.9.6 hat eine bekannte Sicherheitslücke') });
      expect(check.findings).toContainEqual({ severity: 'warning', text: expect.stringContaining('WordPress 6.6.2 ist nicht aktuell') });
      expect(check.findings).toContainEqual({ severity: 'info', text: expect.stringContaining('„Contact Form 7“ ist deaktiviert') });
      expect((await app()).job).toBeNull();
    });

    it('optimising the database reports the megabytes it saved', async () => {
      expect((await call('POST', '/app/tools', { tool: 'optimize-database' })).statusCode).toBe(202);
      expect((await app()).lastOptimized).toBeNull();
      later();
      expect((await app()).lastOptimized!.savedMb).toBeGreaterThan(0);
    });

    it('a plugin is updated to its latest version, deactivated and activated; unknown ones are 404 in German', async () => {
      const update = await call('POST', '/app/plugins/akismet/update');
      expect(update.statusCode, update.body).toBe(202);
      expect(update.json().message).toBe('„Akismet Anti-Spam“ wird auf 5.3.5 aktualisiert.');
      expect((await app()).state).toBe('updating');
      later();
      expect((await app()).plugins.find((p) => p.slug === 'akismet')).toMatchObject({ version: '5.3.5', update: 'none', active: true });

      const off = await call('PUT', '/app/plugins/akismet', { active: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().message).toBe('„Akismet Anti-Spam“ wurde deaktiviert.');
      expect((await app()).plugins.find((p) => p.slug === 'akismet')!.active).toBe(false);
      expect((await call('PUT', '/app/plugins/akismet', { active: true })).statusCode).toBe(200);
      expect((await app()).plugins.find((p) => p.slug === 'akismet')!.active).toBe(true);

      for (const [method, suffix, body] of [['POST', '/app/plugins/gibt-es-nicht/update'], ['PUT', '/app/plugins/gibt-es-nicht', { active: true }]] as const) {
        const res = await call(method, suffix, body);
        expect(res.statusCode, suffix).toBe(404);
        expect(res.json().error.message).toBe('Plugin nicht gefunden.');
      }
      const bad = await call('PUT', '/app/plugins/akismet', { active: 'ja' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toContain('Bitte geben Sie an');
    });

    it('activating a theme makes it the only active one; an unknown theme is 404', async () => {
      const res = await call('POST', '/app/themes/twentytwentythree/activate');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('„Twenty Twenty-Three“ ist jetzt das aktive Theme.');
      expect((await app()).themes.filter((t) => t.active).map((t) => t.slug)).toEqual(['twentytwentythree']);
      const unknown = await call('POST', '/app/themes/gibt-es-nicht/activate');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.message).toBe('Theme nicht gefunden.');
    });

    it('"Alle aktualisieren" brings core, plugins and themes to their latest versions; afterwards there is nothing left', async () => {
      const res = await call('POST', '/app/tools', { tool: 'update-all' });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().message).toBe('WordPress, Plugins und Themes werden aktualisiert.');
      expect(await app()).toMatchObject({ state: 'updating', job: { kind: 'update-all' } });
      later();
      const done = await app();
      expect(done).toMatchObject({ state: 'installed', version: '6.7.1', job: null });
      for (const x of [...done.plugins, ...done.themes]) expect(x, x.slug).toMatchObject({ version: x.latestVersion, update: 'none' });
      const again = await call('POST', '/app/tools', { tool: 'update-all' });
      expect(again.json().message).toContain('es gibt nichts zu aktualisieren');
      expect((await app()).job).toBeNull();
      // A new check no longer reports the updates, only what remains (the inactive plugin).
      await call('POST', '/app/tools', { tool: 'security-check' });
      later();
      const findings = (await app()).lastSecurityCheck!.findings;
      expect(findings.some((f) => f.severity === 'critical')).toBe(false);
      expect(findings.some((f) => f.text.includes('ist nicht aktuell'))).toBe(false);
    });

    it('an unknown tool is refused in German; another customer gets 404; a shared user may use the tools', async () => {
      const bad = await call('POST', '/app/tools', { tool: 'rm-rf' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toContain('Bitte wählen Sie ein Werkzeug');

      const stranger = await createUser(ctx);
      for (const [method, suffix, body] of [['POST', '/app/tools', { tool: 'security-check' }], ['POST', '/app/plugins/akismet/update'], ['PUT', '/app/plugins/akismet', { active: false }], ['POST', '/app/themes/twentytwentyfour/activate']] as const) {
        const res = await call(method, suffix, body, stranger.auth);
        expect(res.statusCode, suffix).toBe(404);
        expect(res.json().error.message).toBe('Hosting-Paket nicht gefunden.');
      }
      expect((await app()).plugins.find((p) => p.slug === 'akismet')!.active).toBe(true);

      const friend = await createUser(ctx);
      expect((await ctx.app.inject({ method: 'POST', url: `/api/hosting/${packageId}/access`, headers: owner.auth, payload: { username: friend.user.username } })).statusCode).toBe(201);
      expect((await call('POST', '/app/themes/twentytwentyfour/activate', undefined, friend.auth)).statusCode).toBe(200);
      expect((await app()).themes.find((t) => t.active)!.slug).toBe('twentytwentyfour');
    });

    it('a suspended package refuses the tools with 409 (like every change)', async () => {
      await ctx.database.db.update(hostingPackages).set({ status: 'suspended' }).where(eq(hostingPackages.id, packageId));
      try {
        for (const [method, suffix, body] of [['POST', '/app/tools', { tool: 'security-check' }], ['PUT', '/app/plugins/akismet', { active: false }], ['POST', '/app/themes/twentytwentythree/activate']] as const) {
          const res = await call(method, suffix, body);
          expect(res.statusCode, suffix).toBe(409);
          expect(res.json().error.message).toBe(hostingMessages.notActive);
        }
      } finally {
        await ctx.database.db.update(hostingPackages).set({ status: 'active' }).where(eq(hostingPackages.id, packageId));
      }
      expect((await app()).themes.find((t) => t.active)!.slug).toBe('twentytwentyfour');
    });
  });
}

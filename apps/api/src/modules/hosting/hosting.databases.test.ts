/**
 * The package page's Datenbanken tab beyond "one database, one user" (portal spec: tables column,
 * "Benutzer erstellen") and what the domains' "Verwalten" dialog and the Apache block read from the
 * detail (document root, public folder, DNS, server host name), through the HTTP API on the simulated panel.
 */
import { beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hostingMessages } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { buyHosting, seedHostingServer, unique } from '../../../test/hosting.ts';
import { resetCounter } from '../../lib/rate-limit.ts';

const PASSWORD = 'Geheim!Passw0rt';

describeEachDatabase('web hosting: database users, tables, domain details', (ctx) => {
  beforeAll(async () => {
    await seedHostingServer(ctx(), 20);
  });

  const client = (auth: Record<string, string>, packageId: string) =>
    (method: 'GET' | 'POST' | 'PUT' | 'DELETE', suffix: string, payload?: Record<string, unknown>) =>
      ctx().app.inject({ method, url: `/api/hosting/${packageId}${suffix}`, headers: auth, ...(payload ? { payload } : {}) });

  it('"Benutzer erstellen" makes a prefixed user without a database; a database can then be created for it; the tables count starts at 0', async () => {
    const owner = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), owner);
    const call = client(owner.auth, packageId);

    const created = await call('POST', '/database-users', { name: 'Shopuser', password: PASSWORD, confirmPassword: PASSWORD });
    expect(created.statusCode, created.body).toBe(201);
    let dbs = (await call('GET', '/databases')).json();
    expect(created.json()).toEqual({ id: expect.any(String), name: `${dbs.prefix}shopuser` });
    expect(dbs.users).toEqual([created.json()]);
    expect(dbs.databases).toEqual([]);

    const db = await call('POST', '/databases', { name: 'shop', userId: created.json().id });
    expect(db.statusCode, db.body).toBe(201);
    expect(db.json()).toMatchObject({ name: `${dbs.prefix}shop`, user: `${dbs.prefix}shopuser`, userId: created.json().id, tables: 0 });
    dbs = (await call('GET', '/databases')).json();
    // No second user was made for the database.
    expect(dbs.users).toHaveLength(1);
    expect(dbs.databases).toEqual([expect.objectContaining({ name: `${dbs.prefix}shop`, userId: created.json().id, tables: 0, sizeMb: expect.any(Number) })]);

    // The default stays: without userId a user of the database's name is created with the password.
    const withNew = await call('POST', '/databases', { name: 'blog', password: PASSWORD, confirmPassword: PASSWORD });
    expect(withNew.statusCode, withNew.body).toBe(201);
    expect(withNew.json()).toMatchObject({ name: `${dbs.prefix}blog`, user: `${dbs.prefix}blog` });
    // The form sends an empty userId for "Neuer Benutzer".
    const emptyUser = await call('POST', '/databases', { name: 'forum', userId: '', password: PASSWORD, confirmPassword: PASSWORD });
    expect(emptyUser.statusCode, emptyUser.body).toBe(201);
    expect(emptyUser.json().user).toBe(`${dbs.prefix}forum`);
  });

  it('bad input is refused in German with 400: names, passwords, an existing user with a password, an unknown user 404; a taken name 409', async () => {
    const owner = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), owner);
    const call = client(owner.auth, packageId);
    const refusals: [string, Record<string, unknown>, string][] = [
      ['/database-users', { name: 'x', password: PASSWORD, confirmPassword: PASSWORD }, hostingMessages.nameInvalid],
      ['/database-users', { name: '1abc', password: PASSWORD, confirmPassword: PASSWORD }, hostingMessages.nameInvalid],
      ['/database-users', { name: 'mit-strich', password: PASSWORD, confirmPassword: PASSWORD }, hostingMessages.nameInvalid],
      ['/database-users', { name: 'a'.repeat(17), password: PASSWORD, confirmPassword: PASSWORD }, hostingMessages.nameInvalid],
      ['/database-users', { name: 'gut', password: PASSWORD, confirmPassword: 'anders' }, 'Passwörter stimmen nicht überein'],
      ['/database-users', { name: 'gut', password: 'kurz', confirmPassword: 'kurz' }, ''],
      ['/database-users', { name: 'gut', password: "Geheim!Pass'0rt", confirmPassword: "Geheim!Pass'0rt" }, 'Anführungszeichen'],
      ['/database-users', { name: 'gut' }, 'Passwort'],
      ['/databases', { name: 'shop', userId: 'u1', password: PASSWORD, confirmPassword: PASSWORD }, 'behält sein Passwort'],
      ['/databases', { name: 'shop', userId: '../u1' }, hostingMessages.databaseUserUnknown],
      ['/databases', { name: 'shop' }, 'Bitte geben Sie ein Passwort ein.'],
      ['/databases', { name: 'shop', password: PASSWORD, confirmPassword: 'anders' }, 'Passwörter stimmen nicht überein'],
    ];
    for (const [suffix, payload, text] of refusals) {
      const res = await call('POST', suffix, payload);
      expect(res.statusCode, `${suffix} ${JSON.stringify(payload)} → ${res.body}`).toBe(400);
      expect(res.json().error.message, JSON.stringify(payload)).toContain(text);
    }
    const unknown = await call('POST', '/databases', { name: 'shop', userId: 'u999' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(hostingMessages.databaseUserUnknown);

    expect((await call('POST', '/database-users', { name: 'doppelt', password: PASSWORD, confirmPassword: PASSWORD })).statusCode).toBe(201);
    const twice = await call('POST', '/database-users', { name: 'Doppelt', password: PASSWORD, confirmPassword: PASSWORD });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toContain('bereits vergeben');
    // A new database of the same name would need a user of that name: refused, nothing made.
    const clash = await call('POST', '/databases', { name: 'doppelt', password: PASSWORD, confirmPassword: PASSWORD });
    expect(clash.statusCode).toBe(409);
    expect((await call('GET', '/databases')).json()).toMatchObject({ databases: [], users: [expect.objectContaining({ name: expect.stringMatching(/_doppelt$/) })] });
  });

  it('a user that still owns a database cannot be deleted (409, German, names the database); once the database is gone it can', async () => {
    const owner = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), owner);
    const call = client(owner.auth, packageId);
    const dbUser = (await call('POST', '/database-users', { name: 'app', password: PASSWORD, confirmPassword: PASSWORD })).json();
    const db = (await call('POST', '/databases', { name: 'appdata', userId: dbUser.id })).json();

    const refused = await call('DELETE', `/database-users/${dbUser.id}`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error).toEqual({ code: 'DATABASE_USER_IN_USE', message: `Der Benutzer ${dbUser.name} gehört noch zu der Datenbank ${db.name}. Löschen Sie zuerst diese Datenbank.` });
    expect((await call('GET', '/databases')).json().users).toEqual([dbUser]);

    // While a creation runs on the package (its lease is held), deleting a database waits its turn: its user might go with it.
    await ctx().database.db.execute(sql`insert into rate_limits (key, window_start, count) values (${`hosting-create:databases:${packageId}`}, now(), 1)`);
    const busy = await call('DELETE', `/databases/${db.id}`);
    expect(busy.statusCode, busy.body).toBe(409);
    expect(busy.json().error.code).toBe('HOSTING_PENDING');
    await ctx().database.db.execute(sql`delete from rate_limits where key = ${`hosting-create:databases:${packageId}`}`);

    // Deleting the database keeps a user of another name (it may serve other databases later).
    expect((await call('DELETE', `/databases/${db.id}`)).statusCode).toBe(200);
    expect((await call('GET', '/databases')).json().users).toEqual([dbUser]);
    const deleted = await call('DELETE', `/database-users/${dbUser.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().message).toBe(`Der Datenbankbenutzer ${dbUser.name} wurde gelöscht.`);
    expect((await call('GET', '/databases')).json().users).toEqual([]);
    const again = await call('DELETE', `/database-users/${dbUser.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(hostingMessages.databaseUserUnknown);
  });

  it('database users count against the plan (Starter: 2): a third user and a database with a new user are refused, one for an existing user is not', async () => {
    const owner = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), owner, { plan: 'starter' });
    const call = client(owner.auth, packageId);
    const first = (await call('POST', '/database-users', { name: 'eins', password: PASSWORD, confirmPassword: PASSWORD })).json();
    expect((await call('POST', '/database-users', { name: 'zwei', password: PASSWORD, confirmPassword: PASSWORD })).statusCode).toBe(201);
    const third = await call('POST', '/database-users', { name: 'drei', password: PASSWORD, confirmPassword: PASSWORD });
    expect(third.statusCode).toBe(409);
    expect(third.json().error).toEqual({ code: 'DATABASE_USER_LIMIT', message: hostingMessages.databaseUserLimit });
    const withNewUser = await call('POST', '/databases', { name: 'shop', password: PASSWORD, confirmPassword: PASSWORD });
    expect(withNewUser.statusCode).toBe(409);
    expect(withNewUser.json().error.code).toBe('DATABASE_USER_LIMIT');
    expect((await call('POST', '/databases', { name: 'shop', userId: first.id })).statusCode).toBe(201);
    expect((await call('GET', '/databases')).json()).toMatchObject({ databases: [expect.objectContaining({ userId: first.id })], users: [expect.anything(), expect.anything()] });
  });

  it('WordPress creates its 12 core tables in its database', async () => {
    const owner = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), owner);
    const call = client(owner.auth, packageId);
    expect((await call('POST', '/app', { kind: 'wordpress' })).statusCode).toBe(202);
    const dbs = (await call('GET', '/databases')).json();
    expect(dbs.databases).toEqual([expect.objectContaining({ name: `${dbs.prefix}wp`, tables: 12 })]);

    // Deleting WordPress's database removes the installation with it, so it can be installed again.
    expect((await call('DELETE', `/databases/${dbs.databases[0].id}`)).statusCode).toBe(200);
    const detail = await ctx().app.inject({ method: 'GET', url: `/api/hosting/${packageId}`, headers: owner.auth });
    expect(detail.json().site.app).toBeNull();
    expect((await call('POST', '/app', { kind: 'wordpress' })).statusCode).toBe(202);
  });

  it('logins are the owner\'s: a shared user may not create database users, set their passwords or the FTP password, but may use existing users; another customer gets 404', async () => {
    const owner = await createUser(ctx());
    const friend = await createUser(ctx());
    const stranger = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), owner);
    expect((await client(owner.auth, packageId)('POST', '/access', { username: friend.user.username })).statusCode).toBe(201);

    const asFriend = client(friend.auth, packageId);
    // A login set by a shared user would outlive the share: refused, nothing made.
    for (const [method, suffix, payload] of [
      ['POST', '/database-users', { name: 'freund', password: PASSWORD, confirmPassword: PASSWORD }],
      ['POST', '/databases', { name: 'freund', password: PASSWORD, confirmPassword: PASSWORD }],
      ['PUT', '/ftp-password', { password: PASSWORD, confirmPassword: PASSWORD }],
    ] as const) {
      const res = await asFriend(method, suffix, payload);
      expect(res.statusCode, `${method} ${suffix}: ${res.body}`).toBe(403);
      expect(res.json().error.message).toBe(hostingMessages.credentialsOwnerOnly);
    }
    expect((await client(owner.auth, packageId)('GET', '/databases')).json().users).toEqual([]);
    const made = await client(owner.auth, packageId)('POST', '/database-users', { name: 'freund', password: PASSWORD, confirmPassword: PASSWORD });
    expect(made.statusCode, made.body).toBe(201);
    const reset = await asFriend('PUT', `/database-users/${made.json().id}/password`, { password: PASSWORD, confirmPassword: PASSWORD });
    expect(reset.statusCode, reset.body).toBe(403);
    const forExisting = await asFriend('POST', '/databases', { name: 'freunddb', userId: made.json().id });
    expect(forExisting.statusCode, forExisting.body).toBe(201);
    expect((await asFriend('DELETE', `/databases/${forExisting.json().id}`)).statusCode).toBe(200);

    const asStranger = client(stranger.auth, packageId);
    for (const [method, suffix, payload] of [
      ['POST', '/database-users', { name: 'fremd', password: PASSWORD, confirmPassword: PASSWORD }],
      ['DELETE', `/database-users/${made.json().id}`, undefined],
      ['POST', '/databases', { name: 'fremd', userId: made.json().id }],
    ] as const) {
      const res = await asStranger(method, suffix, payload);
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
      expect(res.json().error.message).toBe('Hosting-Paket nicht gefunden.');
    }
    expect((await client(owner.auth, packageId)('GET', '/databases')).json().users).toEqual([made.json()]);
    expect((await asFriend('DELETE', `/database-users/${made.json().id}`)).statusCode).toBe(200);
    await resetCounter(ctx().database.db, `hosting-write:${friend.user.id}`);
  });

  it('the detail tells each domain its document root, public folder and whether its DNS is ours, and names the hosting server', async () => {
    const owner = await createUser(ctx());
    const { packageId } = await buyHosting(ctx(), owner);
    const call = client(owner.auth, packageId);
    const addon = `${unique('eigene')}.de`;
    const added = await call('POST', '/domains', { domain: addon });
    expect(added.statusCode, added.body).toBe(201);
    const detail = (await call('GET', '')).json();
    expect(detail.serverHostname).toMatch(/^web-.*\.example\.net$/);
    const [primary, extra] = detail.site.domains;
    expect(primary).toMatchObject({ type: 'primary', dnsManaged: true, directory: `${primary.documentRoot}/web` });
    expect(primary.documentRoot).toMatch(/^\/var\/www\/clients\/client\d+\/web\d+$/);
    // ISPConfig's layout: an addon is a folder below the site's web/ and is served from there.
    expect(extra).toMatchObject({ domain: addon, type: 'addon', dnsManaged: false, documentRoot: `${primary.documentRoot}/web/${addon}`, directory: `${primary.documentRoot}/web/${addon}` });
    expect(added.json()).toEqual(extra);
    // FTP starts in the site folder: the public folders are below it.
    expect(detail.site.ftp.directory).toBe(primary.documentRoot);
  });
});

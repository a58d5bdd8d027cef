/**
 * The contract every StorageDriver passes: the simulated server and the Nextcloud driver against the fake
 * (and a real Nextcloud where available). Everything is observed through the port only, so the same test
 * proves the same behaviour on every backend.
 *
 * Usage (in a *.test.ts):
 *   describeStorageContract('nextcloud (fake)', async () => ({ driver, server: { url: fake.url }, firstLogin: async (ref) => … }));
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  StorageError, nextcloudQuota,
  type CreateStorageAccountSpec, type StorageAccountRef, type StorageDriver, type StorageErrorKind, type StorageServerRef,
} from './storage.ts';

export interface StorageContractSetup {
  driver: StorageDriver;
  server: StorageServerRef;
  /** The customer logs in for the first time and stores some files (fake: setUsage; simulated: the clock moves on). */
  firstLogin: (ref: StorageAccountRef) => Promise<void>;
  cleanup?: () => Promise<void>;
}

const PASSWORD = 'Vertrag!Passw0rt-1';
const GIB = 1024 ** 3;

async function expectStorageError(promise: Promise<unknown>, kind: StorageErrorKind) {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error, `expected a StorageError ${kind}`).toBeInstanceOf(StorageError);
  expect((error as StorageError).kind).toBe(kind);
  // The message is for the customer: German with "Sie" where it addresses them, never the server's English.
  expect((error as StorageError).message).toMatch(/\S/);
  expect((error as StorageError).message).not.toMatch(/already exists|Invalid|password needs|OCS|HTTP|quota value/i);
  return error as StorageError;
}

export function describeStorageContract(name: string, setup: () => Promise<StorageContractSetup>) {
  describe(`Storage contract: ${name}`, () => {
    let ctx: StorageContractSetup;
    let storage: StorageDriver;
    const run = Date.now().toString(36).slice(-5);
    let counter = 0;

    beforeAll(async () => {
      ctx = await setup();
      storage = ctx.driver;
    });
    afterAll(async () => {
      await ctx?.cleanup?.();
    });

    function specFor(over: Partial<CreateStorageAccountSpec> = {}): CreateStorageAccountSpec {
      const userId = `ct${run}${(counter++).toString(36)}`;
      return {
        server: ctx.server, userId, password: PASSWORD, displayName: 'Erika Mustermann', email: `${userId}@example.net`, quotaBytes: 100 * GIB, ...over,
      };
    }

    it('creates an account with display name, email and quota; enabled, nothing used before the first login', async () => {
      const spec = specFor();
      const ref = await storage.createAccount(spec);
      expect(ref.userId).toBe(spec.userId);
      const account = await storage.getAccount(ref);
      expect(account).toMatchObject({
        userId: spec.userId, displayName: 'Erika Mustermann', email: spec.email, enabled: true, quotaBytes: 100 * GIB, usedBytes: 0, lastLoginAt: null,
      });
    });

    it('a retried create (same user id and email) succeeds again with the same ref', async () => {
      const spec = specFor();
      const first = await storage.createAccount(spec);
      const second = await storage.createAccount(spec);
      expect(second).toEqual(first);
      expect((await storage.getAccount(first))?.quotaBytes).toBe(100 * GIB);
    });

    it('a user id that exists with another email is taken, in any spelling of its case', async () => {
      const spec = specFor();
      await storage.createAccount(spec);
      await expectStorageError(storage.createAccount(specFor({ userId: spec.userId })), 'taken');
      await expectStorageError(storage.createAccount(specFor({ userId: spec.userId.toUpperCase() })), 'taken');
    });

    it('isNameAvailable: a free name yes, a used one no (also in another case), an impossible one is invalid', async () => {
      const spec = specFor({ userId: `Frei.${run}-${counter++}` });
      expect(await storage.isNameAvailable(ctx.server, spec.userId)).toBe(true);
      await storage.createAccount(spec);
      expect(await storage.isNameAvailable(ctx.server, spec.userId)).toBe(false);
      expect(await storage.isNameAvailable(ctx.server, spec.userId.toLowerCase())).toBe(false);
      await expectStorageError(storage.isNameAvailable(ctx.server, 'max/mustermann'), 'invalid');
    });

    it('user ids Nextcloud refuses are invalid and nothing is created', async () => {
      for (const userId of ['max#1', 'müller', ' leading', 'x'.repeat(65), '..']) {
        await expectStorageError(storage.createAccount(specFor({ userId })), 'invalid');
      }
      const spaced = specFor({ userId: `Max Muster ${run}` });
      await storage.createAccount(spaced);
      expect((await storage.getAccount({ server: ctx.server, userId: spaced.userId }))?.userId).toBe(spaced.userId);
    });

    it('a password the policy refuses is weak_password, and the name stays free', async () => {
      const spec = specFor({ password: 'kurz1!' });
      const err = await expectStorageError(storage.createAccount(spec), 'weak_password');
      expect(err.message).toMatch(/mindestens 10 Zeichen/);
      expect(await storage.isNameAvailable(ctx.server, spec.userId)).toBe(true);
      await expectStorageError(storage.createAccount(specFor({ password: '1234567890' })), 'weak_password');
    });

    it('quota: set in bytes, kept as Nextcloud rounds it; unlimited is null', async () => {
      const ref = await storage.createAccount(specFor());
      await storage.setQuota(ref, 500 * GIB);
      expect((await storage.getAccount(ref))?.quotaBytes).toBe(500 * GIB);
      await storage.setQuota(ref, 1_500_000_000);
      expect((await storage.getAccount(ref))?.quotaBytes).toBe(nextcloudQuota(1_500_000_000));
      await storage.setQuota(ref, null);
      expect((await storage.getAccount(ref))?.quotaBytes).toBeNull();
      await expectStorageError(storage.setQuota(ref, -1), 'invalid');
    });

    it('usage appears after the first login, within the quota, with free space and percentage that fit', async () => {
      const ref = await storage.createAccount(specFor({ quotaBytes: 10 * GIB }));
      await ctx.firstLogin(ref);
      const account = (await storage.getAccount(ref))!;
      expect(account.lastLoginAt).toBeInstanceOf(Date);
      expect(account.usedBytes).toBeGreaterThan(0);
      expect(account.usedBytes).toBeLessThanOrEqual(10 * GIB);
      expect(account.freeBytes).toBe(10 * GIB - account.usedBytes);
      expect(account.usedPercent).toBeCloseTo((account.usedBytes / (10 * GIB)) * 100, 1);
      await storage.setQuota(ref, null);
      const unlimited = (await storage.getAccount(ref))!;
      expect(unlimited).toMatchObject({ quotaBytes: null, freeBytes: null, usedPercent: 0 });
      expect(unlimited.usedBytes).toBeGreaterThan(0);
    });

    it('disable and enable switch the login off and on; twice in a row is fine', async () => {
      const ref = await storage.createAccount(specFor());
      await storage.disable(ref);
      await storage.disable(ref);
      expect((await storage.getAccount(ref))?.enabled).toBe(false);
      await storage.enable(ref);
      await storage.enable(ref);
      expect((await storage.getAccount(ref))?.enabled).toBe(true);
    });

    it('password changes follow the same policy', async () => {
      const ref = await storage.createAccount(specFor());
      await storage.setPassword(ref, 'Ein-neues!Passwort-2');
      await expectStorageError(storage.setPassword(ref, 'kurz'), 'weak_password');
    });

    it('deleting removes the account; deleting it again is fine', async () => {
      const ref = await storage.createAccount(specFor());
      await storage.deleteAccount(ref);
      expect(await storage.getAccount(ref)).toBeNull();
      await storage.deleteAccount(ref);
      expect(await storage.isNameAvailable(ctx.server, ref.userId)).toBe(true);
    });

    it('changes to a missing account are not_found; reading it is null', async () => {
      const ref = { server: ctx.server, userId: `fehlt${run}` };
      expect(await storage.getAccount(ref)).toBeNull();
      await expectStorageError(storage.setQuota(ref, GIB), 'not_found');
      await expectStorageError(storage.setPassword(ref, 'Ein-neues!Passwort-3'), 'not_found');
      await expectStorageError(storage.disable(ref), 'not_found');
      await expectStorageError(storage.enable(ref), 'not_found');
    });

    it('addresses: the web interface and WebDAV below the server address', () => {
      const ref = { server: { url: `${ctx.server.url}/` }, userId: 'Max Muster' };
      expect(storage.addresses(ref)).toEqual({
        webUrl: `${ctx.server.url}/`, serverUrl: ctx.server.url, webdavUrl: `${ctx.server.url}/remote.php/dav/files/Max%20Muster/`,
      });
    });
  });
}

import { afterAll, describe, expect, it } from 'vitest';
import { freshPglite } from '../../../../test/databases.ts';
import { databaseKinds, freshDatabase } from '../../../../test/harness.ts';
import { describeStorageContract } from '../storage.contract.ts';
import { StorageError } from '../storage.ts';
import { createSimulatedStorage } from './simulated-storage.ts';

const GIB = 1024 ** 3;
const DAY = 86_400_000;

// The simulated server passes the same contract as the Nextcloud driver with the fake, on PGlite and
// (TEST_DATABASE_URL) on PostgreSQL; the first login is its clock moving a day on (the customer logs in
// ten minutes after the account exists).
for (const kind of databaseKinds()) {
  describeStorageContract(`simulated (${kind})`, async () => {
    const { database, drop } = await freshDatabase(kind);
    let offset = 0;
    const driver = createSimulatedStorage(database.db, { now: () => Date.now() + offset });
    return {
      driver,
      server: { url: 'https://cloud.example.net' },
      firstLogin: async () => { offset += DAY; },
      cleanup: async () => { await database.close(); await drop(); },
    };
  });
}

describe.each(databaseKinds())('simulated storage races (%s)', (kind) => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => { for (const close of closers) await close(); });

  it('parallel creates of one name: the same job twice gets one account; another customer gets taken', async () => {
    const { database, drop } = await freshDatabase(kind);
    closers.push(async () => { await database.close(); await drop(); });
    const storage = createSimulatedStorage(database.db);
    const server = { url: 'https://cloud.example.net' };
    const spec = { server, userId: 'Renn', password: 'Lange!Passwort-1', displayName: 'R', email: 'r@example.net', quotaBytes: GIB };
    const [a, b] = await Promise.all([storage.createAccount(spec), storage.createAccount({ ...spec, userId: 'renn' })]);
    expect(a.userId).toBe(b.userId);
    const results = await Promise.allSettled([
      storage.createAccount({ ...spec, userId: 'Zweit' }),
      storage.createAccount({ ...spec, userId: 'zweit', email: 'jemand@example.net' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(StorageError);
    expect((refused.reason as StorageError).kind).toBe('taken');
  });
});

describe('simulated storage usage', () => {
  it('grows slowly and deterministically from a few hundred MB, never past the quota', async () => {
    const database = await freshPglite();
    try {
      let clock = Date.parse('2026-11-27T10:00:00Z');
      const storage = createSimulatedStorage(database.db, { now: () => clock });
      const server = { url: 'https://cloud.example.net' };
      const ref = await storage.createAccount({ server, userId: 'usage', password: 'Lange!Passwort-1', displayName: 'U', email: 'u@example.net', quotaBytes: GIB });
      clock += DAY;
      const day1 = (await storage.getAccount(ref))!.usedBytes;
      expect(day1).toBeGreaterThan(100 * 1024 ** 2);
      expect(day1).toBeLessThan(400 * 1024 ** 2);
      expect((await storage.getAccount(ref))!.usedBytes).toBe(day1);
      clock += 30 * DAY;
      const day31 = (await storage.getAccount(ref))!.usedBytes;
      expect(day31).toBeGreaterThan(day1);
      expect(day31 - day1).toBeLessThan(200 * 1024 ** 2);
      clock += 3650 * DAY;
      expect((await storage.getAccount(ref))!).toMatchObject({ usedBytes: GIB, freeBytes: 0, usedPercent: 100 });
    } finally {
      await database.close();
    }
  });

  it('keeps servers apart: the same user id on two servers are two accounts', async () => {
    const database = await freshPglite();
    try {
      const storage = createSimulatedStorage(database.db);
      const spec = { userId: 'same', password: 'Lange!Passwort-1', displayName: 'S', email: 's@example.net', quotaBytes: GIB };
      await storage.createAccount({ ...spec, server: { url: 'https://cloud1.example.net' } });
      expect(await storage.isNameAvailable({ url: 'https://CLOUD1.example.net/' }, 'SAME')).toBe(false);
      expect(await storage.isNameAvailable({ url: 'https://cloud2.example.net' }, 'same')).toBe(true);
    } finally {
      await database.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { freshPglite } from '../../../../test/databases.ts';
import { describeStorageContract } from '../storage.contract.ts';
import { createSimulatedStorage } from './simulated-storage.ts';

const GIB = 1024 ** 3;
const DAY = 86_400_000;

// The simulated server passes the same contract as the Nextcloud driver with the fake; the first login
// is its clock moving a day on (the customer logs in ten minutes after the account exists).
describeStorageContract('simulated', async () => {
  const database = await freshPglite();
  let offset = 0;
  const driver = createSimulatedStorage(database.db, { now: () => Date.now() + offset });
  return {
    driver,
    server: { url: 'https://cloud.example.net' },
    firstLogin: async () => { offset += DAY; },
    cleanup: () => database.close(),
  };
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

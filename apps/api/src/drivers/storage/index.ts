import type { Env } from '../../env.ts';
import type { Db } from '../../db/client.ts';
import type { StorageDriver } from './storage.ts';
import { createSimulatedStorage } from './simulated/simulated-storage.ts';
import { createNextcloudStorage } from './nextcloud/nextcloud.ts';

/** The one place where the cloud-storage driver is chosen (docs/integrations/nextcloud.md). */
export function createStorageDriver(env: Env, db: Db): StorageDriver {
  if (env.storage === 'nextcloud') {
    const { url, username, appPassword, fingerprint, group } = env.nextcloud;
    const missing = Object.entries({ NEXTCLOUD_USER: username, NEXTCLOUD_APP_PASSWORD: appPassword }).filter(([, v]) => !v).map(([k]) => k);
    if (missing.length) throw new Error(`STORAGE=nextcloud needs ${missing.join(', ')}`);
    if (url && !/^https?:\/\//.test(url)) throw new Error('NEXTCLOUD_URL must start with https:// (or http:// for a local test server)');
    return createNextcloudStorage({ url, username, appPassword, fingerprint, group: group || undefined });
  }
  return createSimulatedStorage(db, { speed: env.simulatedSpeed });
}

import type { Db } from '../../db/client.ts';
import { storageServers } from '../../db/schema/index.ts';

/** One storage server of the (simulated) Nextcloud, so /shop/cloud-storage sells out of the box. */
export async function seedStorageServer(db: Db) {
  await db.insert(storageServers).values({ name: 'cloud-fra-01', url: 'https://cloud-fra-01.musterhost.de', capacityGb: 100_000 });
}

import type { Db } from '../../db/client.ts';
import { hostingServers } from '../../db/schema/index.ts';

/** One web hosting server of the (simulated) panel, so /shop/webhosting sells out of the box. */
export async function seedHostingServer(db: Db) {
  await db.insert(hostingServers).values({ name: 'web-fra-01', hostname: 'web-fra-01.musterhost-web.de', panelServerId: '1', slots: 200 });
}

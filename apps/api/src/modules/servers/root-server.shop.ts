import { and, eq, isNull } from 'drizzle-orm';
import { LINUX_DISTROS, WINDOWS_VERSIONS, type CheckoutInput, type LinuxDistro, type UpgradeInfo, type WindowsVersion } from '@hp/contract';
import { ipAddresses, servers } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { placeOrder, type ShopDeps } from '../shop/shop.service.ts';
import { osFamilyOf, rootServerProduct } from './root-server.product.ts';

async function findOwnServer(db: ShopDeps['db'], user: RequestUser, serverId: string) {
  // Shared users operate a server but see no billing: only the owner may renew or upgrade it.
  const [server] = await db.select().from(servers)
    // A VM of a virtual data center is renewed with its pool, never alone.
    .where(and(eq(servers.id, serverId), eq(servers.ownerId, user.id), isNull(servers.deletedAt), isNull(servers.vdcId)));
  if (!server) throw notFound();
  return server;
}

/** The configurator's prefill for renewing or upgrading one's own server. */
export async function getUpgradeInfo({ db }: ShopDeps, user: RequestUser, serverId: string): Promise<UpgradeInfo> {
  const server = await findOwnServer(db, user, serverId);
  const [ip] = await db.select({ address: ipAddresses.address }).from(ipAddresses)
    .where(eq(ipAddresses.serverId, server.id)).orderBy(ipAddresses.version, ipAddresses.id).limit(1);
  const os = osFamilyOf(server.os);
  return {
    serverId: server.id,
    name: server.name,
    os,
    distro: os === 'linux' && (LINUX_DISTROS as readonly string[]).includes(server.os) ? server.os as LinuxDistro : null,
    windowsVersion: os === 'windows' && (WINDOWS_VERSIONS as readonly string[]).includes(server.os) ? server.os as WindowsVersion : null,
    osName: server.os,
    cpu: server.cpuCores,
    ram: server.ramGb,
    storage: server.storageGb,
    ip: ip?.address ?? null,
    expiresAt: server.expiresAt?.toISOString() ?? null,
  };
}

/** The root server configurator's checkout (new server, or upgrade/renewal of one's own). */
export const checkout = (deps: ShopDeps, user: RequestUser, input: CheckoutInput) => placeOrder(deps, user, rootServerProduct, input);

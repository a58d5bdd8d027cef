import { and, eq, isNull } from 'drizzle-orm';
import { hostingMessages, type HostingServerInput, type HostingServerList, type HostingServerView, type HostingShopInfo } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { hostingPackages, hostingServers } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { usedSlots } from './hosting.product.ts';

/** Staff administration of hosting servers (panel servers with package slots), next to the nodes. */

async function view(db: Deps['db'], row: typeof hostingServers.$inferSelect): Promise<HostingServerView> {
  const { used, held } = await usedSlots(db, row.id);
  return { id: row.id, name: row.name, hostname: row.hostname, panelServerId: row.panelServerId, slots: row.slots, used, held, createdAt: row.createdAt.toISOString() };
}

export async function listHostingServers(deps: Pick<Deps, 'db' | 'hosting'>): Promise<HostingServerList> {
  const rows = await deps.db.select().from(hostingServers).where(isNull(hostingServers.deletedAt)).orderBy(hostingServers.id);
  return { items: await Promise.all(rows.map((r) => view(deps.db, r))), panel: deps.hosting.kind === 'ispconfig' ? 'ISPConfig 3.2' : 'Simuliertes Panel (Demo)' };
}

export async function createHostingServer(deps: Pick<Deps, 'db'>, input: HostingServerInput): Promise<HostingServerView> {
  const [taken] = await deps.db.select({ id: hostingServers.id }).from(hostingServers)
    .where(and(eq(hostingServers.panelServerId, input.panelServerId), isNull(hostingServers.deletedAt))).limit(1);
  if (taken) throw conflict('HOSTING_SERVER_EXISTS', 'Dieser Panel-Server ist bereits eingetragen.');
  const [row] = await deps.db.insert(hostingServers).values(input).returning();
  return view(deps.db, row!);
}

/** Only an empty server can go: packages live on it (and open checkouts hold slots on it). */
export async function deleteHostingServer(deps: Pick<Deps, 'db'>, id: number) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(hostingServers).where(and(eq(hostingServers.id, id), isNull(hostingServers.deletedAt))).for('update');
    if (!row) throw notFound('Hosting-Server nicht gefunden.');
    const { used, held } = await usedSlots(tx, id);
    if (used > 0) throw conflict('HOSTING_SERVER_IN_USE', `Auf diesem Server liegen noch ${used} Hosting-Pakete. Er kann erst gelöscht werden, wenn er leer ist.`);
    if (held > 0) throw conflict('HOSTING_SERVER_IN_USE', 'Für diesen Server laufen gerade Bestellungen. Bitte versuchen Sie es in einer halben Stunde erneut.');
    await tx.update(hostingServers).set({ deletedAt: new Date() }).where(eq(hostingServers.id, id));
  });
}

/** The shop page: the subdomain base, whether any slot is free, and (signed in, renewing) the package. */
export async function getHostingShopInfo(deps: Pick<Deps, 'db' | 'env'>, user: RequestUser | null, renewId?: string): Promise<HostingShopInfo> {
  const servers = await deps.db.select().from(hostingServers).where(isNull(hostingServers.deletedAt));
  let available = false;
  for (const s of servers) {
    const { used, held } = await usedSlots(deps.db, s.id);
    if (used + held < s.slots) { available = true; break; }
  }
  let renewal: HostingShopInfo['renewal'] = null;
  if (renewId && user) {
    const [pkg] = await deps.db.select().from(hostingPackages)
      .where(and(eq(hostingPackages.id, renewId), eq(hostingPackages.ownerId, user.id), isNull(hostingPackages.deletedAt)));
    if (!pkg) throw notFound('Hosting-Paket nicht gefunden.');
    // The same rule as the checkout: a package still being set up, or one that failed (refunded), is not renewed.
    if (pkg.status === 'provisioning' || pkg.status === 'failed') throw conflict('PACKAGE_NOT_READY', hostingMessages.notRenewable);
    renewal = { packageId: pkg.id, name: pkg.name, plan: pkg.plan, primaryDomain: pkg.primaryDomain, expiresAt: pkg.expiresAt?.toISOString() ?? null };
  }
  return { subdomainBase: deps.env.hostingSubdomainBase, available, renewal };
}

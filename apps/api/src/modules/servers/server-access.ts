import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { serverMessages } from '@hp/contract';
import type { Db } from '../../db/client.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { nodes, serverAccess, servers } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { HypervisorError, type VmRef } from '../../drivers/hypervisor/hypervisor.ts';

// Shared by servers.service.ts and the per-tab services (backups, firewall, console, settings,
// software): kept apart so those services and servers.service.ts do not import each other.

type ServerRow = typeof servers.$inferSelect;

const accessibleServer = preparedQuery((db) => db
  .select({ server: servers, node: nodes.name, shared: serverAccess.userId })
  .from(servers)
  .innerJoin(nodes, eq(nodes.id, servers.nodeId))
  .leftJoin(serverAccess, and(eq(serverAccess.serverId, servers.id), eq(serverAccess.userId, sql.placeholder('userId'))))
  .where(and(eq(servers.id, sql.placeholder('id')), isNull(servers.deletedAt), or(eq(servers.ownerId, sql.placeholder('userId')), eq(serverAccess.userId, sql.placeholder('userId')))))
  .limit(1)
  .prepare('server_accessible'));

/** Servers the user may operate: own ones and those shared with them. Others do not exist (404). */
export async function findAccessibleServer(db: Db, user: RequestUser, id: string) {
  const [row] = await accessibleServer(db).execute({ userId: user.id, id });
  if (!row) throw notFound('Server nicht gefunden.');
  return { server: row.server, node: row.node, access: row.server.ownerId === user.id ? ('owner' as const) : ('shared' as const) };
}

export const vmOf = (server: ServerRow, node: string): VmRef => ({ node, vmid: server.vmid });

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HypervisorError) {
    const status = err.code === 'LOCKED' ? 409 : err.code === 'NOT_FOUND' ? 404 : err.code === 'INVALID' ? 400 : 503;
    return new AppError(status, `HYPERVISOR_${err.code}`, err.message);
  }
  return new AppError(503, 'HYPERVISOR_UNAVAILABLE', serverMessages.powerFailed);
}

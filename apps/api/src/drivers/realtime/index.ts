import type { Database } from '../../db/client.ts';
import { createPgliteRealtime } from './pglite.ts';
import { createPostgresRealtime } from './postgres.ts';
import type { Realtime } from './realtime.ts';

/** The listener follows the database: its own connection on PostgreSQL, listen() on PGlite. */
export function createRealtime(database: Pick<Database, 'listenVia'>): Realtime {
  return database.listenVia.kind === 'postgres' ? createPostgresRealtime(database.listenVia.url) : createPgliteRealtime(database.listenVia.client);
}

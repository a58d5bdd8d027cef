import pg from 'pg';
import { EVENTS_CHANNEL, parseNotification, Subscribers, type Realtime, type RealtimeLog } from './realtime.ts';

export interface PostgresRealtimeOptions {
  /** First retry after a loss; doubles up to maxRetryMs. */
  minRetryMs?: number;
  maxRetryMs?: number;
  /** A silent loss (server restart, NAT timeout) fires no event: a `select 1` this often finds it. */
  pingMs?: number;
}

/**
 * One dedicated connection per instance that only LISTENs, outside the pool (a pooled connection would
 * be handed back and lose the LISTEN). It must reach PostgreSQL directly or through a session-mode
 * pooler: PgBouncer in transaction mode does not keep LISTEN on a server connection.
 *
 * After a loss it reconnects with backoff (logged once per outage, and once when back) and emits
 * `resync`, because NOTIFYs sent while nobody listened are gone.
 */
export function createPostgresRealtime(url: string, opts: PostgresRealtimeOptions = {}): Realtime {
  const minRetryMs = opts.minRetryMs ?? 500;
  const maxRetryMs = opts.maxRetryMs ?? 30_000;
  const pingMs = opts.pingMs ?? 30_000;
  const subscribers = new Subscribers();
  let log: RealtimeLog = { info: () => {}, warn: () => {} };
  let client: pg.Client | null = null;
  let closed = false;
  let started: Promise<void> | null = null;
  let retryMs = minRetryMs;
  let retryTimer: NodeJS.Timeout | null = null;
  let pingTimer: NodeJS.Timeout | null = null;
  let lostSince: number | null = null;

  const drop = (c: pg.Client) => {
    c.removeAllListeners('notification');
    c.on('error', () => {});
    c.end().catch(() => {});
  };

  const lost = (c: pg.Client, err: unknown) => {
    if (client !== c) return;
    client = null;
    if (pingTimer) clearInterval(pingTimer);
    pingTimer = null;
    drop(c);
    if (closed) return;
    if (lostSince === null) {
      lostSince = Date.now();
      log.warn({ err: { message: (err as Error)?.message ?? String(err) } }, 'live events: database listener lost, reconnecting');
    }
    schedule();
  };

  const schedule = () => {
    if (closed || retryTimer) return;
    const delay = retryMs;
    retryMs = Math.min(retryMs * 2, maxRetryMs);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().catch(() => {});
    }, delay);
    retryTimer.unref();
  };

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: url, keepAlive: true, keepAliveInitialDelayMillis: 10_000, connectionTimeoutMillis: 5_000, application_name: 'hp-live-events' });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c, new Error('connection ended')));
    c.on('notification', (msg) => {
      if (msg.channel !== EVENTS_CHANNEL) return;
      const message = parseNotification(msg.payload);
      if (message) subscribers.emit(message);
    });
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (err) {
      lost(c, err);
      throw err;
    }
    if (closed) {
      drop(c);
      return;
    }
    retryMs = minRetryMs;
    pingTimer = setInterval(() => {
      c.query({ text: 'select 1', query_timeout: 5_000 } as pg.QueryConfig).catch((err: unknown) => lost(c, err));
    }, pingMs);
    pingTimer.unref();
    if (lostSince !== null) {
      log.info({ downMs: Date.now() - lostSince }, 'live events: database listener reconnected');
      lostSince = null;
      // Changes committed while nobody listened were not heard: clients refetch.
      subscribers.emit({ kind: 'resync' });
    }
  }

  return {
    kind: 'postgres',
    start(logger) {
      log = logger;
      // The first connection must work (as the pool's does at start-up); later losses reconnect.
      started ??= connect();
      return started;
    },
    subscribe: (listener) => subscribers.add(listener),
    async close() {
      closed = true;
      subscribers.clear();
      if (retryTimer) clearTimeout(retryTimer);
      if (pingTimer) clearInterval(pingTimer);
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners('notification');
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}

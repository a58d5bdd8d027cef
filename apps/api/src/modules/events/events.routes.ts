import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { liveEventMessages, type LiveEvent } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { AppError, tooManyRequests } from '../../http/errors.ts';
import { verifyToken } from '../../lib/tokens.ts';
import type { RealtimeMessage } from '../../drivers/realtime/realtime.ts';
import { findEventAudience, findOpenSessions } from './events.service.ts';

/** Open streams per account and instance (tabs, windows); beyond it 429. */
export const MAX_STREAMS_PER_USER = 10;
/** Proxies and load balancers close idle connections (often after 30–60 s); a comment keeps it busy. */
export const HEARTBEAT_MS = 25_000;

interface Stream {
  userId: string;
  sessionId: string;
  res: ServerResponse;
  expiry: NodeJS.Timeout;
}

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * GET /api/events: one Server-Sent Events stream per tab (docs/decisions/011). The stream is opened with
 * the bearer token like any REST call (the web client reads it with fetch, not EventSource), carries ids
 * only, and each event is checked against the REST rules for that server before it is written.
 */
export async function eventRoutes(app: FastifyInstance) {
  const realtime = app.deps.realtime;
  const streams = new Set<Stream>();
  const perUser = new Map<string, number>();

  const end = (stream: Stream) => {
    if (!streams.delete(stream)) return;
    clearTimeout(stream.expiry);
    const left = (perUser.get(stream.userId) ?? 1) - 1;
    if (left > 0) perUser.set(stream.userId, left);
    else perUser.delete(stream.userId);
    if (!stream.res.writableEnded) stream.res.end();
  };

  const write = (stream: Stream, chunk: string) => {
    if (stream.res.writableEnded || stream.res.destroyed) return end(stream);
    stream.res.write(chunk);
  };

  // Events are handled one after another (order kept, one query each); an event already waiting is not
  // queued twice, which folds bursts such as progress updates of one task.
  const waiting = new Set<string>();
  let queue: Promise<void> = Promise.resolve();
  const deliver = async (event: LiveEvent) => {
    if (streams.size === 0) return;
    const audience = await findEventAudience(app.db, event, [...new Set([...streams].map((s) => s.sessionId))]);
    const chunk = frame(event.type, event);
    for (const stream of [...streams]) {
      const seen = audience.get(stream.sessionId);
      if (!seen?.valid) end(stream);
      else if (seen.allowed) write(stream, chunk);
    }
  };
  // Sessions of an account were revoked (logout, lock, deletion, role change): its streams on this
  // instance end now, not at the next event or when the access token runs out.
  const endRevoked = async (userId: string) => {
    const own = [...streams].filter((s) => s.userId === userId);
    if (own.length === 0) return;
    const open = await findOpenSessions(app.db, [...new Set(own.map((s) => s.sessionId))]);
    for (const stream of own) if (!open.has(stream.sessionId)) end(stream);
  };
  const onMessage = (message: RealtimeMessage) => {
    if (message.kind === 'resync') {
      for (const stream of [...streams]) write(stream, frame('resync', {}));
      return;
    }
    if (message.kind === 'publicChanged') return;
    if (message.kind === 'sessionsEnded' && !perUser.has(message.userId)) return;
    const key = message.kind === 'event' ? JSON.stringify(message.event) : `sessions:${message.userId}`;
    if (waiting.has(key)) return;
    waiting.add(key);
    queue = queue.then(() => {
      waiting.delete(key);
      return message.kind === 'event' ? deliver(message.event) : endRevoked(message.userId);
    }).catch((err: unknown) => {
      // Database unreachable: the event is lost for these clients, their fallback poll catches up.
      app.log.warn({ err: { message: (err as Error).message } }, 'live events: could not authorise an event');
    });
  };

  let unsubscribe = () => {};
  let heartbeat: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (!realtime) return;
    await realtime.start(app.log);
    unsubscribe = realtime.subscribe(onMessage);
    heartbeat = setInterval(() => {
      for (const stream of [...streams]) write(stream, ': ping\n\n');
    }, HEARTBEAT_MS);
    heartbeat.unref();
  });
  // Before the server stops accepting: open streams would otherwise keep close() waiting forever.
  app.addHook('preClose', async () => {
    unsubscribe();
    clearInterval(heartbeat);
    for (const stream of [...streams]) end(stream);
  });
  app.addHook('onClose', async () => {
    await realtime?.close();
  });

  const u = signedInRoutes(app);
  u.get('/api/events', {
    config: { access: 'customer' },
    schema: {
      tags: ['events'],
      summary: 'Live-Ereignisse (Server-Sent Events): server.changed und task.changed mit Ids; danach die REST-Route abfragen',
      security: [{ bearer: [] }],
    },
  }, async (req, reply) => {
    // Only a client that asks for a stream gets one: a plain request (a link, a crawler, app.inject in
    // the route matrix, a HEAD request) gets a finished answer instead of a response that never ends.
    if (req.method !== 'GET' || !(req.headers.accept ?? '').includes('text/event-stream')) throw new AppError(406, 'NOT_ACCEPTABLE', liveEventMessages.notAcceptable);
    const open = perUser.get(req.user.id) ?? 0;
    if (open >= MAX_STREAMS_PER_USER) throw tooManyRequests(30, liveEventMessages.tooManyStreams, 'TOO_MANY_STREAMS');
    // The auth hook checked the token; its expiry ends the stream, so the client reconnects with a fresh
    // token and identity is never older than one access token.
    const claims = await verifyToken(app.deps.secrets.jwtKey, (req.headers.authorization ?? '').slice(7).trim(), 'access');
    const msLeft = Math.max(1_000, ((claims as { exp?: number } | null)?.exp ?? 0) * 1000 - Date.now());

    perUser.set(req.user.id, open + 1);
    reply.hijack();
    const res = reply.raw;
    const stream: Stream = { userId: req.user.id, sessionId: req.user.sessionId, res, expiry: setTimeout(() => end(stream), Math.min(msLeft, 2_147_000_000)) };
    stream.expiry.unref();
    streams.add(stream);
    req.raw.on('close', () => end(stream));
    res.on('error', () => end(stream));
    // Written on the raw response: no onSend hook runs, so neither compression nor a serializer buffers it.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
      'x-request-id': req.id,
    });
    res.flushHeaders();
    write(stream, `retry: 5000\n${frame('ready', {})}`);
  });
}

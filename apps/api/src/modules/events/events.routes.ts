import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { liveEventMessages, type LiveEvent } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { AppError, tooManyRequests } from '../../http/errors.ts';
import { verifyToken } from '../../lib/tokens.ts';
import type { RealtimeMessage } from '../../drivers/realtime/realtime.ts';
import { findEventTargets, findOpenSessions } from './events.service.ts';

/** Open streams per account and instance (tabs, windows); beyond it 429. */
export const MAX_STREAMS_PER_USER = 10;
/** Proxies and load balancers close idle connections (often after 30–60 s); a comment keeps it busy. */
export const HEARTBEAT_MS = 25_000;

interface Stream {
  userId: string;
  sessionId: string;
  /** Opened by an employee or owner: hears every server and ticket (the session check keeps it exact). */
  staff: boolean;
  res: ServerResponse;
  expiry: NodeJS.Timeout;
}

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * GET /api/events: one Server-Sent Events stream per tab (docs/decisions/011). The stream is opened with
 * the bearer token like any REST call (the web client reads it with fetch, not EventSource), carries ids
 * only, and each event is checked against the REST rules for that resource before it is written.
 *
 * Scaling with customers (docs/decisions/029): streams are kept by account; an event's audience comes
 * from the resource (owner, shares, the ticket's customer, staff), not from asking about every open
 * session; events arriving together are handled as one batch with a fixed number of queries, and each
 * stream gets the batch's frames in one write.
 */
export async function eventRoutes(app: FastifyInstance) {
  const realtime = app.deps.realtime;
  const streams = new Set<Stream>();
  const byUser = new Map<string, Set<Stream>>();
  const staffStreams = new Set<Stream>();

  const end = (stream: Stream) => {
    if (!streams.delete(stream)) return;
    clearTimeout(stream.expiry);
    staffStreams.delete(stream);
    const own = byUser.get(stream.userId);
    own?.delete(stream);
    if (own?.size === 0) byUser.delete(stream.userId);
    if (!stream.res.writableEnded) stream.res.end();
  };

  const write = (stream: Stream, chunk: string) => {
    if (stream.res.writableEnded || stream.res.destroyed) return end(stream);
    stream.res.write(chunk);
  };

  // One batch at a time (order kept); what arrives meanwhile waits in `pending`, where an identical event
  // is kept once: bursts such as progress updates of one task fold into one frame.
  let pending = new Map<string, LiveEvent>();
  let pumping = false;
  const deliver = async (events: LiveEvent[]) => {
    if (streams.size === 0) return;
    const targets = await findEventTargets(app.db, events);
    const audiences = events.map((event, i) => {
      const audience = new Set<Stream>(staffStreams);
      if (event.type !== 'ticket.noted' && event.type !== 'ticket.presence') {
        for (const userId of targets[i]!) for (const stream of byUser.get(userId) ?? []) audience.add(stream);
      }
      return audience;
    });
    const reached = new Set(audiences.flatMap((a) => [...a]));
    if (reached.size === 0) return;
    // Exact to the session: one that ended (logout, lock, expiry, role change) stops receiving.
    const open = await findOpenSessions(app.db, [...new Set([...reached].map((s) => s.sessionId))]);
    const out = new Map<Stream, string>();
    events.forEach((event, i) => {
      const chunk = frame(event.type, event);
      for (const stream of audiences[i]!) if (open.has(stream.sessionId)) out.set(stream, (out.get(stream) ?? '') + chunk);
    });
    for (const stream of reached) {
      if (!open.has(stream.sessionId)) end(stream);
      else write(stream, out.get(stream)!);
    }
  };
  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      while (pending.size > 0) {
        const batch = [...pending.values()];
        pending = new Map();
        try {
          await deliver(batch);
        } catch (err) {
          // Database unreachable: the events are lost for these clients, their fallback poll catches up.
          app.log.warn({ err: { message: (err as Error).message }, events: batch.length }, 'live events: could not authorise events');
        }
      }
    } finally {
      pumping = false;
    }
  };

  // Sessions of an account were revoked (logout, lock, deletion, role change): its streams on this
  // instance end now, not at the next event or when the access token runs out.
  const endRevoked = async (userId: string) => {
    const own = [...(byUser.get(userId) ?? [])];
    if (own.length === 0) return;
    const open = await findOpenSessions(app.db, [...new Set(own.map((s) => s.sessionId))]);
    for (const stream of own) if (!open.has(stream.sessionId)) end(stream);
  };
  const onMessage = (message: RealtimeMessage) => {
    switch (message.kind) {
      case 'resync':
        for (const stream of [...streams]) write(stream, frame('resync', {}));
        return;
      case 'publicChanged':
        return;
      case 'sessionsEnded':
        if (byUser.has(message.userId)) {
          endRevoked(message.userId).catch((err: unknown) => app.log.warn({ err: { message: (err as Error).message } }, 'live events: could not check ended sessions'));
        }
        return;
      case 'event':
        pending.set(JSON.stringify(message.event), message.event);
        // Notifications that arrive together (one socket read) are collected before the batch starts.
        if (!pumping) setImmediate(() => void pump());
    }
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
    const openOf = () => byUser.get(req.user.id)?.size ?? 0;
    if (openOf() >= MAX_STREAMS_PER_USER) throw tooManyRequests(30, liveEventMessages.tooManyStreams, 'TOO_MANY_STREAMS');
    // The auth hook checked the token; its expiry ends the stream, so the client reconnects with a fresh
    // token and identity is never older than one access token.
    const claims = await verifyToken(app.deps.secrets.jwtKey, (req.headers.authorization ?? '').slice(7).trim(), 'access');
    const msLeft = Math.max(1_000, ((claims as { exp?: number } | null)?.exp ?? 0) * 1000 - Date.now());
    if (openOf() >= MAX_STREAMS_PER_USER) throw tooManyRequests(30, liveEventMessages.tooManyStreams, 'TOO_MANY_STREAMS');

    reply.hijack();
    const res = reply.raw;
    const stream: Stream = {
      userId: req.user.id,
      sessionId: req.user.sessionId,
      staff: req.user.role === 'employee' || req.user.role === 'owner',
      res,
      expiry: setTimeout(() => end(stream), Math.min(msLeft, 2_147_000_000)),
    };
    stream.expiry.unref();
    streams.add(stream);
    let own = byUser.get(stream.userId);
    if (!own) byUser.set(stream.userId, (own = new Set()));
    own.add(stream);
    if (stream.staff) staffStreams.add(stream);
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

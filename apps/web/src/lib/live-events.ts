import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { LiveEvent } from '@hp/contract';
import { clearToken, getToken, refreshAccessToken } from './session.ts';

/**
 * The tab's one live-event stream (GET /api/events, docs/decisions/011). EventSource cannot send the
 * bearer header, so this reads the Server-Sent Events format from fetch() and reconnects itself.
 * Events carry ids only; the client refetches through the REST routes (same authorisation).
 */

export interface SseMessage { event: string; data: string }

/** Incremental parser of the text/event-stream format (WHATWG HTML §9.2): chunks may split anywhere. */
export function createSseParser(onMessage: (message: SseMessage) => void) {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const line = (text: string) => {
    if (text === '') {
      if (data.length || event) onMessage({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  return (chunk: string) => {
    buffer += chunk;
    let cut: number;
    while ((cut = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
      if (buffer[cut] === '\r' && cut === buffer.length - 1) break;
      const width = buffer.startsWith('\r\n', cut) ? 2 : 1;
      line(buffer.slice(0, cut));
      buffer = buffer.slice(cut + width);
    }
  };
}

export interface LiveEventsOptions {
  onEvent(event: LiveEvent): void;
  /** After every (re)connect and on `resync`: whatever happened meanwhile was not heard. */
  onSync(): void;
  fetch?: typeof fetch;
  /** Backoff between attempts (doubles, with jitter). */
  minRetryMs?: number;
  maxRetryMs?: number;
  /** Without a byte this long (the server sends a comment every 25 s) the connection counts as dead. */
  silenceMs?: number;
}

const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => {
    clearTimeout(timer);
    resolve();
  }, { once: true });
});

/** Opens the stream and keeps it open until the returned function is called. */
export function connectLiveEvents(opts: LiveEventsOptions): () => void {
  const doFetch = opts.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const minRetryMs = opts.minRetryMs ?? 1_000;
  const maxRetryMs = opts.maxRetryMs ?? 30_000;
  const silenceMs = opts.silenceMs ?? 60_000;
  const stopped = new AbortController();
  let retryMs = minRetryMs;

  const dispatch = (message: SseMessage) => {
    if (message.event === 'ready' || message.event === 'resync') {
      // A working stream resets the backoff.
      retryMs = minRetryMs;
      opts.onSync();
      return;
    }
    try {
      const parsed = LiveEvent.safeParse({ ...(JSON.parse(message.data) as object), type: message.event });
      if (parsed.success) opts.onEvent(parsed.data);
    } catch {
      // Not ours: ignored.
    }
  };

  /** One connection; resolves when it ends. Returns false when the stream must not be reopened. */
  const once = async (): Promise<boolean | 'later'> => {
    const token = getToken();
    if (!token) return false;
    const attempt = new AbortController();
    const abortAttempt = () => attempt.abort();
    stopped.signal.addEventListener('abort', abortAttempt, { once: true });
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(abortAttempt, silenceMs);
    };
    try {
      alive();
      const res = await doFetch('/api/events', {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
        credentials: 'same-origin',
        cache: 'no-store',
        signal: attempt.signal,
      });
      if (res.status === 401) {
        // Expired access token (the server also ends the stream then): refresh like api() does.
        if (await refreshAccessToken(token)) return true;
        clearToken();
        return false;
      }
      if (res.status === 429) return 'later';
      if (!res.ok || !res.body) return true;
      const parse = createSseParser(dispatch);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        alive();
        parse(value);
      }
      return true;
    } catch {
      return true;
    } finally {
      clearTimeout(watchdog);
      stopped.signal.removeEventListener('abort', abortAttempt);
    }
  };

  void (async () => {
    while (!stopped.signal.aborted) {
      const next = await once();
      if (next === false || stopped.signal.aborted) return;
      const wait = next === 'later' ? maxRetryMs * 2 : retryMs;
      retryMs = Math.min(retryMs * 2, maxRetryMs);
      await sleep(wait * (0.75 + Math.random() * 0.5), stopped.signal);
    }
  })();
  return () => stopped.abort();
}

/**
 * The cached queries an event makes stale (features/servers/api/servers.ts, features/support/api/ and the
 * staff pages).
 */
export function staleQueriesFor(event: LiveEvent): { queryKey: QueryKey; exact: boolean }[] {
  if (event.type === 'ticket.changed') {
    return [
      { queryKey: ['tickets'], exact: true },
      { queryKey: ['tickets', 'ticket', event.ticketId], exact: true },
      { queryKey: ['tickets', 'messages', event.ticketId], exact: true },
      { queryKey: ['tickets', 'secrets', event.ticketId], exact: true },
      // A product's ticket panel (the virtual data center's offers) reads under the same ticket.
      { queryKey: ['tickets', 'vdc-offers', event.ticketId], exact: true },
      { queryKey: ['staff-tickets', 'list'], exact: false },
      { queryKey: ['staff-tickets', 'ticket', event.ticketId], exact: true },
      { queryKey: ['staff-tickets', 'messages', event.ticketId], exact: true },
      { queryKey: ['staff-tickets', 'secrets', event.ticketId], exact: true },
      { queryKey: ['staff-tickets', 'vdc-offers', event.ticketId], exact: true },
      // The customer detail lists open tickets.
      { queryKey: ['customers', 'detail'], exact: false },
    ];
  }
  if (event.type === 'ticket.noted') return [{ queryKey: ['staff-tickets', 'messages', event.ticketId], exact: true }];
  if (event.type === 'ticket.presence') return [{ queryKey: ['staff-tickets', 'presence', event.ticketId], exact: true }];
  const id = event.serverId;
  const keys: { queryKey: QueryKey; exact: boolean }[] = [
    { queryKey: ['servers', id], exact: true },
    { queryKey: ['servers', id, 'status'], exact: true },
    { queryKey: ['infrastructure', 'server', id], exact: true },
    // An open staff ticket view shows the customer's servers with status and the affected server's tasks.
    { queryKey: ['staff-tickets', 'ticket'], exact: false },
    // The customer detail lists the customer's servers with their status.
    { queryKey: ['customers', 'detail'], exact: false },
  ];
  if (event.type === 'server.changed') {
    keys.push({ queryKey: ['servers'], exact: true }, { queryKey: ['infrastructure', 'servers'], exact: false });
  } else {
    keys.push({ queryKey: ['servers', id, 'backups'], exact: true });
  }
  return keys;
}

/**
 * Connects the stream to the query cache. Invalidations are gathered for a moment, so a burst (a task's
 * progress, a power action touching server and task) refetches each query once; only queries on screen
 * refetch, the others are just marked stale.
 */
export function startLiveEvents(client: QueryClient, opts: Partial<LiveEventsOptions> & { batchMs?: number } = {}): () => void {
  const batchMs = opts.batchMs ?? 150;
  const pending = new Map<string, { queryKey: QueryKey; exact: boolean }>();
  let everything = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const all = everything;
    const keys = [...pending.values()];
    everything = false;
    pending.clear();
    if (all) {
      void client.invalidateQueries({ queryKey: ['servers'] });
      void client.invalidateQueries({ queryKey: ['infrastructure', 'server'] });
      void client.invalidateQueries({ queryKey: ['infrastructure', 'servers'] });
      void client.invalidateQueries({ queryKey: ['tickets'] });
      void client.invalidateQueries({ queryKey: ['staff-tickets'] });
      return;
    }
    for (const key of keys) void client.invalidateQueries(key);
  };
  const later = () => {
    timer ??= setTimeout(flush, batchMs);
  };
  const stop = connectLiveEvents({
    ...opts,
    onEvent: (event) => {
      for (const key of staleQueriesFor(event)) pending.set(JSON.stringify(key), key);
      later();
    },
    onSync: () => {
      everything = true;
      later();
    },
  });
  return () => {
    clearTimeout(timer);
    stop();
  };
}

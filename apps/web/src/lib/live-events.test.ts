// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { createSseParser, staleQueriesFor, startLiveEvents, type SseMessage } from './live-events.ts';
import { getToken, setToken } from './session.ts';

const SERVER = '3f0c8a52-9a3e-4c55-8a55-2d7d8d1e0a11';
const OTHER = 'b5a1f0a8-13a7-4b0f-9d43-0f7f7d7e6c22';

/** A fake /api/events: each connection is a stream the test writes to and can cut. */
function fakeEventServer() {
  const connections: { controller: ReadableStreamDefaultController<Uint8Array>; auth: string | undefined }[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/auth/refresh') return new Response(JSON.stringify({ token: 'fresh' }), { status: 200 });
    const auth = (init?.headers as Record<string, string>).authorization;
    if (auth !== 'Bearer fresh') return new Response(JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'Bitte melden Sie sich an.' } }), { status: 401 });
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => { controller = c; } });
    init?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    connections.push({ controller, auth });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  });
  const encoder = new TextEncoder();
  return {
    fetch: fetchMock as unknown as typeof fetch,
    connections,
    send: (text: string) => connections.at(-1)!.controller.enqueue(encoder.encode(text)),
    cut: () => connections.at(-1)!.controller.error(new TypeError('network error')),
  };
}

const until = async (predicate: () => boolean, ms = 2000) => {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('SSE parser', () => {
  it('reads events split across chunks, ignores comments and accepts CRLF', () => {
    const seen: SseMessage[] = [];
    const parse = createSseParser((m) => seen.push(m));
    parse(': ping\n\nretry: 5000\nevent: rea');
    parse('dy\ndata: {}\n\nevent: server.changed\r\ndata: {"type":"server.changed",');
    parse(`"serverId":"${SERVER}"}\r`);
    parse('\n\r\n');
    expect(seen).toEqual([{ event: 'ready', data: '{}' }, { event: 'server.changed', data: `{"type":"server.changed","serverId":"${SERVER}"}` }]);
  });
});

describe('live events in the query cache', () => {
  let client: QueryClient;
  let stop = () => {};
  beforeEach(() => {
    setToken('fresh');
    client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
  });
  afterEach(() => {
    stop();
    client.clear();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  /** A query on screen (an observer), answering with whatever the "server" holds now. */
  function watch(queryKey: unknown[], answer: () => string) {
    const calls = { count: 0 };
    const observer = new QueryObserver(client, { queryKey, queryFn: async () => { calls.count++; return answer(); } });
    const unsubscribe = observer.subscribe(() => {});
    return { calls, observer, unsubscribe };
  }

  it('refetches the server list, detail and status of the changed server only', async () => {
    const server = fakeEventServer();
    const list = watch(['servers'], () => 'list');
    const status = watch(['servers', SERVER, 'status'], () => 'status');
    const otherStatus = watch(['servers', OTHER, 'status'], () => 'other');
    await until(() => list.calls.count === 1 && status.calls.count === 1 && otherStatus.calls.count === 1);
    stop = startLiveEvents(client, { fetch: server.fetch, batchMs: 10 });
    await until(() => server.connections.length === 1);
    server.send(`event: server.changed\ndata: {"type":"server.changed","serverId":"${SERVER}"}\n\n`);
    await until(() => list.calls.count === 2 && status.calls.count === 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(otherStatus.calls.count).toBe(1);
  });

  it('after the event connection drops, it reconnects and the page shows the state it missed', async () => {
    const server = fakeEventServer();
    let state = 'online';
    const status = watch(['servers', SERVER, 'status'], () => state);
    await until(() => status.observer.getCurrentResult().data === 'online');
    stop = startLiveEvents(client, { fetch: server.fetch, batchMs: 10, minRetryMs: 20, maxRetryMs: 40 });
    await until(() => server.connections.length === 1);
    server.send('event: ready\ndata: {}\n\n');

    server.cut();
    // Changed while no stream was open: no event will ever tell about it.
    state = 'offline';
    await until(() => server.connections.length === 2);
    server.send('retry: 5000\nevent: ready\ndata: {}\n\n');
    await until(() => status.observer.getCurrentResult().data === 'offline');
  });

  it('refreshes an expired access token like api() and connects with the new one', async () => {
    setToken('expired');
    const server = fakeEventServer();
    // The refresh goes through lib/session.ts, which uses the global fetch.
    vi.stubGlobal('fetch', server.fetch);
    stop = startLiveEvents(client, { minRetryMs: 10 });
    await until(() => server.connections.length === 1);
    expect(server.connections[0]!.auth).toBe('Bearer fresh');
    expect(getToken()).toBe('fresh');
  });

  it('stops for good when the stop function is called', async () => {
    const server = fakeEventServer();
    stop = startLiveEvents(client, { fetch: server.fetch, minRetryMs: 10 });
    await until(() => server.connections.length === 1);
    stop();
    await new Promise((r) => setTimeout(r, 100));
    expect(server.connections.length).toBe(1);
  });
});

describe('ticket events', () => {
  const TICKET = '7d1f4b8e-2c1a-4e0b-9a51-6b9e2f3c4d55';
  const keys = (event: Parameters<typeof staleQueriesFor>[0]) => staleQueriesFor(event).map((k) => JSON.stringify(k));

  it('a ticket change refreshes the customer list, that ticket, its chat, secrets and offers, the staff lists and view, and customer details', () => {
    expect(keys({ type: 'ticket.changed', ticketId: TICKET })).toEqual([
      JSON.stringify({ queryKey: ['tickets'], exact: true }),
      JSON.stringify({ queryKey: ['tickets', 'ticket', TICKET], exact: true }),
      JSON.stringify({ queryKey: ['tickets', 'messages', TICKET], exact: true }),
      JSON.stringify({ queryKey: ['tickets', 'secrets', TICKET], exact: true }),
      JSON.stringify({ queryKey: ['tickets', 'vdc-offers', TICKET], exact: true }),
      JSON.stringify({ queryKey: ['staff-tickets', 'list'], exact: false }),
      JSON.stringify({ queryKey: ['staff-tickets', 'ticket', TICKET], exact: true }),
      JSON.stringify({ queryKey: ['staff-tickets', 'messages', TICKET], exact: true }),
      JSON.stringify({ queryKey: ['staff-tickets', 'secrets', TICKET], exact: true }),
      JSON.stringify({ queryKey: ['staff-tickets', 'vdc-offers', TICKET], exact: true }),
      JSON.stringify({ queryKey: ['customers', 'detail'], exact: false }),
    ]);
  });

  it('a server change refreshes open staff ticket views and customer details (their servers)', () => {
    const stale = keys({ type: 'server.changed', serverId: SERVER });
    expect(stale).toContain(JSON.stringify({ queryKey: ['staff-tickets', 'ticket'], exact: false }));
    expect(stale).toContain(JSON.stringify({ queryKey: ['customers', 'detail'], exact: false }));
  });

  it('presence refreshes the staff presence of that ticket only', () => {
    expect(staleQueriesFor({ type: 'ticket.presence', ticketId: TICKET })).toEqual([{ queryKey: ['staff-tickets', 'presence', TICKET], exact: true }]);
  });

  it('an internal note refreshes the staff chat of the ticket only, no customer query', () => {
    const stale = staleQueriesFor({ type: 'ticket.noted', ticketId: TICKET });
    expect(stale).toEqual([{ queryKey: ['staff-tickets', 'messages', TICKET], exact: true }]);
    expect(stale.some((k) => k.queryKey[0] === 'tickets')).toBe(false);
  });
});

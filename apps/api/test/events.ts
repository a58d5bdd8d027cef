import { afterAll, beforeAll, expect } from 'vitest';
import { createTestContext, type TestContext } from './harness.ts';

/** Clients of GET /api/events (SSE over fetch, as the web app reads it) and several API instances. */

interface SseEvent { event: string; data: string }

/** A client of GET /api/events over fetch (as the web app reads it), collecting events and raw text. */
export async function openStream(baseUrl: string, token: string) {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/events`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'accept-encoding': 'gzip, br' }, signal: abort.signal });
  const events: SseEvent[] = [];
  let raw = '';
  let ended = false;
  const waiters = new Set<() => void>();
  const pump = (async () => {
    if (!res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        raw += value;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const lines = block.split('\n');
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
          if (event) events.push({ event, data });
        }
        waiters.forEach((w) => w());
      }
    } catch {
      // aborted
    }
    ended = true;
    waiters.forEach((w) => w());
  })();
  const waitFor = async (predicate: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, left);
        waiters.add(done);
      });
    }
    return true;
  };
  const about = (serverId: string) => events.filter((e) => e.event !== 'ready' && e.event !== 'resync' && (JSON.parse(e.data) as { serverId: string }).serverId === serverId);
  const stream = {
    res, events, get raw() { return raw; }, get ended() { return ended; }, about,
    /** Resolves once an event about the server arrived; fails after `ms`. */
    async expectEvent(serverId: string, ms = 1000, type = 'server.changed') {
      const ok = await waitFor(() => about(serverId).some((e) => e.event === type), ms);
      expect(ok, `no ${type} for ${serverId} within ${ms} ms`).toBe(true);
    },
    waitFor,
    close: async () => {
      abort.abort();
      await pump;
    },
  };
  if (res.status === 200) await stream.waitFor(() => events.some((e) => e.event === 'ready'), 5000);
  return stream;
}

/**
 * Two API instances on one PostgreSQL database, each with its own listener (what several instances
 * behind a load balancer do); B listens on a port. Call inside a describe block.
 */
export function twoInstancesOnPostgres() {
  const pair = {} as { a: TestContext & { close: () => Promise<void> }; b: TestContext & { close: () => Promise<void> }; baseUrlB: string };
  beforeAll(async () => {
    pair.a = await createTestContext('postgres');
    const url = pair.a.database.listenVia.kind === 'postgres' ? pair.a.database.listenVia.url : '';
    pair.b = await createTestContext('postgres', { databaseUrl: url });
    pair.baseUrlB = await pair.b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await pair.b?.close();
    await pair.a?.close();
  });
  return pair;
}

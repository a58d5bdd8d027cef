// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from './api-client.ts';
import { getToken, setToken } from './session.ts';

/** A fake API: /api/data answers 401 unless it gets the token `fresh`; /api/auth/refresh hands out `fresh`. */
function fakeServer(opts: { onRefresh?: () => void } = {}) {
  const calls: string[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push(url);
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url === '/api/auth/refresh') {
      opts.onRefresh?.();
      await new Promise((r) => setTimeout(r, 5));
      return json(200, { token: 'fresh' });
    }
    const auth = (init?.headers as Record<string, string> | undefined)?.authorization;
    return auth === 'Bearer fresh' ? json(200, { ok: true }) : json(401, { error: { code: 'UNAUTHORIZED', message: 'Bitte melden Sie sich an.' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, refreshes: () => calls.filter((c) => c === '/api/auth/refresh').length };
}

describe('token refresh coordination', () => {
  beforeEach(() => setToken('expired'));
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('sends one refresh for several requests that fail at once in one tab', async () => {
    const server = fakeServer();
    const results = await Promise.all([api('/data'), api('/data'), api('/data')]);
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(server.refreshes()).toBe(1);
    expect(getToken()).toBe('fresh');
  });

  it('uses the token another tab stored meanwhile instead of refreshing again', async () => {
    const server = fakeServer();
    // The request goes out with the old token; before the 401 is handled another tab stores a new one.
    const pending = api('/data');
    setToken('fresh');
    await expect(pending).resolves.toEqual({ ok: true });
    expect(server.refreshes()).toBe(0);
  });

  it('waits for a refresh running in another tab (Web Locks) and then reuses its token', async () => {
    const server = fakeServer();
    let queue = Promise.resolve<unknown>(undefined);
    // A minimal LockManager: one holder at a time, in order.
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        request: (_name: string, task: () => Promise<unknown>) => {
          const run = queue.then(() => task());
          queue = run.catch(() => undefined);
          return run;
        },
      },
    });
    // "Another tab" holds the lock and stores the new token while this tab's request fails.
    let releaseOther!: () => void;
    const otherTab = navigator.locks.request('hp-token-refresh', () => new Promise<void>((resolve) => {
      releaseOther = () => {
        setToken('fresh');
        resolve();
      };
    }));
    const pending = api('/data');
    await new Promise((r) => setTimeout(r, 10));
    expect(server.refreshes()).toBe(0);
    releaseOther();
    await otherTab;
    await expect(pending).resolves.toEqual({ ok: true });
    expect(server.refreshes()).toBe(0);
  });
});

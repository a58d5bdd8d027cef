// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, cleanup, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { setToken } from '../../../lib/session.ts';
import { PRESENCE_HEARTBEAT_MS, TYPING_IDLE_MS, usePresenceHeartbeat } from './presence.ts';

const TICKET = '4a0c8a52-5f0c-4d59-9a52-2f1d5c1c8d10';

/** Records the presence calls: 'PUT false', 'PUT true', 'DELETE keepalive'. */
function fakeServer() {
  const calls: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
    expect(url).toBe(`/api/staff/tickets/${TICKET}/presence`);
    if (init.method === 'PUT') calls.push(`PUT ${String((JSON.parse(String(init.body)) as { typing: boolean }).typing)}`);
    else calls.push(`${init.method} ${init.keepalive ? 'keepalive' : ''}`.trim());
    return init.method === 'DELETE'
      ? new Response(null, { status: 204 })
      : new Response(JSON.stringify({ viewers: [] }), { status: 200, headers: { 'content-type': 'application/json' } });
  }));
  return calls;
}

let visibility: DocumentVisibilityState = 'visible';

function renderHeartbeat() {
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => usePresenceHeartbeat(TICKET, true), { wrapper });
}

describe('presence heartbeat of the supporter view', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    setToken('token');
    visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('beats at once and every 10 s, not while the tab is hidden, and leaves with keepalive on unmount', async () => {
    const calls = fakeServer();
    const { unmount } = renderHeartbeat();
    expect(calls).toEqual(['PUT false']);
    await act(() => vi.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS * 2));
    expect(calls).toEqual(['PUT false', 'PUT false', 'PUT false']);
    visibility = 'hidden';
    await act(() => vi.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS * 3));
    expect(calls).toHaveLength(3);
    visibility = 'visible';
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(calls).toHaveLength(4);
    unmount();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(calls.at(-1)).toBe('DELETE keepalive');
    await act(() => vi.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS * 2));
    expect(calls.at(-1)).toBe('DELETE keepalive');
  });

  it('reports typing on the first keystroke, ends it 4 s after the last one, and at once when the draft is sent', async () => {
    const calls = fakeServer();
    const { result } = renderHeartbeat();
    act(() => result.current('H'));
    act(() => result.current('Ha'));
    expect(calls).toEqual(['PUT false', 'PUT true']);
    await act(() => vi.advanceTimersByTimeAsync(TYPING_IDLE_MS - 500));
    act(() => result.current('Hal'));
    await act(() => vi.advanceTimersByTimeAsync(TYPING_IDLE_MS - 500));
    expect(calls).toEqual(['PUT false', 'PUT true']);
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(calls).toEqual(['PUT false', 'PUT true', 'PUT false']);

    act(() => result.current('Hallo'));
    act(() => result.current(''));
    expect(calls.slice(3)).toEqual(['PUT true', 'PUT false']);
    // No late "stopped typing" from the cleared timer (the next heartbeat is due at 10 s).
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(calls).toHaveLength(5);
  });
});

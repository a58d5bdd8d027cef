import { messages } from '@hp/contract';
import { clearToken, getToken, setToken } from '../features/auth/session.ts';

/** A failed API call with the server's German message. */
export class ApiRequestError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly details?: Record<string, unknown>) {
    super(message);
  }
}

interface Options {
  method?: string;
  body?: unknown;
  /** Skip the bearer token (login, registration). */
  anonymous?: boolean;
  signal?: AbortSignal;
}

let refreshing: Promise<boolean> | null = null;

/**
 * Serialises refreshes across the tabs of this browser where Web Locks exist (all current browsers).
 * request() resolves with the task's result; lib.dom types it as a nested promise, hence the then().
 */
const acrossTabs = (task: () => Promise<boolean>): Promise<boolean> =>
  typeof navigator !== 'undefined' && navigator.locks ? navigator.locks.request('hp-token-refresh', () => task()).then((granted) => granted) : task();

/**
 * Trades the HttpOnly refresh cookie for a new access token. One refresh at a time: callers in this tab
 * share the promise, and other tabs wait for the lock. `staleToken` is the token the failed request
 * carried; when the stored token differs by the time it is our turn, another tab has already refreshed
 * and this tab simply uses its token. (The server also accepts the just-replaced cookie for 30 s, so
 * browsers without Web Locks are not signed out either; docs/decisions/002.)
 */
export function refreshAccessToken(staleToken: string | null = getToken()): Promise<boolean> {
  refreshing ??= acrossTabs(async () => {
    const current = getToken();
    if (current && current !== staleToken) return true;
    const res = await fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin' });
    if (!res.ok) return false;
    const data = (await res.json()) as { token: string };
    setToken(data.token);
    return true;
  })
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

export async function api<T>(path: string, opts: Options = {}): Promise<T> {
  let sentToken: string | null = null;
  const send = () => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    sentToken = getToken();
    if (sentToken && !opts.anonymous) headers.authorization = `Bearer ${sentToken}`;
    return fetch(`/api${path}`, {
      method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'same-origin',
      signal: opts.signal,
    });
  };
  let res: Response;
  try {
    res = await send();
    if (res.status === 401 && !opts.anonymous && getToken()) {
      if (await refreshAccessToken(sentToken)) res = await send();
      else clearToken();
    }
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiRequestError(0, 'NETWORK', messages.genericError);
  }
  if (res.status === 204) return undefined as T;
  const data = (await res.json().catch(() => null)) as { error?: { code: string; message: string; details?: Record<string, unknown> } } | null;
  if (!res.ok) {
    throw new ApiRequestError(res.status, data?.error?.code ?? 'UNKNOWN', data?.error?.message ?? messages.genericError, data?.error?.details);
  }
  return data as T;
}

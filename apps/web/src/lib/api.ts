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

/** Trades the HttpOnly refresh cookie for a new access token; one refresh at a time. */
export function refreshAccessToken(): Promise<boolean> {
  refreshing ??= fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin' })
    .then(async (res) => {
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
  const send = () => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const token = getToken();
    if (token && !opts.anonymous) headers.authorization = `Bearer ${token}`;
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
      if (await refreshAccessToken()) res = await send();
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

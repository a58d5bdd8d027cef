import { messages } from '@hp/contract';
import { fetchWithSession } from './session.ts';

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

/** A JSON call to `/api${path}` with the session (lib/session.ts); errors become ApiRequestError. */
export async function api<T>(path: string, opts: Options = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetchWithSession(`/api${path}`, {
      method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    }, { anonymous: opts.anonymous });
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

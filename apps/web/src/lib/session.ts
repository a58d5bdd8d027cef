import { useSyncExternalStore } from 'react';
import type { Role } from '@hp/contract';

/** The spec stores the access token in localStorage under `jwt`; the refresh token is an HttpOnly cookie. */
export const TOKEN_KEY = 'jwt';
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

const storage = () => (typeof window === 'undefined' ? null : window.localStorage);

export const getToken = () => storage()?.getItem(TOKEN_KEY) ?? null;
export function setToken(token: string) {
  storage()?.setItem(TOKEN_KEY, token);
  notify();
}
export function clearToken() {
  storage()?.removeItem(TOKEN_KEY);
  notify();
}

export interface SessionClaims {
  sub: string;
  customerId: string;
  role: Role;
  exp: number;
}

/** Reads the claims for display only; the server checks every request itself. */
export function readClaims(token: string | null): SessionClaims | null {
  if (!token) return null;
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const json = decodeURIComponent(
      atob(payload.replace(/-/g, '+').replace(/_/g, '/'))
        .split('')
        .map((c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0'))
        .join(''),
    );
    const claims = JSON.parse(json) as Partial<SessionClaims>;
    if (!claims.role || !claims.customerId) return null;
    return claims as SessionClaims;
  } catch {
    console.error('Token konnte nicht gelesen werden:');
    return null;
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => e.key === TOKEN_KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The stored token; null during prerendering, so the server HTML always shows "Login". */
export function useToken() {
  return useSyncExternalStore(subscribe, getToken, () => null);
}

export function useSession() {
  const token = useToken();
  return { token, claims: readClaims(token) };
}

export const isStaff = (role: Role | undefined) => role === 'employee' || role === 'owner';

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

/**
 * The one place that sends a request with the session: the bearer token, and on a 401 one shared
 * refresh and a single retry; when the refresh fails the session ends (the token is removed).
 * JSON calls (api-client.ts) and file downloads use it alike. Network errors propagate.
 */
export async function fetchWithSession(url: string, init: RequestInit & { headers?: Record<string, string> } = {}, { anonymous = false } = {}): Promise<Response> {
  let sentToken: string | null = null;
  const send = () => {
    const headers: Record<string, string> = { ...init.headers };
    sentToken = getToken();
    if (sentToken && !anonymous) headers.authorization = `Bearer ${sentToken}`;
    return fetch(url, { ...init, headers, credentials: 'same-origin' });
  };
  let res = await send();
  if (res.status === 401 && !anonymous && getToken()) {
    if (await refreshAccessToken(sentToken)) res = await send();
    else clearToken();
  }
  return res;
}

/** Ends the session on the server (refresh cookie and token) and forgets the token here. */
export async function logout() {
  try {
    await fetchWithSession('/api/auth/logout', { method: 'POST', headers: { accept: 'application/json' } });
  } catch {
    // The token is dropped locally either way.
  }
  clearToken();
}

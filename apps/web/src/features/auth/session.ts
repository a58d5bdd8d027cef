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

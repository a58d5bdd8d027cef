import { webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Role } from '@hp/contract';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const MFA_TOKEN_TTL_SECONDS = 5 * 60;
export const RESET_TOKEN_TTL_SECONDS = 10 * 60;
/** A login refused for an unverified address may be completed by the code within this time. */
export const VERIFY_LOGIN_TOKEN_TTL_SECONDS = 30 * 60;
/** A console token only opens one websocket, once, within this time. */
export const CONSOLE_TOKEN_TTL_SECONDS = 60;

export type TokenPurpose = 'access' | 'mfa' | 'password_reset' | 'console' | 'verify_login';

interface BaseClaims { sub: string; pur: TokenPurpose }
export interface AccessTokenClaims extends BaseClaims { pur: 'access'; sid: string; customerId: string; role: Role }
export interface MfaTokenClaims extends BaseClaims { pur: 'mfa' }
export interface ResetTokenClaims extends BaseClaims { pur: 'password_reset'; cid: string }
/** The password of an unverified account was right: the e-mail code may finish the login. */
export interface VerifyLoginTokenClaims extends BaseClaims { pur: 'verify_login' }
/** Opens the console of one server (srv) for one session (sid); jti makes it single use. */
export interface ConsoleTokenClaims extends BaseClaims { pur: 'console'; sid: string; srv: string; jti: string }
type ClaimsOf<P extends TokenPurpose> = Extract<AccessTokenClaims | MfaTokenClaims | ResetTokenClaims | ConsoleTokenClaims | VerifyLoginTokenClaims, { pur: P }>;

/**
 * The HMAC key as a WebCrypto key, imported once per key. Handed the raw bytes, jose imports them again on
 * every sign and verify: a fifth of the CPU of a cheap authenticated request (`npm run bench`, profile route).
 */
const cryptoKeys = new WeakMap<Uint8Array, Promise<webcrypto.CryptoKey>>();
function hmacKey(key: Uint8Array): Promise<webcrypto.CryptoKey> {
  let imported = cryptoKeys.get(key);
  if (!imported) {
    imported = webcrypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    cryptoKeys.set(key, imported);
  }
  return imported;
}

export async function signToken<P extends TokenPurpose>(key: Uint8Array, claims: ClaimsOf<P>, ttlSeconds: number) {
  const { sub, ...rest } = claims;
  return new SignJWT({ ...rest })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(await hmacKey(key));
}

/** Verifies signature, algorithm, expiry and purpose; returns null for any failure. */
export async function verifyToken<P extends TokenPurpose>(key: Uint8Array, token: string, purpose: P): Promise<ClaimsOf<P> | null> {
  try {
    const { payload } = await jwtVerify(token, await hmacKey(key), { algorithms: ['HS256'] });
    if (payload.pur !== purpose || typeof payload.sub !== 'string') return null;
    return payload as unknown as ClaimsOf<P>;
  } catch (err) {
    if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}

import crypto from 'node:crypto';
import { hmac, type Secrets } from '../../lib/secrets.ts';

/**
 * Device cookies (docs/decisions/026, after OWASP's "Slow down online guessing attacks with device
 * cookies"): a browser in which an account completed a login before carries a signed list of those
 * accounts. Such a browser passes the account-wide login brake, so an attacker who floods an account
 * from many addresses slows down only browsers the account never used; the owner's own devices
 * keep signing in at once. The cookie proves only "this browser signed in as X before"; the password
 * (and TOTP) are still checked, and the per-address limits still apply.
 */
export const DEVICE_COOKIE = 'hp_device';
export const DEVICE_COOKIE_DAYS = 365;
const MAX_ACCOUNTS = 5;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sign = (secrets: Secrets, payload: string) => hmac(secrets.hmacKey, `device:${payload}`);

/** The account ids a valid cookie names; anything forged, altered or malformed names none. */
export function knownAccounts(secrets: Secrets, cookie: string | undefined): string[] {
  if (!cookie || cookie.length > 1024) return [];
  const dot = cookie.lastIndexOf('.');
  if (dot < 1) return [];
  const payload = cookie.slice(0, dot);
  const mac = Buffer.from(cookie.slice(dot + 1), 'hex');
  const expected = Buffer.from(sign(secrets, payload), 'hex');
  if (mac.length !== expected.length || !crypto.timingSafeEqual(mac, expected)) return [];
  try {
    const ids: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string' && UUID.test(id)).slice(0, MAX_ACCOUNTS) : [];
  } catch {
    return [];
  }
}

/** The cookie value after `userId` signed in here: that account first, at most five. */
export function rememberAccount(secrets: Secrets, cookie: string | undefined, userId: string): string {
  const ids = [userId, ...knownAccounts(secrets, cookie).filter((id) => id !== userId)].slice(0, MAX_ACCOUNTS);
  const payload = Buffer.from(JSON.stringify(ids)).toString('base64url');
  return `${payload}.${sign(secrets, payload)}`;
}

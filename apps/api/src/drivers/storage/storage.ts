/**
 * The cloud-storage port (issue 23): a customer's storage is one Nextcloud account on a storage server
 * (a Nextcloud instance staff enter later). Every implementation fills this interface: the simulated
 * server (embedded default, state in sim_storage_accounts) and Nextcloud's provisioning API. Facts:
 * docs/integrations/nextcloud.md and ../shared/integrations/nextcloud.md.
 */

/** A storage server: the Nextcloud instance's base URL (https://cloud1.example.net, maybe with a path). */
export interface StorageServerRef {
  url: string;
  /** SHA-256 fingerprint of this server's certificate, pinned; absent: the driver's default (NEXTCLOUD_FINGERPRINT). */
  fingerprint?: string;
}

/** One account: the server it lives on and its Nextcloud user id (the login name). */
export interface StorageAccountRef {
  server: StorageServerRef;
  userId: string;
}

export interface CreateStorageAccountSpec {
  server: StorageServerRef;
  userId: string;
  password: string;
  displayName: string;
  /** Required: a retried create recognises its own earlier attempt by it. */
  email: string;
  /** Bytes; null is unlimited ("none"). Nextcloud keeps it rounded, see nextcloudQuota(). */
  quotaBytes: number | null;
}

export interface StorageAccount {
  /** The id as Nextcloud spells it (user ids compare case-insensitively there). */
  userId: string;
  displayName: string;
  email: string | null;
  enabled: boolean;
  /** What Nextcloud keeps (rounded like its humanFileSize); null is unlimited. */
  quotaBytes: number | null;
  /** Bytes in the user's files; Nextcloud updates it when files change, so it lags a little. */
  usedBytes: number;
  /** Free bytes under the quota; null where unlimited or the user never logged in (Nextcloud does not know yet). */
  freeBytes: number | null;
  /** Used share of the quota in percent (0 where unlimited). */
  usedPercent: number;
  /** Last login of the user in a browser or client; null: never. */
  lastLoginAt: Date | null;
}

/** What the customer needs to connect: the web interface and the WebDAV address (network drive, sync clients). */
export interface StorageAddresses {
  webUrl: string;
  webdavUrl: string;
  /** The server address the desktop and mobile apps ask for (Login Flow v2). */
  serverUrl: string;
}

export type StorageErrorKind =
  /** The user id exists on the server (for someone else). */
  | 'taken'
  /** A value the server refuses: user id characters or length, a quota it does not take, an email. */
  | 'invalid'
  /** Nextcloud's password policy refused the password. */
  | 'weak_password'
  /** No such user on the server. */
  | 'not_found'
  /** Server not reachable, too slow, in maintenance, or rate limiting. */
  | 'unavailable'
  /** Our admin login, app password, group or certificate is wrong: configuration, not the customer's fault. */
  | 'auth';

export const storageMessages: Record<StorageErrorKind, string> = {
  taken: 'Dieser Benutzername ist auf dem Speicher-Server bereits vergeben. Bitte wählen Sie einen anderen.',
  invalid: 'Der Speicher-Server hat die Eingabe abgelehnt. Bitte prüfen Sie Ihre Angaben.',
  weak_password: 'Das Passwort ist dem Speicher-Server zu schwach. Bitte wählen Sie ein längeres, weniger gebräuchliches Passwort.',
  not_found: 'Das Speicher-Konto wurde auf dem Speicher-Server nicht gefunden.',
  unavailable: 'Der Speicher-Server ist derzeit nicht erreichbar. Bitte versuchen Sie es später erneut.',
  auth: 'Die Anmeldung am Speicher-Server ist fehlgeschlagen. Bitte wenden Sie sich an den Support.',
};

export class StorageError extends Error {
  constructor(readonly kind: StorageErrorKind, message: string = storageMessages[kind], readonly detail?: string) {
    super(message);
  }
}

export interface StorageDriver {
  readonly kind: 'simulated' | 'nextcloud';

  /** Whether a create with this user id would succeed now (told before paying); `invalid` for an id Nextcloud refuses. */
  isNameAvailable(server: StorageServerRef, userId: string): Promise<boolean>;
  /**
   * Creates the account with password, display name, email and quota. Idempotent for a retrying job: a
   * user that exists with the same email is ours from an earlier attempt (password and quota are set
   * again); one with another email is `taken`.
   */
  createAccount(spec: CreateStorageAccountSpec): Promise<StorageAccountRef>;
  /** null when the user does not exist. */
  getAccount(ref: StorageAccountRef): Promise<StorageAccount | null>;
  /** Bytes, or null for unlimited; `invalid` for a quota the server refuses. */
  setQuota(ref: StorageAccountRef, quotaBytes: number | null): Promise<void>;
  setPassword(ref: StorageAccountRef, password: string): Promise<void>;
  /** Login possible again (unsuspend). */
  enable(ref: StorageAccountRef): Promise<void>;
  /** No login, no sync, shares stop working; files stay (suspend). */
  disable(ref: StorageAccountRef): Promise<void>;
  /** Deletes the user and all of its files; a user that is already gone is not an error. */
  deleteAccount(ref: StorageAccountRef): Promise<void>;
  addresses(ref: StorageAccountRef): StorageAddresses;
}

/** Nextcloud's IUser::MAX_USERID_LENGTH. */
export const MAX_USER_ID_LENGTH = 64;

/**
 * Nextcloud's rules for a new user id (lib/private/User/Manager.php validateUserId): only a-z, A-Z, 0-9,
 * space and _.@-' ; not empty, no space at either end, not "." or "..", at most 64 characters. Returns
 * the German reason, or null when the id is fine.
 */
export function userIdProblem(userId: string): string | null {
  if (/[^a-zA-Z0-9 _.@\-']/.test(userId)) return 'Der Benutzername darf nur Buchstaben (a–z, A–Z), Ziffern, Leerzeichen und die Zeichen _ . @ - \' enthalten.';
  if (userId.trim() === '') return 'Bitte geben Sie einen Benutzernamen an.';
  if (userId.trim() !== userId) return 'Der Benutzername darf nicht mit einem Leerzeichen beginnen oder enden.';
  if (userId === '.' || userId === '..') return 'Der Benutzername darf nicht nur aus Punkten bestehen.';
  if (userId.length > MAX_USER_ID_LENGTH) return `Der Benutzername darf höchstens ${MAX_USER_ID_LENGTH} Zeichen lang sein.`;
  return null;
}

export function assertValidUserId(userId: string): void {
  const problem = userIdProblem(userId);
  if (problem) throw new StorageError('invalid', problem, `user id ${JSON.stringify(userId)}`);
}

export function assertValidQuota(quotaBytes: number | null): void {
  if (quotaBytes === null) return;
  if (!Number.isSafeInteger(quotaBytes) || quotaBytes < 0) {
    throw new StorageError('invalid', 'Das Speicherkontingent muss eine positive Anzahl Bytes sein.', `quota ${quotaBytes}`);
  }
}

const KIB = 1024;
const UNITS = ['KB', 'MB', 'GB', 'TB', 'PB'] as const;
const UNIT_BYTES: Record<string, number> = { b: 1, k: KIB, kb: KIB, m: KIB ** 2, mb: KIB ** 2, g: KIB ** 3, gb: KIB ** 3, t: KIB ** 4, tb: KIB ** 4, p: KIB ** 5, pb: KIB ** 5 };

/** PHP's round(x, precision): half away from zero. */
function phpRound(x: number, precision: number): number {
  const f = 10 ** precision;
  return (Math.sign(x) * Math.round(Math.abs(x) * f)) / f;
}

/**
 * What editUser stores for a byte count: \OCP\Util::humanFileSize (KB without decimals, MB and up with
 * one), e.g. 10737418240 -> "10 GB", 1500000000 -> "1.4 GB".
 */
export function humanFileSize(bytes: number): string {
  if (bytes < 0) return '?';
  if (bytes < KIB) return `${bytes} B`;
  let value = phpRound(bytes / KIB, 0);
  let unit = 0;
  while (value >= KIB && unit < UNITS.length - 1) {
    value = phpRound(value / KIB, 1);
    unit++;
  }
  return `${value} ${UNITS[unit]}`;
}

/**
 * \OCP\Util::computerFileSize: a number, or a number with a unit (b, k, kb … p, pb; any case); false for
 * anything else. Bytes are rounded to whole ones.
 */
export function computerFileSize(text: string): number | false {
  const str = text.toLowerCase();
  if (/^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/.test(str)) return Number(str);
  const unit = /([kmgtp]?b?)$/.exec(str)?.[1] ?? '';
  const factor = UNIT_BYTES[unit];
  if (factor === undefined) return false;
  const leading = /^\s*[+-]?(\d+\.?\d*|\.\d+)/.exec(str);
  return phpRound((leading ? Number(leading[0]) : 0) * factor, 0);
}

/** The quota Nextcloud keeps for a byte count we send (its humanFileSize and back). */
export function nextcloudQuota(quotaBytes: number | null): number | null {
  if (quotaBytes === null) return null;
  const kept = computerFileSize(humanFileSize(quotaBytes));
  return kept === false ? null : kept;
}

const base = (server: StorageServerRef) => server.url.replace(/\/+$/, '');

/** The customer's addresses on a Nextcloud server (the same for every driver). */
export function storageAddresses(ref: StorageAccountRef): StorageAddresses {
  const root = base(ref.server);
  return { webUrl: `${root}/`, serverUrl: root, webdavUrl: `${root}/remote.php/dav/files/${encodeURIComponent(ref.userId)}/` };
}

/** One spelling per server for state keys: lower case scheme and host, no trailing slash. */
export function serverKey(server: StorageServerRef): string {
  try {
    const u = new URL(base(server));
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return base(server).toLowerCase();
  }
}

/**
 * The ISPConfig 3.2 JSON remote API client the driver talks through: `POST …/remote/json.php?<method>`,
 * the `{code,message,response}` envelope (always HTTP 200, so only `code` counts), the session with its
 * fixed lifetime, the time budget, and the mapping of the panel's English texts to HostingError codes.
 * Facts: ../shared/integrations/ispconfig.md.
 */
import http from 'node:http';
import { PinnedAgent, createNodeFetch, type ProxmoxFetch } from '../../hypervisor/proxmox/proxmox-transport.ts';
import { HostingError, hostingMessages, type HostingErrorCode } from '../hosting.ts';

/** How the driver reaches one panel (env wiring fills it from the hosting server's settings). */
export interface IspConfigConfig {
  /** Panel base URL, e.g. https://panel.example.net:8080 */
  url: string;
  /** Remote user (System → Remote Users), not a panel login. */
  username: string;
  password: string;
  /** SHA-256 fingerprint of the panel certificate (pinned; https only, panels are usually self-signed). */
  fingerprint: string;
  /** Budget for one call including a needed login and the single retry (default 10 s). */
  timeoutMs?: number;
}

export interface IspConfigClientOptions {
  fetchImpl?: ProxmoxFetch;
  /** Clock for the session lifetime (ms); tests move it past 1800 s. */
  now?: () => number;
}

export type IspConfigParams = Record<string, unknown>;

/** ISPConfig ends every session 1800 s after login, however busy it was. */
const SESSION_LIFETIME_MS = 1800_000;
/** Log in again this long before the panel would expire the session, so no call runs into it. */
const SESSION_MARGIN_MS = 60_000;

const PANEL_TEXT = {
  sessionExpired: 'The Session is expired or does not exist.',
  loginFailed: 'The login failed. Username or password wrong.',
  permissionDenied: 'You do not have the permissions to access this function.',
} as const;

/** Panel texts (exact or language keys of its validators) that mean "this name is taken". */
const DUPLICATE_PATTERN = /There is already a database with that name on the same server\.|\b\w+_error_unique\b/;
const PENDING_PATTERN = /There is already a pending \w+ action/;
/**
 * Texts for objects that are gone: an unknown backup (spelling as in ISPConfig), a client without group or
 * panel login (deleted in the panel). Sources: ispconfig-api-table.ts PANEL_TEXTS.
 */
const NOT_FOUND_PATTERN = /Invalid or non existant backup_id|There is no group for this client ID\.|Invalid client_id \d+|There is no user account for this client_id/;
/** validate_password::password_check's text (interface/lib/lang/en.lng:173-174); the length is the panel's setting. */
const WEAK_PASSWORD_PATTERN = /The chosen password does not match the security guidelines\. It has to be at least (\d+) chars/;

/** German texts for the REMOTE_FAULT cases the customer can act on; the rest gets the generic message. */
function remoteFaultMessage(method: string): string {
  if (method.startsWith('sites_web_domain_backup')) return 'Das Hosting-Panel hat den Sicherungsauftrag abgelehnt. Bitte versuchen Sie es später erneut.';
  if (method.startsWith('sites_database')) return 'Das Hosting-Panel hat die Datenbank-Änderung abgelehnt. Bitte prüfen Sie Name und Passwort.';
  return hostingMessages.REMOTE_FAULT;
}

/** ISPConfig returns validation errors as HTML fragments (`key<br />\r\n`); keep the text readable in logs. */
function cleanPanelText(text: string) {
  return text.replace(/<br\s*\/?>/gi, ' ').replace(/\s+/g, ' ').trim();
}

function networkErrorText(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  return e?.cause?.code ?? e?.code ?? e?.cause?.message ?? e?.message ?? 'network error';
}

/** Rejects when the signal aborts, without waiting for the work (a shared login may outlive one caller). */
function within<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

interface Envelope {
  code: string;
  message: string;
  response: unknown;
}

export type IspConfigClient = ReturnType<typeof createIspConfigClient>;

export function createIspConfigClient(config: IspConfigConfig, opts: IspConfigClientOptions = {}) {
  const timeoutMs = config.timeoutMs ?? 10_000;
  const now = opts.now ?? Date.now;
  const endpoint = `${config.url.replace(/\/+$/, '')}/remote/json.php`;
  const fetchImpl = opts.fetchImpl ?? createNodeFetch(new PinnedAgent(config.fingerprint), new http.Agent({ keepAlive: true }));

  let session: { id: string; loggedInAt: number } | undefined;
  let pendingLogin: Promise<string> | undefined;

  function fail(code: HostingErrorCode, detail: string, message: string = hostingMessages[code]) {
    // The password can only appear in a detail if the panel echoed the request; never pass it on.
    return new HostingError(code, message, config.password ? detail.split(config.password).join('***') : detail);
  }

  /** One HTTP round trip; answers the envelope or throws UNAVAILABLE (network, timeout, unreadable answer). */
  async function post(method: string, params: IspConfigParams, signal: AbortSignal): Promise<Envelope> {
    let text: string;
    try {
      const res = await fetchImpl(`${endpoint}?${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(params),
        signal,
      });
      text = await res.text();
    } catch (err) {
      if (signal.aborted) throw fail('UNAVAILABLE', `${method}: no answer within ${timeoutMs} ms`);
      throw fail('UNAVAILABLE', `${method}: ${networkErrorText(err)}`);
    }
    try {
      const json = JSON.parse(text) as Partial<Envelope> | null;
      if (json && typeof json.code === 'string') return { code: json.code, message: String(json.message ?? ''), response: json.response };
    } catch {
      // fall through: a PHP error page or a proxy's HTML instead of the API
    }
    throw fail('UNAVAILABLE', `${method}: unreadable answer: ${text.slice(0, 200)}`);
  }

  function toError(method: string, envelope: Envelope): HostingError {
    const text = cleanPanelText(envelope.message);
    const detail = `${method}: ${envelope.code}: ${text}`;
    if (text === PANEL_TEXT.loginFailed || text === PANEL_TEXT.permissionDenied) return fail('AUTH', text);
    // Only reached when a fresh session was refused too: the panel's session store or clock is broken.
    if (text === PANEL_TEXT.sessionExpired) return fail('UNAVAILABLE', detail);
    if (PENDING_PATTERN.test(text)) return fail('PENDING', detail);
    if (DUPLICATE_PATTERN.test(text)) return fail('DUPLICATE', detail);
    if (NOT_FOUND_PATTERN.test(text)) return fail('NOT_FOUND', detail);
    const weak = WEAK_PASSWORD_PATTERN.exec(text);
    if (weak) return fail('REMOTE_FAULT', detail, `Das Hosting-Panel lehnt das Passwort als zu schwach ab. Es muss mindestens ${weak[1]} Zeichen lang sein.`);
    return fail('REMOTE_FAULT', detail, remoteFaultMessage(method));
  }

  async function login(): Promise<string> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    try {
      const envelope = await post('login', { username: config.username, password: config.password, client_login: false }, controller.signal);
      if (envelope.code !== 'ok' || typeof envelope.response !== 'string' || !envelope.response) {
        if (envelope.code === 'ok') throw fail('AUTH', `login: no session id in the answer`);
        throw toError('login', envelope);
      }
      session = { id: envelope.response, loggedInAt: now() };
      return session.id;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The current session id; parallel callers share one login instead of each opening a session. */
  function sessionId(): Promise<string> {
    if (session && now() - session.loggedInAt < SESSION_LIFETIME_MS - SESSION_MARGIN_MS) return Promise.resolve(session.id);
    session = undefined;
    pendingLogin ??= login().finally(() => (pendingLogin = undefined));
    return pendingLogin;
  }

  /**
   * Calls one remote function with the session id added. A session the panel already dropped (restart,
   * clock skew, an admin's logout) is renewed once and the call repeated: the panel checks the session
   * before it does anything, so repeating a write is safe. Anything else fails as mapped.
   */
  async function call<T>(method: string, params: IspConfigParams = {}): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    try {
      for (let attempt = 1; ; attempt++) {
        let id: string;
        try {
          id = await within(sessionId(), controller.signal);
        } catch (err) {
          if (err instanceof HostingError) throw err;
          throw fail('UNAVAILABLE', `login: no answer within ${timeoutMs} ms`);
        }
        const envelope = await post(method, { session_id: id, ...params }, controller.signal);
        if (envelope.code === 'ok') return envelope.response as T;
        if (cleanPanelText(envelope.message) === PANEL_TEXT.sessionExpired && attempt === 1) {
          if (session?.id === id) session = undefined;
          continue;
        }
        throw toError(method, envelope);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  return { call };
}

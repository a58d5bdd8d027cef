/**
 * The INWX DomRobot JSON-RPC client the driver talks through (../shared/integrations/domains-inwx.md):
 * `POST {"method","params"}`, the session as the cookie of account.login (plus account.unlock with a
 * TAN when two-factor is on), calls serialised per session, one re-login on 2002/2200, the envelope read
 * by `code` (never by HTTP status, except 429), a time budget per call, and the mapping of result codes
 * to RegistrarError with the registrar's msg/reason kept as detail.
 */
import * as OTPAuth from 'otpauth';
import { RegistrarError, registrarMessages, type RegistrarErrorCode } from '../registrar.ts';

export interface InwxClientConfig {
  /** JSON-RPC address, e.g. https://api.ote.domrobot.com/jsonrpc/ */
  url: string;
  user: string;
  password: string;
  /** Base32 secret of the account's two-factor TAN (Google Authenticator); needed when login says tfa ≠ "0". */
  totpSecret?: string;
  /** Budget for one call including waiting for its turn, a needed login and the single retry (default 10 s). */
  timeoutMs?: number;
}

export interface InwxClientOptions {
  fetchImpl?: typeof fetch;
  /** Clock for the TAN (ms). */
  now?: () => number;
}

export interface InwxEnvelope<T = Record<string, unknown>> {
  code: number;
  msg: string;
  resData?: T;
  reason?: string;
  reasonCode?: string;
  /** INWX sends string codes here ("PARAM_MISSING"; inwx-api-table.ts). */
  details?: { code?: string | number; msg?: string }[];
}

export type InwxParams = Record<string, unknown>;

const OK = 1000;
const OK_PENDING = 1001;
/** "Command use error" (no session) and "Authentication error" (session gone): log in again, once. */
const RELOGIN = new Set([2002, 2200]);

const CODE_MAP: Record<number, RegistrarErrorCode> = {
  2003: 'INVALID', 2004: 'INVALID', 2005: 'INVALID',
  2200: 'AUTH', 2202: 'AUTH_CODE',
  2302: 'TAKEN', 2303: 'NOT_FOUND', 2304: 'PROHIBITED',
  2502: 'TRY_LATER',
};

function networkErrorText(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  return e?.cause?.code ?? e?.code ?? e?.cause?.message ?? e?.message ?? 'network error';
}

export type InwxClient = ReturnType<typeof createInwxClient>;

export function createInwxClient(config: InwxClientConfig, opts: InwxClientOptions = {}) {
  const timeoutMs = config.timeoutMs ?? 10_000;
  const fetchImpl = opts.fetchImpl ?? fetch;
  const now = opts.now ?? Date.now;
  let cookie: string | undefined;
  /** The session's queue: INWX sessions are not meant for parallel commands. */
  let chain: Promise<unknown> = Promise.resolve();

  function fail(code: RegistrarErrorCode, detail: string, message: string = registrarMessages[code]) {
    return new RegistrarError(code, message, config.password ? detail.split(config.password).join('***') : detail);
  }

  function describe(method: string, e: InwxEnvelope<unknown>) {
    const extra = [e.reason, e.reasonCode, ...(e.details ?? []).map((d) => `${d.code ?? ''} ${d.msg ?? ''}`.trim())].filter(Boolean).join('; ');
    return `${method}: ${e.code} ${e.msg}${extra ? ` (${extra})` : ''}`;
  }

  /** One HTTP round trip; answers the envelope or throws UNAVAILABLE / TRY_LATER. */
  async function post<T>(method: string, params: InwxParams, signal: AbortSignal): Promise<InwxEnvelope<T>> {
    let text: string;
    try {
      const res = await fetchImpl(config.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
        body: JSON.stringify({ method, params }),
        signal,
      });
      const setCookies = res.headers.getSetCookie();
      if (setCookies.length) cookie = setCookies.map((c) => c.split(';')[0]!.trim()).join('; ');
      text = await res.text();
      if (res.status === 429) throw fail('TRY_LATER', `${method}: HTTP 429${res.headers.get('retry-after') ? `, Retry-After ${res.headers.get('retry-after')}` : ''}`);
    } catch (err) {
      if (err instanceof RegistrarError) throw err;
      if (signal.aborted) throw fail('UNAVAILABLE', `${method}: no answer within ${timeoutMs} ms`);
      throw fail('UNAVAILABLE', `${method}: ${networkErrorText(err)}`);
    }
    try {
      const json = JSON.parse(text) as Partial<InwxEnvelope<T>> | null;
      if (json && typeof json.code === 'number') return { ...json, code: json.code, msg: String(json.msg ?? '') };
    } catch {
      // fall through: a proxy's HTML or a maintenance page instead of the API
    }
    throw fail('UNAVAILABLE', `${method}: unreadable answer: ${text.slice(0, 200)}`);
  }

  function toError(method: string, envelope: InwxEnvelope<unknown>): RegistrarError {
    return fail(CODE_MAP[envelope.code] ?? 'REMOTE_FAULT', describe(method, envelope));
  }

  async function login(signal: AbortSignal) {
    cookie = undefined;
    const envelope = await post<{ tfa?: string }>('account.login', { user: config.user, pass: config.password, lang: 'en' }, signal);
    if (envelope.code === 2502) throw toError('account.login', envelope);
    if (envelope.code !== OK) throw fail('AUTH', describe('account.login', envelope));
    if (!cookie) throw fail('AUTH', 'account.login: no session cookie in the answer');
    const tfa = String(envelope.resData?.tfa ?? '0');
    if (tfa === '0' || tfa === '') return;
    if (!config.totpSecret) throw fail('AUTH', `account.login: the account has two-factor (${tfa}) but INWX_TOTP_SECRET is not set`);
    // Unverified on OT&E: whether INWX refuses a TAN used twice within its 30 s step (a re-login right
    // after an unlock). Such a refusal surfaces as AUTH with account.unlock's text in the detail.
    const tan = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(config.totpSecret) }).generate({ timestamp: now() });
    const unlocked = await post('account.unlock', { tan }, signal);
    if (unlocked.code !== OK) throw fail(unlocked.code === 2502 ? 'TRY_LATER' : 'AUTH', describe('account.unlock', unlocked));
  }

  async function run<T>(method: string, params: InwxParams, signal: AbortSignal): Promise<InwxEnvelope<T>> {
    if (signal.aborted) throw fail('UNAVAILABLE', `${method}: no turn within ${timeoutMs} ms (earlier calls of the session were slow)`);
    for (let attempt = 1; ; attempt++) {
      if (!cookie) await login(signal);
      const envelope = await post<T>(method, params, signal);
      if (envelope.code === OK || envelope.code === OK_PENDING) return envelope;
      // The session ended (timeout on INWX's side, a restart): a command the session refused did not run.
      if (RELOGIN.has(envelope.code) && attempt === 1) {
        cookie = undefined;
        continue;
      }
      throw toError(method, envelope);
    }
  }

  /**
   * Calls one method in the session, after the calls before it; answers the envelope (code 1000 or 1001)
   * or throws a RegistrarError.
   */
  function call<T = Record<string, unknown>>(method: string, params: InwxParams = {}): Promise<InwxEnvelope<T>> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    const turn = chain.then(() => run<T>(method, params, controller.signal));
    chain = turn.catch(() => undefined);
    // A caller waiting behind a slow call still gets its answer within its own budget.
    const budget = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(fail('UNAVAILABLE', `${method}: no answer within ${timeoutMs} ms`)), { once: true });
    });
    budget.catch(() => undefined);
    return Promise.race([turn, budget]).finally(() => clearTimeout(timer));
  }

  return { call };
}

/**
 * The Proxmox VE API client every part of the driver talks through: the `{data}` envelope, mapping of
 * HTTP answers to HypervisorError codes, retries, and redaction of secrets from error details.
 * The bytes on the wire (pinned TLS) are proxmox-transport.ts's business.
 */
import http from 'node:http';
import type { ProxmoxConfig } from '../../../env.ts';
import { HypervisorError, hypervisorMessages, type HypervisorErrorCode, type VmRef } from '../hypervisor.ts';
import { PinnedAgent, UploadSizeError, createNodeFetch, createNodeUpload, type ProxmoxFetch, type ProxmoxUpload, type UploadInit } from './proxmox-transport.ts';

export interface ProxmoxOptions {
  fetchImpl?: ProxmoxFetch;
  /** The multipart upload (ISO images); default over node:http/https with the pinned agent. */
  uploadImpl?: ProxmoxUpload;
  /** Bounded retries for "VM is locked" and for transient failures inside createServer's steps. */
  retry?: { attempts: number; baseDelayMs: number };
  /** Per HTTP request (default 15 s). */
  timeoutMs?: number;
  /** Task polling interval (default 1 s). */
  pollIntervalMs?: number;
  /** Default budget for waitForTask (default 15 min). */
  taskTimeoutMs?: number;
}

export type Params = Record<string, string | number | boolean | string[] | undefined | null>;

export interface Auth {
  headers: Record<string, string>;
}

const LOCK_PATTERN = /VM is locked|can't lock file .* got timeout/i;
const NOT_FOUND_PATTERN = /does not exist|no such (vm|task|file)|not found/i;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function num(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

export function networkErrorText(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  return e?.cause?.code ?? e?.code ?? e?.cause?.message ?? e?.message ?? 'network error';
}

export const vmPath = (vm: VmRef) => `/nodes/${encodeURIComponent(vm.node)}/qemu/${vm.vmid}`;

function encode(params: Params) {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) form.append(key, v);
    else form.append(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return form.toString();
}

export type ProxmoxClient = ReturnType<typeof createProxmoxClient>;

export function createProxmoxClient(config: ProxmoxConfig, opts: ProxmoxOptions = {}) {
  const attempts = Math.max(1, opts.retry?.attempts ?? 5);
  const baseDelayMs = opts.retry?.baseDelayMs ?? 1000;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const taskTimeoutMs = opts.taskTimeoutMs ?? 15 * 60_000;
  const baseUrl = `${config.url.replace(/\/+$/, '')}/api2/json`;
  const pinnedAgent = new PinnedAgent(config.fingerprint);
  const plainAgent = new http.Agent({ keepAlive: true });
  const fetchImpl = opts.fetchImpl ?? createNodeFetch(pinnedAgent, plainAgent);
  const uploadImpl = opts.uploadImpl ?? createNodeUpload(pinnedAgent, plainAgent);
  const tokenHeader = `PVEAPIToken=${config.tokenId}=${config.tokenSecret}`;

  /** Every error leaving the driver goes through here: German message, technical detail, no secrets. */
  function fail(code: HypervisorErrorCode, detail?: string, message = hypervisorMessages[code]): HypervisorError {
    return new HypervisorError(code, message, detail === undefined ? undefined : redact(detail));
  }
  function redact(text: string) {
    let out = text;
    for (const secret of [config.tokenSecret, config.consolePassword, tokenHeader]) if (secret) out = out.split(secret).join('***');
    return out;
  }

  const backoff = (attempt: number) => baseDelayMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);

  const tokenAuth: Auth = { headers: { Authorization: tokenHeader } };
  /**
   * For `allowtoken: 0` paths such as POST /access/ticket: Proxmox refuses any request that carries an API
   * token there with 403 "not available with API token" (pve-manager PVE/HTTPServer.pm rest_handler).
   */
  const noAuth: Auth = { headers: {} };

  async function requestOnce<T>(method: string, path: string, params: Params | undefined, auth: Auth): Promise<T> {
    const query = params && (method === 'GET' || method === 'DELETE') ? encode(params) : '';
    const body = params && (method === 'POST' || method === 'PUT') ? encode(params) : undefined;
    const url = `${baseUrl}${path}${query ? `?${query}` : ''}`;
    const headers: Record<string, string> = { Accept: 'application/json', ...auth.headers };
    if (body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const where = `${method} ${path}`;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let status: number;
    let statusText: string | undefined;
    let text: string;
    try {
      const res = await fetchImpl(url, { method, headers, body, signal: controller.signal });
      status = res.status;
      statusText = res.statusText;
      text = await res.text();
    } catch (err) {
      if (timedOut) throw fail('TIMEOUT', `${where}: no answer within ${timeoutMs} ms`);
      throw fail('UNAVAILABLE', `${where}: ${networkErrorText(err)}`);
    } finally {
      clearTimeout(timer);
    }
    return answer<T>(where, status, statusText, text);
  }

  /** Proxmox's answer: `{data}` on success, else the HypervisorError its status and message mean. */
  function answer<T>(where: string, status: number, statusText: string | undefined, text: string): T {
    let json: { data?: unknown; errors?: Record<string, string>; message?: string } | undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (status >= 200 && status < 300) {
      if (!json) throw fail('UNAVAILABLE', `${where}: unreadable answer (${status})`);
      return json.data as T;
    }
    const message = (json?.message ?? statusText ?? '').trim();
    const detail = `${where}: ${status} ${message}`.trim();
    if (status === 400) {
      const errors = json?.errors ? Object.entries(json.errors).map(([k, v]) => `${k}: ${String(v).trim()}`).join('; ') : message;
      throw fail('INVALID', `${where}: ${errors}`);
    }
    if (status === 401 || status === 403) throw fail('UNAVAILABLE', `${where}: ${status} authentication or permission check failed`);
    if (LOCK_PATTERN.test(message)) throw fail('LOCKED', detail);
    if (status === 404 || NOT_FOUND_PATTERN.test(message)) throw fail('NOT_FOUND', detail);
    if (status === 502 || status === 503 || status === 595 || status === 596) throw fail('UNAVAILABLE', detail);
    if (status === 500) throw fail('TASK_FAILED', detail);
    if (status >= 500) throw fail('UNAVAILABLE', detail);
    throw fail('INVALID', detail);
  }

  /** One API call; a "VM is locked" answer changed nothing, so it is retried with backoff. */
  async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params?: Params, auth: Auth = tokenAuth): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await requestOnce<T>(method, path, params, auth);
      } catch (err) {
        if (err instanceof HypervisorError && err.code === 'LOCKED' && attempt < attempts) {
          await sleep(backoff(attempt));
          continue;
        }
        throw err;
      }
    }
  }

  /**
   * POST /nodes/{node}/storage/{storage}/upload: the fields, then the file, as one streamed multipart
   * body (never retried: the stream is consumed). Answers the `imgcopy` task's UPID.
   */
  async function upload(path: string, fields: [string, string][], file: UploadInit['file'], onBytes?: (sent: number) => void): Promise<unknown> {
    const where = `POST ${path}`;
    let res: Awaited<ReturnType<ProxmoxUpload>>;
    try {
      res = await uploadImpl(`${baseUrl}${path}`, { headers: { Accept: 'application/json', ...tokenAuth.headers }, fields, file, idleTimeoutMs: timeoutMs, onBytes });
    } catch (err) {
      if (err instanceof UploadSizeError) throw fail('INVALID', `${where}: ${err.message}`, 'Die Datei ist nicht so groß wie angegeben; der Upload wurde verworfen.');
      if ((err as { code?: string }).code === 'ETIMEDOUT') throw fail('TIMEOUT', `${where}: no progress within ${timeoutMs} ms`);
      throw fail('UNAVAILABLE', `${where}: ${networkErrorText(err)}`);
    }
    return answer(where, res.status, res.statusText, await res.text());
  }

  return { config, attempts, timeoutMs, pollIntervalMs, taskTimeoutMs, baseUrl, pinnedAgent, tokenAuth, noAuth, fail, backoff, api, upload };
}

/**
 * The client for Nextcloud's OCS API (v2): HTTP Basic with an admin's app password, the header
 * `OCS-APIRequest: true` (without it Nextcloud's CSRF check refuses the call with 412), `format=json`, the
 * `{ocs: {meta, data}}` envelope, the time budget, and certificate pinning like the other drivers. Facts:
 * nextcloud-api-table.ts and docs/integrations/nextcloud.md.
 */
import http from 'node:http';
import https from 'node:https';
import { PinnedAgent, createNodeFetch, type ProxmoxFetch } from '../../hypervisor/proxmox/proxmox-transport.ts';
import { StorageError, storageMessages, type StorageErrorKind, type StorageServerRef } from '../storage.ts';

export interface NextcloudConfig {
  /** Default server base URL (NEXTCLOUD_URL); a server ref with its own url wins. */
  url: string;
  /** An admin login (NEXTCLOUD_USER). */
  username: string;
  /** An app password of that admin (Settings → Security), never the login password (NEXTCLOUD_APP_PASSWORD). */
  appPassword: string;
  /**
   * SHA-256 fingerprint of the server certificate (NEXTCLOUD_FINGERPRINT): pinned when set, and then no CA
   * is asked; empty: the certificate must be valid for the host under the system's CAs. A server ref's own
   * fingerprint wins.
   */
  fingerprint: string;
  /** Group every portal user joins (NEXTCLOUD_GROUP); empty: none. */
  group?: string;
  /** Budget for one call (default 10 s). */
  timeoutMs?: number;
}

export interface NextcloudClientOptions {
  fetchImpl?: ProxmoxFetch;
}

/** One OCS answer: the HTTP status and, where the body is an OCS envelope, its meta and data. */
export interface OcsAnswer {
  status: number;
  statuscode: number | null;
  message: string;
  data: unknown;
  /** The raw body start, for details when it was no envelope. */
  raw: string;
}

function networkErrorText(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  return e?.cause?.code ?? e?.code ?? e?.cause?.message ?? e?.message ?? 'network error';
}

export type NextcloudClient = ReturnType<typeof createNextcloudClient>;

export function createNextcloudClient(config: NextcloudConfig, opts: NextcloudClientOptions = {}) {
  const timeoutMs = config.timeoutMs ?? 10_000;
  const authorization = `Basic ${Buffer.from(`${config.username}:${config.appPassword}`).toString('base64')}`;
  const httpAgent = new http.Agent({ keepAlive: true });
  const fetches = new Map<string, ProxmoxFetch>();
  const secrets = [config.appPassword];

  /** One transport per certificate pin (a server's own, else the default); '' verifies against the system CAs. */
  function fetchFor(server: StorageServerRef | undefined): ProxmoxFetch {
    if (opts.fetchImpl) return opts.fetchImpl;
    const pin = server?.fingerprint || config.fingerprint;
    let f = fetches.get(pin);
    if (!f) {
      f = createNodeFetch(pin ? new PinnedAgent(pin) : new https.Agent({ keepAlive: true }), httpAgent);
      fetches.set(pin, f);
    }
    return f;
  }

  function baseOf(server: StorageServerRef | undefined): string {
    const url = (server?.url || config.url).replace(/\/+$/, '');
    if (!/^https?:\/\//.test(url)) throw new StorageError('auth', storageMessages.auth, `no usable server address: ${JSON.stringify(url)}`);
    return url;
  }

  /** Builds the error; passwords (ours, and any the caller names) never reach a detail. */
  function fail(kind: StorageErrorKind, detail: string, message: string = storageMessages[kind], hide: string[] = []) {
    let clean = detail;
    for (const s of [...secrets, ...hide]) if (s) clean = clean.split(s).join('***');
    return new StorageError(kind, message, clean);
  }

  /**
   * One OCS call. Answers every envelope (the caller decides what a code means for its operation); throws
   * `unavailable` for the network, the time budget, maintenance, rate limits and bodies that are no
   * envelope, and `auth` for refused logins, missing rights, the CSRF refusal and a wrong certificate.
   */
  async function call(server: StorageServerRef | undefined, method: string, path: string, body?: Record<string, unknown>, hide: string[] = []): Promise<OcsAnswer> {
    const url = `${baseOf(server)}/ocs/v2.php${path}${path.includes('?') ? '&' : '?'}format=json`;
    const what = `${method} ${path}`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    let status: number;
    let text: string;
    try {
      const headers: Record<string, string> = { 'OCS-APIRequest': 'true', Accept: 'application/json', Authorization: authorization };
      if (body) headers['Content-Type'] = 'application/json';
      const res = await fetchFor(server)(url, { method, headers, body: body ? JSON.stringify(body) : undefined, signal: controller.signal });
      status = res.status;
      text = await res.text();
    } catch (err) {
      if (controller.signal.aborted) throw fail('unavailable', `${what}: no answer within ${timeoutMs} ms`);
      const reason = networkErrorText(err);
      if (/FINGERPRINT_MISMATCH/.test(reason)) throw fail('auth', `${what}: ${reason} (NEXTCLOUD_FINGERPRINT does not match the server certificate)`);
      throw fail('unavailable', `${what}: ${reason}`);
    } finally {
      clearTimeout(timer);
    }

    let envelope: { meta?: { statuscode?: unknown; message?: unknown }; data?: unknown } | undefined;
    try {
      envelope = (JSON.parse(text) as { ocs?: typeof envelope } | null)?.ocs;
    } catch {
      envelope = undefined;
    }
    const answer: OcsAnswer = {
      status,
      statuscode: typeof envelope?.meta?.statuscode === 'number' ? envelope.meta.statuscode : null,
      message: typeof envelope?.meta?.message === 'string' ? envelope.meta.message : '',
      data: envelope?.data,
      raw: text.slice(0, 300),
    };
    const detail = `${what}: HTTP ${status}${answer.statuscode !== null ? ` OCS ${answer.statuscode}` : ''}: ${answer.message || answer.raw}`;
    if (status === 401 || status === 403) throw fail('auth', detail, storageMessages.auth, hide);
    // The CSRF refusal comes without an envelope: a proxy dropped the OCS-APIRequest header.
    if (status === 412) throw fail('auth', `${detail} (the OCS-APIRequest header did not arrive)`, storageMessages.auth, hide);
    if (status === 429) throw fail('unavailable', `${detail} (rate limited)`, storageMessages.unavailable, hide);
    if (status >= 500 || status === 405) throw fail('unavailable', detail, storageMessages.unavailable, hide);
    if (!envelope) throw fail('unavailable', `${what}: HTTP ${status}, no OCS answer: ${answer.raw}`, storageMessages.unavailable, hide);
    // No such route: the provisioning_api app is off, or the address is no Nextcloud.
    if (status === 404 && answer.statuscode === 404 && answer.message.startsWith('Invalid query')) {
      throw fail('auth', `${detail} (is the app provisioning_api enabled?)`, storageMessages.auth, hide);
    }
    return answer;
  }

  return { call, fail, baseOf };
}

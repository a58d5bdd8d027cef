import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';

/** The subset of `fetch` the driver needs; the global `fetch` fits, tests may pass their own. */
export type ProxmoxFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
) => Promise<{ status: number; statusText?: string; text(): Promise<string> }>;

export function normaliseFingerprint(fingerprint: string) {
  return fingerprint.replace(/[^0-9a-f]/gi, '').toUpperCase();
}

export class FingerprintMismatchError extends Error {
  readonly code = 'ERR_PROXMOX_FINGERPRINT_MISMATCH';
  constructor() {
    super('certificate fingerprint does not match the pinned fingerprint');
  }
}

/**
 * Pins the node certificate by its SHA-256 fingerprint (Proxmox nodes use self-signed certificates).
 *
 * `rejectUnauthorized: false` + `checkServerIdentity` alone is NOT enough: Node only calls
 * `checkServerIdentity` when chain verification succeeded, so a self-signed certificate would skip the
 * check entirely. Therefore the socket is handed to the HTTP client only after the fingerprint was
 * compared on `secureConnect` — no byte of the request (and its token header) leaves before that.
 */
export class PinnedAgent extends https.Agent {
  private readonly pinned: string;

  constructor(fingerprint: string, options: https.AgentOptions = {}) {
    super({ keepAlive: true, ...options });
    this.pinned = normaliseFingerprint(fingerprint);
  }

  override createConnection(options: http.RequestOptions, callback?: (err: Error | null, socket: Duplex) => void): Duplex | undefined {
    const pinned = this.pinned;
    const checkServerIdentity = (_host: string, cert: tls.PeerCertificate) =>
      pinned && normaliseFingerprint(cert.fingerprint256 ?? '') === pinned ? undefined : new FingerprintMismatchError();
    const socket = tls.connect({ ...(options as tls.ConnectionOptions), rejectUnauthorized: false, checkServerIdentity });
    const onError = (err: Error) => callback?.(err, socket);
    socket.once('error', onError);
    socket.once('secureConnect', () => {
      socket.off('error', onError);
      const cert = socket.getPeerCertificate();
      if (!pinned || normaliseFingerprint(cert?.fingerprint256 ?? '') !== pinned) {
        const err = new FingerprintMismatchError();
        socket.destroy();
        callback?.(err, socket);
        return;
      }
      callback?.(null, socket);
    });
    return undefined;
  }
}

/** `fetch`-like request over node:http/https with the pinned agent; used unless `fetchImpl` is given. */
export function createNodeFetch(httpsAgent: https.Agent, httpAgent: http.Agent): ProxmoxFetch {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const request = (secure ? https : http).request(
        target,
        { method: init.method, headers: init.headers, agent: secure ? httpsAgent : httpAgent, signal: init.signal },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('aborted', () => reject(Object.assign(new Error('response aborted'), { code: 'ECONNRESET' })));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage, text: async () => body });
          });
        },
      );
      request.on('error', reject);
      request.end(init.body);
    });
}

import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { randomBytes } from 'node:crypto';
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

/** One multipart upload: the form fields in order, then the file part, streamed with a known size. */
export interface UploadInit {
  headers: Record<string, string>;
  fields: [string, string][];
  file: { field: string; filename: string; size: number; data: AsyncIterable<Uint8Array> };
  /** Aborts when nothing moved (no byte sent or received) for this long. */
  idleTimeoutMs: number;
  onBytes?: (sent: number) => void;
}

export type ProxmoxUpload = (url: string, init: UploadInit) => Promise<{ status: number; statusText?: string; text(): Promise<string> }>;

export class UploadSizeError extends Error {
  readonly code = 'ERR_UPLOAD_SIZE';
  constructor(readonly expected: number, readonly sent: number) {
    super(`the image has ${sent > expected ? 'more' : 'fewer'} bytes than announced (${expected})`);
  }
}

/**
 * `multipart/form-data` with a Content-Length, as Proxmox's upload handler requires (pve-http-server
 * PVE/APIServer/AnyEvent.pm: a multipart body, a length header, the form fields before the file part,
 * and the file part named `filename`). The file is streamed, never held in memory; a stream that ends
 * early or runs long aborts the request, so Proxmox discards its temporary file.
 */
export function createNodeUpload(httpsAgent: https.Agent, httpAgent: http.Agent): ProxmoxUpload {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const boundary = `----portal-${randomBytes(12).toString('hex')}`;
      const quote = (s: string) => s.replace(/["\r\n\\]/g, '_');
      const head = Buffer.from(
        init.fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`).join('') +
          `--${boundary}\r\nContent-Disposition: form-data; name="${quote(init.file.field)}"; filename="${quote(init.file.filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        request.destroy();
        reject(err);
      };
      const request = (secure ? https : http).request(target, {
        method: 'POST',
        headers: { ...init.headers, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + init.file.size + tail.length) },
        agent: secure ? httpsAgent : httpAgent,
        timeout: init.idleTimeoutMs,
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          if (settled) return;
          settled = true;
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage, text: async () => body });
        });
      });
      request.on('timeout', () => fail(Object.assign(new Error('upload stalled'), { code: 'ETIMEDOUT' })));
      request.on('error', fail);
      const write = (chunk: Buffer) =>
        new Promise<void>((ok) => {
          if (request.write(chunk)) ok();
          else request.once('drain', ok);
        });
      (async () => {
        await write(head);
        let sent = 0;
        for await (const piece of init.file.data) {
          if (settled) return;
          sent += piece.byteLength;
          if (sent > init.file.size) throw new UploadSizeError(init.file.size, sent);
          await write(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
          init.onBytes?.(sent);
        }
        if (sent !== init.file.size) throw new UploadSizeError(init.file.size, sent);
        request.end(tail);
      })().catch((err: unknown) => fail(err instanceof Error ? err : new Error(String(err))));
    });
}

import { messages } from '@hp/contract';
import { fetchWithSession } from '../../../lib/session.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';

const MIB = 1024 ** 2;

/**
 * How an ISO image travels: in chunks of 8 MiB, each `PUT …/content` with the offset it starts at, so a
 * broken line costs one chunk, not the whole image. A failed chunk is sent again after these pauses;
 * after the last one the upload waits for "Fortsetzen". (Tests shorten the pauses.)
 */
export const isoUploadSettings = { chunkBytes: 8 * MIB, retryDelaysMs: [1_000, 3_000, 9_000] as number[] };

/** The retries are used up (network or server trouble): the bytes so far are kept, "Fortsetzen" goes on. */
export class UploadPausedError extends Error {
  constructor(readonly offset: number) {
    super('Die Verbindung ist unterbrochen. Die bisher übertragenen Daten bleiben erhalten; Sie können den Upload fortsetzen.');
  }
}

const contentUrl = (vdcId: string, isoId: string) => `/api/vdcs/${encodeURIComponent(vdcId)}/isos/${encodeURIComponent(isoId)}/content`;
const isoUrl = (vdcId: string, isoId: string) => `/api/vdcs/${encodeURIComponent(vdcId)}/isos/${encodeURIComponent(isoId)}`;

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  if (signal?.aborted) return reject(signal.reason as Error);
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => {
    clearTimeout(timer);
    reject(signal.reason as Error);
  }, { once: true });
});

function offsetOf(res: Response, body: unknown): number | null {
  const header = res.headers.get('upload-offset');
  if (header !== null && /^\d+$/.test(header)) return Number(header);
  const b = body as { offset?: unknown; receivedBytes?: unknown; error?: { details?: { offset?: unknown } } } | null;
  for (const value of [b?.offset, b?.receivedBytes, b?.error?.details?.offset]) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  }
  return null;
}

function refusal(res: Response, body: unknown): ApiRequestError {
  const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
  return new ApiRequestError(res.status, error?.code ?? 'UNKNOWN', error?.message ?? messages.genericError);
}

/** `HEAD …/isos/:isoId`: how many bytes the server holds (resuming after a pause or a reload). */
export async function readIsoOffset(vdcId: string, isoId: string, signal?: AbortSignal): Promise<number> {
  let res: Response;
  try {
    res = await fetchWithSession(isoUrl(vdcId, isoId), { method: 'HEAD', signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new UploadPausedError(0);
  }
  const offset = offsetOf(res, null);
  if (res.ok && offset !== null) return offset;
  if (res.status >= 500 || res.status === 429) throw new UploadPausedError(0);
  // A HEAD answer has no body: name the usual cause.
  throw new ApiRequestError(res.status, 'UNKNOWN', res.status === 404 ? 'Dieses ISO-Image wurde nicht gefunden.' : messages.genericError);
}

type Outcome = { kind: 'moved'; offset: number } | { kind: 'retry' } | { kind: 'refused'; error: ApiRequestError };

async function sendChunk(vdcId: string, isoId: string, file: Blob, offset: number, signal?: AbortSignal): Promise<Outcome> {
  const chunk = file.slice(offset, Math.min(file.size, offset + isoUploadSettings.chunkBytes));
  let res: Response;
  try {
    res = await fetchWithSession(contentUrl(vdcId, isoId), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'upload-offset': String(offset), accept: 'application/json' },
      body: chunk,
      signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    return { kind: 'retry' };
  }
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) return { kind: 'moved', offset: offsetOf(res, body) ?? offset + chunk.size };
  // The server holds a different number of bytes (a chunk arrived whose answer was lost): go on from there.
  if (res.status === 409) {
    const at = offsetOf(res, body);
    return at === null ? { kind: 'refused', error: refusal(res, body) } : { kind: 'moved', offset: at };
  }
  if (res.status >= 500 || res.status === 429 || res.status === 408) return { kind: 'retry' };
  return { kind: 'refused', error: refusal(res, body) };
}

export interface SendOptions {
  /** Bytes the server confirmed so far. */
  onProgress: (sent: number) => void;
  /** A chunk failed on the way; it is sent again after a pause (1-based attempt). */
  onRetry?: (attempt: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends `file` from `offset` to its end. A chunk that fails on the way (network, 5xx) is sent again
 * after the pauses of `isoUploadSettings`; then UploadPausedError. A refusal (quota, not an ISO image,
 * gone) throws the server's German message at once.
 */
export async function sendIsoFrom(vdcId: string, isoId: string, file: Blob, offset: number, { onProgress, onRetry, signal }: SendOptions): Promise<void> {
  let at = offset;
  let failures = 0;
  onProgress(at);
  while (at < file.size) {
    const outcome = await sendChunk(vdcId, isoId, file, at, signal);
    if (outcome.kind === 'refused') throw outcome.error;
    // An answer that moves nothing counts as a failed chunk, so a confused server cannot keep the loop busy.
    if (outcome.kind === 'moved' && outcome.offset !== at) {
      at = Math.min(file.size, outcome.offset);
      failures = 0;
      onProgress(at);
      continue;
    }
    const pause = isoUploadSettings.retryDelaysMs[failures];
    if (pause === undefined) throw new UploadPausedError(at);
    failures += 1;
    onRetry?.(failures);
    await sleep(pause, signal);
  }
}

import { messages } from '@hp/contract';
import { fetchWithSession } from './session.ts';

/**
 * Files through the API with the session's bearer token: downloads (invoices, ticket attachments),
 * image previews from blob: URLs, and raw uploads. Links cannot carry the token, so every file goes
 * through fetch.
 */

/** A file size as people read it, German: "812 B", "34 KB", "2,5 MB". */
export const formatSize = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toLocaleString('de-DE', { maximumFractionDigits: 0 })} KB` : `${(bytes / 1024 / 1024).toLocaleString('de-DE', { maximumFractionDigits: 1 })} MB`;

/** A failed file transfer with a German message. */
export class FileTransferError extends Error {}

/** The file name from a Content-Disposition header (RFC 6266: filename* wins over filename). */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  if (extended) {
    try {
      return sanitize(decodeURIComponent(extended.trim().replace(/^"|"$/g, '')));
    } catch {
      // Malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/.exec(header);
  if (!plain) return null;
  const value = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : (plain[1] ?? '').trim();
  return sanitize(value);
}

/** No path parts; an empty result means "use the fallback". */
function sanitize(name: string): string | null {
  const base = name.split(/[/\\]/).pop()?.trim() ?? '';
  return base && base !== '.' && base !== '..' ? base : null;
}

async function errorMessage(res: Response, fallback: string): Promise<string> {
  const data = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return data?.error?.message ?? fallback;
}

/** GET `/api${path}` as a blob, with the name the server gave it. */
export async function fetchFile(path: string, failed: string, signal?: AbortSignal): Promise<{ blob: Blob; name: string | null }> {
  let res: Response;
  try {
    res = await fetchWithSession(`/api${path}`, { signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new FileTransferError(messages.genericError);
  }
  if (!res.ok) throw new FileTransferError(await errorMessage(res, failed));
  return { blob: await res.blob(), name: filenameFromDisposition(res.headers.get('content-disposition')) };
}

/** Hands a blob to the browser as a download (object URL + temporary <a download>). */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Downloads `/api${path}`; returns the saved name. Throws FileTransferError with a German message. */
export async function downloadFile(path: string, fallbackName: string, failed: string): Promise<string> {
  const { blob, name } = await fetchFile(path, failed);
  const saved = name ?? fallbackName;
  saveBlob(blob, saved);
  return saved;
}

/** POST the raw bytes of `file` to `/api${path}` (application/octet-stream); the JSON answer. */
export async function uploadFile<T>(path: string, file: File, failed: string): Promise<T> {
  let res: Response;
  try {
    res = await fetchWithSession(`/api${path}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', accept: 'application/json' }, body: file });
  } catch {
    throw new FileTransferError(messages.genericError);
  }
  if (!res.ok) throw new FileTransferError(await errorMessage(res, failed));
  return (await res.json()) as T;
}

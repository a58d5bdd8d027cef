import { messages } from '@hp/contract';
import { fetchWithSession } from '../../../lib/session.ts';

export type InvoiceFormat = 'pdf' | 'xrechnung';

export const DOWNLOAD_FAILED = 'Die Rechnung konnte nicht heruntergeladen werden. Bitte versuchen Sie es später erneut.';

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

export class DownloadError extends Error {}

/**
 * Fetches an invoice file with the bearer token and hands it to the browser as a download
 * (object URL + temporary <a download>). Throws DownloadError with a German message.
 */
export async function downloadInvoiceFile(invoiceId: string, format: InvoiceFormat, fallbackName: string): Promise<string> {
  let res: Response;
  try {
    res = await fetchWithSession(`/api/invoices/${encodeURIComponent(invoiceId)}/${format}`);
  } catch {
    throw new DownloadError(messages.genericError);
  }
  if (!res.ok) {
    const data = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new DownloadError(data?.error?.message ?? DOWNLOAD_FAILED);
  }
  const blob = await res.blob();
  const name = filenameFromDisposition(res.headers.get('content-disposition')) ?? fallbackName;
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
  return name;
}

import { formatNumberDe } from '@hp/contract';
import { ApiRequestError } from '../../../lib/api-client.ts';

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const TIB = 1024 ** 4;

/**
 * Bytes in the binary units Nextcloud shows, with its names ("GB" for GiB): MB below 1 GB, GB below
 * 1 TB, then TB, so the figures match what the customer sees in the web interface.
 */
export function formatBytes(bytes: number): string {
  const n = Math.max(0, bytes);
  if (n >= TIB) return `${formatNumberDe(n / TIB, 2)} TB`;
  if (n >= GIB) return `${formatNumberDe(n / GIB, 1)} GB`;
  return `${formatNumberDe(Math.round(n / MIB))} MB`;
}

/** A plan's quota in GiB ("100 GB", "1 TB"). */
export const formatQuotaGb = (gb: number) => formatBytes(gb * GIB);

let berlin: Intl.DateTimeFormat | undefined;
/** Made on first use: the first Intl formatter loads the browser's locale data (issue 22). */
const berlinDate = () => (berlin ??= new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }));
export const formatDate = (iso: string | null) => (iso ? berlinDate().format(new Date(iso)) : '–');

/** The API's German message; the fallback only for errors without one. */
export const errorText = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.message ? err.message : fallback);

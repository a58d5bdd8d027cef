import { formatNumberDe } from '@hp/contract';
import { ApiRequestError } from '../../../lib/api-client.ts';

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const TIB = 1024 ** 4;

/** Bytes in binary units with the usual names (KB, MB, GB, TB), as the hypervisor counts them. */
export function formatBytes(bytes: number): string {
  const n = Math.max(0, bytes);
  // The smallest image (36 KB) is not "0 MB".
  if (n > 0 && n < MIB) return `${formatNumberDe(Math.max(1, Math.round(n / 1024)))} KB`;
  if (n >= TIB) return `${formatNumberDe(n / TIB, 2)} TB`;
  if (n >= GIB) return `${formatNumberDe(n / GIB, 1)} GB`;
  return `${formatNumberDe(n / MIB, n < 10 * MIB ? 1 : 0)} MB`;
}

/** Gigabytes with German digit grouping ("1.500 GB"). */
export const formatGb = (gb: number) => `${formatNumberDe(gb)} GB`;
export const formatCores = (n: number) => `${n} ${n === 1 ? 'Kern' : 'Kerne'}`;
export const monthsText = (n: number) => `${n} ${n === 1 ? 'Monat' : 'Monate'}`;

let berlin: Intl.DateTimeFormat | undefined;
/** Made on first use: the first Intl formatter loads the browser's locale data (issue 22). */
const berlinDate = () => (berlin ??= new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }));
export const formatDate = (iso: string | null) => (iso ? berlinDate().format(new Date(iso)) : '–');

/** The API's German message; the fallback only for errors without one. */
export const errorText = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.message ? err.message : fallback);

/** Rounds up into a slider's grid (min + k × step) and clamps to its limits. */
export function snapUp(value: number, limits: { min: number; max: number; step: number }): number {
  if (!Number.isFinite(value) || value <= limits.min) return limits.min;
  return Math.min(limits.max, limits.min + Math.ceil((value - limits.min) / limits.step) * limits.step);
}

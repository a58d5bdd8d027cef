import { formatEuro } from '@hp/contract';
import { GERMAN_MONTHS } from '../../../lib/german-months.ts';

/** Statistics sizes (spec §9): GB, and TB from 1024 GB. */
export function formatGb(gb: number): string {
  if (Math.abs(gb) >= 1024) return `${(gb / 1024).toLocaleString('de-DE', { maximumFractionDigits: 1 })} TB`;
  return `${gb.toLocaleString('de-DE', { maximumFractionDigits: 1 })} GB`;
}

export const formatCores = (cores: number) => `${cores.toLocaleString('de-DE', { maximumFractionDigits: 1 })} ${cores === 1 ? 'Kern' : 'Kerne'}`;
export const formatPercent = (ratio: number) => `${Math.round(ratio * 100).toLocaleString('de-DE')} %`;
export const euro = (cents: number) => formatEuro(cents);

const monthNames = ['Jan.', 'Feb.', 'März', 'Apr.', 'Mai', 'Juni', 'Juli', 'Aug.', 'Sept.', 'Okt.', 'Nov.', 'Dez.'];
/** 'YYYY-MM' → 'März 26' (axis) or 'März 2026' (tables). */
export const shortMonth = (ym: string) => `${monthNames[Number(ym.slice(5, 7)) - 1]} ${ym.slice(2, 4)}`;
export const longMonth = (ym: string) => `${GERMAN_MONTHS[Number(ym.slice(5, 7)) - 1]} ${ym.slice(0, 4)}`;

export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '–';
  if (minutes < 60) return `${Math.round(minutes).toLocaleString('de-DE')} Min.`;
  const hours = minutes / 60;
  if (hours < 48) return `${hours.toLocaleString('de-DE', { maximumFractionDigits: 1 })} Std.`;
  return `${(hours / 24).toLocaleString('de-DE', { maximumFractionDigits: 1 })} Tage`;
}

// Status times are German time (Europe/Berlin) wherever the reader is: the page is rendered on the server
// and hydrated in the browser, and both must print the same text. Written out instead of through
// Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', … }): a browser's first Intl formatter loads its
// locale data, about 100 ms of main thread on a phone (Lighthouse, issue 22). format.test.ts compares each
// one with Intl. Each time says which German time it is (MEZ in winter, MESZ in summer), so a reader
// abroad knows.
const pad = (n: number) => String(n).padStart(2, '0');
const HOUR = 3_600_000;

/** 01:00 UTC on the last Sunday of a month: when summer time starts (March) or ends (October) in the EU. */
function lastSundayOneUtc(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0, 1));
  return last.getTime() - last.getUTCDay() * 24 * HOUR;
}

/** The wall clock in Germany at an instant (a Date whose UTC fields are that wall clock) and its zone. */
function berlin(value: string | number | Date): { d: Date; zone: 'MEZ' | 'MESZ' } {
  const t = new Date(value).getTime();
  const year = new Date(t).getUTCFullYear();
  const summer = t >= lastSundayOneUtc(year, 2) && t < lastSundayOneUtc(year, 9);
  return { d: new Date(t + (summer ? 2 : 1) * HOUR), zone: summer ? 'MESZ' : 'MEZ' };
}

/** "05.01.2026" (dateStyle medium). */
const date = (d: Date) => `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`;
/** "07:03" (timeStyle short). */
const time = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;

/** "05.01.2026, 07:03 Uhr (MEZ)". */
export const formatDateTime = (iso: string | number | Date) => {
  const { d, zone } = berlin(iso);
  return `${date(d)}, ${time(d)} Uhr (${zone})`;
};
/** "05.01.2026, 07:03:09 Uhr (MEZ)". */
export const formatDateTimeSeconds = (iso: string | number | Date) => {
  const { d, zone } = berlin(iso);
  return `${date(d)}, ${time(d)}:${pad(d.getUTCSeconds())} Uhr (${zone})`;
};

/**
 * "23.04.2025, 22:00 – 23:30 Uhr (MESZ)" on one day, otherwise both dates in full; a range across a change
 * of summer time names the zone of each end.
 */
export function formatRange(startIso: string, endIso: string) {
  const start = berlin(startIso);
  const end = berlin(endIso);
  const startZone = start.zone === end.zone ? '' : ` (${start.zone})`;
  if (date(start.d) === date(end.d)) return `${date(start.d)}, ${time(start.d)}${startZone} – ${time(end.d)} Uhr (${end.zone})`;
  return `${date(start.d)}, ${time(start.d)} Uhr${startZone} – ${date(end.d)}, ${time(end.d)} Uhr (${end.zone})`;
}

/** A Date as the value of an `<input type="datetime-local">` (local time, minutes). */
export const toLocalInputValue = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** A `datetime-local` value (read as local time) as an ISO instant for the API. */
export const localInputToIso = (value: string) => new Date(value).toISOString();

// Only called in the browser after the data has loaded, so the user's own time zone is right here.
// Written out instead of through Intl.DateTimeFormat('de-DE', …): a browser's first Intl formatter loads its
// locale data, about 100 ms of main thread on a phone right when the status page shows its data (Lighthouse,
// issue 22). format.test.ts compares each one with Intl.
const pad = (n: number) => String(n).padStart(2, '0');
/** "05.01.2026" (dateStyle medium). */
const date = (d: Date) => `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`;
/** "07:03" (timeStyle short). */
const time = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;

export const formatDateTime = (iso: string | number | Date) => {
  const d = new Date(iso);
  return `${date(d)}, ${time(d)} Uhr`;
};
export const formatDateTimeSeconds = (iso: string | number | Date) => {
  const d = new Date(iso);
  return `${date(d)}, ${time(d)}:${pad(d.getSeconds())} Uhr`;
};

/** "23.04.2025, 22:00 – 24:00 Uhr" on one day, otherwise both dates in full. */
export function formatRange(startIso: string, endIso: string) {
  const start = new Date(startIso);
  const end = new Date(endIso);
  if (start.toDateString() === end.toDateString()) return `${date(start)}, ${time(start)} – ${time(end)} Uhr`;
  return `${date(start)}, ${time(start)} Uhr – ${date(end)}, ${time(end)} Uhr`;
}

/** A Date as the value of an `<input type="datetime-local">` (local time, minutes). */
export const toLocalInputValue = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** A `datetime-local` value (read as local time) as an ISO instant for the API. */
export const localInputToIso = (value: string) => new Date(value).toISOString();

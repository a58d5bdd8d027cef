// Only called in the browser after the data has loaded, so the user's own time zone is right here.
const dateTime = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short' });
const time = new Intl.DateTimeFormat('de-DE', { timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'medium' });

export const formatDateTime = (iso: string | number | Date) => `${dateTime.format(new Date(iso))} Uhr`;
export const formatDateTimeSeconds = (iso: string | number | Date) => `${dateTimeSeconds.format(new Date(iso))} Uhr`;

/** "23.04.2025, 22:00 – 24:00 Uhr" on one day, otherwise both dates in full. */
export function formatRange(startIso: string, endIso: string) {
  const start = new Date(startIso);
  const end = new Date(endIso);
  if (start.toDateString() === end.toDateString()) return `${dateTime.format(start)} – ${time.format(end)} Uhr`;
  return `${dateTime.format(start)} Uhr – ${dateTime.format(end)} Uhr`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A Date as the value of an `<input type="datetime-local">` (local time, minutes). */
export const toLocalInputValue = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** A `datetime-local` value (read as local time) as an ISO instant for the API. */
export const localInputToIso = (value: string) => new Date(value).toISOString();

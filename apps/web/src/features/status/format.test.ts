import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime, formatDateTimeSeconds, formatRange } from './format.ts';

// The status page formats dates by hand (no Intl, issue 22), in German time wherever the reader is (the
// server renders the page, the browser hydrates it): it must print what Intl prints for Europe/Berlin, with
// Intl's name of the zone (MEZ, MESZ).
function intl() {
  const dateTime = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });
  const dateTimeSeconds = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'medium' });
  const time = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', timeStyle: 'short' });
  const zoneName = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', timeZoneName: 'short' });
  const zone = (d: Date) => zoneName.formatToParts(d).find((p) => p.type === 'timeZoneName')!.value;
  return {
    dateTime: (d: Date) => `${dateTime.format(d)} Uhr (${zone(d)})`,
    dateTimeSeconds: (d: Date) => `${dateTimeSeconds.format(d)} Uhr (${zone(d)})`,
    time: (d: Date) => time.format(d),
    zone,
  };
}

/** Every 7 hours 13 minutes and 17 seconds across three years, so each hour, minute and second occur. */
function* instants() {
  const start = Date.UTC(2025, 0, 1);
  for (let t = start; t < start + 3 * 366 * 86_400_000; t += ((7 * 60 + 13) * 60 + 17) * 1000) yield new Date(t);
}

/** Every 5 minutes around each change of summer time from 2000 to 2040. */
function* dstChanges() {
  for (let year = 2000; year <= 2040; year++) {
    for (const month of [2, 9]) {
      const last = new Date(Date.UTC(year, month + 1, 0, 1));
      const change = last.getTime() - last.getUTCDay() * 86_400_000;
      for (let m = -65; m <= 65; m += 5) yield new Date(change + m * 60_000);
    }
  }
}

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe('status dates without Intl', () => {
  it.each(['UTC', 'America/New_York'])('prints German time as Intl does, in a browser set to %s', (tz) => {
    process.env.TZ = tz;
    const { dateTime, dateTimeSeconds } = intl();
    let checked = 0;
    for (const d of [...instants(), ...dstChanges()]) {
      expect(formatDateTime(d.toISOString())).toBe(dateTime(d));
      expect(formatDateTimeSeconds(d.getTime())).toBe(dateTimeSeconds(d));
      checked++;
    }
    expect(checked).toBeGreaterThan(3000 + 41 * 2 * 26);
  });

  it('writes a range on one day with one date, two dates otherwise, and the zone of each end across a change', () => {
    process.env.TZ = 'America/New_York';
    const { dateTime, time, zone } = intl();
    const start = new Date('2025-04-23T20:00:00Z');
    const sameDay = new Date('2025-04-23T21:30:00Z');
    const nextDay = new Date('2025-04-24T02:00:00Z');
    expect(formatRange(start.toISOString(), sameDay.toISOString())).toBe(`${dateTime(start).replace(' Uhr (MESZ)', '')} – ${time(sameDay)} Uhr (${zone(sameDay)})`);
    expect(formatRange(start.toISOString(), sameDay.toISOString())).toBe('23.04.2025, 22:00 – 23:30 Uhr (MESZ)');
    expect(formatRange(start.toISOString(), nextDay.toISOString())).toBe('23.04.2025, 22:00 Uhr – 24.04.2025, 04:00 Uhr (MESZ)');
    expect(formatRange(start.toISOString(), nextDay.toISOString())).toBe(`${dateTime(start).replace(' (MESZ)', '')} – ${dateTime(nextDay)}`);
    // The night summer time ends (26 October 2025, 03:00 MESZ → 02:00 MEZ): each end says its zone.
    expect(formatRange('2025-10-25T23:30:00Z', '2025-10-26T01:30:00Z')).toBe('26.10.2025, 01:30 (MESZ) – 02:30 Uhr (MEZ)');
    expect(formatRange('2025-10-25T20:00:00Z', '2025-10-26T03:00:00Z')).toBe('25.10.2025, 22:00 Uhr (MESZ) – 26.10.2025, 04:00 Uhr (MEZ)');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime, formatDateTimeSeconds, formatRange } from './format.ts';

// The status page formats dates by hand (no Intl, issue 22); they must print what Intl prints.
// Made after the test sets TZ: a formatter keeps the time zone it was made in.
function intl() {
  const dateTime = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short' });
  const dateTimeSeconds = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'medium' });
  const time = new Intl.DateTimeFormat('de-DE', { timeStyle: 'short' });
  return {
    dateTime: (d: Date) => `${dateTime.format(d)} Uhr`,
    dateTimeSeconds: (d: Date) => `${dateTimeSeconds.format(d)} Uhr`,
    time: (d: Date) => time.format(d),
  };
}

/** Every 7 hours 13 minutes and 17 seconds across three years, so each hour, minute and second and both DST changes occur. */
function* instants() {
  const start = Date.UTC(2025, 0, 1);
  for (let t = start; t < start + 3 * 366 * 86_400_000; t += ((7 * 60 + 13) * 60 + 17) * 1000) yield new Date(t);
}

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe('status dates without Intl', () => {
  it.each(['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'])('prints what Intl prints in %s', (tz) => {
    process.env.TZ = tz;
    const { dateTime, dateTimeSeconds } = intl();
    let checked = 0;
    for (const d of instants()) {
      expect(formatDateTime(d.toISOString())).toBe(dateTime(d));
      expect(formatDateTimeSeconds(d.getTime())).toBe(dateTimeSeconds(d));
      checked++;
    }
    expect(checked).toBeGreaterThan(3000);
  });

  it('writes a range on one day with one date, and two dates otherwise', () => {
    process.env.TZ = 'Europe/Berlin';
    const { dateTime, time } = intl();
    const start = new Date('2025-04-23T20:00:00Z');
    const sameDay = new Date('2025-04-23T21:30:00Z');
    const nextDay = new Date('2025-04-24T02:00:00Z');
    expect(formatRange(start.toISOString(), sameDay.toISOString())).toBe(`${dateTime(start).replace(' Uhr', '')} – ${time(sameDay)} Uhr`);
    expect(formatRange(start.toISOString(), sameDay.toISOString())).toBe('23.04.2025, 22:00 – 23:30 Uhr');
    expect(formatRange(start.toISOString(), nextDay.toISOString())).toBe('23.04.2025, 22:00 Uhr – 24.04.2025, 04:00 Uhr');
    expect(formatRange(start.toISOString(), nextDay.toISOString())).toBe(`${dateTime(start)} – ${dateTime(nextDay)}`);
  });
});

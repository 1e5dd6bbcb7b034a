import { describe, expect, it } from 'vitest';
import {
  bucketStart,
  bucketStarts,
  isValidTimeZone,
  localDate,
  localParts,
  nextBucket,
  startOfLocalDay,
  zoneOffsetMs,
} from './time-zone';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);
const iso = (t: number) => new Date(t).toISOString();

describe('isValidTimeZone', () => {
  it.each(['UTC', 'Asia/Shanghai', 'America/New_York', 'Asia/Kolkata', 'Etc/GMT+5'])(
    'knows %s',
    (z) => expect(isValidTimeZone(z)).toBe(true),
  );
  it.each(['', 'Mars/Olympus', 'Asia/Shanghai ', 'A'.repeat(65), '+08:00', 'UTC+8', '../etc'])(
    'refuses %j',
    (z) => expect(isValidTimeZone(z)).toBe(false),
  );
});

describe('offsets and local dates', () => {
  it.each([
    ['UTC', utc(2026, 1, 15), 0],
    ['Asia/Shanghai', utc(2026, 1, 15), 8 * HOUR],
    ['Asia/Kolkata', utc(2026, 1, 15), 5.5 * HOUR],
    ['America/New_York', utc(2026, 1, 15), -5 * HOUR],
    ['America/New_York', utc(2026, 7, 15), -4 * HOUR],
  ])('%s at %s is %s ms from UTC', (z, t, offset) => {
    expect(zoneOffsetMs(t, z)).toBe(offset);
  });

  it('reads local wall-clock fields and dates', () => {
    expect(localParts(utc(2026, 12, 31, 16, 5), 'Asia/Shanghai')).toEqual({
      year: 2027,
      month: 1,
      day: 1,
      hour: 0,
      minute: 5,
    });
    expect(localDate(utc(2026, 1, 1, 15, 59), 'Asia/Shanghai')).toBe('2026-01-01');
    expect(localDate(utc(2026, 1, 1, 16, 0), 'Asia/Shanghai')).toBe('2026-01-02');
    expect(localDate(utc(2026, 1, 1, 18, 29), 'Asia/Kolkata')).toBe('2026-01-01');
    expect(localDate(utc(2026, 1, 1, 18, 30), 'Asia/Kolkata')).toBe('2026-01-02');
  });
});

describe('startOfLocalDay', () => {
  it.each([
    ['UTC', utc(2026, 3, 10, 13, 7), utc(2026, 3, 10)],
    ['UTC', utc(2026, 3, 10), utc(2026, 3, 10)],
    // A Shanghai (UTC+8) day starts at 16:00 UTC the day before.
    ['Asia/Shanghai', utc(2026, 3, 10, 3), utc(2026, 3, 9, 16)],
    ['Asia/Shanghai', utc(2026, 3, 10, 15, 59), utc(2026, 3, 9, 16)],
    ['Asia/Shanghai', utc(2026, 3, 10, 16), utc(2026, 3, 10, 16)],
    // Kolkata is UTC+5:30: midnight at 18:30 UTC.
    ['Asia/Kolkata', utc(2026, 1, 2, 3), utc(2026, 1, 1, 18, 30)],
    ['Asia/Kolkata', utc(2026, 1, 1, 18, 29), utc(2025, 12, 31, 18, 30)],
    // New York: EST (UTC-5) in winter, EDT (UTC-4) in summer.
    ['America/New_York', utc(2026, 1, 15, 12), utc(2026, 1, 15, 5)],
    ['America/New_York', utc(2026, 7, 15, 3, 59), utc(2026, 7, 14, 4)],
    // Midnight skipped by a DST change: the day starts at the change (local 01:00).
    ['America/Santiago', utc(2026, 9, 6, 12), utc(2026, 9, 6, 4)],
    ['America/Havana', utc(2026, 3, 8, 12), utc(2026, 3, 8, 5)],
    ['Asia/Beirut', utc(2026, 3, 29, 12), utc(2026, 3, 28, 22)],
  ])('%s: the day holding %s starts at its first instant', (z, t, start) => {
    expect(iso(startOfLocalDay(t, z))).toBe(iso(start));
    expect(localDate(start, z)).toBe(localDate(t, z));
    expect(localDate(start - 1, z)).not.toBe(localDate(t, z));
  });
});

describe('buckets', () => {
  it('minute and hour buckets are UTC minutes and hours, whatever the zone', () => {
    const t = utc(2026, 5, 1, 10, 42) + 17_123;
    for (const z of ['UTC', 'Asia/Shanghai', 'Asia/Kolkata']) {
      expect(bucketStart(t, 'minute', z)).toBe(utc(2026, 5, 1, 10, 42));
      expect(bucketStart(t, 'hour', z)).toBe(utc(2026, 5, 1, 10));
      expect(nextBucket(utc(2026, 5, 1, 10), 'hour', z)).toBe(utc(2026, 5, 1, 11));
      expect(nextBucket(utc(2026, 5, 1, 10, 42), 'minute', z)).toBe(utc(2026, 5, 1, 10, 43));
    }
  });

  it('Asia/Shanghai day buckets start at local midnight (16:00 UTC)', () => {
    const from = startOfLocalDay(utc(2026, 3, 10, 3), 'Asia/Shanghai');
    expect(bucketStarts(from, from + 3 * DAY, 'day', 'Asia/Shanghai').map(iso)).toEqual([
      '2026-03-09T16:00:00.000Z',
      '2026-03-10T16:00:00.000Z',
      '2026-03-11T16:00:00.000Z',
    ]);
  });

  it('America/New_York: the spring-forward day has 23 hours, the fall-back day 25', () => {
    const z = 'America/New_York';
    const spring = startOfLocalDay(utc(2026, 3, 8, 12), z);
    expect(iso(spring)).toBe('2026-03-08T05:00:00.000Z');
    expect(nextBucket(spring, 'day', z) - spring).toBe(23 * HOUR);
    const fall = startOfLocalDay(utc(2026, 11, 1, 12), z);
    expect(iso(fall)).toBe('2026-11-01T04:00:00.000Z');
    expect(nextBucket(fall, 'day', z) - fall).toBe(25 * HOUR);
    // Across both changes every bucket starts at local midnight and they tile the range.
    const from = startOfLocalDay(utc(2026, 3, 1, 12), z);
    const to = startOfLocalDay(utc(2026, 11, 30, 12), z);
    const starts = bucketStarts(from, to, 'day', z);
    expect(starts).toHaveLength(274);
    for (const s of starts) expect(localParts(s, z)).toMatchObject({ hour: 0, minute: 0 });
    expect(new Set(starts.map((s) => localDate(s, z))).size).toBe(starts.length);
  });

  it('Asia/Kolkata (+5:30): day buckets at 18:30 UTC; hour buckets at :30 local', () => {
    const z = 'Asia/Kolkata';
    const from = startOfLocalDay(utc(2026, 6, 1, 12), z);
    expect(bucketStarts(from, from + 2 * DAY, 'day', z).map(iso)).toEqual([
      '2026-05-31T18:30:00.000Z',
      '2026-06-01T18:30:00.000Z',
    ]);
    expect(localParts(bucketStart(utc(2026, 6, 1, 12, 10), 'hour', z), z).minute).toBe(30);
  });
});

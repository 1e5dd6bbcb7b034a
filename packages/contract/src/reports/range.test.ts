import { describe, expect, it } from 'vitest';
import { resolveReportFrame, type TRangeProblem } from './range';
import { REPORT_MAX_RANGE_MS, pickReportBucket, type TReportBucket } from './schemas';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** 2026-06-15 10:42:17.5 UTC */
const NOW = Date.UTC(2026, 5, 15, 10, 42, 17, 500);
const RETENTION_DAYS = 14;

function check(from: number, to: number, bucket: TReportBucket, timeZone = 'UTC') {
  return resolveReportFrame({ from, to, bucket, timeZone }, NOW, RETENTION_DAYS);
}

describe('resolveReportFrame: problems', () => {
  it.each<[string, number, number, TReportBucket, string, TRangeProblem]>([
    ['unknown zone', NOW - HOUR, NOW, 'minute', 'Mars/Olympus', 'badTimeZone'],
    ['empty zone', NOW - HOUR, NOW, 'minute', '', 'badTimeZone'],
    ['reversed', NOW, NOW - HOUR, 'hour', 'UTC', 'reversed'],
    ['empty (to = from)', NOW - HOUR, NOW - HOUR, 'hour', 'UTC', 'reversed'],
    ['starting in the future', NOW + MINUTE, NOW + HOUR, 'minute', 'UTC', 'future'],
    ['minute range over a day', NOW - DAY - 1, NOW, 'minute', 'UTC', 'tooLong'],
    ['hour range over 31 days', NOW - 31 * DAY - 1, NOW, 'hour', 'UTC', 'tooLong'],
    ['day range over 366 days', NOW - 366 * DAY - 1, NOW, 'day', 'UTC', 'tooLong'],
    [
      'minute detail before the retention',
      NOW - RETENTION_DAYS * DAY - 1,
      NOW - RETENTION_DAYS * DAY + HOUR,
      'minute',
      'UTC',
      'beforeRetention',
    ],
  ])('%s', (_name, from, to, bucket, zone, problem) => {
    expect(check(from, to, bucket, zone)).toEqual({ ok: false, problem });
  });

  it('accepts each bucket’s longest range, and hour or day detail beyond the minute retention', () => {
    for (const bucket of ['minute', 'hour', 'day'] as const)
      expect(check(NOW - REPORT_MAX_RANGE_MS[bucket], NOW, bucket).ok).toBe(true);
    expect(check(NOW - 30 * DAY, NOW - 29 * DAY, 'hour').ok).toBe(true);
    expect(check(NOW - RETENTION_DAYS * DAY, NOW - RETENTION_DAYS * DAY + HOUR, 'minute').ok).toBe(
      true,
    );
    // "now" itself is not in the future.
    expect(check(NOW, NOW + MINUTE, 'minute').ok).toBe(true);
  });

  it('checks the zone first, then the order, then the start', () => {
    expect(check(NOW + HOUR, NOW, 'minute', 'Nope/Nope')).toEqual({
      ok: false,
      problem: 'badTimeZone',
    });
    expect(check(NOW + 2 * HOUR, NOW + HOUR, 'minute')).toEqual({ ok: false, problem: 'reversed' });
  });
});

describe('resolveReportFrame: alignment', () => {
  function frame(from: number, to: number, bucket: TReportBucket, zone = 'UTC') {
    const r = check(from, to, bucket, zone);
    if (!r.ok) throw new Error(r.problem);
    return r.frame;
  }

  it('widens minute and hour ranges to whole buckets', () => {
    const m = frame(NOW - 10 * MINUTE - 5_000, NOW - 5 * MINUTE + 1, 'minute');
    expect(m.from).toBe(Date.UTC(2026, 5, 15, 10, 32));
    expect(m.to).toBe(Date.UTC(2026, 5, 15, 10, 38));
    expect(m.buckets).toHaveLength(6);
    expect(m.buckets[1]! - m.buckets[0]!).toBe(MINUTE);
    const h = frame(NOW - 5 * HOUR, NOW - 2 * HOUR, 'hour', 'Asia/Shanghai');
    expect(h.from).toBe(Date.UTC(2026, 5, 15, 5));
    expect(h.to).toBe(Date.UTC(2026, 5, 15, 9));
    expect(h.buckets).toEqual([5, 6, 7, 8].map((hr) => Date.UTC(2026, 5, 15, hr)));
  });

  it('an exact bucket end stays (to is exclusive)', () => {
    const m = frame(Date.UTC(2026, 5, 15, 9), Date.UTC(2026, 5, 15, 10), 'hour');
    expect(m.buckets).toEqual([Date.UTC(2026, 5, 15, 9)]);
  });

  it('clamps `to` to the end of the bucket holding now', () => {
    expect(frame(NOW - 30 * MINUTE, NOW + DAY, 'hour').to).toBe(Date.UTC(2026, 5, 15, 11));
    expect(frame(NOW - 3 * MINUTE, NOW + HOUR, 'minute').to).toBe(Date.UTC(2026, 5, 15, 10, 43));
    const d = frame(NOW - 2 * DAY, NOW + 30 * DAY, 'day');
    expect(d.to).toBe(Date.UTC(2026, 5, 16));
    expect(d.buckets).toEqual([13, 14, 15].map((day) => Date.UTC(2026, 5, day)));
  });

  it('day buckets follow the caller’s zone: Shanghai days start at 16:00 UTC', () => {
    const d = frame(NOW - 2 * DAY, NOW, 'day', 'Asia/Shanghai');
    expect(d.timeZone).toBe('Asia/Shanghai');
    expect(d.buckets).toEqual([12, 13, 14].map((day) => Date.UTC(2026, 5, day, 16)));
    expect(d.to).toBe(Date.UTC(2026, 5, 15, 16));
  });

  it('Kolkata days start at 18:30 UTC', () => {
    const d = frame(NOW - DAY, NOW, 'day', 'Asia/Kolkata');
    expect(d.buckets).toEqual([Date.UTC(2026, 5, 13, 18, 30), Date.UTC(2026, 5, 14, 18, 30)]);
  });

  it('New York day buckets span the DST change with a 23-hour and a 25-hour day', () => {
    const spring = resolveReportFrame(
      {
        from: Date.UTC(2026, 2, 7, 12),
        to: Date.UTC(2026, 2, 9, 12),
        bucket: 'day',
        timeZone: 'America/New_York',
      },
      NOW,
      RETENTION_DAYS,
    );
    if (!spring.ok) throw new Error(spring.problem);
    expect(spring.frame.buckets).toEqual([
      Date.UTC(2026, 2, 7, 5),
      Date.UTC(2026, 2, 8, 5),
      Date.UTC(2026, 2, 9, 4),
    ]);
    expect(spring.frame.to).toBe(Date.UTC(2026, 2, 10, 4));
    const fall = resolveReportFrame(
      {
        from: Date.UTC(2025, 10, 1, 12),
        to: Date.UTC(2025, 10, 3, 1),
        bucket: 'day',
        timeZone: 'America/New_York',
      },
      NOW,
      RETENTION_DAYS,
    );
    if (!fall.ok) throw new Error(fall.problem);
    // 2025-11-02 is the fall-back day: 04:00Z to 05:00Z the next day.
    expect(fall.frame.buckets).toEqual([Date.UTC(2025, 10, 1, 4), Date.UTC(2025, 10, 2, 4)]);
    expect(fall.frame.to - fall.frame.buckets[1]!).toBe(25 * HOUR);
  });

  it('a year of day buckets resolves fast (it is on every day report)', () => {
    const started = performance.now();
    const y = frame(NOW - 365 * DAY, NOW, 'day', 'America/New_York');
    expect(y.buckets.length).toBe(366);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe('pickReportBucket', () => {
  it.each<[number, TReportBucket]>([
    [HOUR, 'minute'],
    [3 * HOUR, 'minute'],
    [3 * HOUR + 1, 'hour'],
    [7 * DAY, 'hour'],
    [7 * DAY + 1, 'day'],
    [365 * DAY, 'day'],
  ])('%s ms → %s', (ms, bucket) => expect(pickReportBucket(ms)).toBe(bucket));
});

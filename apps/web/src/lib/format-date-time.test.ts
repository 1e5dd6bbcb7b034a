import { describe, expect, it } from 'vitest';
import { formatBucketLabel, formatZonedDateTime } from './format-date-time';

// 2026-03-01T16:05:00Z is 2026-03-02 00:05 in Shanghai (UTC+8, no DST).
const T = Date.UTC(2026, 2, 1, 16, 5);

describe('chart bucket labels (SPEC §3: minute and hour HH:mm, day MM/DD)', () => {
  it.each([
    ['minute', 'Asia/Shanghai', '00:05'],
    ['hour', 'Asia/Shanghai', '00:05'],
    ['day', 'Asia/Shanghai', '03/02'],
    ['minute', 'UTC', '16:05'],
    ['day', 'UTC', '03/01'],
    ['hour', 'America/New_York', '11:05'],
    ['day', 'America/New_York', '03/01'],
  ] as const)('%s in %s', (bucket, zone, label) => {
    expect(formatBucketLabel(T, bucket, zone)).toBe(label);
  });

  it('uses 00 for midnight, not 24', () => {
    expect(formatBucketLabel(Date.UTC(2026, 0, 1, 16, 0), 'hour', 'Asia/Shanghai')).toBe('00:00');
  });

  it('formats the full local date and time for tooltips and files', () => {
    expect(formatZonedDateTime(T, 'Asia/Shanghai')).toBe('2026-03-02 00:05');
    expect(formatZonedDateTime(T, 'UTC')).toBe('2026-03-01 16:05');
  });
});

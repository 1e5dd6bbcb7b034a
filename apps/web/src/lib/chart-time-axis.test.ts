/** Time-axis labels: round local times, the date wherever a day starts (issue: 00:00, 07:00… with no dates). */
import { bucketStarts } from '@rpc/contract';
import { describe, expect, it } from 'vitest';
import { timeAxisLabels } from './chart-time-axis';

const HOUR = 3_600_000;
const shown = (labels: string[]) => labels.filter(Boolean);

describe('timeAxisLabels', () => {
  it('24 hours by hour: a label every 2 hours, the date on the first and at midnight', () => {
    // 14:00 on 20 Nov in Shanghai (06:00 UTC) to 14:00 on 21 Nov
    const from = Date.UTC(2026, 10, 20, 6);
    const buckets = bucketStarts(from, from + 24 * HOUR, 'hour', 'Asia/Shanghai');
    const { labels, stepMinutes } = timeAxisLabels(buckets, 'hour', 'Asia/Shanghai');
    expect(stepMinutes).toBe(120);
    expect(shown(labels)).toEqual([
      '14:00\n11/20',
      '16:00',
      '18:00',
      '20:00',
      '22:00',
      '00:00\n11/21',
      '02:00',
      '04:00',
      '06:00',
      '08:00',
      '10:00',
      '12:00',
    ]);
  });

  it('7 days by hour: one label per local day, the date', () => {
    const from = Date.UTC(2026, 10, 13, 16); // 14 Nov 00:00 in Shanghai
    const buckets = bucketStarts(from, from + 7 * 24 * HOUR, 'hour', 'Asia/Shanghai');
    const { labels } = timeAxisLabels(buckets, 'hour', 'Asia/Shanghai');
    expect(shown(labels)).toEqual(['11/14', '11/15', '11/16', '11/17', '11/18', '11/19', '11/20']);
    expect(labels[0]).toBe('11/14');
    expect(labels[24]).toBe('11/15');
  });

  it('30 days by hour: every third day', () => {
    const from = Date.UTC(2026, 10, 1, 0);
    const buckets = bucketStarts(from, from + 30 * 24 * HOUR, 'hour', 'UTC');
    const labels = shown(timeAxisLabels(buckets, 'hour', 'UTC').labels);
    expect(labels.length).toBeLessThanOrEqual(12);
    expect(labels.slice(0, 3)).toEqual(['11/01', '11/04', '11/07']);
  });

  it('an hour by minute: every 5 minutes, dated once', () => {
    const from = Date.UTC(2026, 10, 20, 23, 30);
    const buckets = bucketStarts(from, from + HOUR, 'minute', 'UTC');
    const labels = shown(timeAxisLabels(buckets, 'minute', 'UTC').labels);
    expect(labels[0]).toBe('23:30\n11/20');
    expect(labels).toContain('00:00\n11/21');
    expect(labels).toContain('23:35');
    expect(labels).toHaveLength(12);
  });

  it('days: MM/DD, thinned to the label budget', () => {
    const from = Date.UTC(2026, 0, 1);
    const buckets = bucketStarts(from, from + 30 * 24 * HOUR, 'day', 'UTC');
    const labels = shown(timeAxisLabels(buckets, 'day', 'UTC', 10).labels);
    expect(labels[0]).toBe('01/01');
    expect(labels[1]).toBe('01/04');
    expect(labels.length).toBeLessThanOrEqual(10);
  });

  it('names the first bucket when no round time falls in the range', () => {
    const from = Date.UTC(2026, 10, 20, 10, 1);
    const buckets = bucketStarts(from, from + 3 * 60_000, 'minute', 'UTC');
    expect(timeAxisLabels(buckets, 'minute', 'UTC', 1).labels).toEqual(['10:01\n11/20', '', '']);
  });
});

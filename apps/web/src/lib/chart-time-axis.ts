/**
 * Time-axis labels for the usage charts, in the report's zone: which buckets get a label (at round local times,
 * about `maxLabels` of them) and what it says: HH:mm for minute and hour buckets, with the date (MM/DD) on a
 * second line wherever a new day starts, so a range over several days never shows bare 00:00, 07:00… (SPEC §3
 * chart time buckets: minute and hour HH:mm, day MM/DD).
 */
import type { TReportBucket } from '@rpc/contract';
import { localParts } from '@rpc/contract';

/** Label steps in minutes, finest first: every step divides a day, so labels fall on the same times each day. */
const STEPS_MIN = [1, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440] as const;

const pad = (n: number) => String(n).padStart(2, '0');

export type TTimeAxis = {
  /** one entry per bucket: the label text, '' for a bucket without a label */
  labels: string[];
  /** the label step in minutes (1440 × days per label for day buckets and for hours over many days) */
  stepMinutes: number;
};

export function timeAxisLabels(
  buckets: readonly number[],
  bucket: TReportBucket,
  timeZone: string,
  maxLabels = 12,
): TTimeAxis {
  const parts = buckets.map((b) => localParts(b, timeZone));
  if (bucket === 'day') {
    const every = Math.max(1, Math.ceil(buckets.length / maxLabels));
    return {
      labels: parts.map((p, i) => (i % every === 0 ? `${pad(p.month)}/${pad(p.day)}` : '')),
      stepMinutes: every * 1440,
    };
  }
  const bucketMinutes = bucket === 'hour' ? 60 : 1;
  const spanMinutes = buckets.length * bucketMinutes;
  const step: number =
    STEPS_MIN.find((s) => s >= bucketMinutes && spanMinutes / s <= maxLabels) ?? 1440;
  // Beyond a label a day, every k-th local midnight.
  const everyDays = step === 1440 ? Math.max(1, Math.ceil(spanMinutes / 1440 / maxLabels)) : 1;
  let lastDay = '';
  let dayCount = -1;
  const labels = parts.map((p): string => {
    const minuteOfDay = p.hour * 60 + p.minute;
    if (minuteOfDay % step !== 0) return '';
    const time = `${pad(p.hour)}:${pad(p.minute)}`;
    const day = `${pad(p.month)}/${pad(p.day)}`;
    if (step === 1440) {
      dayCount += 1;
      return dayCount % everyDays === 0 ? day : '';
    }
    // The first label and the first label of each new day carry the date.
    if (day === lastDay) return time;
    lastDay = day;
    return `${time}\n${day}`;
  });
  // A range shorter than one step (or starting between steps with few buckets) still names its first bucket.
  if (!labels.some(Boolean) && parts[0]) {
    const p = parts[0];
    labels[0] = `${pad(p.hour)}:${pad(p.minute)}\n${pad(p.month)}/${pad(p.day)}`;
  }
  return { labels, stepMinutes: step * everyDays };
}

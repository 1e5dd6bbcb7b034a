/**
 * Time-zone arithmetic for report buckets, with nothing but Intl (no tz database of our own).
 * A bucket is identified by its start instant (epoch ms, UTC). Minute and hour buckets are UTC minutes and hours
 * (in zones with a whole-hour offset, a UTC hour is a local hour; in the few zones offset by 30 or 45 minutes an
 * hour bucket starts at :30 or :45 local time). Day buckets start at local midnight, DST included.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when the runtime knows the IANA zone name (e.g. "Asia/Shanghai", "UTC"). */
export function isValidTimeZone(timeZone: string): boolean {
  if (timeZone.length === 0 || timeZone.length > 64) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Local wall-clock fields of an instant in a zone. */
export function localParts(
  t: number,
  timeZone: string,
): { year: number; month: number; day: number; hour: number; minute: number } {
  const parts = formatterFor(timeZone).formatToParts(new Date(t));
  const get = (type: Intl.DateTimeFormatPartTypes): number =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
  };
}

/** The zone's offset from UTC at instant t, in ms (UTC+8 → 28,800,000). */
export function zoneOffsetMs(t: number, timeZone: string): number {
  const p = localParts(t, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return asUtc - Math.floor(t / MINUTE) * MINUTE;
}

/** The local calendar date of instant t, as YYYY-MM-DD. */
export function localDate(t: number, timeZone: string): string {
  const p = localParts(t, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** The instant local midnight of the date containing t begins. */
export function startOfLocalDay(t: number, timeZone: string): number {
  const p = localParts(t, timeZone);
  const wallMidnight = Date.UTC(p.year, p.month - 1, p.day);
  // Two passes: the offset at the guess, then at the corrected instant (DST changes near midnight).
  let guess = wallMidnight - zoneOffsetMs(wallMidnight, timeZone);
  guess = wallMidnight - zoneOffsetMs(guess, timeZone);
  return guess > t ? startOfLocalDay(guess - 1, timeZone) : guess;
}

export const REPORT_BUCKET_MS = { minute: MINUTE, hour: HOUR, day: DAY } as const;

/** Start of the bucket containing t. */
export function bucketStart(
  t: number,
  bucket: 'minute' | 'hour' | 'day',
  timeZone: string,
): number {
  if (bucket === 'day') return startOfLocalDay(t, timeZone);
  const size = REPORT_BUCKET_MS[bucket];
  return Math.floor(t / size) * size;
}

/** Start of the bucket after the one starting at `start`. */
export function nextBucket(
  start: number,
  bucket: 'minute' | 'hour' | 'day',
  timeZone: string,
): number {
  if (bucket !== 'day') return start + REPORT_BUCKET_MS[bucket];
  // 23, 24 or 25 hours later: land somewhere in the next local day, then find its midnight.
  return startOfLocalDay(start + DAY + 2 * HOUR, timeZone);
}

/** Every bucket start in [from, to), where from is a bucket start. */
export function bucketStarts(
  from: number,
  to: number,
  bucket: 'minute' | 'hour' | 'day',
  timeZone: string,
): number[] {
  const out: number[] = [];
  for (let t = from; t < to; t = nextBucket(t, bucket, timeZone)) out.push(t);
  return out;
}

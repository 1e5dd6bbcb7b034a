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

const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** True when the runtime knows the IANA zone name (e.g. "Asia/Shanghai", "UTC"). */
export function isValidTimeZone(timeZone: string): boolean {
  // Names only: an offset such as "+08:00" (accepted by newer runtimes) means the opposite sign in PostgreSQL.
  if (timeZone.length > 64 || !IANA_NAME.test(timeZone)) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

const EN_US = /^(\d{1,2})\/(\d{1,2})\/(\d{4}), (\d{2}):(\d{2}):\d{2}$/;

/** Local wall-clock fields of an instant in a zone. */
export function localParts(
  t: number,
  timeZone: string,
): { year: number; month: number; day: number; hour: number; minute: number } {
  const f = formatterFor(timeZone);
  // format() is several times faster than formatToParts(); en-US h23 reads "11/22/2026, 07:05:09".
  const m = EN_US.exec(f.format(t));
  if (m) {
    return {
      year: Number(m[3]),
      month: Number(m[1]),
      day: Number(m[2]),
      hour: Number(m[4]),
      minute: Number(m[5]),
    };
  }
  const parts = f.formatToParts(t);
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
  return dateText(localParts(t, timeZone));
}

/**
 * The first instant of the local date containing t: local midnight, or, where a DST change skips midnight
 * (America/Santiago, America/Havana, Asia/Beirut), the instant of the change (local 01:00).
 */
export function startOfLocalDay(t: number, timeZone: string): number {
  const p = localParts(t, timeZone);
  const date = dateText(p);
  const wallMidnight = Date.UTC(p.year, p.month - 1, p.day);
  // Midnight read with the offset at the wall time, then with the offset at that guess; one of the two is the
  // day's start, or (midnight twice, a fall-back to 00:00) an hour after it.
  const c1 = wallMidnight - zoneOffsetMs(wallMidnight, timeZone);
  const c2 = wallMidnight - zoneOffsetMs(c1, timeZone);
  const starts = [c1, c2, Math.min(c1, c2) - HOUR].filter(
    (c) => c <= t && localDate(c, timeZone) === date,
  );
  if (starts.length > 0) return Math.min(...starts);
  // Not seen in the tz database since 1970; a minute-by-minute binary search is correct for any zone.
  let lo = Math.floor(t / MINUTE) * MINUTE - 27 * HOUR; // an earlier date
  let hi = Math.floor(t / MINUTE) * MINUTE; // the date itself
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (localDate(mid, timeZone) < date) lo = mid;
    else hi = mid;
  }
  return hi;
}

function dateText(p: { year: number; month: number; day: number }): string {
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
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
  // Most days are 24 hours: one lookup (a year of day buckets is on a report's hot path).
  const p = localParts(start + DAY, timeZone);
  if (p.hour === 0 && p.minute === 0 && dateText(p) !== localDate(start, timeZone))
    return start + DAY;
  // 23 or 25 hours (DST): land somewhere in the next local day, then find its start.
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

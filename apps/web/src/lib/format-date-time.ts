/** SPEC §9 default date format, YYYY-MM-DD HH:mm in local time, with a dash when there is no date. */
export function formatDateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The browser's IANA time zone, sent with report calls so buckets align to the user's local time. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const zonedFormatters = new Map<string, Intl.DateTimeFormat>();

function zonedParts(ms: number, timeZone: string) {
  let formatter = zonedFormatters.get(timeZone);
  if (!formatter) {
    // A chart can have 1,440 labels: one formatter per zone, not one per label.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    zonedFormatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
  };
}

/** SPEC §3 chart time buckets in the given zone: minute and hour HH:mm, day MM/DD. */
export function formatBucketLabel(
  ms: number,
  bucket: 'minute' | 'hour' | 'day',
  timeZone: string,
): string {
  const p = zonedParts(ms, timeZone);
  return bucket === 'day' ? `${p.month}/${p.day}` : `${p.hour}:${p.minute}`;
}

/** SPEC §9 date format (YYYY-MM-DD HH:mm) in the given zone; for tooltips and exported files. */
export function formatZonedDateTime(ms: number, timeZone: string): string {
  const p = zonedParts(ms, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

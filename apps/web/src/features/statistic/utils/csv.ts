/** "Download CSV": what the page shows as RFC 4180 text, safe to open in a spreadsheet. */
import type { TReportSeriesResult, TUsageByApikeyRow, TUsageByNetworkRow } from '@rpc/contract';
import { formatZonedDateTime } from '../../../lib/format-date-time';
import { bucketTotals } from './chart-options';

export type TCsvCell = string | number | null | undefined;

/** Spreadsheets run a cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@]/;

/**
 * One field: text that a spreadsheet would run as a formula gets a leading apostrophe; a field with a comma,
 * quote or line break is quoted, its quotes doubled (RFC 4180). Numbers are written as they are.
 */
export function csvCell(value: TCsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows to CSV text: fields joined by commas, records by CRLF (RFC 4180), ending with a CRLF. */
export function toCsv(rows: readonly (readonly TCsvCell[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export type TStatisticCsvLabels = {
  time: string;
  total: string;
  deleted: string;
  byKeyTitle: string;
  byNetworkTitle: string;
  apiKey: string;
  network: string;
  requests: string;
  ru: string;
  errors: string;
  share: string;
  /** e.g. "Requests" or "RUs": what the series count */
  metric: string;
};

export type TStatisticCsvInput = {
  series: TReportSeriesResult | null;
  byKey: readonly TUsageByApikeyRow[];
  byNetwork: readonly TUsageByNetworkRow[];
  labels: TStatisticCsvLabels;
};

/** Share 0..1 as a percentage with two decimals, e.g. 0.12345 -> "12.35". */
function percent(share: number): string {
  return (share * 100).toFixed(2);
}

/**
 * The time series (bucket start in the report's time zone, one column per key or network, then the total),
 * then the per-key and per-network tables, separated by an empty record.
 */
export function buildStatisticCsvRows(input: TStatisticCsvInput): TCsvCell[][] {
  const { series, byKey, byNetwork, labels } = input;
  const rows: TCsvCell[][] = [];
  if (series) {
    const names = series.series.map((s) => (s.deleted ? `${s.name} (${labels.deleted})` : s.name));
    rows.push([labels.metric]);
    rows.push([`${labels.time} (${series.timeZone})`, ...names, labels.total]);
    const totals = bucketTotals(series);
    series.buckets.forEach((bucket, i) => {
      rows.push([
        formatZonedDateTime(bucket, series.timeZone),
        ...series.series.map((s) => s.data[i] ?? 0),
        totals[i],
      ]);
    });
    rows.push([]);
  }
  rows.push([labels.byKeyTitle]);
  rows.push([labels.apiKey, labels.requests, labels.ru, labels.errors, labels.share]);
  for (const row of byKey)
    rows.push([
      row.deleted ? `${row.name} (${labels.deleted})` : row.name,
      row.requests,
      row.ru,
      row.errors,
      percent(row.ruShare),
    ]);
  rows.push([]);
  rows.push([labels.byNetworkTitle]);
  rows.push([labels.network, labels.requests, labels.ru, labels.errors, labels.share]);
  for (const row of byNetwork)
    rows.push([row.name, row.requests, row.ru, row.errors, percent(row.ruShare)]);
  return rows;
}

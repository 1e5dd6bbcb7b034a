/** The refusal report as the page shows it: a reason per code, rows for the table, series for the chart. */
import type { TRefusalsResult, TReportSeriesResult } from '@rpc/contract';
import { GATEWAY_REFUSAL_CODES } from '@rpc/contract';

export type TRefusalReason = keyof typeof GATEWAY_REFUSAL_CODES | 'other';

/** The HTTP status each refusal is answered with (docs/decisions/gateway-design.md). */
export const REFUSAL_HTTP_STATUS: Record<Exclude<TRefusalReason, 'other'>, number> = {
  rateLimited: 429,
  noRu: 402,
  notAllowed: 403,
  notOffered: 400,
  chainUnavailable: 503,
};

const REASON_BY_CODE = new Map<number, TRefusalReason>(
  Object.entries(GATEWAY_REFUSAL_CODES).map(([reason, code]) => [code, reason as TRefusalReason]),
);

export function refusalReason(code: number): TRefusalReason {
  return REASON_BY_CODE.get(code) ?? 'other';
}

export type TRefusalRowView = {
  id: string;
  /** null for the node errors row */
  code: number | null;
  reason: TRefusalReason | 'nodeErrors';
  status: number | null;
  count: number;
  /** of every refused and failed call */
  share: number;
};

/** One row per code (most first) and the node errors last; empty when nothing was refused or failed. */
export function refusalRows(result: TRefusalsResult): TRefusalRowView[] {
  const all = result.total + result.totalErrors;
  if (all === 0) return [];
  const rows: TRefusalRowView[] = result.series.map((s) => {
    const reason = refusalReason(s.code);
    return {
      id: String(s.code),
      code: s.code,
      reason,
      status: reason === 'other' ? null : REFUSAL_HTTP_STATUS[reason],
      count: s.total,
      share: s.total / all,
    };
  });
  if (result.totalErrors > 0)
    rows.push({
      id: 'node-errors',
      code: null,
      reason: 'nodeErrors',
      status: null,
      count: result.totalErrors,
      share: result.totalErrors / all,
    });
  return rows;
}

/** The chart's series: one per code, named by `label`, and the node errors. */
export function refusalSeries(
  result: TRefusalsResult,
  label: (reason: TRefusalReason | 'nodeErrors', code: number | null) => string,
): TReportSeriesResult {
  const { series, errors, total, totalErrors, ...frame } = result;
  return {
    ...frame,
    series: [
      ...series.map((s) => ({
        id: String(s.code),
        name: label(refusalReason(s.code), s.code),
        data: s.data,
      })),
      ...(totalErrors > 0
        ? [{ id: 'node-errors', name: label('nodeErrors', null), data: errors }]
        : []),
    ],
    total: total + totalErrors,
  };
}

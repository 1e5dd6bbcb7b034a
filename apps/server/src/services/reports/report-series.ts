/** Turns bucket rows into named, zero-filled chart series (one per total, key or network), largest first. */
import type {
  TReportCompositeSeries,
  TReportCompositeSeriesResult,
  TReportFrame,
  TReportSeriesResult,
} from '@rpc/contract';
import { apiKeys, dedicatedNodes } from '@rpc/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { TReport } from './open-report';
import { bucketKeys, seriesLines, type TGroupBy } from './usage-queries';

export type TSeriesName = { name: string; deleted?: boolean };

const DN_PREFIX = 'dn:';

/** Name order, then id (two keys may share a name). */
export function byName(a: { id: string; name: string }, b: { id: string; name: string }): number {
  return a.name.localeCompare(b.name, 'en') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Names of keys (deleted ones flagged) or networks (the chain catalogue's name; the id when no longer listed). */
export async function seriesNames(
  report: TReport,
  by: TGroupBy,
  ids: string[],
): Promise<Map<string, TSeriesName>> {
  const out = new Map<string, TSeriesName>();
  if (by === 'total') {
    for (const id of ids) out.set(id, { name: 'Total' });
  } else if (by === 'chain') {
    const names = new Map(report.chains.map((c) => [c.id, c.name]));
    // A dedicated node's calls are recorded under dn:<node id> (docs/decisions/dedicated-nodes.md).
    const nodeIds = ids
      .filter((id) => id.startsWith(DN_PREFIX))
      .map((id) => id.slice(DN_PREFIX.length));
    const nodes =
      nodeIds.length === 0
        ? []
        : await report.db
            .select({ id: dedicatedNodes.id, chain: dedicatedNodes.chain })
            .from(dedicatedNodes)
            .where(
              and(
                eq(dedicatedNodes.accountId, report.accountId),
                inArray(dedicatedNodes.id, nodeIds),
              ),
            );
    for (const n of nodes)
      names.set(
        `${DN_PREFIX}${n.id}`,
        `Dedicated node ${names.get(n.chain) ?? n.chain} ${n.id.slice(0, 8)}`,
      );
    for (const id of ids) out.set(id, { name: names.get(id) ?? id });
  } else if (ids.length > 0) {
    const rows = await report.db
      .select({ id: apiKeys.id, name: apiKeys.name, deletedAt: apiKeys.deletedAt })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, report.accountId), inArray(apiKeys.id, ids)));
    for (const r of rows) out.set(r.id, { name: r.name, deleted: r.deletedAt !== null });
  }
  return out;
}

/** Requests and RUs per bucket for each group with usage ("total" always has a series, zeros when unused). */
export async function compositeSeries(
  report: TReport,
  by: TGroupBy,
): Promise<TReportCompositeSeries[]> {
  const keys = bucketKeys(report);
  const index = new Map(keys.map((k, i) => [k, i]));
  const grid = new Map<string, { requests: number[]; ru: number[]; total: number }>();
  const lineOf = (id: string) => {
    let line = grid.get(id);
    if (!line) {
      line = { requests: keys.map(() => 0), ru: keys.map(() => 0), total: 0 };
      grid.set(id, line);
    }
    return line;
  };
  if (by === 'total') lineOf('total');
  for (const l of await seriesLines(report, by)) {
    for (let j = 0; j < l.buckets.length; j++) {
      const i = index.get(l.buckets[j]!);
      if (i === undefined) continue;
      const line = lineOf(l.id);
      const ru = l.ru[j]!;
      line.requests[i] = line.requests[i]! + l.requests[j]!;
      line.ru[i] = line.ru[i]! + ru;
      line.total += ru;
    }
  }
  const names = await seriesNames(report, by, [...grid.keys()]);
  const series = [...grid.entries()].map(([id, line]) => {
    const n = names.get(id) ?? { name: id };
    return { id, ...n, requests: line.requests, ru: line.ru, total: line.total };
  });
  return series.sort((a, b) => b.total - a.total || byName(a, b)).map(({ total: _t, ...s }) => s);
}

export const frameOf = (f: TReportFrame): TReportFrame => ({
  bucket: f.bucket,
  timeZone: f.timeZone,
  from: f.from,
  to: f.to,
  buckets: f.buckets,
});

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

/** One measure (requests or RUs) per series, ordered by that measure's total. */
export async function measureSeriesResult(
  report: TReport,
  by: TGroupBy,
  measure: 'requests' | 'ru',
): Promise<TReportSeriesResult> {
  const series = (await compositeSeries(report, by))
    .map(({ requests, ru, ...s }) => {
      const data = measure === 'ru' ? ru : requests;
      return { ...s, data, sum: sum(data) };
    })
    .sort((a, b) => b.sum - a.sum || byName(a, b));
  return {
    ...frameOf(report.frame),
    series: series.map(({ sum: _s, ...s }) => s),
    total: sum(series.map((s) => s.sum)),
  };
}

export async function compositeSeriesResult(
  report: TReport,
  by: TGroupBy,
): Promise<TReportCompositeSeriesResult> {
  const series = await compositeSeries(report, by);
  return {
    ...frameOf(report.frame),
    series,
    totalRequests: sum(series.map((s) => sum(s.requests))),
    totalRu: sum(series.map((s) => sum(s.ru))),
  };
}

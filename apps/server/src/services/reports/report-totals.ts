/** Totals over a frame: one line for the range, one row per key or network, or the top-5 methods, with RU shares. */
import type {
  TReportCompositeInfo,
  TTopMethodsResult,
  TUsageByApikeyRow,
  TUsageByNetworkRow,
} from '@rpc/contract';
import type { TReport } from './open-report';
import { byName, seriesNames } from './report-series';
import { topMethodRows, totalRows } from './usage-queries';

export async function compositeInfo(report: TReport): Promise<TReportCompositeInfo> {
  // Per network and per key from the narrow rollups (two small reads instead of one wide one); the sums agree.
  const byChain = await totalRows(report, 'chain');
  const byKey = await totalRows(report, 'key');
  const t = byChain.reduce(
    (a, r) => ({
      requests: a.requests + r.requests,
      ru: a.ru + r.ru,
      errors: a.errors + r.errors,
      latencyMsSum: a.latencyMsSum + r.latencyMsSum,
    }),
    { requests: 0, ru: 0, errors: 0, latencyMsSum: 0 },
  );
  return {
    from: report.frame.from,
    to: report.frame.to,
    requests: t.requests,
    ru: t.ru,
    errors: t.errors,
    avgLatencyMs: t.requests > 0 ? Math.round((t.latencyMsSum / t.requests) * 10) / 10 : null,
    activeKeys: byKey.filter((r) => r.requests > 0).length,
    activeNetworks: byChain.filter((r) => r.requests > 0).length,
  };
}

type TUsageRow = { id: string; name: string; deleted?: boolean } & Pick<
  TUsageByApikeyRow,
  'requests' | 'ru' | 'errors' | 'ruShare'
>;

/** Rows with usage in the frame, most RUs first, then by name. */
async function usageRows(report: TReport, by: 'key' | 'chain'): Promise<TUsageRow[]> {
  const rows = (await totalRows(report, by)).filter((r) => r.requests > 0 || r.ru > 0);
  const names = await seriesNames(
    report,
    by,
    rows.map((r) => r.id),
  );
  const totalRu = rows.reduce((s, r) => s + r.ru, 0);
  return rows
    .map((r) => ({
      id: r.id,
      ...(names.get(r.id) ?? { name: r.id }),
      requests: r.requests,
      ru: r.ru,
      errors: r.errors,
      ruShare: totalRu > 0 ? r.ru / totalRu : 0,
    }))
    .sort((a, b) => b.ru - a.ru || byName(a, b));
}

export async function usageByApikey(report: TReport): Promise<TUsageByApikeyRow[]> {
  return (await usageRows(report, 'key')).map(({ id, name, deleted, ...r }) => ({
    keyId: id,
    name,
    deleted: deleted ?? false,
    ...r,
  }));
}

export async function usageByNetwork(report: TReport): Promise<TUsageByNetworkRow[]> {
  return (await usageRows(report, 'chain')).map(({ id, name, deleted: _d, ...r }) => ({
    chain: id,
    name,
    ...r,
  }));
}

export async function topMethods(report: TReport): Promise<TTopMethodsResult> {
  const { rows, totalRu } = await topMethodRows(report);
  return {
    from: report.frame.from,
    to: report.frame.to,
    list: rows.map((r) => ({ ...r, ruShare: totalRu > 0 ? Math.min(1, r.ru / totalRu) : 0 })),
    totalRu,
  };
}

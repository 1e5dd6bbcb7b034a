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
  const [t] = await totalRows(report, 'total');
  const requests = t?.requests ?? 0;
  return {
    from: report.frame.from,
    to: report.frame.to,
    requests,
    ru: t?.ru ?? 0,
    errors: t?.errors ?? 0,
    avgLatencyMs: t && requests > 0 ? Math.round((t.latencyMsSum / requests) * 10) / 10 : null,
    activeKeys: t?.activeKeys ?? 0,
    activeNetworks: t?.activeNetworks ?? 0,
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

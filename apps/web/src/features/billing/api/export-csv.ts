/**
 * CSV exports (hub_getView…Csv, hub_getExportStatus): start one with the table's filters, then poll its status
 * until done; the export in progress is cached in sessionStorage, which a file_download notice clears (SPEC §4).
 */
import type { TExportJob, TExportKind, TParamsIn } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { STORAGE_KEY } from '../../../lib/storage-keys';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export type TDepositExportFilters = TParamsIn<'hub_getViewUserDepositInfoCsv'>;
export type TPurchaseExportFilters = TParamsIn<'hub_getViewUserPurchaseInfoCsv'>;

const POLL_MS = 2000;

export function exportSessionKey(kind: TExportKind): string {
  return kind === 'deposit' ? STORAGE_KEY.exportSessionDeposit : STORAGE_KEY.exportSessionPurchase;
}

export function readExportSession(kind: TExportKind): string | null {
  try {
    return sessionStorage.getItem(exportSessionKey(kind));
  } catch {
    return null;
  }
}

export function writeExportSession(kind: TExportKind, exportId: string): void {
  try {
    sessionStorage.setItem(exportSessionKey(kind), exportId);
  } catch {
    // storage disabled: progress is kept in memory only
  }
}

export function startExport(
  kind: TExportKind,
  filters: TDepositExportFilters | TPurchaseExportFilters,
): Promise<TExportJob> {
  return kind === 'deposit'
    ? callRpc('hub_getViewUserDepositInfoCsv', filters as TDepositExportFilters)
    : callRpc('hub_getViewUserPurchaseInfoCsv', filters as TPurchaseExportFilters);
}

export function getExportStatusQueryOptions(scope: string, exportId: string) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'export', exportId],
    queryFn: ({ signal }) => callRpc('hub_getExportStatus', { exportId }, { signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'done' || status === 'failed' ? false : POLL_MS;
    },
    // A done export's link is minted per read; keep the one shown.
    staleTime: Infinity,
  });
}

export function useExportStatus(exportId: string | null) {
  const scope = useWalletScope();
  return useQuery({
    ...getExportStatusQueryOptions(scope, exportId ?? ''),
    enabled: exportId !== null,
  });
}

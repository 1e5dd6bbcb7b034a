/**
 * hub_reportUserPurchase: cents paid per bucket in the caller's time zone, for the spend chart. Under the wallet
 * key and the acting account, so a purchase (which invalidates the wallet) redraws it.
 */
import type { TParamsIn } from '@rpc/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export type TPurchaseReportParams = Pick<
  TParamsIn<'hub_reportUserPurchase'>,
  'from' | 'to' | 'bucket' | 'timeZone'
>;

export function getPurchaseReport(params: TPurchaseReportParams, signal?: AbortSignal) {
  return callRpc('hub_reportUserPurchase', params, { signal });
}

export function getPurchaseReportQueryOptions(scope: string, params: TPurchaseReportParams) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, 'purchase-report', params],
    queryFn: ({ signal }) => getPurchaseReport(params, signal),
  });
}

export function usePurchaseReport(params: TPurchaseReportParams) {
  return useQuery(getPurchaseReportQueryOptions(useWalletScope(), params));
}

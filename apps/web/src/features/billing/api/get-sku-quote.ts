/**
 * hub_skuFirstConfirm: what buying a SKU would do (price, discount, wallet after, tier, expiry), asked each
 * time the confirmation opens; its payCents goes back to hub_buyPackage as expectedPayCents.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { QUOTE_KEY_PART, WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export type TSkuQuoteParams = { skuId: string; useDiscount: boolean };

export function getSkuQuote(params: TSkuQuoteParams, signal?: AbortSignal) {
  return callRpc('hub_skuFirstConfirm', params, { signal });
}

export function getSkuQuoteQueryOptions(scope: string, params: TSkuQuoteParams) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, QUOTE_KEY_PART, params],
    queryFn: ({ signal }) => getSkuQuote(params, signal),
    // A quote is a promise about a price: never one from earlier.
    staleTime: 0,
    gcTime: 0,
    retry: false,
    // Switching the discount on or off keeps the last quote on screen (paying waits for the new one).
    placeholderData: keepPreviousData,
  });
}

export function useSkuQuote(params: TSkuQuoteParams | null) {
  const scope = useWalletScope();
  return useQuery({
    ...getSkuQuoteQueryOptions(scope, params ?? { skuId: '', useDiscount: true }),
    enabled: params !== null,
  });
}

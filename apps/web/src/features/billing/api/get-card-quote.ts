/**
 * hub_skuFirstConfirmCard: what buying a SKU by card would cost (price, discount, tier, expiry) and which card it
 * would charge; its payCents goes back to hub_buyPackageByCard as expectedPayCents. Kept like the wallet quote.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import type { TSkuQuoteParams } from './get-sku-quote';
import { QUOTE_KEY_PART, WALLET_QUERY_KEY, useWalletScope } from './wallet-query-key';

export function getCardQuote(params: TSkuQuoteParams, signal?: AbortSignal) {
  return callRpc('hub_skuFirstConfirmCard', params, { signal });
}

export function getCardQuoteQueryOptions(scope: string, params: TSkuQuoteParams) {
  return queryOptions({
    queryKey: [...WALLET_QUERY_KEY, scope, QUOTE_KEY_PART, 'card', params],
    queryFn: ({ signal }) => getCardQuote(params, signal),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    placeholderData: keepPreviousData,
  });
}

export function useCardQuote(params: TSkuQuoteParams | null) {
  const scope = useWalletScope();
  return useQuery({
    ...getCardQuoteQueryOptions(scope, params ?? { skuId: '', useDiscount: true }),
    enabled: params !== null,
  });
}

/**
 * hub_buyPackageByCard: buys a SKU by card. Answers the order (succeeded, requires_action, pending or failed),
 * which the order flow follows until it settles. One idempotency key per attempt, sent again on a retry.
 */
import type { TParamsIn } from '@rpc/contract';
import { useMutation } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';

export type TBuyPackageByCardParams = TParamsIn<'hub_buyPackageByCard'> & {
  idempotencyKey: string;
};

export function buyPackageByCard(params: TBuyPackageByCardParams) {
  return callRpc('hub_buyPackageByCard', params);
}

/** The wallet is refreshed when the order settles (use-card-order), not when it is placed. */
export function useBuyPackageByCard() {
  return useMutation({ mutationFn: buyPackageByCard });
}

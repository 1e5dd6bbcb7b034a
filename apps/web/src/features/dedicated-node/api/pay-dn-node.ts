/**
 * The four ways to pay for a node: buy or renew, from the wallet or by card. The caller keeps one idempotency key
 * per attempt and sends it again after a lost answer, so a node is paid once; expectedCents is the price the buyer
 * confirmed (another price answers 10703 and charges nothing).
 */
import type { TParamsIn } from '@rpc/contract';
import { ERROR_CODES } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { invalidateAfterPayment } from './dn-query-keys';

export type TBuyDnNodeParams = TParamsIn<'hub_buyDnNodeByWallet'>;
export type TBuyDnNodeByCardParams = TParamsIn<'hub_buyDnNodeByCard'>;
export type TRenewDnNodeParams = TParamsIn<'hub_renewDnNodeByWallet'>;
export type TRenewDnNodeByCardParams = TParamsIn<'hub_renewDnNodeByCard'>;

/** Refusals the payment screens explain in place (with a top-up link, the new price, …): no popup for these. */
export const PAYMENT_CODES_SHOWN_IN_PLACE: readonly number[] = [
  ERROR_CODES.INSUFFICIENT_BALANCE,
  ERROR_CODES.PRICE_CHANGED,
  ERROR_CODES.CARD_PAYMENT_UNAVAILABLE,
  ERROR_CODES.CARD_REQUIRED,
  ERROR_CODES.DN_CHAIN_NOT_PROVISIONABLE,
  ERROR_CODES.DN_NOT_RENEWABLE,
];

const options = { silentCodes: PAYMENT_CODES_SHOWN_IN_PLACE };

export function buyDnNodeByWallet(params: TBuyDnNodeParams) {
  return callRpc('hub_buyDnNodeByWallet', params, options);
}

export function buyDnNodeByCard(params: TBuyDnNodeByCardParams) {
  return callRpc('hub_buyDnNodeByCard', params, options);
}

export function renewDnNodeByWallet(params: TRenewDnNodeParams) {
  return callRpc('hub_renewDnNodeByWallet', params, options);
}

export function renewDnNodeByCard(params: TRenewDnNodeByCardParams) {
  return callRpc('hub_renewDnNodeByCard', params, options);
}

/** A payment call whose settling (paid, refused or lost) refreshes the node list and the wallet. */
function usePayment<P, R>(mutationFn: (params: P) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => invalidateAfterPayment(queryClient) });
}

export const useBuyDnNodeByWallet = () => usePayment(buyDnNodeByWallet);
export const useBuyDnNodeByCard = () => usePayment(buyDnNodeByCard);
export const useRenewDnNodeByWallet = () => usePayment(renewDnNodeByWallet);
export const useRenewDnNodeByCard = () => usePayment(renewDnNodeByCard);

/** hub_setSpendLimits: saves the monthly caps, alert thresholds and action; the answer is the new limits. */
import type { TParamsIn } from '@rpc/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callRpc } from '../../../lib/rpc-client';
import { getSpendLimitsQueryOptions } from './get-spend-limits';
import { useWalletScope } from './wallet-query-key';

export type TSpendLimitsParams = TParamsIn<'hub_setSpendLimits'>;

export function setSpendLimits(params: TSpendLimitsParams) {
  return callRpc('hub_setSpendLimits', params);
}

export function useSetSpendLimits() {
  const queryClient = useQueryClient();
  const scope = useWalletScope();
  return useMutation({
    mutationFn: setSpendLimits,
    // The account is the one acting when the call was sent, not when it answers.
    onMutate: () => ({ scope }),
    onSuccess: (saved, _params, context) => {
      queryClient.setQueryData(getSpendLimitsQueryOptions(context.scope).queryKey, saved);
    },
  });
}

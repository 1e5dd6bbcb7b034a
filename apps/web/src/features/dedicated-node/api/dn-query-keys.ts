/**
 * Every dedicated-node query lives under DN_QUERY_KEY, then the acting account (STYLE "Growing" 7): a team's nodes
 * are never shown from the cache while acting as yourself. Payments invalidate the node list by its part.
 */
import type { QueryClient } from '@tanstack/react-query';
import { useActingAccountKey } from '../../../lib/acting-account';

export const DN_QUERY_KEY = ['dedicated-node'] as const;

/** The part of a key after the scope that names the node list pages. */
export const NODES_KEY_PART = 'nodes';

export function useDnScope(): string {
  return useActingAccountKey();
}

/**
 * The wallet's queries (features/billing, read by the shell's top-up reminder too) live under ['wallet']: a node
 * paid from the wallet, or an answer lost on the way, leaves them stale.
 */
const WALLET_QUERY_PREFIX = ['wallet'] as const;

/** After a payment attempt, whatever its answer: the node list and the wallet may have changed. */
export async function invalidateAfterPayment(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({
      queryKey: DN_QUERY_KEY,
      predicate: (query) => query.queryKey[2] === NODES_KEY_PART,
    }),
    queryClient.invalidateQueries({ queryKey: WALLET_QUERY_PREFIX }),
  ]);
}

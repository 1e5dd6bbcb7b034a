/**
 * hub_buyDnNodeByCard and hub_renewDnNodeByCard. Card path: next session — it will create a card order (services/
 * cards) for the node's price, and settle it into the same order, node change and ledger entries as the wallet path
 * (a card payment credited to the wallet, then debited by the order, as hub_buyPackageByCard does). Until then
 * both check what they can (the terms; that the node is the account's) and answer CARD_PAYMENT_UNAVAILABLE (10803),
 * charging nothing.
 */
import type { TParams } from '@rpc/contract';
import { dedicatedNodes } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { quoteDn } from './dn-catalogue';
import { DnError, type TDnCaller } from './dn-error';
import type { TDnDeps } from './wallet-order';

export async function buyDnNodeByCard(
  deps: Pick<TDnDeps, 'dnSkus' | 'dnDriver'>,
  _caller: TDnCaller,
  params: TParams<'hub_buyDnNodeByCard'>,
): Promise<never> {
  quoteDn(deps.dnSkus, params);
  if (!deps.dnDriver.canProvision(params.chain)) throw new DnError('chain_not_provisionable');
  // card path: next session
  throw new DnError('card_unavailable');
}

export async function renewDnNodeByCard(
  deps: Pick<TDnDeps, 'db'>,
  caller: TDnCaller,
  params: TParams<'hub_renewDnNodeByCard'>,
): Promise<never> {
  const [node] = await deps.db
    .select({ id: dedicatedNodes.id })
    .from(dedicatedNodes)
    .where(
      and(eq(dedicatedNodes.id, params.nodeId), eq(dedicatedNodes.accountId, caller.accountId)),
    );
  if (!node) throw new DnError('not_found');
  // card path: next session
  throw new DnError('card_unavailable');
}

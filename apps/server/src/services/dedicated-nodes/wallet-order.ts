/**
 * The steps a node order paid from the wallet shares with every other wallet purchase (services/wallet/
 * purchase-package.ts): the account row locked first, so orders of one wallet run one at a time and the balance
 * check holds; the request key looked up under that lock, so one key pays once; the debit posted through the one
 * money writer in the same transaction as the order.
 */
import {
  accounts,
  dedicatedNodeOrders,
  type TDedicatedNodeOrderRow,
  type TExecutor,
  type TMoneyLedgerKind,
} from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import type { TDeps } from '../../rpc/context';
import { postMoney } from '../wallet/post-money';
import { DnError } from './dn-error';

export type TDnDeps = Pick<
  TDeps,
  'db' | 'clock' | 'logger' | 'noticeBus' | 'keyEvents' | 'config' | 'dnSkus' | 'dnDriver'
>;

/** Locks the account row for the rest of the transaction and answers the wallet as it stands. */
export async function lockWallet(tx: TExecutor, accountId: string): Promise<number> {
  const [row] = await tx
    .select({ walletCents: accounts.walletCents })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for('update');
  return row?.walletCents ?? 0;
}

/** The account's earlier order under this request key, if any (read under the account lock). */
export async function earlierOrder(
  tx: TExecutor,
  accountId: string,
  requestKey: string,
): Promise<TDedicatedNodeOrderRow | undefined> {
  const [row] = await tx
    .select()
    .from(dedicatedNodeOrders)
    .where(
      and(
        eq(dedicatedNodeOrders.accountId, accountId),
        eq(dedicatedNodeOrders.requestKey, requestKey),
      ),
    );
  return row;
}

/** Refuses a price the buyer did not see, then a wallet short of it; nothing is written either way. */
export function checkPayable(o: {
  priceCents: number;
  expectedCents: number;
  walletCents: number;
  channel: 'wallet' | 'card';
}): void {
  if (o.expectedCents !== o.priceCents) throw new DnError('price_changed');
  // A card payment of the whole price was credited just before: it pays for the node even when the wallet was in
  // pay-as-you-go arrears (the arrears stay what they were; they are not the buyer's card's to pay).
  if (o.channel === 'wallet' && o.walletCents < o.priceCents)
    throw new DnError('insufficient_balance');
}

/** Debits the order's price once (the ledger entry is keyed by the order). */
export async function debitOrder(
  tx: TExecutor,
  order: TDedicatedNodeOrderRow,
  kind: Extract<TMoneyLedgerKind, 'dn_purchase' | 'dn_renewal'>,
  now: number,
): Promise<void> {
  if (order.priceCents <= 0) return;
  await postMoney(tx, {
    accountId: order.accountId,
    delta: -order.priceCents,
    kind,
    ref: order.id,
    at: now,
  });
}

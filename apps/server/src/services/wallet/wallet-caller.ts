/** Who a wallet service acts for: the account (personal or team) and the user asking, without any HTTP. */
import type { TDeps } from '../../rpc/context';

export type TWalletCaller = { accountId: string; userId: string };

/** The node catalogue and driver come along: a card payment may buy or renew a dedicated node when it settles. */
export type TWalletDeps = Pick<
  TDeps,
  | 'db'
  | 'clock'
  | 'config'
  | 'skus'
  | 'keyEvents'
  | 'logger'
  | 'noticeBus'
  | 'stripe'
  | 'dnSkus'
  | 'dnDriver'
>;

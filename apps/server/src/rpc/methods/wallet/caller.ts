/** The wallet services' caller from a session: the acting account and the user (never the params). */
import type { TAuth } from '../../context';
import type { TWalletCaller } from '../../../services/wallet/wallet-caller';

export function caller(auth: TAuth): TWalletCaller {
  return { accountId: auth.account.id, userId: auth.userId };
}

/** The dedicated-node domain's errors as catalogue codes: the one place they meet the RPC layer. */
import { ERROR_CODES } from '@rpc/contract';
import {
  DnError,
  type TDnCaller,
  type TDnErrorKind,
} from '../../../services/dedicated-nodes/dn-error';
import type { TAuth } from '../../context';
import { RpcError } from '../../errors';

const CODES = {
  not_found: ERROR_CODES.NOT_FOUND,
  chain_unknown: ERROR_CODES.DN_CHAIN_UNKNOWN,
  node_type_unavailable: ERROR_CODES.DN_NODE_TYPE_UNAVAILABLE,
  region_unknown: ERROR_CODES.DN_REGION_UNKNOWN,
  period_unknown: ERROR_CODES.DN_PERIOD_UNKNOWN,
  chain_not_provisionable: ERROR_CODES.DN_CHAIN_NOT_PROVISIONABLE,
  not_renewable: ERROR_CODES.DN_NOT_RENEWABLE,
  price_changed: ERROR_CODES.PRICE_CHANGED,
  insufficient_balance: ERROR_CODES.INSUFFICIENT_BALANCE,
  key_reused: ERROR_CODES.IDEMPOTENCY_KEY_REUSED,
} as const satisfies Record<TDnErrorKind, number>;

/** Awaits a dedicated-node service, turning a DnError into its RpcError; anything else passes through. */
export async function asRpc<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof DnError) throw new RpcError(CODES[err.kind], { cause: err });
    throw err;
  }
}

/** The dedicated-node services' caller from a session: the acting account and the user (never the params). */
export function caller(auth: TAuth): TDnCaller {
  return { accountId: auth.account.id, userId: auth.userId };
}

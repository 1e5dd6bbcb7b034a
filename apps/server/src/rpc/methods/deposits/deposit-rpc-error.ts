/** The deposit domain's errors as catalogue codes: the one place they meet the RPC layer. */
import { ERROR_CODES } from '@rpc/contract';
import { DepositError, type TDepositErrorKind } from '../../../services/deposits/deposit-error';
import { RpcError } from '../../errors';

const CODES = {
  not_configured: ERROR_CODES.DEPOSITS_NOT_CONFIGURED,
  chain_unsupported: ERROR_CODES.DEPOSIT_CHAIN_UNSUPPORTED,
  not_found: ERROR_CODES.NOT_FOUND,
} as const satisfies Record<TDepositErrorKind, number>;

/** Awaits a deposit service, turning a DepositError into its RpcError; anything else passes through. */
export async function asRpc<T>(work: Promise<T> | T): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof DepositError) throw new RpcError(CODES[err.kind], { cause: err });
    throw err;
  }
}

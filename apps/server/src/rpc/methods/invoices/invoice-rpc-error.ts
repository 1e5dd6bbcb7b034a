/** The invoice domain's errors as catalogue codes: the one place they meet the RPC layer. */
import { ERROR_CODES } from '@rpc/contract';
import { InvoiceError, type TInvoiceErrorKind } from '../../../services/invoices/invoice-error';
import type { TInvoiceCaller } from '../../../services/invoices/invoice-error';
import type { TAuth } from '../../context';
import { RpcError } from '../../errors';

const CODES = {
  not_found: ERROR_CODES.NOT_FOUND,
  link_invalid: ERROR_CODES.LINK_INVALID,
} as const satisfies Record<TInvoiceErrorKind, number>;

/** Awaits an invoice service, turning an InvoiceError into its RpcError; anything else passes through. */
export async function asRpc<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof InvoiceError) throw new RpcError(CODES[err.kind], { cause: err });
    throw err;
  }
}

/** The invoice services' caller from a session: the acting account and the user (never the params). */
export function caller(auth: TAuth): TInvoiceCaller {
  return { accountId: auth.account.id, userId: auth.userId };
}

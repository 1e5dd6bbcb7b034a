/** The export domain's errors as catalogue codes: the one place they meet the RPC layer. */
import { ERROR_CODES } from '@rpc/contract';
import { ExportError, type TExportErrorKind } from '../../../services/exports/export-error';
import { RpcError } from '../../errors';

const CODES = {
  not_found: ERROR_CODES.NOT_FOUND,
} as const satisfies Record<TExportErrorKind, number>;

/** Awaits an export service, turning an ExportError into its RpcError; anything else passes through. */
export async function asRpc<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof ExportError) throw new RpcError(CODES[err.kind], { cause: err });
    throw err;
  }
}

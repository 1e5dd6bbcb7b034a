/** The support domain's errors as catalogue codes: the one place they meet the RPC layer (and the ticket route). */
import { ERROR_CODES } from '@rpc/contract';
import { SupportError, type TSupportErrorKind } from '../../../services/support/support-error';
import { RpcError } from '../../errors';

const CODES = {
  form_invalid: ERROR_CODES.TICKET_FORM_INVALID,
  fields_invalid: ERROR_CODES.INVALID_PARAMS,
  attachment_too_large: ERROR_CODES.TICKET_ATTACHMENT_TOO_LARGE,
  attachment_type: ERROR_CODES.TICKET_ATTACHMENT_TYPE,
  api_key_unknown: ERROR_CODES.TICKET_API_KEY_UNKNOWN,
  event_time: ERROR_CODES.TRACKING_EVENT_TIME,
} as const satisfies Record<TSupportErrorKind, number>;

export function toRpcError(err: SupportError): RpcError {
  return new RpcError(CODES[err.kind], {
    cause: err,
    ...(err.details.length > 0 ? { details: err.details } : {}),
  });
}

/** Awaits a support service, turning a SupportError into its RpcError; anything else passes through. */
export async function asRpc<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof SupportError) throw toRpcError(err);
    throw err;
  }
}

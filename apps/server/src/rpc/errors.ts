/** Typed errors: services throw an RpcError with a catalogue code; the dispatcher turns it into the envelope. */
import { ERROR_CATALOGUE, type TErrorCode, type TLimitType, type TRpcError } from '@rpc/contract';

export type TErrorDetail = { path: string; message: string };

export class RpcError extends Error {
  readonly code: TErrorCode;
  readonly limitType: TLimitType | undefined;
  readonly attemptsExpireAt: number | undefined;
  readonly details: TErrorDetail[] | undefined;

  constructor(
    code: TErrorCode,
    extra: {
      limitType?: TLimitType;
      attemptsExpireAt?: number;
      details?: TErrorDetail[];
      cause?: unknown;
    } = {},
  ) {
    super(ERROR_CATALOGUE[code].en, { cause: extra.cause });
    this.name = 'RpcError';
    this.code = code;
    this.limitType = extra.limitType;
    this.attemptsExpireAt = extra.attemptsExpireAt;
    this.details = extra.details;
  }

  toJSON(): TRpcError {
    return toRpcErrorBody(this.code, this);
  }
}

export function toRpcErrorBody(
  code: TErrorCode,
  extra: {
    limitType?: TLimitType | undefined;
    attemptsExpireAt?: number | undefined;
    details?: TErrorDetail[] | undefined;
  } = {},
): TRpcError {
  const entry = ERROR_CATALOGUE[code];
  return {
    code,
    message: entry.en,
    messageZh: entry.zh,
    ...(extra.limitType ? { limitType: extra.limitType } : {}),
    ...(extra.attemptsExpireAt !== undefined ? { attemptsExpireAt: extra.attemptsExpireAt } : {}),
    ...(extra.details ? { details: extra.details } : {}),
  };
}

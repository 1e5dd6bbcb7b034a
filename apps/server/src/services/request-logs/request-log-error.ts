/** The request-log domain's own failures; rpc/methods/request-logs maps them to catalogue codes. */
export type TRequestLogErrorKind = 'key_unknown';

export class RequestLogError extends Error {
  readonly kind: TRequestLogErrorKind;

  constructor(kind: TRequestLogErrorKind) {
    super(`request log: ${kind}`);
    this.name = 'RequestLogError';
    this.kind = kind;
  }
}

/** Who reads a log: the account they act for (a session's TAuth satisfies it). */
export type TRequestLogCaller = { account: { id: string } };

/** The support domain's own failures; rpc/methods/support maps them to catalogue codes. */
export type TSupportErrorKind =
  | 'form_invalid'
  | 'fields_invalid'
  | 'attachment_too_large'
  | 'attachment_type'
  | 'api_key_unknown'
  | 'event_time';

export class SupportError extends Error {
  readonly kind: TSupportErrorKind;
  /** where the input was wrong (zod paths), for `details` */
  readonly details: Array<{ path: string; message: string }>;

  constructor(kind: TSupportErrorKind, details: Array<{ path: string; message: string }> = []) {
    super(`support: ${kind}`);
    this.name = 'SupportError';
    this.kind = kind;
    this.details = details;
  }
}

/** Who files or lists: the signed-in user and the account they act for (a session's TAuth satisfies it). */
export type TSupportCaller = { userId: string; account: { id: string } };

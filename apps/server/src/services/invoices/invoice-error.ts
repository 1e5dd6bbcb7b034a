/** The invoice domain's own failures; rpc/methods/invoices maps them to catalogue codes. */
export type TInvoiceErrorKind =
  /** an invoice id that is unknown or another account's: the same answer for both */
  | 'not_found'
  /** a public code that is not live: unknown, malformed or revoked */
  | 'link_invalid';

export class InvoiceError extends Error {
  readonly kind: TInvoiceErrorKind;

  constructor(kind: TInvoiceErrorKind) {
    super(`invoice: ${kind}`);
    this.name = 'InvoiceError';
    this.kind = kind;
  }
}

/** Who asks: the acting account and the signed-in user (built from a session by the handlers). */
export type TInvoiceCaller = { accountId: string; userId: string };

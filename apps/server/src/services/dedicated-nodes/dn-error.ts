/** The dedicated-node domain's own failures; rpc/methods/dedicated-nodes maps them to catalogue codes. */
export type TDnErrorKind =
  /** a node id that is unknown or another account's: one answer for both */
  | 'not_found'
  | 'chain_unknown'
  | 'node_type_unavailable'
  | 'region_unknown'
  | 'period_unknown'
  /** the catalogue lists the chain, but this server's driver cannot run it */
  | 'chain_not_provisionable'
  /** expired past its grace period: the data is gone */
  | 'not_renewable'
  /** expectedCents is not the price now */
  | 'price_changed'
  | 'insufficient_balance'
  /** the idempotency key was used for an order with other terms */
  | 'key_reused';

export class DnError extends Error {
  readonly kind: TDnErrorKind;

  constructor(kind: TDnErrorKind) {
    super(`dedicated node: ${kind}`);
    this.name = 'DnError';
    this.kind = kind;
  }
}

/** Who asks: the acting account (personal or team) and the signed-in user. */
export type TDnCaller = { accountId: string; userId: string };

/**
 * The deposit domain's own failures, so its services serve callers without a session (the watcher) and know
 * nothing of the RPC layer; handlers map them to catalogue codes (rpc/methods/deposits/run-deposit-service.ts).
 */
export type TDepositErrorKind = 'not_configured' | 'chain_unsupported' | 'not_found';

export class DepositError extends Error {
  readonly kind: TDepositErrorKind;

  constructor(kind: TDepositErrorKind) {
    super(`deposit: ${kind}`);
    this.name = 'DepositError';
    this.kind = kind;
  }
}

/** Who asks: the acting account (a session's TAuth satisfies it). */
export type TDepositCaller = { account: { id: string } };

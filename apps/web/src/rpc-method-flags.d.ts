/** Built from the contract's method table by method-flags-plugin.ts. */
declare module 'virtual:rpc-method-flags' {
  import type { TLimitType } from '@rpc/contract';

  const flags: Readonly<
    Record<
      string,
      { hideError?: boolean; hideLimit?: boolean; limitType?: TLimitType; keepDuplicates?: boolean }
    >
  >;
  export default flags;
}

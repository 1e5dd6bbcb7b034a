/**
 * A handler per hub_* method. `userHandler` receives the resolved session; `publicHandler` does not.
 * Which one a method needs is its contract `auth`; the dispatcher checks the two agree (see handlers.unit.test.ts).
 */
import type { TMethodAuth, TMethodName, TParams, TResult } from '@rpc/contract';
import type { TAuth, TRpcContext } from './context';

export type THandler<N extends TMethodName> =
  | {
      name: N;
      auth: 'none';
      run: (args: { ctx: TRpcContext; params: TParams<N> }) => Promise<TResult<N>>;
    }
  | {
      name: N;
      auth: 'user';
      run: (args: { ctx: TRpcContext; auth: TAuth; params: TParams<N> }) => Promise<TResult<N>>;
    };

export function publicHandler<N extends TMethodName>(
  name: N,
  run: (args: { ctx: TRpcContext; params: TParams<N> }) => Promise<TResult<N>>,
): THandler<N> {
  return { name, auth: 'none', run };
}

export function userHandler<N extends TMethodName>(
  name: N,
  run: (args: { ctx: TRpcContext; auth: TAuth; params: TParams<N> }) => Promise<TResult<N>>,
): THandler<N> {
  return { name, auth: 'user', run };
}

export type THandlerAuth = TMethodAuth;

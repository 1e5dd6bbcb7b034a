/**
 * A fake console API for web tests: answers the mocked callRpc from handlers, checking every call's params and
 * every fake answer against the contract, so a fake cannot drift from what the server accepts and says.
 */
import type { TMethodName } from '@rpc/contract';
import { METHODS } from '@rpc/contract';

export type TFakeHandler = (params: never) => unknown;
export type TFakeHandlers = Partial<Record<TMethodName, TFakeHandler>>;

/** The implementation for vi.mocked(callRpc).mockImplementation; handlers are read at each call. */
export function fakeRpc(handlers: () => TFakeHandlers) {
  return async (method: TMethodName, params: unknown): Promise<never> => {
    const def = METHODS[method];
    def.params.parse(params);
    const handler = handlers()[method];
    if (!handler) throw new Error(`unexpected call ${method}`);
    return def.result.parse(await handler(params as never)) as never;
  };
}

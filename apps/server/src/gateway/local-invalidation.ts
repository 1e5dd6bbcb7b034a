/**
 * The in-process key invalidation channel of the embedded default. Unlike the gateway's
 * MemoryInvalidationChannel, `publish` waits for the listeners' promises, so when hub_generateApiKey (or any key
 * change) answers, the gateway in this process already serves the new state: no window in which a key just
 * created is refused. Across processes (Redis) that window is the pub/sub latency.
 */
import type { InvalidationChannel } from '@rpc/gateway';

export type TKeyListener = (keyId: string) => void | Promise<void>;

/**
 * What the console holds: the gateway's channel contract, with listeners that may return a promise (awaited by
 * the local channel; Redis ignores it, so a listener must handle its own errors).
 */
export type TKeyEvents = {
  subscribe(fn: TKeyListener): () => void;
  publish(keyId: string): Promise<void>;
};

export class LocalInvalidationChannel implements InvalidationChannel, TKeyEvents {
  private readonly listeners = new Set<TKeyListener>();

  subscribe(fn: TKeyListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  async publish(keyId: string): Promise<void> {
    await Promise.allSettled([...this.listeners].map(async (fn) => fn(keyId)));
  }
}

/** Key invalidation across processes over Redis pub/sub (scale mode); same contract as the in-memory channel. */
import { Redis } from 'ioredis';
import type { InvalidationChannel } from './types';

export const DEFAULT_INVALIDATION_CHANNEL = 'rpc:api-key:invalidate';

export class RedisInvalidationChannel implements InvalidationChannel {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly listeners = new Set<(keyId: string) => void>();

  constructor(
    url: string,
    private readonly name: string = DEFAULT_INVALIDATION_CHANNEL,
  ) {
    this.pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    this.sub = new Redis(url, { lazyConnect: true });
    // ioredis reconnects by itself; a failure the caller must know of rejects start() or publish(). Without a
    // listener an 'error' event would be an unhandled one (seen in the throttle tests' logs).
    for (const client of [this.pub, this.sub]) client.on('error', () => {});
    this.sub.on('message', (channel: string, keyId: string) => {
      if (channel !== this.name) return;
      for (const fn of this.listeners) fn(keyId);
    });
  }

  /** Connects both clients and subscribes; call before relying on `subscribe`. */
  async start(): Promise<void> {
    await Promise.all([this.pub.connect(), this.sub.connect()]);
    await this.sub.subscribe(this.name);
  }

  subscribe(fn: (keyId: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  async publish(keyId: string): Promise<void> {
    await this.pub.publish(this.name, keyId);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }
}

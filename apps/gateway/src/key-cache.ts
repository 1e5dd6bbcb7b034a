/** Key stores served from memory, and the invalidation channels that keep them fresh across processes. */
import type { InvalidationChannel, KeyStore, TKeyInfo } from './types';

/** A plain in-memory store: tests, the embedded default before the DB wiring, and the cache below. */
export class MemoryKeyStore implements KeyStore {
  private readonly byKey = new Map<string, TKeyInfo>();
  private readonly keyById = new Map<string, string>();

  constructor(keys: TKeyInfo[] = []) {
    for (const k of keys) this.put(k);
  }

  get(apiKey: string): TKeyInfo | undefined {
    return this.byKey.get(apiKey);
  }

  put(info: TKeyInfo): void {
    const previous = this.keyById.get(info.keyId);
    if (previous !== undefined && previous !== info.key) this.byKey.delete(previous);
    this.byKey.set(info.key, info);
    this.keyById.set(info.keyId, info.key);
  }

  removeByKeyId(keyId: string): void {
    const key = this.keyById.get(keyId);
    if (key !== undefined) this.byKey.delete(key);
    this.keyById.delete(keyId);
  }

  get size(): number {
    return this.byKey.size;
  }
}

export type TKeyLoader = {
  /** Every live key, at start (and on a full refresh). */
  loadAll(): Promise<TKeyInfo[]>;
  /** One key by id after an invalidation; undefined when it no longer exists. */
  loadOne(keyId: string): Promise<TKeyInfo | undefined>;
};

/**
 * The store the DB wiring will use: loads every key at start, then reloads one key whenever its id is
 * published on the channel (creation, change, pause, deletion). Lookups never wait for I/O.
 */
export class CachedKeyStore implements KeyStore {
  private readonly memory = new MemoryKeyStore();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly loader: TKeyLoader,
    private readonly channel: InvalidationChannel,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = this.channel.subscribe((keyId) => {
      this.refresh(keyId).catch(this.onError);
    });
    for (const k of await this.loader.loadAll()) this.memory.put(k);
  }

  async refresh(keyId: string): Promise<void> {
    const info = await this.loader.loadOne(keyId);
    if (!info || info.deleted) this.memory.removeByKeyId(keyId);
    else this.memory.put(info);
  }

  get(apiKey: string): TKeyInfo | undefined {
    return this.memory.get(apiKey);
  }

  stop(): void {
    this.unsubscribe?.();
  }
}

/** In-process pub/sub for the embedded default (one process). */
export class MemoryInvalidationChannel implements InvalidationChannel {
  private readonly listeners = new Set<(keyId: string) => void>();

  subscribe(fn: (keyId: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  async publish(keyId: string): Promise<void> {
    for (const fn of this.listeners) fn(keyId);
  }
}

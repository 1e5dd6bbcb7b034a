/**
 * Calls the gateway refused itself, counted per (key, chain, JSON-RPC code, minute) and flushed to the sink in
 * batches, so the console can show requests refused by rate limits, a lack of RUs or allowlists (they cost nothing
 * and are not usage). Only refusals of a known key are counted. Nothing here runs on an answered call; a refusal
 * costs one Map lookup. Not journaled: a crash loses up to one flush interval of counts (never billing).
 */
import { randomUUID } from 'node:crypto';
import type { TRefusalBatch, TRefusalRow } from './types';

export type TRefusalCounterOptions = {
  write: (batch: TRefusalBatch) => Promise<void>;
  flushIntervalMs?: number;
  /** Distinct rows held between flushes; beyond it new rows are dropped (counted in `dropped`). */
  maxRows?: number;
  /** Batches kept for retry while the sink fails; beyond it the oldest is dropped. */
  maxPendingBatches?: number;
  onError?: (err: unknown) => void;
};

export class RefusalCounter {
  private rows = new Map<string, TRefusalRow>();
  private readonly pending: TRefusalBatch[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** Refusals not counted because the row limit was reached (diagnostics). */
  dropped = 0;

  constructor(private readonly opts: TRefusalCounterOptions) {}

  /** Counts `count` refused calls of a key on a chain with the JSON-RPC error code they were answered with. */
  note(accountId: string, keyId: string, chain: string, code: number, count = 1, at = Date.now()) {
    const minute = at - (at % 60_000);
    const id = `${keyId}\u0000${chain}\u0000${code}\u0000${minute}`;
    const row = this.rows.get(id);
    if (row) {
      row.count += count;
      return;
    }
    if (this.rows.size >= (this.opts.maxRows ?? 100_000)) {
      this.dropped += count;
      return;
    }
    this.rows.set(id, { accountId, keyId, chain, code, minute, count });
  }

  start(): void {
    this.timer = setInterval(() => {
      this.flush().catch(this.opts.onError ?? (() => {}));
    }, this.opts.flushIntervalMs ?? 5000);
    this.timer.unref();
  }

  /** Writes what was counted (and any batch whose write failed before, with its own id); one flush at a time. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.doFlush();
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }

  private async doFlush(): Promise<void> {
    if (this.rows.size > 0) {
      this.pending.push({
        batchId: randomUUID(),
        createdAt: Date.now(),
        rows: [...this.rows.values()],
      });
      this.rows = new Map();
      const max = this.opts.maxPendingBatches ?? 100;
      if (this.pending.length > max) this.pending.splice(0, this.pending.length - max);
    }
    while (this.pending.length > 0) {
      await this.opts.write(this.pending[0] as TRefusalBatch);
      this.pending.shift();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}

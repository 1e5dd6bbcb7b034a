/**
 * Calls the gateway refused itself, counted per (key, chain, JSON-RPC code, minute) and flushed to the sink in
 * batches, so the console can show requests refused by rate limits, a lack of RUs or allowlists (they cost nothing
 * and are not usage). Only refusals of a known key are counted. Nothing here runs on an answered call; a refusal
 * costs one Map lookup. Not journaled: a crash loses up to one flush interval of counts (never billing).
 */
import { randomUUID } from 'node:crypto';
import { BatchFlusher } from './batch-flusher';
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

export class RefusalCounter extends BatchFlusher<TRefusalBatch> {
  private rows = new Map<string, TRefusalRow>();
  /** Refusals not counted because the row limit was reached (diagnostics). */
  dropped = 0;

  constructor(private readonly opts: TRefusalCounterOptions) {
    super({ ...opts, maxPending: opts.maxPendingBatches ?? 100 });
  }

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

  protected takeBatch(): TRefusalBatch | undefined {
    if (this.rows.size === 0) return undefined;
    const batch = { batchId: randomUUID(), createdAt: Date.now(), rows: [...this.rows.values()] };
    this.rows = new Map();
    return batch;
  }
}

/** Usage aggregated in memory per (account, key, chain, method, minute) and flushed to the sink in batches. */
import { randomUUID } from 'node:crypto';
import type { TUsageBatch, TUsageRow, UsageSink } from './types';

export type TUsageAggregatorOptions = {
  sink: UsageSink;
  ruTableVersion: string;
  flushIntervalMs?: number;
  onError?: (err: unknown) => void;
};

export class UsageAggregator {
  private rows = new Map<string, TUsageRow>();
  /** Batches whose write failed: retried with the same batchId, so the sink can drop a duplicate. */
  private readonly pending: TUsageBatch[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(private readonly opts: TUsageAggregatorOptions) {}

  start(): void {
    const every = this.opts.flushIntervalMs ?? 5000;
    this.timer = setInterval(() => {
      this.flush().catch(this.opts.onError ?? (() => {}));
    }, every);
    this.timer.unref();
  }

  record(
    accountId: string,
    keyId: string,
    chain: string,
    method: string,
    at: number,
    ru: number,
    isError: boolean,
    latencyMs: number,
  ): void {
    const minute = at - (at % 60_000);
    const id = `${keyId}\u0000${chain}\u0000${method}\u0000${minute}`;
    let row = this.rows.get(id);
    if (!row) {
      row = {
        accountId,
        keyId,
        chain,
        method,
        minute,
        requests: 0,
        ru: 0,
        errors: 0,
        latencyMsSum: 0,
        latencyMsMax: 0,
      };
      this.rows.set(id, row);
    }
    row.requests += 1;
    row.ru += ru;
    if (isError) row.errors += 1;
    row.latencyMsSum += latencyMs;
    if (latencyMs > row.latencyMsMax) row.latencyMsMax = latencyMs;
  }

  /** Swaps the live map out and writes it (and any failed earlier batch) to the sink; one flush at a time. */
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
      const rows = [...this.rows.values()].map((r) => ({
        ...r,
        latencyMsSum: Math.round(r.latencyMsSum),
        latencyMsMax: Math.ceil(r.latencyMsMax),
      }));
      this.rows = new Map();
      this.pending.push({
        batchId: randomUUID(),
        ruTableVersion: this.opts.ruTableVersion,
        createdAt: Date.now(),
        rows,
      });
    }
    while (this.pending.length > 0) {
      const batch = this.pending[0] as TUsageBatch;
      await this.opts.sink.write(batch); // throws → the batch stays queued for the next flush
      this.pending.shift();
    }
  }

  /** Final flush on graceful stop. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  get pendingBatches(): number {
    return this.pending.length;
  }
}

/** A sink for tests and the embedded default: idempotent on batchId, like the SQL sink must be. */
export class MemoryUsageSink implements UsageSink {
  readonly batches: TUsageBatch[] = [];
  private readonly seen = new Set<string>();

  async write(batch: TUsageBatch): Promise<void> {
    if (this.seen.has(batch.batchId)) return;
    this.seen.add(batch.batchId);
    this.batches.push(batch);
  }

  get rows(): TUsageRow[] {
    return this.batches.flatMap((b) => b.rows);
  }

  /** Totals per method over every batch. */
  totals(): Map<string, { requests: number; ru: number; errors: number }> {
    const out = new Map<string, { requests: number; ru: number; errors: number }>();
    for (const r of this.rows) {
      const t = out.get(r.method) ?? { requests: 0, ru: 0, errors: 0 };
      t.requests += r.requests;
      t.ru += r.ru;
      t.errors += r.errors;
      out.set(r.method, t);
    }
    return out;
  }
}

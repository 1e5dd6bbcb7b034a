/**
 * Usage aggregated in memory per (account, key, chain, method, minute) and flushed to the sink in batches; with a
 * journal directory every call is also appended to disk before its answer leaves, so a crash loses none.
 */
import { randomUUID } from 'node:crypto';
import type { TUsageBatch, TUsageRow, UsageSink } from './types';
import { UsageJournal } from './usage-journal';

export type TUsageAggregatorOptions = {
  sink: UsageSink;
  ruTableVersion: string;
  flushIntervalMs?: number;
  /**
   * Directory of the crash journal (one per process). Leftover segments found there are replayed (`replay`);
   * without it, a crash loses the calls not yet flushed.
   */
  journalDir?: string;
  /** fdatasync interval of the journal (bounds what a machine crash, not a process kill, can lose). */
  journalSyncMs?: number;
  /**
   * Journal lines are held and written once per event-loop turn (`commitJournal`) instead of once per call: only
   * for a server that runs `commitJournal()` before every answer it writes (startGateway with the raw front).
   */
  groupJournalWrites?: boolean;
  onError?: (err: unknown) => void;
};

/** A live row and its number in the current journal segment. */
type TLiveRow = TUsageRow & { no: number };

/** `oldestAt`: epoch ms of its first call (for the flush-lag metric). */
type TPendingBatch = { batch: TUsageBatch; isJournaled: boolean; oldestAt: number };

export class UsageAggregator {
  private rows = new Map<string, TLiveRow>();
  /**
   * Each key's last row, looked up by the key id (the key cache's own string, whose hash V8 keeps): a key's calls
   * mostly repeat its chain, method and minute, so they skip building and hashing the row's composite id.
   */
  private lastOfKey = new Map<string, TLiveRow>();
  /** Batches whose write failed: retried with the same batchId, so the sink can drop a duplicate. */
  private readonly pending: TPendingBatch[] = [];
  private readonly journal: UsageJournal | undefined;
  private readonly groupJournal: boolean;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** Epoch ms of the first call in the live rows (undefined while they are empty). */
  private firstAt: number | undefined;
  /** Sink writes that failed (metrics). */
  flushFailures = 0;

  constructor(private readonly opts: TUsageAggregatorOptions) {
    this.groupJournal = opts.groupJournalWrites ?? false;
    if (!opts.journalDir) return;
    const journal = new UsageJournal({
      dir: opts.journalDir,
      ruTableVersion: opts.ruTableVersion,
      syncEveryMs: opts.journalSyncMs,
      onError: opts.onError,
    });
    // What a killed process left: queued ahead of any new usage, written by `replay` or the next flush.
    for (const left of journal.readLeftovers()) {
      if (left.batch)
        this.pending.push({ batch: left.batch, isJournaled: true, oldestAt: left.batch.createdAt });
      else void journal.remove(left.id); // a segment with no whole call line
    }
    this.journal = journal;
  }

  start(): void {
    const every = this.opts.flushIntervalMs ?? 5000;
    this.journal?.start();
    this.timer = setInterval(() => {
      this.flush().catch(this.opts.onError ?? (() => {}));
    }, every);
    this.timer.unref();
  }

  /** Writes what the journal held at start (call before serving). Errors go to onError; the timer retries. */
  async replay(): Promise<void> {
    if (this.pending.length === 0) return;
    try {
      await this.flush();
    } catch (err) {
      (this.opts.onError ?? (() => {}))(err);
    }
  }

  /** Writes the journal lines held by groupJournalWrites (call before writing answers). */
  commitJournal(): void {
    this.journal?.commit();
  }

  /**
   * Called on the request path before the answer is written. With a journal the call has been written to it (the
   * page cache, which kill -9 does not lose) when this returns, or with groupJournalWrites when commitJournal()
   * next runs (before the answer is written).
   */
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
    const last = this.lastOfKey.get(keyId);
    const isLast =
      last !== undefined &&
      last.minute === minute &&
      last.method === method &&
      last.chain === chain &&
      last.accountId === accountId;
    const id = isLast ? '' : `${keyId}\u0000${chain}\u0000${method}\u0000${minute}`;
    let row = isLast ? last : this.rows.get(id);
    const journal = this.journal;
    if (!isLast && row) this.lastOfKey.set(keyId, row);
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
        no: this.rows.size,
      };
      if (this.rows.size === 0) this.firstAt = at;
      this.rows.set(id, row);
      this.lastOfKey.set(keyId, row);
      if (journal)
        journal.append(
          `R ${row.no} ${JSON.stringify([accountId, keyId, chain, method, minute])}\n${row.no} ${ru} ${isError ? 1 : 0} ${Math.round(latencyMs * 1000)}\n`,
          this.groupJournal,
        );
    } else if (journal) {
      journal.append(
        `${row.no} ${ru} ${isError ? 1 : 0} ${Math.round(latencyMs * 1000)}\n`,
        this.groupJournal,
      );
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
      const rows: TUsageRow[] = [];
      for (const r of this.rows.values())
        rows.push({
          accountId: r.accountId,
          keyId: r.keyId,
          chain: r.chain,
          method: r.method,
          minute: r.minute,
          requests: r.requests,
          ru: r.ru,
          errors: r.errors,
          latencyMsSum: Math.round(r.latencyMsSum),
          latencyMsMax: Math.ceil(r.latencyMsMax),
        });
      this.rows = new Map();
      this.lastOfKey = new Map();
      // Same tick as the swap: the segment holds exactly this batch's calls, and its id is the batchId.
      const segmentId = this.journal?.seal();
      this.pending.push({
        batch: {
          batchId: segmentId ?? randomUUID(),
          ruTableVersion: this.opts.ruTableVersion,
          createdAt: Date.now(),
          rows,
        },
        isJournaled: segmentId !== undefined,
        oldestAt: this.firstAt ?? Date.now(),
      });
      this.firstAt = undefined;
    }
    while (this.pending.length > 0) {
      const head = this.pending[0] as TPendingBatch;
      try {
        await this.opts.sink.write(head.batch);
      } catch (err) {
        this.flushFailures += 1;
        // To the back of the queue, so one batch the sink keeps refusing does not hold up every later one.
        this.pending.push(this.pending.shift() as TPendingBatch);
        throw err;
      }
      this.pending.shift();
      if (head.isJournaled && this.journal) await this.journal.remove(head.batch.batchId);
    }
  }

  /** Final flush on graceful stop; what cannot be written stays in the journal for the next start. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    try {
      await this.flush();
    } finally {
      this.journal?.close();
    }
  }

  get pendingBatches(): number {
    return this.pending.length;
  }

  /** Epoch ms of the oldest call not yet written to the sink; undefined when all are written. */
  get oldestUnflushedAt(): number | undefined {
    let oldest = this.firstAt;
    for (const p of this.pending)
      if (oldest === undefined || p.oldestAt < oldest) oldest = p.oldestAt;
    return oldest;
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

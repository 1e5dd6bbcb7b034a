/**
 * The per-key request log's in-memory side: one small entry per settled or refused call (method, transport,
 * outcome, error code, latency, RU — never params, results or bodies), appended to an array and flushed to the
 * sink in batches by an unref'd timer, off the hot path. Bounded per flush window: at most `maxPerKey` entries
 * of one key and `maxEntries` in all; what does not fit is counted per key and minute, so the console can say
 * how many were not kept (docs/decisions/request-log.md). Not journaled: a crash loses one window (never billing).
 */
import { randomUUID } from 'node:crypto';
import { BatchFlusher } from './batch-flusher';
import type { TRequestLogBatch, TRequestLogDrop, TRequestLogEntry } from './types';

export type TRequestLogOptions = {
  write: (batch: TRequestLogBatch) => Promise<void>;
  flushIntervalMs?: number;
  /** Entries kept per key between two flushes (default 200). */
  maxPerKey?: number;
  /** Entries kept in all between two flushes (default 20,000). */
  maxEntries?: number;
  /** Batches kept for retry while the sink fails; beyond it the oldest is lost (default 10). */
  maxPendingBatches?: number;
  onError?: (err: unknown) => void;
};

const INT32_MAX = 2_147_483_647;
const INT32_MIN = -2_147_483_648;

/** A JSON-RPC error object's code when it is a 32-bit integer (what the log stores), else null. */
export function errorCodeOfObject(error: unknown): number | null {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'number' &&
    Number.isInteger(code) &&
    code >= INT32_MIN &&
    code <= INT32_MAX
    ? code
    : null;
}

/**
 * The error code of an unparsed JSON-RPC error answer, without parsing it: the first `"code"` within a few
 * hundred bytes after `"error"`. Called only for answers already known to be errors; null when not found.
 */
export function errorCodeOfBody(body: Buffer): number | null {
  const e = body.indexOf('"error"');
  if (e === -1) return null;
  const c = body.indexOf('"code"', e);
  if (c === -1 || c - e > 512) return null;
  let i = c + 6;
  while (
    i < body.length &&
    (body[i] === 0x3a ||
      body[i] === 0x20 ||
      body[i] === 0x0a ||
      body[i] === 0x0d ||
      body[i] === 0x09)
  )
    i++;
  const negative = body[i] === 0x2d;
  if (negative) i++;
  let n = 0;
  let digits = 0;
  for (; i < body.length && digits <= 10; i++, digits++) {
    const d = (body[i] as number) - 0x30;
    if (d < 0 || d > 9) break;
    n = n * 10 + d;
  }
  if (digits === 0 || digits > 10 || n > (negative ? -INT32_MIN : INT32_MAX)) return null;
  return negative ? -n : n;
}

export class RequestLog extends BatchFlusher<TRequestLogBatch> {
  private entries: TRequestLogEntry[] = [];
  /** entries kept per key in this window */
  private perKey = new Map<string, number>();
  private drops = new Map<string, TRequestLogDrop>();
  /** Per key, its counter in `drops` touched last (the same objects). */
  private lastDrop = new Map<string, TRequestLogDrop>();
  private readonly maxPerKey: number;
  private readonly maxEntries: number;
  /** Entries not kept because of a cap, since start (diagnostics; the sink gets them per key). */
  dropped = 0;
  /** Entries lost because the sink kept failing (diagnostics). */
  lost = 0;

  constructor(opts: TRequestLogOptions) {
    super({ ...opts, maxPending: opts.maxPendingBatches ?? 10 });
    this.maxPerKey = opts.maxPerKey ?? 200;
    this.maxEntries = opts.maxEntries ?? 20_000;
  }

  /** Keeps one entry, or counts it as not kept when its key or the whole window is full. O(1), no I/O. */
  add(entry: TRequestLogEntry): void {
    if (!this.accepts(entry.keyId)) return this.drop(entry.accountId, entry.keyId, entry.at);
    this.perKey.set(entry.keyId, (this.perKey.get(entry.keyId) ?? 0) + 1);
    this.entries.push(entry);
  }

  /** Whether an entry of this key would be kept now (so a caller can skip making one that would not). */
  accepts(keyId: string): boolean {
    return this.entries.length < this.maxEntries && (this.perKey.get(keyId) ?? 0) < this.maxPerKey;
  }

  /** Counts one call of the key as not kept, in its minute. */
  drop(accountId: string, keyId: string, at: number): void {
    this.dropped += 1;
    const minute = at - (at % 60_000);
    // Most drops are of a key already counted in this minute: found by key id, without making the map's key.
    const last = this.lastDrop.get(keyId);
    if (last !== undefined && last.minute === minute) {
      last.count += 1;
      return;
    }
    const id = `${keyId}\u0000${minute}`;
    let d = this.drops.get(id);
    if (d) d.count += 1;
    // Bounded too: one counter per key and minute, at most as many as entries kept.
    else if (this.drops.size < this.maxEntries) {
      d = { accountId, keyId, minute, count: 1 };
      this.drops.set(id, d);
    }
    if (d) this.lastDrop.set(keyId, d);
  }

  /** Entries held for the next flush (tests). */
  get size(): number {
    return this.entries.length;
  }

  protected takeBatch(): TRequestLogBatch | undefined {
    if (this.entries.length === 0 && this.drops.size === 0) return undefined;
    const batch = {
      batchId: randomUUID(),
      createdAt: Date.now(),
      entries: this.entries,
      dropped: [...this.drops.values()],
    };
    this.entries = [];
    this.perKey = new Map();
    this.drops = new Map();
    this.lastDrop = new Map();
    return batch;
  }

  protected override onOverflow(batch: TRequestLogBatch): void {
    this.lost += batch.entries.length;
  }
}

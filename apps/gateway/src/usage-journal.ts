/**
 * Crash-safe usage: every recorded call is appended to a segment file (one per flush interval) before its answer
 * leaves the gateway, and the segments a killed process left behind are turned back into batches at start.
 *
 * A segment's id is the batchId of the batch made from it, so replaying a segment whose batch was already
 * written is a no-op at the idempotent sink; a segment file is deleted only after its batch is written.
 * docs/decisions/gateway-design.md "Usage journal" has the reasoning and the limits.
 *
 * Segment format (text, one record a line, `\n`-terminated; a line without its `\n` is a torn write and ignored):
 *   H 1 <createdAtMs> <ruTableVersion as JSON>                   header, first line
 *   R <n> <[accountId, keyId, chain, method, minuteMs] as JSON>  defines usage row n of this segment
 *   <n> <ru> <0|1 error> <latency µs>                            one call on row n
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TUsageBatch, TUsageRow } from './types';

const SEGMENT_SUFFIX = '.usage';
const LOCK_FILE = 'LOCK';
const FORMAT = 1;
/** How often written lines are fdatasync'd (they survive kill -9 from the page cache already). */
export const DEFAULT_JOURNAL_SYNC_MS = 50;

export type TUsageJournalOptions = {
  dir: string;
  ruTableVersion: string;
  syncEveryMs?: number;
  onError?: (err: unknown) => void;
};

type TSegment = {
  id: string;
  fd: number;
  /** Lines written since the last fdatasync. */
  isDirty: boolean;
  isSyncing: boolean;
  /** Sealed while a sync was running: the sync's callback closes the fd. */
  isSealed: boolean;
};

/** What reading a segment found besides its batch (tests and the durability bench report it). */
export type TSegmentReadout = {
  id: string;
  batch: TUsageBatch | undefined;
  calls: number;
  /** Lines that did not parse: a torn last line after a crash, or damage. */
  skippedLines: number;
};

/**
 * One journal per gateway process and directory (a LOCK file with the pid refuses a second live process).
 * `append` is the only hot-path call: one `writeSync` of a short line, or (deferred) one per event-loop turn.
 */
export class UsageJournal {
  private segment: TSegment | undefined;
  /** Set when the open or a write of the current segment failed: the rest of its interval is memory-only. */
  private isBroken = false;
  private isClosed = false;
  private dirFd: number | undefined;
  private isDirDirty = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly onError: (err: unknown) => void;
  private readonly lockText: string;

  constructor(private readonly opts: TUsageJournalOptions) {
    this.onError = opts.onError ?? (() => {});
    fs.mkdirSync(opts.dir, { recursive: true });
    this.lockText = `${process.pid} ${processStartTime(process.pid) ?? '-'} ${os.hostname()}\n`;
    this.lock();
    try {
      this.dirFd = fs.openSync(opts.dir, 'r'); // for fsync of new directory entries (Linux; optional elsewhere)
    } catch {
      this.dirFd = undefined;
    }
  }

  /** Leftover segments in the directory (from an earlier process), oldest first. Call before the first append. */
  readLeftovers(): TSegmentReadout[] {
    const out: TSegmentReadout[] = [];
    for (const file of listSegments(this.opts.dir)) {
      try {
        out.push(readSegment(path.join(this.opts.dir, file), this.opts.ruTableVersion));
      } catch (err) {
        this.onError(err); // unreadable now (EIO, permissions): left in place for the next start
      }
    }
    return out.sort((a, b) => (a.batch?.createdAt ?? 0) - (b.batch?.createdAt ?? 0));
  }

  /** Starts the grouped fdatasync timer. */
  start(): void {
    const every = this.opts.syncEveryMs ?? DEFAULT_JOURNAL_SYNC_MS;
    this.timer = setInterval(() => this.sync(), every);
    this.timer.unref();
  }

  /** Lines appended with `deferred` and not written yet (`commit`). */
  private pending = '';
  private readonly commitSoon = () => this.commit();

  /**
   * Appends whole lines; opens a segment first when none is open. Never throws: a failure is reported once.
   * `deferred`: the lines are held until `commit()`, which the caller runs before the answers of these calls
   * leave (the raw front does, for every answer it writes in one event-loop turn); at the latest they are written
   * in the same turn's check phase (setImmediate) and before a seal.
   */
  append(lines: string, deferred = false): void {
    if (this.isBroken || this.isClosed) return;
    if (deferred) {
      if (this.pending === '') setImmediate(this.commitSoon);
      this.pending += lines;
      return;
    }
    this.write(lines);
  }

  /** Writes the held lines now (one write for all of them). */
  commit(): void {
    if (this.pending === '') return;
    const lines = this.pending;
    this.pending = '';
    this.write(lines);
  }

  private write(lines: string): void {
    if (this.isBroken || this.isClosed) return;
    const seg = this.segment ?? this.openSegment();
    if (!seg || this.isBroken) return;
    try {
      const bytes = Buffer.byteLength(lines);
      const written = fs.writeSync(seg.fd, lines);
      // A short write leaves half a line: stop journaling this segment so no later line is glued to it.
      if (written !== bytes) throw new Error(`usage journal: short write (${written} of ${bytes})`);
      seg.isDirty = true;
    } catch (err) {
      this.isBroken = true;
      this.onError(err);
    }
  }

  /**
   * Ends the current segment (later appends start a new one) and returns its id, which becomes the batchId of
   * the rows recorded in it. Undefined when no segment could be written this interval.
   */
  seal(): string | undefined {
    this.commit();
    const seg = this.segment;
    this.segment = undefined;
    this.isBroken = false;
    if (!seg) return undefined;
    seg.isSealed = true;
    if (!seg.isSyncing) this.syncThenClose(seg);
    return seg.id;
  }

  /** Deletes a segment whose batch is in the sink. */
  async remove(id: string): Promise<void> {
    try {
      await fs.promises.unlink(path.join(this.opts.dir, id + SEGMENT_SUFFIX));
    } catch (err) {
      // Left behind, it is replayed at the next start as a no-op (same batchId).
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.onError(err);
    }
  }

  /** Syncs and closes the open segment and releases the directory. Segments not removed stay for the next start. */
  close(): void {
    if (this.isClosed) return;
    this.commit();
    this.isClosed = true;
    if (this.timer) clearInterval(this.timer);
    const seg = this.segment;
    this.segment = undefined;
    if (seg) {
      try {
        fs.fdatasyncSync(seg.fd);
        fs.closeSync(seg.fd);
      } catch (err) {
        this.onError(err);
      }
    }
    if (this.dirFd !== undefined) {
      try {
        if (this.isDirDirty) fs.fsyncSync(this.dirFd);
        fs.closeSync(this.dirFd);
      } catch {
        // directory fsync is best effort
      }
    }
    try {
      const file = path.join(this.opts.dir, LOCK_FILE);
      if (fs.readFileSync(file, 'utf8') === this.lockText) fs.unlinkSync(file);
    } catch {
      // already gone
    }
  }

  private openSegment(): TSegment | undefined {
    const id = randomUUID();
    try {
      const fd = fs.openSync(path.join(this.opts.dir, id + SEGMENT_SUFFIX), 'wx');
      const seg: TSegment = { id, fd, isDirty: true, isSyncing: false, isSealed: false };
      this.segment = seg;
      this.isDirDirty = true;
      const header = `H ${FORMAT} ${Date.now()} ${JSON.stringify(this.opts.ruTableVersion)}\n`;
      if (fs.writeSync(fd, header) !== Buffer.byteLength(header))
        throw new Error('usage journal: short write of a segment header');
      return seg;
    } catch (err) {
      this.isBroken = true;
      this.onError(err);
      // Opened but the header failed: the segment stays current (its id is still the batchId), memory-only.
      return this.segment;
    }
  }

  /** Grouped durability against a machine crash: one fdatasync per interval, off the event loop. */
  private sync(): void {
    const seg = this.segment;
    if (seg && seg.isDirty && !seg.isSyncing) {
      seg.isDirty = false;
      seg.isSyncing = true;
      fs.fdatasync(seg.fd, (err) => {
        seg.isSyncing = false;
        if (err) this.onError(err);
        if (seg.isSealed) this.syncThenClose(seg);
      });
    }
    if (this.isDirDirty && this.dirFd !== undefined) {
      this.isDirDirty = false;
      fs.fsync(this.dirFd, () => {});
    }
  }

  private syncThenClose(seg: TSegment): void {
    seg.isSyncing = true;
    fs.fdatasync(seg.fd, (err) => {
      if (err) this.onError(err);
      fs.close(seg.fd, () => {});
    });
  }

  /** Takes the directory; refuses when another live process on this host holds it. */
  private lock(): void {
    const file = path.join(this.opts.dir, LOCK_FILE);
    try {
      fs.writeFileSync(file, this.lockText, { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const [pidText, start, host] = fs.readFileSync(file, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    if (host === os.hostname() && pid !== process.pid && isAlive(pid, start)) {
      throw new Error(
        `usage journal ${this.opts.dir} is in use by process ${pid}: give each gateway process its own directory`,
      );
    }
    // Left by a process that is gone (kill -9, crash), or by this pid in an earlier life (pid 1 in a container).
    fs.writeFileSync(file, this.lockText);
  }
}

function listSegments(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith(SEGMENT_SUFFIX));
}

/** Counts what the leftover segments of a directory hold, without taking it (the durability bench). */
export function inspectJournalDir(dir: string): {
  segments: number;
  calls: number;
  skippedLines: number;
} {
  if (!fs.existsSync(dir)) return { segments: 0, calls: 0, skippedLines: 0 };
  const found = listSegments(dir).map((f) => readSegment(path.join(dir, f), ''));
  return {
    segments: found.length,
    calls: found.reduce((s, r) => s + r.calls, 0),
    skippedLines: found.reduce((s, r) => s + r.skippedLines, 0),
  };
}

const CALL_LINE = /^(\d+) (\d+) ([01]) (\d+)$/;
const HEADER_LINE = new RegExp(`^H (${FORMAT}) (\\d+) (.+)$`);

/** Aggregates one segment file into its batch (batchId = segment id). Unparsable lines are counted, not fatal. */
export function readSegment(file: string, fallbackRuTableVersion: string): TSegmentReadout {
  const id = path.basename(file, SEGMENT_SUFFIX);
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n');
  // The piece after the last '\n' is '' for a whole file, or a line torn by a crash mid-write.
  let skippedLines = lines.pop() === '' ? 0 : 1;
  let createdAt = fs.statSync(file).mtimeMs;
  let ruTableVersion = fallbackRuTableVersion;
  const defs = new Map<number, TUsageRow & { latencyUsSum: number; latencyUsMax: number }>();
  let calls = 0;
  for (const line of lines) {
    const call = CALL_LINE.exec(line);
    if (call) {
      const row = defs.get(Number(call[1]));
      if (!row) {
        skippedLines += 1;
        continue;
      }
      const latencyUs = Number(call[4]);
      row.requests += 1;
      row.ru += Number(call[2]);
      if (call[3] === '1') row.errors += 1;
      row.latencyUsSum += latencyUs;
      if (latencyUs > row.latencyUsMax) row.latencyUsMax = latencyUs;
      calls += 1;
      continue;
    }
    try {
      if (line.startsWith('R ')) {
        const space = line.indexOf(' ', 2);
        const n = Number(line.slice(2, space));
        const [accountId, keyId, chain, method, minute] = JSON.parse(line.slice(space + 1)) as [
          string,
          string,
          string,
          string,
          number,
        ];
        if (
          !Number.isInteger(n) ||
          typeof accountId !== 'string' ||
          typeof keyId !== 'string' ||
          typeof chain !== 'string' ||
          typeof method !== 'string' ||
          !Number.isInteger(minute)
        )
          throw new Error('bad row');
        defs.set(n, {
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
          latencyUsSum: 0,
          latencyUsMax: 0,
        });
        continue;
      }
      const header = HEADER_LINE.exec(line);
      if (header) {
        createdAt = Number(header[2]);
        const version = JSON.parse(header[3] ?? '') as unknown;
        if (typeof version === 'string') ruTableVersion = version;
        continue;
      }
    } catch {
      // falls through to the count below
    }
    if (line.startsWith('H ') && !line.startsWith(`H ${FORMAT} `))
      throw new Error(`usage journal ${file}: unknown format (${line.slice(0, 8)})`);
    skippedLines += 1;
  }
  const rows: TUsageRow[] = [];
  for (const r of defs.values()) {
    if (r.requests === 0) continue;
    rows.push({
      accountId: r.accountId,
      keyId: r.keyId,
      chain: r.chain,
      method: r.method,
      minute: r.minute,
      requests: r.requests,
      ru: r.ru,
      errors: r.errors,
      latencyMsSum: Math.round(r.latencyUsSum / 1000),
      latencyMsMax: Math.ceil(r.latencyUsMax / 1000),
    });
  }
  return {
    id,
    batch: rows.length > 0 ? { batchId: id, ruTableVersion, createdAt, rows } : undefined,
    calls,
    skippedLines,
  };
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks), so a reused pid is not mistaken for the owner. */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isAlive(pid: number, start: string | undefined): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const now = processStartTime(pid);
  return start === undefined || start === '-' || now === undefined || now === start;
}

// Usage survives a crash: the journal is replayed at start, exactly once, whatever point the crash hit.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { TUsageBatch, UsageSink } from '../src/types';
import { MemoryUsageSink, UsageAggregator } from '../src/usage';
import { readSegment } from '../src/usage-journal';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const dirs: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-journal-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function aggregator(sink: UsageSink, dir: string): UsageAggregator {
  return new UsageAggregator({ sink, ruTableVersion: 'v1', journalDir: dir, onError: () => {} });
}

/** `n` calls of 20 RU on two methods, one error in ten. */
function recordCalls(u: UsageAggregator, n: number, from = 0): void {
  for (let i = from; i < from + n; i++)
    u.record(
      'acc',
      'key',
      'localnet',
      i % 2 ? 'eth_call' : 'eth_chainId',
      T0 + i * 10,
      20,
      i % 10 === 0,
      2,
    );
}

function totals(sink: MemoryUsageSink) {
  return sink.rows.reduce(
    (t, r) => ({ requests: t.requests + r.requests, ru: t.ru + r.ru, errors: t.errors + r.errors }),
    { requests: 0, ru: 0, errors: 0 },
  );
}

function segments(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.usage'));
}

describe('usage journal', () => {
  it('grouped writes: held lines reach the file at commit, at the end of the turn, or at the seal', async () => {
    const dir = tempDir();
    const inner = new MemoryUsageSink();
    const callsInFile = () => {
      const [file] = segments(dir);
      return file ? readSegment(path.join(dir, file), 'v1').calls : 0;
    };
    let inFileAtWrite = -1;
    const sink: UsageSink = {
      async write(b) {
        inFileAtWrite = callsInFile(); // the sealed segment, before its batch is written and it is removed
        await inner.write(b);
      },
    };
    const u = new UsageAggregator({
      sink,
      ruTableVersion: 'v1',
      journalDir: dir,
      groupJournalWrites: true,
      onError: () => {},
    });
    recordCalls(u, 3);
    expect(callsInFile()).toBe(0); // held
    u.commitJournal();
    expect(callsInFile()).toBe(3); // one write for the three
    recordCalls(u, 2, 3);
    expect(callsInFile()).toBe(3);
    await new Promise((r) => setImmediate(r));
    expect(callsInFile()).toBe(5); // the turn's end wrote them without a commit
    recordCalls(u, 4, 5);
    await u.flush(); // the seal writes what is held before the segment is closed
    expect(inFileAtWrite).toBe(9);
    expect(totals(inner).requests).toBe(9);
    await u.stop();
  });

  it('a crash (no flush, no stop) loses no call: the next aggregator on the directory writes each once', async () => {
    const dir = tempDir();
    const sink = new MemoryUsageSink();
    const first = aggregator(sink, dir);
    recordCalls(first, 300);
    await first.flush(); // 300 written, their segment deleted
    recordCalls(first, 170, 300); // in memory and in the journal only: the process "dies" here
    expect(totals(sink).requests).toBe(300);

    const second = aggregator(sink, dir);
    await second.replay();
    expect(totals(sink)).toEqual({ requests: 470, ru: 470 * 20, errors: 47 });
    expect(segments(dir)).toEqual([]);
    // The replayed rows keep the live shape (per key, chain, method, minute).
    expect(
      sink.batches
        .at(-1)
        ?.rows.map((r) => r.method)
        .sort(),
    ).toEqual(['eth_call', 'eth_chainId']);
    await second.stop();
  });

  it('a segment whose batch was already written counts nothing twice when it is replayed', async () => {
    const dir = tempDir();
    const sink = new MemoryUsageSink();
    const first = aggregator(sink, dir);
    recordCalls(first, 50);
    const [file] = segments(dir);
    const copy = fs.readFileSync(path.join(dir, file!));
    await first.flush();
    expect(segments(dir)).toEqual([]);
    // The crash hit after the sink's commit and before the unlink: the segment is still there.
    fs.writeFileSync(path.join(dir, file!), copy);

    const second = aggregator(sink, dir);
    await second.replay();
    expect(totals(sink)).toEqual({ requests: 50, ru: 1000, errors: 5 });
    expect(sink.batches).toHaveLength(1);
    expect(segments(dir)).toEqual([]); // removed once the sink has it
    await second.stop();
  });

  it('an acknowledgement lost before the crash: the replay reuses the batchId and the sink drops it', async () => {
    const dir = tempDir();
    const inner = new MemoryUsageSink();
    const seen: TUsageBatch[] = [];
    let isAckLost = true;
    const sink: UsageSink = {
      async write(b) {
        seen.push(b);
        await inner.write(b);
        if (isAckLost) throw new Error('connection lost after commit');
      },
    };
    const first = aggregator(sink, dir);
    recordCalls(first, 40);
    await expect(first.flush()).rejects.toThrow();
    isAckLost = false;

    const second = aggregator(sink, dir);
    await second.replay();
    expect(seen.map((b) => b.batchId)).toEqual([seen[0]?.batchId, seen[0]?.batchId]);
    expect(totals(inner)).toEqual({ requests: 40, ru: 800, errors: 4 });
    await second.stop();
  });

  it('a torn last line (crash mid-write) is skipped; every whole line counts', async () => {
    const dir = tempDir();
    const sink = new MemoryUsageSink();
    const first = aggregator(sink, dir);
    recordCalls(first, 25);
    const file = path.join(dir, segments(dir)[0]!);
    fs.appendFileSync(file, '0 20 0 20'); // half of a 26th call: no newline
    const readout = readSegment(file, 'v1');
    expect(readout).toMatchObject({ calls: 25, skippedLines: 1 });

    const second = aggregator(sink, dir);
    await second.replay();
    expect(totals(sink)).toEqual({ requests: 25, ru: 500, errors: 3 });
    await second.stop();
  });

  it('a torn row definition loses only the calls of that line, and counts nothing made up', async () => {
    const dir = tempDir();
    const sink = new MemoryUsageSink();
    const first = aggregator(sink, dir);
    recordCalls(first, 10);
    const file = path.join(dir, segments(dir)[0]!);
    fs.appendFileSync(file, 'R 7 ["acc","key","loc'); // a new row's definition, cut
    const second = aggregator(sink, dir);
    await second.replay();
    expect(totals(sink)).toEqual({ requests: 10, ru: 200, errors: 1 });
    await second.stop();
  });

  it('keeps the segment when the final flush fails (database down at shutdown) and writes it at the next start', async () => {
    const dir = tempDir();
    const sink = new MemoryUsageSink();
    const first = aggregator(
      {
        write: () => Promise.reject(new Error('database down')),
      },
      dir,
    );
    recordCalls(first, 30);
    await expect(first.stop()).rejects.toThrow('database down');
    expect(segments(dir)).toHaveLength(1);

    const second = aggregator(sink, dir);
    await second.replay();
    expect(totals(sink)).toEqual({ requests: 30, ru: 600, errors: 3 });
    await second.stop();
  });

  it('survives a real kill -9 of the recording process', async () => {
    const dir = tempDir();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./fixtures/journal-child.ts', import.meta.url)),
        dir,
        '2000',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('RECORDED')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
    });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;

    const sink = new MemoryUsageSink();
    const next = aggregator(sink, dir); // the dead child's LOCK is taken over
    await next.replay();
    const t = totals(sink);
    // 2000 calls: RU 10/11/12 by method, an error every 10th.
    expect(t).toEqual({ requests: 2000, ru: 667 * 10 + 667 * 11 + 666 * 12, errors: 200 });
    expect(sink.batches[0]?.ruTableVersion).toBe('v-child'); // the version the calls were priced with
    await next.stop();
  });

  it('refuses a directory held by another live process', async () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], {
      stdio: 'ignore',
    });
    try {
      fs.writeFileSync(path.join(dir, 'LOCK'), `${other.pid} - ${os.hostname()}\n`);
      expect(() => aggregator(new MemoryUsageSink(), dir)).toThrow(/in use by process/);
    } finally {
      other.kill('SIGKILL');
    }
  });
});

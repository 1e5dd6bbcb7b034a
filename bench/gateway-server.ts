/**
 * Bench gateway: the real startGateway with one key of unlimited tier (or, with BENCH_KEYS, that many premium keys
 * on BENCH_ACCOUNTS accounts), localnet pointed at the bench upstream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  MemoryKeyStore,
  getTier,
  loadChains,
  startGateway,
  withUpstreams,
} from '../apps/gateway/src/index';
import type { TKeyInfo, TTierLimits } from '../apps/gateway/src/types';

const upstream = process.env.BENCH_UPSTREAM;
if (!upstream) throw new Error('BENCH_UPSTREAM is required');
const chains = loadChains({}).map((c) =>
  c.id === 'localnet' ? withUpstreams(c, { full: [upstream] }, []) : c,
);
const key = (n: string, accountId: string, tier: TTierLimits): TKeyInfo => ({
  key: n,
  keyId: n,
  accountId,
  paused: false,
  archiveMode: false,
  mev: '',
  bundler: 'default',
  allowlists: { origins: [], ips: [], contracts: [], methods: [] },
  tier,
});
// BENCH_KEYS=n (bench:gateway-product): keys bench-key-0 … n-1 on BENCH_ACCOUNTS accounts, premium tier, so the
// in-memory target spreads its calls over keys and accounts as the product target does; else one unlimited key.
const spread = Number(process.env.BENCH_KEYS ?? 0);
const accounts = Number(process.env.BENCH_ACCOUNTS ?? 100);
const premium = getTier('premium');
if (spread > 0 && !premium) throw new Error('no premium tier in config/tiers.json');
const keys = new MemoryKeyStore(
  spread > 0 && premium
    ? Array.from({ length: spread }, (_, i) =>
        key(`bench-key-${i}`, `bench-account-${i % accounts}`, premium),
      )
    : [
        key('bench-key', 'bench-account', {
          reqPerSec: 1e9,
          ruPerSec: 1e12,
          concurrency: 100_000,
        }),
      ],
);
// The usage journal is on, as `npm start` runs it (BENCH_USAGE_JOURNAL=0 measures without it).
const journalDir =
  process.env.BENCH_USAGE_JOURNAL === '0'
    ? undefined
    : mkdtempSync(path.join(os.tmpdir(), 'bench-usage-journal-'));
const gw = await startGateway({
  port: 0,
  host: '127.0.0.1',
  keys,
  chains,
  healthCheckIntervalMs: 5000,
  usageJournalDir: journalDir,
});
process.stdout.write(`PORT ${new URL(gw.url).port}\n`);
process.on('SIGTERM', () => {
  gw.stop()
    .then(() => {
      if (journalDir) rmSync(journalDir, { recursive: true, force: true });
      process.exit(0);
    })
    .catch(() => process.exit(1));
});

/** Bench gateway: the real startGateway with one key of unlimited tier, localnet pointed at the bench upstream. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryKeyStore, loadChains, startGateway, withUpstreams } from '../apps/gateway/src/index';

const upstream = process.env.BENCH_UPSTREAM;
if (!upstream) throw new Error('BENCH_UPSTREAM is required');
const chains = loadChains({}).map((c) =>
  c.id === 'localnet' ? withUpstreams(c, { full: [upstream] }, []) : c,
);
const keys = new MemoryKeyStore([
  {
    key: 'bench-key',
    keyId: 'bench',
    accountId: 'bench-account',
    paused: false,
    archiveMode: false,
    mev: '',
    bundler: 'default',
    allowlists: { origins: [], ips: [], contracts: [], methods: [] },
    tier: { reqPerSec: 1e9, ruPerSec: 1e12, concurrency: 100_000 },
  },
]);
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

/**
 * The usage journal against the real SQL sink (writeUsageBatch) on both databases: a crash before the flush loses
 * nothing, and a segment replayed after its batch was committed changes neither usage_minute nor the ledger.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiKeys, ruLedger, usageBatches, usageMinute } from '@rpc/db';
import { UsageAggregator, type UsageSink } from '@rpc/gateway';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_LOG_BATCH_MARK } from '../src/services/request-logs/write-request-log-batch';
import { REFUSAL_BATCH_MARK } from '../src/services/usage/write-refusal-batch';
import { writeUsageBatch } from '../src/services/usage/write-usage-batch';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

describe.each(TEST_DATABASES)('usage journal into $name', ({ open }) => {
  let h: THarness;
  let dir: string;
  beforeAll(async () => {
    h = await createHarness(open);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-journal-db-'));
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('kill before the flush, replay of an already written segment: every call once, in usage and ledger', async () => {
    const s = await h.signUp();
    const made = await h.call('hub_generateApiKey', { name: 'journal' }, { token: s.token });
    if (!made.ok) throw new Error(JSON.stringify(made.error));
    const keyId = made.result.keyId;
    const [row] = await h.database.db
      .select({ accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(eq(apiKeys.id, keyId));
    const accountId = row!.accountId;
    const sink: UsageSink = { write: async (b) => void (await writeUsageBatch(h.database.db, b)) };
    const record = (u: UsageAggregator, n: number) => {
      for (let i = 0; i < n; i++)
        u.record(accountId, keyId, 'localnet', 'eth_call', T0 + i, 26, false, 3);
    };

    const first = new UsageAggregator({ sink, ruTableVersion: 'v1', journalDir: dir });
    record(first, 100);
    const [segment] = fs.readdirSync(dir).filter((f) => f.endsWith('.usage'));
    const copy = fs.readFileSync(path.join(dir, segment!));
    await first.flush(); // committed, and its segment deleted...
    fs.writeFileSync(path.join(dir, segment!), copy); // ...except the crash came before the unlink
    record(first, 40); // recorded and answered, never flushed: the process is killed here

    const second = new UsageAggregator({ sink, ruTableVersion: 'v1', journalDir: dir });
    await second.replay();
    await second.stop();

    const [usage] = await h.database.db
      .select({
        requests: sql<string>`sum(${usageMinute.requests})`,
        ru: sql<string>`sum(${usageMinute.ru})`,
      })
      .from(usageMinute)
      .where(eq(usageMinute.keyId, keyId));
    expect({ requests: Number(usage?.requests), ru: Number(usage?.ru) }).toEqual({
      requests: 140,
      ru: 140 * 26,
    });
    const [debit] = await h.database.db
      .select({ sum: sql<string>`sum(${ruLedger.delta})`, n: sql<string>`count(*)` })
      .from(ruLedger)
      .where(and(eq(ruLedger.accountId, accountId), eq(ruLedger.kind, 'usage')));
    expect({ sum: Number(debit?.sum), entries: Number(debit?.n) }).toEqual({
      sum: -140 * 26,
      entries: 2,
    });
    // Usage batches only: refusal and request-log batch ids share the table under their marks.
    const [batches] = await h.database.db
      .select({ n: sql<string>`count(*)` })
      .from(usageBatches)
      .where(notInArray(usageBatches.ruTableVersion, [REFUSAL_BATCH_MARK, REQUEST_LOG_BATCH_MARK]));
    expect(Number(batches?.n)).toBe(2);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.usage'))).toEqual([]);
  });
});

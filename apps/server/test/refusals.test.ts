/**
 * Refused calls (issue item 8): the gateway's refusals of a key reach usage_refusal_minute / _hour through the SQL
 * sink exactly once, and hub_reportUserRefusals answers them per bucket and code (minute, hour, local day), with
 * the node errors of answered calls beside them; filters by key and network; another account sees nothing.
 */
import { type TParamsIn, type TResult } from '@rpc/contract';
import { apiKeys, usageRefusalHour, usageRefusalMinute, type TDatabase } from '@rpc/db';
import { type TChain, type TLocalnet } from '@rpc/gateway';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalInvalidationChannel } from '../src/gateway/local-invalidation';
import { startDbGateway, type TDbGateway } from '../src/gateway/start-db-gateway';
import { pruneUsage } from '../src/services/usage/prune-usage';
import { writeRefusalBatch } from '../src/services/usage/write-refusal-batch';
import { writeUsageBatch } from '../src/services/usage/write-usage-batch';
import { TEST_DATABASES } from './helpers/databases';
import { startTestLocalnet } from './helpers/localnet';
import { createHarness, type THarness } from './helpers/harness';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let localnet: TLocalnet;
let chains: TChain[];
beforeAll(async () => {
  ({ localnet, chains } = await startTestLocalnet());
});
afterAll(async () => {
  await localnet?.stop();
});

describe.each(TEST_DATABASES)('refusal reports on $name', ({ open }) => {
  let h: THarness;
  let gw: TDbGateway;
  let db: TDatabase;
  beforeAll(async () => {
    h = await createHarness(open, { keyEvents: new LocalInvalidationChannel(), chains });
    db = h.database.db;
    gw = await startDbGateway({
      deps: h.server.deps,
      port: 0,
      host: '127.0.0.1',
      flushIntervalMs: 60_000, // flushed by hand
      healthCheckIntervalMs: 60_000,
      refreshIntervalMs: 60_000,
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await h?.close();
  });

  async function accountWithKeys(...names: string[]) {
    const s = await h.signUp();
    const keys = [];
    for (const name of names) {
      const made = await h.call('hub_generateApiKey', { name }, { token: s.token });
      if (!made.ok) throw new Error(JSON.stringify(made.error));
      keys.push(made.result);
    }
    const [row] = await db
      .select({ accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(eq(apiKeys.id, keys[0]!.keyId));
    const refusals = async (
      params: TParamsIn<'hub_reportUserRefusals'>,
    ): Promise<TResult<'hub_reportUserRefusals'>> => {
      const res = await h.call('hub_reportUserRefusals', params, { token: s.token });
      if (!res.ok) throw new Error(JSON.stringify(res.error));
      return res.result;
    };
    return { ...s, keys, accountId: row!.accountId, refusals };
  }

  const syncClock = () => h.clock.advance(Date.now() - h.clock.now());

  it('counts calls refused through the gateway by code, and the node errors beside them', async () => {
    const a = await accountWithKeys('limited');
    const key = a.keys[0]!;
    // Only eth_chainId is allowed: eth_blockNumber is refused (-32004); admin_peers is never offered (-32601).
    const updated = await h.call(
      'hub_updateApiKey',
      { keyId: key.keyId, allowlists: { methods: ['eth_chainId', 'eth_call'] } },
      { token: a.token },
    );
    expect(updated.ok).toBe(true);
    const url = `${gw.url}/v1/localnet/${key.key}`;
    const post = (body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })).status).toBe(
      200,
    );
    for (let i = 0; i < 2; i++)
      expect(
        (await post({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })).status,
      ).toBe(403);
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'admin_peers', params: [] })).status).toBe(
      400,
    );
    // An answered call the node refuses (a call to nowhere with bad data): a node error, not a refusal.
    await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: '0x0000000000000000000000000000000000000001', data: '0xzz' }, 'latest'],
    });
    await gw.gateway.flushUsage();
    syncClock();

    const now = h.clock.now();
    const timeZone = 'Asia/Shanghai';
    const byMinute = await a.refusals({ from: now - HOUR, to: now, bucket: 'minute', timeZone });
    expect(byMinute.series.map((s) => [s.code, s.total])).toEqual([
      [-32004, 2],
      [-32601, 1],
    ]);
    expect(byMinute.total).toBe(3);
    expect(byMinute.totalErrors).toBe(1);
    expect(byMinute.series[0]!.data.length).toBe(byMinute.buckets.length);
    const byHour = await a.refusals({ from: now - DAY, to: now, bucket: 'hour', timeZone });
    expect(byHour.total).toBe(3);
    expect(byHour.totalErrors).toBe(1);
    const byDay = await a.refusals({ from: now - 7 * DAY, to: now, bucket: 'day', timeZone });
    expect(byDay.total).toBe(3);
    expect(byDay.series.find((s) => s.code === -32004)?.data.at(-1)).toBe(2);

    // Another account sees none of it.
    const other = await accountWithKeys('other');
    expect(
      (await other.refusals({ from: now - HOUR, to: now, bucket: 'minute', timeZone })).total,
    ).toBe(0);
  });

  it('writes a batch once, buckets minutes, hours and local days, and filters by key and network', async () => {
    const a = await accountWithKeys('one', 'two');
    const [one, two] = a.keys as [(typeof a.keys)[0], (typeof a.keys)[0]];
    syncClock();
    const now = h.clock.now();
    // 15:59 and 16:00 UTC: two UTC hours, and in Shanghai two local days (23:59 and 00:00).
    const day = Math.floor((now - 2 * DAY) / DAY) * DAY;
    const t1 = day + 15 * HOUR + 59 * MINUTE;
    const t2 = day + 16 * HOUR;
    const row = (keyId: string, chain: string, code: number, minute: number, count: number) => ({
      accountId: a.accountId,
      keyId,
      chain,
      code,
      minute,
      count,
    });
    const batch = {
      batchId: `refusals-${a.accountId}`,
      createdAt: now,
      rows: [
        row(one.keyId, 'localnet', -32005, t1, 5),
        row(one.keyId, 'localnet', -32005, t1, 1), // the same row twice in a batch: merged
        row(one.keyId, 'ethereum', -32006, t2, 2),
        row(two.keyId, 'localnet', -32005, t2, 4),
      ],
    };
    expect(await writeRefusalBatch(db, batch)).toBe(true);
    expect(await writeRefusalBatch(db, batch)).toBe(false); // a retry changes nothing

    const minutes = await db
      .select()
      .from(usageRefusalMinute)
      .where(eq(usageRefusalMinute.accountId, a.accountId));
    expect(minutes.reduce((n, r) => n + r.count, 0)).toBe(12);
    const hours = await db
      .select()
      .from(usageRefusalHour)
      .where(eq(usageRefusalHour.accountId, a.accountId));
    expect(hours.map((r) => [r.hour.getTime(), r.code, r.count]).sort()).toEqual(
      [
        [day + 15 * HOUR, -32005, 6],
        [day + 16 * HOUR, -32006, 2],
        [day + 16 * HOUR, -32005, 4],
      ].sort(),
    );

    // An errored answered call in usage, for the errors line.
    await writeUsageBatch(db, {
      batchId: `usage-${a.accountId}`,
      ruTableVersion: 'test',
      createdAt: now,
      rows: [
        {
          accountId: a.accountId,
          keyId: one.keyId,
          chain: 'localnet',
          method: 'eth_call',
          minute: t2,
          requests: 3,
          ru: 0,
          errors: 3,
          latencyMsSum: 3,
          latencyMsMax: 1,
        },
      ],
    });

    const timeZone = 'Asia/Shanghai';
    const range = { from: day + 12 * HOUR, to: day + 20 * HOUR, timeZone };
    const byHour = await a.refusals({ ...range, bucket: 'hour' });
    const at = (ms: number) => byHour.buckets.indexOf(ms);
    const code = (c: number) => byHour.series.find((s) => s.code === c)!;
    expect(code(-32005).data[at(day + 15 * HOUR)]).toBe(6);
    expect(code(-32005).data[at(day + 16 * HOUR)]).toBe(4);
    expect(code(-32006).total).toBe(2);
    expect(byHour.series[0]!.code).toBe(-32005); // most first
    expect(byHour.errors[at(day + 16 * HOUR)]).toBe(3);

    const byMinute = await a.refusals({ ...range, to: day + 17 * HOUR, bucket: 'minute' });
    expect(byMinute.total).toBe(12);

    // Local days in Shanghai: 23:59 is one day, 00:00 the next.
    const days = await a.refusals({
      from: day - 2 * DAY,
      to: day + 2 * DAY,
      timeZone,
      bucket: 'day',
    });
    const five = days.series.find((s) => s.code === -32005)!;
    expect(five.data.filter((n) => n > 0)).toEqual([6, 4]);

    const oneKey = await a.refusals({
      ...range,
      bucket: 'hour',
      scope: 'apikey',
      keyId: one.keyId,
    });
    expect(oneKey.total).toBe(8);
    const eth = await a.refusals({ ...range, bucket: 'hour', chain: 'ethereum' });
    expect(eth.series.map((s) => [s.code, s.total])).toEqual([[-32006, 2]]);
  });

  it('prunes refusal minute rows with the usage minute rows and keeps the hours', async () => {
    const a = await accountWithKeys('old');
    syncClock();
    const now = h.clock.now();
    const old = Math.floor((now - 40 * DAY) / MINUTE) * MINUTE;
    await writeRefusalBatch(db, {
      batchId: `old-${a.accountId}`,
      createdAt: old,
      rows: [
        {
          accountId: a.accountId,
          keyId: a.keys[0]!.keyId,
          chain: 'localnet',
          code: -32005,
          minute: old,
          count: 1,
        },
      ],
    });
    const pruned = await pruneUsage({ db, now, retentionDays: 14 });
    expect(pruned.refusalMinuteRows).toBeGreaterThanOrEqual(1);
    expect(
      await db
        .select()
        .from(usageRefusalMinute)
        .where(eq(usageRefusalMinute.accountId, a.accountId)),
    ).toEqual([]);
    expect(
      await db.select().from(usageRefusalHour).where(eq(usageRefusalHour.accountId, a.accountId)),
    ).toHaveLength(1);
  });
});

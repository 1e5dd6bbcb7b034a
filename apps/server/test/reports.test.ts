/**
 * Usage reports (issue 4): real calls through the gateway (Hardhat upstream) come back exactly from every
 * hub_report* method, per key, per network and per method; buckets fall on minute, hour and local-day boundaries
 * (batches with chosen timestamps through writeUsageBatch); another account sees nothing; bad input gets its
 * code and writes nothing; the minute-retention prune keeps the rollups.
 */
import {
  ERROR_CODES,
  startOfLocalDay,
  type TMethodName,
  type TParamsIn,
  type TResult,
} from '@rpc/contract';
import {
  accounts,
  apiKeys,
  usageBatches,
  usageDay,
  usageHour,
  usageMinute,
  type TDatabase,
} from '@rpc/db';
import {
  computeRu,
  loadChains,
  startLocalnet,
  withUpstreams,
  type TChain,
  type TLocalnet,
  type TUsageRow,
} from '@rpc/gateway';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalInvalidationChannel } from '../src/gateway/local-invalidation';
import { startDbGateway, type TDbGateway } from '../src/gateway/start-db-gateway';
import { pruneUsage } from '../src/services/usage/prune-usage';
import { writeUsageBatch } from '../src/services/usage/write-usage-batch';
import { TEST_DATABASES } from './helpers/databases';
import { freePort } from './helpers/net';
import { createHarness, type THarness } from './helpers/harness';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const HARDHAT_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** The second network costs 1.5× (so per-network RUs differ, and rounding up is exercised). */
const ETH_MULTIPLIER = 1.5;

let localnet: TLocalnet;
let chains: TChain[];
beforeAll(async () => {
  localnet = await startLocalnet({ port: await freePort() });
  // Two networks served by the same Hardhat node: localnet (×1) and ethereum (×1.5).
  chains = loadChains({}).map((c) => {
    if (c.id === 'localnet') return withUpstreams(c, { full: [localnet.url] }, [localnet.wsUrl]);
    if (c.id === 'ethereum')
      return {
        ...withUpstreams(c, { full: [localnet.url] }, [localnet.wsUrl]),
        ruMultiplier: ETH_MULTIPLIER,
      };
    return c;
  });
});
afterAll(async () => {
  await localnet?.stop();
});

type TReportMethod = Extract<TMethodName, `hub_report${string}`>;
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe.each(TEST_DATABASES)('usage reports on $name', ({ open }) => {
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
    const report = async <N extends TReportMethod>(
      method: N,
      params: TParamsIn<N>,
    ): Promise<TResult<N>> => {
      const res = await h.call(method, params, { token: s.token });
      if (!res.ok) throw new Error(`${method}: ${JSON.stringify(res.error)}`);
      return res.result;
    };
    return { ...s, keys, accountId: row!.accountId, report };
  }

  const zoneOf = async (accountId: string) =>
    (await db.select().from(accounts).where(eq(accounts.id, accountId)))[0]!.timeZone;

  /** The report "now" follows real time (the gateway stamps usage with the real clock). */
  const syncClock = () => h.clock.advance(Date.now() - h.clock.now());

  describe('after known requests through the gateway', () => {
    // [key index, chain, method, calls]
    const PLAN: Array<[number, string, string, number]> = [
      [0, 'localnet', 'eth_blockNumber', 3],
      [0, 'localnet', 'eth_chainId', 2],
      [0, 'localnet', 'eth_getBalance', 1],
      [0, 'ethereum', 'eth_blockNumber', 2],
      [1, 'localnet', 'eth_getBalance', 1],
      [1, 'localnet', 'eth_chainId', 2],
      [1, 'localnet', 'net_version', 1],
      [1, 'ethereum', 'eth_getBalance', 1],
    ];
    let u: Awaited<ReturnType<typeof accountWithKeys>>;
    type TTally = { requests: number; ru: number };
    const tally = () => new Map<string, TTally>();
    const add = (m: Map<string, TTally>, id: string, ru: number) => {
      const t = m.get(id) ?? { requests: 0, ru: 0 };
      t.requests += 1;
      t.ru += ru;
      m.set(id, t);
    };
    const perKey = tally();
    const perChain = tally();
    const perMethod = tally();
    const perKeyChain = tally();
    const perKeyMethod = tally();
    const perChainMethod = tally();
    let N = 0;
    let totalRu = 0;

    beforeAll(async () => {
      u = await accountWithKeys('alpha', 'beta');
      for (const [k, chain, method, calls] of PLAN) {
        const key = u.keys[k]!;
        const multiplier = chains.find((c) => c.id === chain)!.ruMultiplier;
        for (let i = 0; i < calls; i++) {
          const res = await fetch(`${gw.url}/v1/${chain}/${key.key}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: i,
              method,
              params: method === 'eth_getBalance' ? [HARDHAT_ACCOUNT, 'latest'] : [],
            }),
          });
          expect(res.status).toBe(200);
          expect(await res.json()).toHaveProperty('result');
          // Listed prices do not depend on the (small) response size.
          const ru = computeRu({
            method,
            responseBytes: 0,
            archive: false,
            multiplier,
            outcome: 'ok',
          });
          N += 1;
          totalRu += ru;
          add(perKey, key.keyId, ru);
          add(perChain, chain, ru);
          add(perMethod, method, ru);
          add(perKeyChain, `${key.keyId}|${chain}`, ru);
          add(perKeyMethod, `${key.keyId}|${method}`, ru);
          add(perChainMethod, `${chain}|${method}`, ru);
        }
      }
      await gw.gateway.flushUsage();
      syncClock();
    });

    const byPrefix = (m: Map<string, TTally>, prefix: string) =>
      new Map(
        [...m.entries()]
          .filter(([id]) => id.startsWith(`${prefix}|`))
          .map(([id, t]) => [id.slice(prefix.length + 1), t]),
      );
    const topOf = (m: Map<string, TTally>) =>
      [...m.entries()]
        .map(([method, t]) => ({ method, ...t }))
        .sort((a, b) => b.ru - a.ru || (a.method < b.method ? -1 : 1))
        .slice(0, 5);

    it('prices differ per method and network (the RU table, not a constant)', () => {
      expect(N).toBe(13);
      expect(new Set([...perMethod.values()].map((t) => t.ru / t.requests)).size).toBeGreaterThan(
        1,
      );
      expect(perChain.get('ethereum')!.ru).toBeGreaterThan(perChain.get('ethereum')!.requests * 5);
    });

    it.each(['minute', 'hour', 'day'] as const)(
      'every report method returns exactly the requests and RUs sent (%s buckets)',
      async (bucket) => {
        const now = h.clock.now();
        const range = { from: now - 30 * MINUTE, to: now + MINUTE, bucket, timeZone: 'UTC' };
        const [k0, k1] = u.keys.map((k) => k.keyId) as [string, string];

        // Account-wide series.
        const ru = await u.report('hub_reportUserRuUsage', range);
        expect(ru.series.map((s) => s.id)).toEqual(['total']);
        expect(ru.total).toBe(totalRu);
        expect(sum(ru.series[0]!.data)).toBe(totalRu);
        expect(ru.series[0]!.data).toHaveLength(ru.buckets.length);
        const ruOne = await u.report('hub_reportUserRuUsage', {
          ...range,
          scope: 'apikey',
          keyId: k1,
        });
        expect(ruOne.total).toBe(perKey.get(k1)!.ru);
        const ruEth = await u.report('hub_reportUserRuUsage', { ...range, chain: 'ethereum' });
        expect(ruEth.total).toBe(perChain.get('ethereum')!.ru);

        const reqByKey = await u.report('hub_reportUserRequestByApikey', range);
        expect(reqByKey.total).toBe(N);
        expect(
          Object.fromEntries(reqByKey.series.map((s) => [s.id, [s.name, sum(s.data)]])),
        ).toEqual({
          [k0]: ['alpha', perKey.get(k0)!.requests],
          [k1]: ['beta', perKey.get(k1)!.requests],
        });
        const ruByKey = await u.report('hub_reportUserRuUsageByApikey', range);
        expect(ruByKey.total).toBe(totalRu);
        expect(ruByKey.series.map((s) => [s.id, sum(s.data)])).toEqual(
          [...perKey.entries()].map(([id, t]) => [id, t.ru]).sort((a, b) => +b[1]! - +a[1]!),
        );

        const info = await u.report('hub_reportUserCompositeInfo', range);
        expect(info).toMatchObject({
          requests: N,
          ru: totalRu,
          errors: 0,
          activeKeys: 2,
          activeNetworks: 2,
        });
        expect(info.avgLatencyMs).not.toBeNull();

        // One key, per network.
        for (const keyId of [k0, k1]) {
          const mine = byPrefix(perKeyChain, keyId);
          const req = await u.report('hub_reportApikeyRequest', { ...range, keyId });
          expect(Object.fromEntries(req.series.map((s) => [s.id, sum(s.data)]))).toEqual(
            Object.fromEntries([...mine].map(([c, t]) => [c, t.requests])),
          );
          expect(req.total).toBe(perKey.get(keyId)!.requests);
          const kru = await u.report('hub_reportApikeyRuUsage', { ...range, keyId });
          expect(Object.fromEntries(kru.series.map((s) => [s.id, sum(s.data)]))).toEqual(
            Object.fromEntries([...mine].map(([c, t]) => [c, t.ru])),
          );
          expect(kru.series.find((s) => s.id === 'ethereum')?.name).toBe('Ethereum');
          const kinfo = await u.report('hub_reportApikeyCompositeInfo', { ...range, keyId });
          expect(kinfo).toMatchObject({
            requests: perKey.get(keyId)!.requests,
            ru: perKey.get(keyId)!.ru,
            activeKeys: 1,
            activeNetworks: 2,
          });
        }

        // Tables per key and per network.
        const byKey = await u.report('hub_reportUsageInfoByApikey', range);
        expect(byKey.list.map((r) => [r.keyId, r.name, r.deleted, r.requests, r.ru])).toEqual(
          [...perKey.entries()]
            .sort(([, a], [, b]) => b.ru - a.ru)
            .map(([id, t]) => [id, id === k0 ? 'alpha' : 'beta', false, t.requests, t.ru]),
        );
        expect(sum(byKey.list.map((r) => r.ruShare))).toBeCloseTo(1, 9);
        const byNet = await u.report('hub_reportUsageInfoByNetwork', range);
        expect(byNet.list.map((r) => [r.chain, r.requests, r.ru])).toEqual(
          [...perChain.entries()]
            .sort(([, a], [, b]) => b.ru - a.ru)
            .map(([c, t]) => [c, t.requests, t.ru]),
        );

        // Composite series.
        const cKey = await u.report('hub_reportUserCompositeInfoByApikey', range);
        expect(cKey.totalRequests).toBe(N);
        expect(cKey.totalRu).toBe(totalRu);
        for (const s of cKey.series) {
          expect([sum(s.requests), sum(s.ru)]).toEqual([
            perKey.get(s.id)!.requests,
            perKey.get(s.id)!.ru,
          ]);
        }
        const cNet = await u.report('hub_reportUserCompositeInfoByNetwork', range);
        expect(cNet.totalRequests).toBe(N);
        expect(
          Object.fromEntries(cNet.series.map((s) => [s.id, [sum(s.requests), sum(s.ru)]])),
        ).toEqual(Object.fromEntries([...perChain].map(([c, t]) => [c, [t.requests, t.ru]])));

        // Top-5 methods: team-wide, per key, per network.
        const top = await u.report('hub_reportUserTop5MethodRuCostByApikey', range);
        expect(top.totalRu).toBe(totalRu);
        expect(top.list.map(({ method, requests, ru }) => ({ method, requests, ru }))).toEqual(
          topOf(perMethod),
        );
        const topKey = await u.report('hub_reportUserTop5MethodRuCostByApikey', {
          ...range,
          scope: 'apikey',
          keyId: k1,
        });
        expect(topKey.list.map(({ method, requests, ru }) => ({ method, requests, ru }))).toEqual(
          topOf(byPrefix(perKeyMethod, k1)),
        );
        expect(topKey.totalRu).toBe(perKey.get(k1)!.ru);
        const topNet = await u.report('hub_reportUserTop5MethodRuCostByNetwork', {
          ...range,
          chain: 'ethereum',
        });
        expect(topNet.list.map(({ method, requests, ru }) => ({ method, requests, ru }))).toEqual(
          topOf(byPrefix(perChainMethod, 'ethereum')),
        );
        const topAll = await u.report('hub_reportUserTop5MethodRuCostByNetwork', range);
        expect(topAll.totalRu).toBe(totalRu);
      },
    );

    it('keeps counting a deleted key, flagged deleted', async () => {
      const now = h.clock.now();
      const range = { from: now - HOUR, to: now + MINUTE, bucket: 'hour' as const };
      const [, k1] = u.keys.map((k) => k.keyId) as [string, string];
      const extra = await h.call('hub_generateApiKey', { name: 'gamma' }, { token: u.token });
      const gone = extra.result!.keyId;
      await writeUsageBatch(db, {
        batchId: `deleted-${gone}`,
        ruTableVersion: 'test',
        createdAt: now,
        rows: [row(u.accountId, gone, 'localnet', 'eth_call', now - MINUTE, 7, 70)],
      });
      expect((await h.call('hub_deleteApiKey', { keyId: gone }, { token: u.token })).ok).toBe(true);
      const byKey = await u.report('hub_reportUsageInfoByApikey', range);
      expect(byKey.list.find((r) => r.keyId === gone)).toMatchObject({
        name: 'gamma',
        deleted: true,
        requests: 7,
        ru: 70,
      });
      expect(byKey.list.find((r) => r.keyId === k1)?.deleted).toBe(false);
      const series = await u.report('hub_reportUserRuUsageByApikey', range);
      expect(series.series.find((s) => s.id === gone)?.deleted).toBe(true);
      const one = await u.report('hub_reportApikeyCompositeInfo', { ...range, keyId: gone });
      expect(one).toMatchObject({ requests: 7, ru: 70 });
    });

    it('shows another account nothing, and answers 10605 for the first account’s key', async () => {
      const other = await accountWithKeys('mine');
      const now = h.clock.now();
      const range = { from: now - 30 * MINUTE, to: now + MINUTE, bucket: 'minute' as const };
      const theirs = u.keys[0]!.keyId;
      expect((await other.report('hub_reportUserRuUsage', range)).total).toBe(0);
      expect((await other.report('hub_reportUserRequestByApikey', range)).series).toEqual([]);
      expect((await other.report('hub_reportUserCompositeInfoByNetwork', range)).series).toEqual(
        [],
      );
      expect(await other.report('hub_reportUserCompositeInfo', range)).toMatchObject({
        requests: 0,
        ru: 0,
        avgLatencyMs: null,
        activeKeys: 0,
      });
      expect((await other.report('hub_reportUsageInfoByApikey', range)).list).toEqual([]);
      expect((await other.report('hub_reportUsageInfoByNetwork', range)).list).toEqual([]);
      expect(await other.report('hub_reportUserTop5MethodRuCostByNetwork', range)).toMatchObject({
        list: [],
        totalRu: 0,
      });
      const methods: TReportMethod[] = [
        'hub_reportUserRuUsage',
        'hub_reportUserRequestByApikey',
        'hub_reportUserRuUsageByApikey',
        'hub_reportUserCompositeInfo',
        'hub_reportApikeyRequest',
        'hub_reportApikeyRuUsage',
        'hub_reportApikeyCompositeInfo',
        'hub_reportUsageInfoByApikey',
        'hub_reportUsageInfoByNetwork',
        'hub_reportUserCompositeInfoByApikey',
        'hub_reportUserCompositeInfoByNetwork',
        'hub_reportUserTop5MethodRuCostByApikey',
        'hub_reportUserTop5MethodRuCostByNetwork',
      ];
      for (const method of methods) {
        const res = await h.raw(
          { method, params: { ...range, keyId: theirs }, id: 1 },
          { token: other.token },
        );
        expect([method, res.error?.code]).toEqual([method, ERROR_CODES.REPORT_UNKNOWN_KEY]);
      }
    });
  });

  describe('buckets at minute, hour and local-day boundaries', () => {
    const SH = 'Asia/Shanghai';
    let u: Awaited<ReturnType<typeof accountWithKeys>>;
    /** A Shanghai midnight three days ago: 16:00 UTC the day before. */
    let D: number;
    let k1: string;
    let k2: string;

    beforeAll(async () => {
      u = await accountWithKeys('one', 'two');
      [k1, k2] = u.keys.map((k) => k.keyId) as [string, string];
      D = startOfLocalDay(h.clock.now() - 3 * DAY, SH);
      expect(new Date(D).getUTCHours()).toBe(16);
      // Written before the account has a report zone: its day rollups start out in UTC.
      await writeUsageBatch(db, {
        batchId: `edges-1-${u.accountId}`,
        ruTableVersion: 'test',
        createdAt: h.clock.now(),
        rows: [
          // Older rows, so the first report call rebuilds the per-method days across a UTC-day seam.
          row(u.accountId, k1, 'localnet', 'eth_gasPrice', D - 5 * DAY, 100, 1000),
          row(u.accountId, k1, 'localnet', 'eth_gasPrice', D - 5 * DAY + 7 * HOUR, 100, 1000),
          row(u.accountId, k2, 'localnet', 'eth_gasPrice', D - 4 * DAY + 4 * HOUR, 100, 1000),
          row(u.accountId, k1, 'localnet', 'eth_call', D - MINUTE, 1, 10),
          row(u.accountId, k1, 'localnet', 'eth_blockNumber', D, 2, 20),
          row(u.accountId, k2, 'ethereum', 'eth_getLogs', D + 59 * MINUTE, 4, 300),
          row(u.accountId, k1, 'localnet', 'eth_call', D + HOUR, 8, 80),
        ],
      });
    });

    it('the first report call sets the account zone (rebuilding its day rollups); later ones never change it', async () => {
      expect(await zoneOf(u.accountId)).toBeNull();
      const day = await u.report('hub_reportUserRequestByApikey', {
        from: D - DAY,
        to: D + DAY,
        bucket: 'day',
        timeZone: SH,
      });
      expect(await zoneOf(u.accountId)).toBe(SH);
      expect(day.buckets).toEqual([D - DAY, D]);
      expect(day.series.find((s) => s.id === k1)!.data).toEqual([1, 10]);
      expect(day.series.find((s) => s.id === k2)!.data).toEqual([0, 4]);

      // Written after: straight into Shanghai days.
      await writeUsageBatch(db, {
        batchId: `edges-2-${u.accountId}`,
        ruTableVersion: 'test',
        createdAt: h.clock.now(),
        rows: [
          row(u.accountId, k1, 'localnet', 'eth_call', D + DAY - MINUTE, 16, 160),
          row(u.accountId, k1, 'localnet', 'eth_call', D + DAY, 32, 320),
        ],
      });
      const sh = await u.report('hub_reportUserCompositeInfoByApikey', {
        from: D - DAY,
        to: D + 2 * DAY,
        bucket: 'day',
        timeZone: SH,
      });
      expect(sh.buckets).toEqual([D - DAY, D, D + DAY]);
      const total = (r: typeof sh) =>
        r.buckets.map((_, i) => sum(r.series.map((s) => s.requests[i]!)));
      expect(total(sh)).toEqual([1, 30, 32]);
      // Another name with the same midnights reads the same days.
      const chongqing = await u.report('hub_reportUserCompositeInfoByApikey', {
        from: D - DAY,
        to: D + 2 * DAY,
        bucket: 'day',
        timeZone: 'Asia/Chongqing',
      });
      expect(chongqing.buckets).toEqual(sh.buckets);
      expect(total(chongqing)).toEqual([1, 30, 32]);

      // A UTC caller: other zone than the account's, so day buckets come from the hour rollup.
      const utcDay = D - (D % DAY);
      const utc = await u.report('hub_reportUserCompositeInfoByApikey', {
        from: utcDay,
        to: utcDay + 2 * DAY,
        bucket: 'day',
        timeZone: 'UTC',
      });
      expect(utc.buckets).toEqual([utcDay, utcDay + DAY]);
      expect(total(utc)).toEqual([15, 48]);
      expect(utc.totalRu).toBe(10 + 20 + 300 + 80 + 160 + 320);
      // New York (UTC-5 in winter, UTC-4 in summer): midnight falls at 04:00 or 05:00 UTC.
      const ny = await u.report('hub_reportUserRuUsage', {
        from: D - DAY,
        to: D + 2 * DAY,
        bucket: 'day',
        timeZone: 'America/New_York',
      });
      expect(ny.buckets.every((b) => [4, 5].includes(new Date(b).getUTCHours()))).toBe(true);
      expect(ny.total).toBe(890);
      expect(await zoneOf(u.accountId)).toBe(SH);

      const info = await u.report('hub_reportUserCompositeInfo', {
        from: D,
        to: D + DAY,
        bucket: 'day',
        timeZone: SH,
      });
      expect(info).toMatchObject({ requests: 30, ru: 560, activeKeys: 2, activeNetworks: 2 });
    });

    it('hour and minute buckets split exactly at their boundaries, with zeros where nothing was used', async () => {
      for (const timeZone of ['UTC', SH]) {
        const hour = await u.report('hub_reportUserRequestByApikey', {
          from: D - HOUR,
          to: D + 2 * HOUR,
          bucket: 'hour',
          timeZone,
        });
        expect(hour.buckets).toEqual([D - HOUR, D, D + HOUR]);
        expect(hour.series.find((s) => s.id === k1)!.data).toEqual([1, 2, 8]);
        expect(hour.series.find((s) => s.id === k2)!.data).toEqual([0, 4, 0]);
      }
      const minute = await u.report('hub_reportUserRuUsage', {
        from: D - 2 * MINUTE,
        to: D + 2 * MINUTE,
        bucket: 'minute',
        timeZone: SH,
      });
      expect(minute.buckets).toEqual([D - 2 * MINUTE, D - MINUTE, D, D + MINUTE]);
      expect(minute.series[0]!.data).toEqual([0, 10, 20, 0]);
      // An unaligned range is widened to whole buckets.
      const aligned = await u.report('hub_reportUserRuUsage', {
        from: D - MINUTE + 30_000,
        to: D + 1,
        bucket: 'minute',
        timeZone: 'UTC',
      });
      expect(aligned).toMatchObject({ from: D - MINUTE, to: D + MINUTE, total: 30 });
      const net = await u.report('hub_reportUserCompositeInfoByNetwork', {
        from: D - HOUR,
        to: D + 2 * HOUR,
        bucket: 'hour',
        timeZone: 'UTC',
      });
      expect(net.series.map((s) => [s.id, s.name, s.ru])).toEqual([
        ['ethereum', 'Ethereum', [0, 300, 0]],
        ['localnet', 'Localnet (Hardhat)', [10, 20, 80]],
      ]);
    });

    it('top-5 methods are exact within the minute retention and by local day beyond it', async () => {
      const exact = await u.report('hub_reportUserTop5MethodRuCostByApikey', {
        from: D,
        to: D + HOUR,
        bucket: 'hour',
        timeZone: SH,
      });
      expect(exact.list.map((r) => [r.method, r.requests, r.ru])).toEqual([
        ['eth_getLogs', 4, 300],
        ['eth_blockNumber', 2, 20],
      ]);
      expect(exact.totalRu).toBe(320);
      const byDay = await u.report('hub_reportUserTop5MethodRuCostByApikey', {
        from: D,
        to: D + DAY,
        bucket: 'day',
        timeZone: SH,
        scope: 'apikey',
        keyId: k1,
      });
      expect(byDay.list.map((r) => [r.method, r.requests, r.ru])).toEqual([
        ['eth_call', 24, 240],
        ['eth_blockNumber', 2, 20],
      ]);
      expect(byDay.list[0]!.ruShare).toBeCloseTo(240 / 260, 9);
      // Over every day: each RU once, whether its day was written in UTC or rebuilt in Shanghai.
      const all = await u.report('hub_reportUserTop5MethodRuCostByNetwork', {
        from: D - 6 * DAY,
        to: D + 2 * DAY,
        bucket: 'day',
        timeZone: SH,
      });
      expect(all.totalRu).toBe(3000 + 10 + 20 + 300 + 80 + 160 + 320);
      expect(all.list[0]).toMatchObject({ method: 'eth_gasPrice', requests: 300, ru: 3000 });

      // Within the retention, a frame longer than a day takes its whole days from the per-method day rollups and
      // its edges from the minute rows: still exactly the minute rows of the frame.
      const from = D - 2 * HOUR;
      const to = D + DAY + 3 * HOUR;
      const hybrid = await u.report('hub_reportUserTop5MethodRuCostByApikey', {
        from,
        to,
        bucket: 'hour',
        timeZone: SH,
      });
      const truth = await db
        .select({
          method: usageMinute.method,
          requests: sql<string>`sum(${usageMinute.requests})`,
          ru: sql<string>`sum(${usageMinute.ru})`,
        })
        .from(usageMinute)
        .where(
          and(
            eq(usageMinute.accountId, u.accountId),
            gte(usageMinute.minute, new Date(from)),
            lt(usageMinute.minute, new Date(to)),
          ),
        )
        .groupBy(usageMinute.method);
      const expected = truth
        .map((r) => [r.method, Number(r.requests), Number(r.ru)] as const)
        .sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 5);
      expect(expected.length).toBeGreaterThan(1);
      expect(hybrid.list.map((r) => [r.method, r.requests, r.ru])).toEqual(expected);
      expect(hybrid.totalRu).toBe(truth.reduce((sum, r) => sum + Number(r.ru), 0));
    });
  });

  describe('bad input', () => {
    let u: Awaited<ReturnType<typeof accountWithKeys>>;
    beforeAll(async () => {
      u = await accountWithKeys('only');
    });

    it('answers each problem with its code and writes nothing', async () => {
      const now = h.clock.now();
      const ok = { from: now - HOUR, to: now, bucket: 'minute', timeZone: 'UTC' };
      const keyId = u.keys[0]!.keyId;
      const cases: Array<[string, string, Record<string, unknown>, number]> = [
        ['reversed', 'hub_reportUserRuUsage', { ...ok, from: now, to: now - HOUR }, 10601],
        ['empty', 'hub_reportUserRuUsage', { ...ok, to: ok.from }, 10601],
        ['minute range over a day', 'hub_reportUserRuUsage', { ...ok, from: now - 2 * DAY }, 10602],
        [
          'hour range over 31 days',
          'hub_reportUserCompositeInfo',
          { ...ok, bucket: 'hour', from: now - 32 * DAY },
          10602,
        ],
        [
          'day range over 366 days',
          'hub_reportUsageInfoByNetwork',
          { ...ok, bucket: 'day', from: now - 400 * DAY },
          10602,
        ],
        [
          'in the future',
          'hub_reportUserRuUsage',
          { ...ok, from: now + HOUR, to: now + 2 * HOUR },
          10603,
        ],
        [
          'minute detail before the retention',
          'hub_reportUserRequestByApikey',
          { ...ok, from: now - 20 * DAY, to: now - 20 * DAY + HOUR },
          10604,
        ],
        ['unknown time zone', 'hub_reportUserRuUsage', { ...ok, timeZone: 'Mars/Olympus' }, 10607],
        ['unknown chain', 'hub_reportUsageInfoByApikey', { ...ok, chain: 'nochain' }, 10606],
        [
          'a key that does not exist',
          'hub_reportApikeyRequest',
          { ...ok, keyId: '00000000-0000-4000-8000-000000000000' },
          10605,
        ],
        ['scope apikey without keyId', 'hub_reportUserRuUsage', { ...ok, scope: 'apikey' }, 10004],
        [
          'scope team with a keyId',
          'hub_reportUserRuUsage',
          { ...ok, scope: 'team', keyId },
          10004,
        ],
        ['apikey report without keyId', 'hub_reportApikeyRuUsage', ok, 10004],
        ['from as a string', 'hub_reportUserRuUsage', { ...ok, from: String(ok.from) }, 10004],
        ['fractional to', 'hub_reportUserRuUsage', { ...ok, to: now + 0.5 }, 10004],
        ['negative from', 'hub_reportUserRuUsage', { ...ok, from: -1 }, 10004],
        ['unknown bucket', 'hub_reportUserRuUsage', { ...ok, bucket: 'week' }, 10004],
        ['keyId not a uuid', 'hub_reportApikeyRequest', { ...ok, keyId: 'nope' }, 10004],
        ['chain with symbols', 'hub_reportUserRuUsage', { ...ok, chain: "x'; drop" }, 10004],
        ['oversize chain', 'hub_reportUserRuUsage', { ...ok, chain: 'a'.repeat(65) }, 10004],
        ['oversize time zone', 'hub_reportUserRuUsage', { ...ok, timeZone: 'A'.repeat(65) }, 10004],
        ['params not an object', 'hub_reportUserRuUsage', [] as never, 10004],
      ];
      for (const [name, method, params, code] of cases) {
        const res = await h.raw({ method, params, id: 1 }, { token: u.token });
        expect([name, res.error?.code]).toEqual([name, code]);
        expect(JSON.stringify(res)).not.toMatch(/\bat .*\.ts:\d+/);
      }
      // Prototype-pollution keys never reach a handler (refused as the body is parsed).
      const hostile = await h.server.app.inject({
        method: 'POST',
        url: '/api',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${u.token}` },
        payload: `{"method":"hub_reportUserRuUsage","id":1,"params":{"from":${ok.from},"to":${ok.to},"bucket":"minute","__proto__":{"keyId":"x"}}}`,
      });
      expect(hostile.json<{ error: { code: number } }>().error.code).toBe(
        ERROR_CODES.INVALID_REQUEST,
      );
      // Nothing written: the report zone is set only by a call that passes every check.
      expect(await zoneOf(u.accountId)).toBeNull();
      const signedOut = await h.raw({ method: 'hub_reportUserRuUsage', params: ok, id: 1 });
      expect(signedOut.error?.code).toBe(ERROR_CODES.SESSION_MISSING);
      expect(await zoneOf(u.accountId)).toBeNull();
    });
  });

  it('the minute-retention prune deletes only old minute rows and batch ids; rollups and day reports keep them', async () => {
    const u = await accountWithKeys('aging');
    const keyId = u.keys[0]!.keyId;
    const now = h.clock.now();
    const retention = h.server.deps.config.minuteRetentionDays;
    const old = Math.floor((now - (retention + 6) * DAY) / MINUTE) * MINUTE;
    const recent = Math.floor((now - HOUR) / MINUTE) * MINUTE;
    const oldBatch = `old-${u.accountId}`;
    const newBatch = `new-${u.accountId}`;
    await writeUsageBatch(db, {
      batchId: oldBatch,
      ruTableVersion: 'test',
      createdAt: old,
      rows: [row(u.accountId, keyId, 'localnet', 'debug_traceCall', old, 3, 300)],
    });
    await writeUsageBatch(db, {
      batchId: newBatch,
      ruTableVersion: 'test',
      createdAt: recent,
      rows: [row(u.accountId, keyId, 'localnet', 'eth_call', recent, 5, 50)],
    });

    const pruned = await pruneUsage({ db, now, retentionDays: retention, chunkSize: 1 });
    expect(pruned.minuteRows).toBeGreaterThanOrEqual(1);
    const minutes = await db
      .select({ minute: usageMinute.minute })
      .from(usageMinute)
      .where(eq(usageMinute.accountId, u.accountId));
    expect(minutes.map((m) => m.minute.getTime())).toEqual([recent]);
    const batches = (await db.select({ id: usageBatches.batchId }).from(usageBatches)).map(
      (b) => b.id,
    );
    expect(batches).toContain(newBatch);
    expect(batches).not.toContain(oldBatch);
    const hours = await db.select().from(usageHour).where(eq(usageHour.accountId, u.accountId));
    expect(sum(hours.map((r) => r.requests))).toBe(8);
    const days = await db.select().from(usageDay).where(eq(usageDay.accountId, u.accountId));
    expect(sum(days.map((r) => r.requests))).toBe(8);
    // Nothing left to prune.
    expect((await pruneUsage({ db, now, retentionDays: retention })).minuteRows).toBe(0);

    const range = { from: now - 30 * DAY, to: now, bucket: 'day' as const, timeZone: 'UTC' };
    expect(await u.report('hub_reportUserCompositeInfo', range)).toMatchObject({
      requests: 8,
      ru: 350,
    });
    const top = await u.report('hub_reportUserTop5MethodRuCostByNetwork', range);
    expect(top.list.map((r) => r.method)).toEqual(['debug_traceCall', 'eth_call']);
    const minuteThen = await h.call(
      'hub_reportUserRuUsage',
      { from: old, to: old + HOUR, bucket: 'minute' },
      { token: u.token },
    );
    expect(minuteThen.error?.code).toBe(ERROR_CODES.REPORT_RANGE_BEFORE_RETENTION);
  });

  it('a started console prunes at once (and hourly), and stops pruning on stop', async () => {
    const u = await accountWithKeys('boot');
    const old = Math.floor((h.clock.now() - 30 * DAY) / MINUTE) * MINUTE;
    await writeUsageBatch(db, {
      batchId: `boot-${u.accountId}`,
      ruTableVersion: 'test',
      createdAt: old,
      rows: [row(u.accountId, u.keys[0]!.keyId, 'localnet', 'eth_call', old, 1, 10)],
    });
    const left = () => db.select().from(usageMinute).where(eq(usageMinute.accountId, u.accountId));
    expect(await left()).toHaveLength(1);
    await h.server.start(); // h.close() stops it, and with it the prune timer
    const deadline = Date.now() + 5000;
    while ((await left()).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(await left()).toHaveLength(0);
  });
});

function row(
  accountId: string,
  keyId: string,
  chain: string,
  method: string,
  minute: number,
  requests: number,
  ru: number,
): TUsageRow {
  return {
    accountId,
    keyId,
    chain,
    method,
    minute,
    requests,
    ru,
    errors: 0,
    latencyMsSum: requests * 3,
    latencyMsMax: 3,
  };
}

/**
 * Day buckets in a zone other than the account's come from the per-offset day rollups (services/reports/
 * day-offsets.ts) and must answer exactly what the hour fallback (the reference: every hour row, grouped by
 * `(hour at time zone $tz)::date`) answers, in every zone: summer time, 30- and 45-minute offsets, zones that
 * change their offset at midnight, more zones than an account keeps offsets for. Random usage over a year, random
 * frames, every grouping and filter, on both databases; then more usage through the write path (into hours the
 * rollups already hold) and the same comparison again. Also: the per-key per-method days summed over the chains
 * equal usage_day_key_method summed over the chains, after writes and after the zone rebuild; and a new offset's
 * backfill (outside the account lock) stays exact with flushes between its two steps and at the same time, and a
 * dead one is restarted.
 */
import { randomUUID } from 'node:crypto';
import { resolveReportFrame } from '@rpc/contract';
import { apiKeys, type TDatabase } from '@rpc/db';
import type { TUsageRow } from '@rpc/gateway';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TReport } from '../src/services/reports/open-report';
import { queryRows } from '../src/lib/query-rows';
import { settleAccountTimeZone } from '../src/services/reports/account-time-zone';
import {
  bucketRows,
  errorBucketRows,
  topMethodRows,
  totalRows,
  type TGroupBy,
} from '../src/services/reports/usage-queries';
import { keepDayOffsets, MAX_DAY_OFFSETS, type TOffsetRollup } from '../src/services/usage/rollups';
import { writeUsageBatch } from '../src/services/usage/write-usage-batch';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';
import { seededRandom } from './helpers/seeded-random';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ACCOUNT_ZONE = 'Asia/Shanghai';
/** 13 offsets in all, more than an account keeps (MAX_DAY_OFFSETS): the last zones take the fallback. */
const ZONES = [
  'America/New_York',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe', // +10:30 / +11 (a 30-minute summer time)
  'America/Santiago', // changes its offset at midnight
  'Pacific/Chatham', // +12:45 / +13:45
  'America/St_Johns', // -3:30 / -2:30
  'Europe/London',
  'UTC',
];
const CHAINS = ['localnet', 'ethereum'];
const METHODS = ['eth_call', 'eth_getLogs', 'eth_blockNumber'];

const sortRows = <T extends object>(rows: T[]): string[] =>
  rows.map((r) => JSON.stringify(r)).sort();

/** Bucket rows added up per bucket and group (bucketRows may answer a bucket and group in several rows). */
function merged(
  rows: Array<{ bucket: string; id: string; requests: number; ru: number }>,
): string[] {
  const sums = new Map<string, { requests: number; ru: number }>();
  for (const r of rows) {
    const k = `${r.bucket} ${r.id}`;
    const t = sums.get(k) ?? { requests: 0, ru: 0 };
    t.requests += r.requests;
    t.ru += r.ru;
    sums.set(k, t);
  }
  return [...sums.entries()].map(([k, t]) => `${k} ${t.requests} ${t.ru}`).sort();
}

describe.each(TEST_DATABASES)('day buckets in other zones on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  let accountId: string;
  let keyIds: string[];
  let now: number;
  const random = seededRandom(17);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

  beforeAll(async () => {
    h = await createHarness(open);
    db = h.database.db;
    const s = await h.signUp();
    keyIds = [];
    for (const name of ['a', 'b', 'c']) {
      const made = await h.call('hub_generateApiKey', { name }, { token: s.token });
      if (!made.ok) throw new Error(JSON.stringify(made.error));
      keyIds.push(made.result.keyId);
    }
    const [row] = await db
      .select({ accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(eq(apiKeys.id, keyIds[0]!));
    accountId = row!.accountId;
    now = h.clock.now();
  });
  afterAll(async () => {
    await h?.close();
  });

  /** `n` random rows over the last 370 days, some in the same hours (so upserts add). */
  function randomRows(
    n: number,
    of: { accountId: string; keyIds: string[] } = { accountId, keyIds },
  ): TUsageRow[] {
    const rows: TUsageRow[] = [];
    for (let i = 0; i < n; i++) {
      const minute = Math.floor((now - random() * 370 * DAY) / MINUTE) * MINUTE;
      const requests = 1 + Math.floor(random() * 50);
      rows.push({
        accountId: of.accountId,
        keyId: pick(of.keyIds),
        chain: pick(CHAINS),
        method: pick(METHODS),
        minute,
        requests,
        ru: requests * (1 + Math.floor(random() * 20)),
        errors: Math.floor(random() * 3),
        latencyMsSum: requests * 7,
        latencyMsMax: 9,
      });
    }
    return rows;
  }

  let batches = 0;
  const write = async (rows: TUsageRow[]) => {
    for (let i = 0; i < rows.length; i += 500) {
      const r = await writeUsageBatch(db, {
        batchId: `offsets-${batches++}`,
        ruTableVersion: 'test',
        createdAt: now,
        rows: rows.slice(i, i + 500),
      });
      expect(r.applied).toBe(true);
    }
  };

  function reportOf(
    timeZone: string,
    from: number,
    to: number,
    filters: { keyId?: string; chain?: string },
  ): TReport {
    const check = resolveReportFrame({ from, to, bucket: 'day', timeZone }, now, 14);
    if (!check.ok) throw new Error(`frame ${timeZone} ${from} ${to}: ${check.problem}`);
    return {
      db,
      chains: [],
      accountId,
      frame: check.frame,
      accountZone: ACCOUNT_ZONE,
      daysMatchAccountZone: false,
      keyId: filters.keyId,
      chain: filters.chain,
      now,
      minuteRetentionDays: 14,
    };
  }

  /** Every query of the other-zone path against the hour fallback, for random frames in every zone. */
  async function compareEverywhere(framesPerZone: number): Promise<number> {
    let compared = 0;
    for (const zone of ZONES) {
      for (let f = 0; f < framesPerZone; f++) {
        // Mostly long frames (a year crosses every change of offset), some short ones at random places.
        const span = f === 0 ? 366 * DAY : Math.ceil(random() * 120) * DAY;
        const to = now - Math.floor(random() * (f === 0 ? 1 : 200)) * DAY;
        const from = to - span + Math.floor(random() * 24) * HOUR;
        for (const filters of [
          {},
          { keyId: pick(keyIds) },
          { chain: pick(CHAINS) },
          { keyId: pick(keyIds), chain: pick(CHAINS) },
        ]) {
          const report = reportOf(zone, from, to, filters);
          const slow = { hourFallback: true };
          for (const by of ['total', 'key', 'chain'] as TGroupBy[]) {
            const fast = await bucketRows(report, by);
            const ref = await bucketRows(report, by, slow);
            expect(merged(fast), `${zone} ${from} ${to} ${JSON.stringify(filters)} ${by}`).toEqual(
              merged(ref),
            );
          }
          for (const by of ['key', 'chain'] as const) {
            expect(sortRows(await totalRows(report, by))).toEqual(
              sortRows(await totalRows(report, by, slow)),
            );
          }
          expect(sortRows(await errorBucketRows(report))).toEqual(
            sortRows(await errorBucketRows(report, slow)),
          );
          compared += 1;
        }
      }
    }
    return compared;
  }

  /** The distinct offsets the account keeps any rollup for. */
  const keptOffsets = async () =>
    (
      await queryRows<{ offset_seconds: number }>(
        db,
        sql`select distinct offset_seconds from usage_day_offset_kept where account_id = ${accountId}
          order by offset_seconds`,
      )
    ).map((r) => Number(r.offset_seconds));
  const keptRollups = async () =>
    (
      await queryRows<{ r: string }>(
        db,
        sql`select offset_seconds || ' ' || rollup as r from usage_day_offset_kept
          where account_id = ${accountId} order by 1`,
      )
    ).map((r) => r.r);

  /** Each per-offset rollup recomputed from its usage_hour rollup: rows that differ (0 when they agree). */
  async function offsetRollupDifferences(account = accountId): Promise<number> {
    const diff = async (rollup: string, table: string, hours: string, cols: string[]) => {
      const c = cols.join(', ');
      const hc = cols.map((x) => `h.${x}`).join(', ');
      const groups = cols.map((_, i) => String(i + 4)).join(', ');
      const recomputed = `select h.account_id, k.offset_seconds,
          ((h.hour at time zone 'UTC') + k.offset_seconds * interval '1 second')::date, ${hc},
          sum(requests)::int8, sum(ru)::int8, sum(errors)::int8, sum(latency_ms_sum)::int8
        from ${hours} h join usage_day_offset_kept k on k.account_id = h.account_id and k.rollup = '${rollup}'
        where h.account_id = '${account}' group by 1, 2, 3, ${groups}`;
      const stored = `select account_id, offset_seconds, day, ${c}, requests, ru, errors, latency_ms_sum
        from ${table} where account_id = '${account}'`;
      const rows = await queryRows<{ n: unknown }>(
        db,
        sql.raw(`select count(*) as n from ((${stored} except all ${recomputed})
          union all (${recomputed} except all ${stored})) d`),
      );
      return Number(rows[0]!.n);
    };
    return (
      (await diff('wide', 'usage_day_offset', 'usage_hour', ['key_id', 'chain'])) +
      (await diff('key', 'usage_day_offset_key', 'usage_hour_key', ['key_id'])) +
      (await diff('chain', 'usage_day_offset_chain', 'usage_hour_chain', ['chain']))
    );
  }

  /** usage_day_key_method_all_chains against usage_day_key_method summed over the chains. */
  async function allChainsDifferences(): Promise<number> {
    const rows = await queryRows<{ n: unknown }>(
      db,
      sql`select count(*) as n from (
        (select key_id, method, day, requests, ru from usage_day_key_method_all_chains
          where account_id = ${accountId}
        except all
        select key_id, method, day, sum(requests)::int8, sum(ru)::int8 from usage_day_key_method
          where account_id = ${accountId} group by 1, 2, 3)
        union all
        (select key_id, method, day, sum(requests)::int8, sum(ru)::int8 from usage_day_key_method
          where account_id = ${accountId} group by 1, 2, 3
        except all
        select key_id, method, day, requests, ru from usage_day_key_method_all_chains
          where account_id = ${accountId})) d`,
    );
    return Number(rows[0]!.n);
  }

  it('per-key per-method days summed over the chains follow the write path and the zone rebuild', async () => {
    await write(randomRows(1500));
    expect(await allChainsDifferences()).toBe(0);
    // The first report call's zone: the day rollups are rebuilt in Shanghai days.
    expect(await settleAccountTimeZone({ db, accountId, callerZone: ACCOUNT_ZONE })).toBe(
      ACCOUNT_ZONE,
    );
    expect(await allChainsDifferences()).toBe(0);
    await write(randomRows(300));
    expect(await allChainsDifferences()).toBe(0);
    // The top-5 of one key on every network reads them; on one network it reads usage_day_key_method.
    for (const keyId of keyIds) {
      const all = reportOf(ACCOUNT_ZONE, now - 365 * DAY, now, { keyId });
      const parts = await Promise.all(
        CHAINS.map((chain) =>
          topMethodRows(reportOf(ACCOUNT_ZONE, now - 365 * DAY, now, { keyId, chain })),
        ),
      );
      const got = await topMethodRows(all);
      expect(got.totalRu).toBe(parts.reduce((s, p) => s + p.totalRu, 0));
      expect(got.rows.length).toBeGreaterThan(0);
    }
  });

  it('answer exactly the hour fallback in every zone, before and after more usage is written', async () => {
    expect(await keptOffsets()).toEqual([]);
    expect(await compareEverywhere(3)).toBe(ZONES.length * 3 * 4);
    const kept = await keptOffsets();
    // The offsets asked for, up to the limit; the zones beyond it read every hour.
    expect(kept.length).toBe(MAX_DAY_OFFSETS);
    expect(await offsetRollupDifferences()).toBe(0);

    // More usage through the write path, much of it into hours and days the rollups already hold.
    await write(randomRows(1500));
    expect(await offsetRollupDifferences()).toBe(0);
    const rollups = await keptRollups();
    expect(new Set(rollups.map((r) => r.split(' ')[1]))).toEqual(new Set(['wide', 'key', 'chain']));
    expect(await compareEverywhere(2)).toBe(ZONES.length * 2 * 4);
    expect(await keptOffsets()).toEqual(kept);
    expect(await keptRollups()).toEqual(rollups);
  });

  it('backfill a new offset without holding the account, exact with flushes during it; restart a dead one', async () => {
    const other = await h.signUp();
    const ids: string[] = [];
    for (const name of ['x', 'y']) {
      const made = await h.call('hub_generateApiKey', { name }, { token: other.token });
      if (!made.ok) throw new Error(JSON.stringify(made.error));
      ids.push(made.result.keyId);
    }
    const [row] = await db
      .select({ accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(eq(apiKeys.id, ids[0]!));
    const of = { accountId: row!.accountId, keyIds: ids };
    await write(randomRows(800, of));
    const offsets = [-5 * 3600, -4 * 3600];
    const keptNow = async (rollup: TOffsetRollup) =>
      (
        await queryRows<{ o: unknown; filling: boolean }>(
          db,
          sql`select offset_seconds as o, fill_id is not null as filling from usage_day_offset_kept
            where account_id = ${of.accountId} and rollup = ${rollup} order by 1`,
        )
      ).map((r) => `${Number(r.o)}${r.filling ? ' filling' : ''}`);
    for (const rollup of ['wide', 'key', 'chain'] as const) {
      let meanwhile: Set<number> | undefined;
      let marked: string[] = [];
      const kept = await keepDayOffsets(db, of.accountId, rollup, offsets, {
        afterMark: async () => {
          marked = await keptNow(rollup);
          // The account is not locked: a flush goes through, into hours the backfill reads too; it adds to the
          // marked rollup, so the backfill must not count it again.
          await write(randomRows(300, of));
          // A report meanwhile does not read the incomplete rollup (it reads the hours) nor starts a second fill.
          meanwhile = await keepDayOffsets(db, of.accountId, rollup, offsets);
        },
      });
      expect(marked).toEqual(['-18000 filling', '-14400 filling']);
      expect(meanwhile).toEqual(new Set());
      expect(kept).toEqual(new Set(offsets));
      expect(await keptNow(rollup)).toEqual(['-18000', '-14400']);
      expect(await offsetRollupDifferences(of.accountId)).toBe(0);
    }
    await write(randomRows(300, of));
    expect(await offsetRollupDifferences(of.accountId)).toBe(0);

    // A fill whose process died after the mark: its rows are wrong and it never completes. Within the stale
    // limit it is left alone (reports read the hours); past it, the next report starts it again.
    const dead = randomUUID();
    await db.execute(sql`update usage_day_offset_kept set fill_id = ${dead}::uuid
      where account_id = ${of.accountId} and rollup = 'key'`);
    await db.execute(sql`update usage_day_offset_key set requests = requests + 7
      where account_id = ${of.accountId}`);
    expect(await keepDayOffsets(db, of.accountId, 'key', offsets)).toEqual(new Set());
    expect(await offsetRollupDifferences(of.accountId)).toBeGreaterThan(0);
    await db.execute(sql`update usage_day_offset_kept set created_at = now() - interval '1 hour'
      where account_id = ${of.accountId} and rollup = 'key'`);
    expect(await keepDayOffsets(db, of.accountId, 'key', offsets)).toEqual(new Set(offsets));
    expect(await keptNow('key')).toEqual(['-18000', '-14400']);
    expect(await offsetRollupDifferences(of.accountId)).toBe(0);

    // Fills restarted while flushes run at the same time (truly concurrent on PostgreSQL): whatever the
    // interleaving, nothing is counted twice or lost, and neither side deadlocks.
    for (const rollup of ['wide', 'key', 'chain'] as const) {
      await db.execute(sql`update usage_day_offset_kept set fill_id = ${randomUUID()}::uuid,
        created_at = now() - interval '1 hour' where account_id = ${of.accountId} and rollup = ${rollup}`);
      const [kept] = await Promise.all([
        keepDayOffsets(db, of.accountId, rollup, offsets),
        write(randomRows(200, of)),
        write(randomRows(200, of)),
      ]);
      expect(kept).toEqual(new Set(offsets));
      expect(await offsetRollupDifferences(of.accountId)).toBe(0);
    }
  });
});

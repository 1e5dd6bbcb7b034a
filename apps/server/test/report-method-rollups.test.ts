/**
 * The team-wide top-5 methods read two rollups of their own (docs/decisions/usage-reports.md, "Top-5 methods"):
 * usage_day_method_all_chains (per method per account-zone day, summed over the chains) and usage_hour_method (per
 * method, chain and UTC hour, kept for the minute retention). Both must stay equal to what they sum, and the
 * answers equal to the reference (the minute rows of the frame within the retention; usage_day_method or
 * usage_day_key_method over the touched days beyond it), under: flushes of several batches into the same hours,
 * accounts in zones east and west of UTC and on a half-hour offset (written in UTC days first, then rebuilt when
 * the zone is set), methods on several chains, a deleted key, the minute-retention prune, and an upgrade: a
 * database left by migration 0021 (old rollups only) answers the same after migration 0022's backfill.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { localDate, resolveReportFrame, type TReportBucket } from '@rpc/contract';
import { apiKeys, type TDatabase } from '@rpc/db';
import type { TUsageRow } from '@rpc/gateway';
import { eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAccountTimeZone } from '../src/services/reports/account-time-zone';
import type { TReport } from '../src/services/reports/open-report';
import { queryRows } from '../src/lib/query-rows';
import { topMethodRows } from '../src/services/reports/usage-queries';
import { pruneUsage } from '../src/services/usage/prune-usage';
import { writeUsageBatch } from '../src/services/usage/write-usage-batch';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, type THarness } from './helpers/harness';
import { seededRandom } from './helpers/seeded-random';
import { legacyDatabase } from './helpers/legacy-database';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const RETENTION_DAYS = 14;
const CHAINS = ['localnet', 'ethereum', 'polygon'];
const METHODS = [
  'eth_call',
  'eth_getLogs',
  'eth_blockNumber',
  'eth_getBalance',
  'eth_chainId',
  'net_version',
  'trace_block',
];
/** The last migration before the per-method rollups of the team-wide top 5. */
const LAST_MIGRATION_BEFORE = '0021_usage_day_offset_fill';

type TAccount = { accountId: string; keyIds: string[]; zone: string };

/** `n` rows over the last `days` days, a third of them in the last three hours (so flushes add to rows). */
function randomRows(
  random: () => number,
  now: number,
  of: TAccount,
  n: number,
  days = 20,
): TUsageRow[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const rows: TUsageRow[] = [];
  for (let i = 0; i < n; i++) {
    const back = i % 3 === 0 ? random() * 3 * HOUR : random() * days * DAY;
    const requests = 1 + Math.floor(random() * 40);
    rows.push({
      accountId: of.accountId,
      keyId: pick(of.keyIds),
      chain: pick(CHAINS),
      // Skewed, so the top 5 of a frame is not just any five.
      method: METHODS[Math.floor(random() * random() * METHODS.length)]!,
      minute: Math.floor((now - back) / MINUTE) * MINUTE,
      requests,
      ru: requests * (1 + Math.floor(random() * 30)),
      errors: 0,
      latencyMsSum: requests * 5,
      latencyMsMax: 5,
    });
  }
  return rows;
}

let batches = 0;
async function write(db: TDatabase, now: number, rows: TUsageRow[], perBatch = 97): Promise<void> {
  for (let i = 0; i < rows.length; i += perBatch) {
    const r = await writeUsageBatch(db, {
      batchId: `method-rollups-${batches++}-${randomUUID()}`,
      ruTableVersion: 'test',
      createdAt: now,
      rows: rows.slice(i, i + perBatch),
    });
    expect(r.applied).toBe(true);
  }
}

/** Rows that differ between a stored rollup and the same recomputed from its source (0 when they agree). */
async function differences(db: TDatabase, stored: string, recomputed: string): Promise<number> {
  const rows = await queryRows<{ n: unknown }>(
    db,
    sql.raw(`select count(*) as n from ((${stored} except all ${recomputed})
      union all (${recomputed} except all ${stored})) d`),
  );
  return Number(rows[0]!.n);
}

/**
 * Each rollup of the top-5 methods against what it sums: the per-method hours against the minute rows (from
 * `fromHour`: the prune deletes the minute rows first), the days summed over the chains against usage_day_method
 * and usage_day_key_method.
 */
async function methodRollupDifferences(
  db: TDatabase,
  accountId: string,
  fromHour = 0,
): Promise<Record<string, number>> {
  const since = `'${new Date(fromHour).toISOString()}'::timestamptz`;
  const account = `account_id = '${accountId}'`;
  return {
    usage_hour_method: await differences(
      db,
      `select chain, method, hour, requests, ru from usage_hour_method where ${account} and hour >= ${since}`,
      `select chain, method, date_trunc('hour', minute, 'UTC'), sum(requests)::int8, sum(ru)::int8
        from usage_minute where ${account} and minute >= ${since} group by 1, 2, 3`,
    ),
    usage_day_method_all_chains: await differences(
      db,
      `select method, day, requests, ru from usage_day_method_all_chains where ${account}`,
      `select method, day, sum(requests)::int8, sum(ru)::int8 from usage_day_method where ${account}
        group by 1, 2`,
    ),
    usage_day_key_method_all_chains: await differences(
      db,
      `select key_id, method, day, requests, ru from usage_day_key_method_all_chains where ${account}`,
      `select key_id, method, day, sum(requests)::int8, sum(ru)::int8 from usage_day_key_method
        where ${account} group by 1, 2, 3`,
    ),
  };
}
const NONE = {
  usage_hour_method: 0,
  usage_day_method_all_chains: 0,
  usage_day_key_method_all_chains: 0,
};

function reportOf(
  db: TDatabase,
  of: TAccount,
  now: number,
  frame: { from: number; to: number; bucket: TReportBucket; timeZone: string },
  filters: { keyId?: string; chain?: string },
): TReport {
  const check = resolveReportFrame(frame, now, RETENTION_DAYS);
  if (!check.ok) throw new Error(`frame ${JSON.stringify(frame)}: ${check.problem}`);
  return {
    db,
    chains: [],
    accountId: of.accountId,
    frame: check.frame,
    accountZone: of.zone,
    daysMatchAccountZone: frame.timeZone === of.zone,
    keyId: filters.keyId,
    chain: filters.chain,
    now,
    minuteRetentionDays: RETENTION_DAYS,
  };
}

/**
 * What the top-5 answered before the per-method rollups of this change: within the retention the frame's minute
 * rows, beyond it usage_day_method (usage_day_key_method for one key) over every account-zone day it touches.
 * Ranked by the same SQL, so ties fall the same way.
 */
async function reference(report: TReport): Promise<{ rows: unknown[]; totalRu: number }> {
  const { frame } = report;
  const filters: SQL[] = [sql`account_id = ${report.accountId}`];
  if (report.keyId !== undefined) filters.push(sql`key_id = ${report.keyId}`);
  if (report.chain !== undefined) filters.push(sql`chain = ${report.chain}`);
  const kept = frame.from >= report.now - report.minuteRetentionDays * DAY;
  if (kept)
    filters.push(
      sql`minute >= ${new Date(frame.from).toISOString()}::timestamptz`,
      sql`minute < ${new Date(frame.to).toISOString()}::timestamptz`,
    );
  else
    filters.push(
      sql`day >= ${localDate(frame.from, report.accountZone)}::date`,
      sql`day <= ${localDate(frame.to - 1, report.accountZone)}::date`,
    );
  const table = sql.raw(
    kept
      ? 'usage_minute'
      : report.keyId === undefined
        ? 'usage_day_method'
        : 'usage_day_key_method',
  );
  const rows = await queryRows<{ method: string; requests: unknown; ru: unknown; total: unknown }>(
    report.db,
    sql`select method, sum(requests) as requests, sum(ru) as ru, sum(sum(ru)) over () as total
      from ${table} where ${sql.join(filters, sql` and `)}
      group by method order by sum(ru) desc, method limit 5`,
  );
  return {
    rows: rows.map((r) => ({ method: r.method, requests: Number(r.requests), ru: Number(r.ru) })),
    totalRu: rows.length > 0 ? Number(rows[0]!.total) : 0,
  };
}

/**
 * Random frames of every bucket (within the retention, some across it, some ending in the current hour), from
 * the account's zone and others, team-wide, on one network, for one key and both: each answer against the
 * reference. Answers how many frames had usage.
 */
async function compareTop5(
  db: TDatabase,
  of: TAccount,
  now: number,
  random: () => number,
  frames: number,
): Promise<number> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  let withUsage = 0;
  for (let f = 0; f < frames; f++) {
    const bucket = (['minute', 'hour', 'hour', 'day'] as const)[f % 4]!;
    const span =
      bucket === 'minute'
        ? Math.ceil(random() * 24 * 60) * MINUTE
        : bucket === 'hour'
          ? Math.ceil(random() * 10 * 24) * HOUR
          : Math.ceil(random() * 20) * DAY;
    // Mostly within the retention (the exact path), some across its start; every third ending past now (cut at
    // the end of the current bucket).
    const across = f % 5 === 4 && bucket !== 'minute';
    const latest = across ? 20 * DAY : (RETENTION_DAYS - 0.5) * DAY - span;
    const back = f % 3 === 0 ? 0 : Math.floor((random() * latest) / MINUTE) * MINUTE;
    const past = f % 3 === 0 ? Math.min(30 * MINUTE, Math.floor(span / 2 / MINUTE) * MINUTE) : 0;
    const from = now - span - back + past;
    const timeZone = pick([of.zone, of.zone, 'UTC', 'Asia/Kathmandu', 'America/Los_Angeles']);
    const frame = { from, to: from + span, bucket, timeZone };
    for (const filters of [
      {},
      {},
      { chain: pick(CHAINS) },
      { keyId: pick(of.keyIds) },
      { keyId: pick(of.keyIds), chain: pick(CHAINS) },
    ]) {
      const report = reportOf(db, of, now, frame, filters);
      const want = await reference(report);
      const got = await topMethodRows(report);
      expect(got, `${of.zone} ${JSON.stringify(frame)} ${JSON.stringify(filters)}`).toEqual(want);
      if (want.totalRu > 0) withUsage += 1;
    }
  }
  return withUsage;
}

describe.each(TEST_DATABASES)('per-method rollups of the top-5 methods on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  let now: number;
  const random = seededRandom(29);

  beforeAll(async () => {
    h = await createHarness(open);
    db = h.database.db;
    now = h.clock.now();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function account(zone: string, keys = 3): Promise<TAccount & { token: string }> {
    const s = await h.signUp();
    const keyIds: string[] = [];
    for (let i = 0; i < keys; i++) {
      const made = await h.call('hub_generateApiKey', { name: `k${i}` }, { token: s.token });
      if (!made.ok) throw new Error(JSON.stringify(made.error));
      keyIds.push(made.result.keyId);
    }
    const [row] = await db
      .select({ accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(eq(apiKeys.id, keyIds[0]!));
    return { accountId: row!.accountId, keyIds, zone, token: s.token };
  }

  // East of UTC, west of it (the zone rebuild then adds to the kept day before its seam), a half-hour offset
  // (account midnights inside a UTC hour: partial hours at the edges of the days), and UTC.
  for (const zone of ['Asia/Shanghai', 'America/New_York', 'Asia/Kolkata', 'UTC']) {
    it(`stay equal to what they sum and answer as before: ${zone}`, async () => {
      const a = await account(zone);
      // Before the account has a zone, day rollups are UTC days; the first report call rebuilds them.
      await write(db, now, randomRows(random, now, a, 500));
      expect(await methodRollupDifferences(db, a.accountId)).toEqual(NONE);
      expect(await settleAccountTimeZone({ db, accountId: a.accountId, callerZone: zone })).toBe(
        zone,
      );
      expect(await methodRollupDifferences(db, a.accountId)).toEqual(NONE);
      // More flushes, many into hours and days the rollups already hold.
      await write(db, now, randomRows(random, now, a, 600));
      expect(await methodRollupDifferences(db, a.accountId)).toEqual(NONE);
      expect(await compareTop5(db, a, now, random, 12)).toBeGreaterThan(30);

      // A deleted key's usage is still the account's: counted as before, by both paths.
      const gone = a.keyIds[0]!;
      const deleted = await h.call('hub_deleteApiKey', { keyId: gone }, { token: a.token });
      expect(deleted.ok).toBe(true);
      await write(db, now, randomRows(random, now, { ...a, keyIds: a.keyIds.slice(1) }, 200));
      expect(await methodRollupDifferences(db, a.accountId)).toEqual(NONE);
      expect(await compareTop5(db, { ...a, keyIds: [gone] }, now, random, 4)).toBeGreaterThan(0);
      expect(await compareTop5(db, a, now, random, 8)).toBeGreaterThan(20);
    });
  }

  it('a whole hour of the frame comes from usage_hour_method, not the minute rows', async () => {
    const a = await account('UTC', 1);
    const hour = Math.floor(now / HOUR) * HOUR - 5 * HOUR;
    const at = (m: number, method: string, ru: number): TUsageRow => ({
      accountId: a.accountId,
      keyId: a.keyIds[0]!,
      chain: 'localnet',
      method,
      minute: hour + m * MINUTE,
      requests: 1,
      ru,
      errors: 0,
      latencyMsSum: 1,
      latencyMsMax: 1,
    });
    await write(db, now, [
      at(0, 'eth_call', 10),
      at(59, 'eth_call', 20),
      at(60, 'eth_getLogs', 40),
    ]);
    // Minute rows changed behind the rollups' back (never done by the product): a frame of whole hours does
    // not see it, a frame ending inside an hour does.
    await db.execute(sql`update usage_minute set ru = ru + 1000 where account_id = ${a.accountId}`);
    const top = (from: number, to: number) =>
      topMethodRows(reportOf(db, a, now, { from, to, bucket: 'minute', timeZone: 'UTC' }, {})).then(
        (r) => r.totalRu,
      );
    expect(await top(hour, hour + 2 * HOUR)).toBe(70);
    expect(await top(hour, hour + HOUR + MINUTE)).toBe(30 + 1040);
  });

  it('the prune deletes the per-method hours with the minute rows; answers within the retention stay exact', async () => {
    const a = await account('Asia/Kolkata', 2);
    await settleAccountTimeZone({ db, accountId: a.accountId, callerZone: a.zone });
    const cutoff = now - RETENTION_DAYS * DAY;
    const cutoffHour = Math.floor(cutoff / HOUR) * HOUR;
    // Usage every 10 minutes from three hours before the cutoff to three after, and more at random.
    const around = Array.from({ length: 36 }, (_, i) => ({
      ...randomRows(random, now, a, 1)[0]!,
      minute: Math.floor((cutoff - 3 * HOUR + i * 10 * MINUTE) / MINUTE) * MINUTE,
    }));
    await write(db, now, [...around, ...randomRows(random, now, a, 400, 30)]);
    const hoursLeft = async () =>
      (
        await queryRows<{ h: unknown }>(
          db,
          sql`select distinct (extract(epoch from hour) * 1000)::int8 as h from usage_hour_method
            where account_id = ${a.accountId}
              and hour <= ${new Date(cutoffHour + 2 * HOUR).toISOString()}::timestamptz
            order by 1`,
        )
      ).map((r) => Number(r.h));
    expect((await hoursLeft())[0]).toBeLessThan(cutoffHour - 3 * HOUR);
    const pruned = await pruneUsage({ db, now, retentionDays: RETENTION_DAYS, chunkSize: 50 });
    expect(pruned.hourMethodRows).toBeGreaterThan(0);
    // Every hour wholly before the cutoff is gone; the hour the cutoff falls in is kept (its minute rows after
    // the cutoff are too), and so is every later one.
    expect(await hoursLeft()).toEqual([0, 1, 2].map((i) => cutoffHour + i * HOUR));
    expect(await methodRollupDifferences(db, a.accountId, cutoffHour + HOUR)).toEqual(NONE);
    // A frame of whole hours from the first whole hour within the retention reads those hours.
    const first = reportOf(
      db,
      a,
      now,
      { from: cutoffHour + HOUR, to: cutoffHour + 5 * HOUR, bucket: 'hour', timeZone: 'UTC' },
      {},
    );
    expect((await topMethodRows(first)).totalRu).toBeGreaterThan(0);
    expect(await topMethodRows(first)).toEqual(await reference(first));
    expect(await compareTop5(db, a, now, random, 8)).toBeGreaterThan(10);
  });
});

/**
 * Usage as the write path before migration 0022 left it: minute rows and every per-method day rollup (the
 * account's zone days), then the minute rows past the retention pruned.
 */
function legacySeed(of: TAccount, rows: TUsageRow[], now: number): string {
  const merged = new Map<string, TUsageRow>();
  for (const r of rows) {
    const id = `${r.keyId}|${r.chain}|${r.method}|${r.minute}`;
    const seen = merged.get(id);
    if (seen) {
      seen.requests += r.requests;
      seen.ru += r.ru;
    } else merged.set(id, { ...r });
  }
  const values = [...merged.values()]
    .map(
      (r) =>
        `('${r.accountId}', '${r.keyId}', '${r.chain}', '${r.method}', '${new Date(r.minute).toISOString()}', ${r.requests}, ${r.ru})`,
    )
    .join(',\n');
  const day = `(minute at time zone '${of.zone}')::date`;
  return `
    insert into accounts (id, kind, name, time_zone) values ('${of.accountId}', 'personal', 'legacy', '${of.zone}');
    insert into api_keys (id, account_id, name, key_hash, key_ciphertext) values
      ${of.keyIds.map((k, i) => `('${k}', '${of.accountId}', 'k${i}', '${randomBytes(16).toString('hex')}', 'v1:legacy')`).join(', ')};
    insert into usage_minute (account_id, key_id, chain, method, minute, requests, ru) values ${values};
    insert into usage_day_method (account_id, chain, method, day, requests, ru)
      select account_id, chain, method, ${day}, sum(requests), sum(ru) from usage_minute group by 1, 2, 3, 4;
    insert into usage_day_key_method (account_id, key_id, chain, method, day, requests, ru)
      select account_id, key_id, chain, method, ${day}, sum(requests), sum(ru) from usage_minute
      group by 1, 2, 3, 4, 5;
    insert into usage_day_key_method_all_chains (account_id, key_id, method, day, requests, ru)
      select account_id, key_id, method, ${day}, sum(requests), sum(ru) from usage_minute group by 1, 2, 3, 4;
    delete from usage_minute where minute < '${new Date(now - RETENTION_DAYS * DAY).toISOString()}';`;
}

describe.each(TEST_DATABASES)('an upgraded database on $name', ({ name: kind }) => {
  let dispose: () => Promise<void> = async () => {};
  afterAll(async () => {
    await dispose();
  });

  it('answers the top-5 methods as before once migration 0022 has backfilled its rollups', async () => {
    const random = seededRandom(31);
    const now = Date.now();
    const of: TAccount = {
      accountId: randomUUID(),
      keyIds: [randomUUID(), randomUUID(), randomUUID()],
      zone: 'America/New_York',
    };
    const seed = legacySeed(of, randomRows(random, now, of, 900, 40), now);
    const legacy = await legacyDatabase(kind, LAST_MIGRATION_BEFORE, seed, 3);
    dispose = legacy.destroy;

    const opened = await legacy.open();
    try {
      const db = opened.db;
      const cutoffHour = Math.ceil((now - RETENTION_DAYS * DAY) / HOUR) * HOUR;
      const [counts] = await queryRows<{ days: unknown; hours: unknown }>(
        db,
        sql`select (select count(*) from usage_day_method_all_chains) as days,
          (select count(*) from usage_hour_method) as hours`,
      );
      expect(Number(counts!.days)).toBeGreaterThan(0);
      expect(Number(counts!.hours)).toBeGreaterThan(0);
      expect(await methodRollupDifferences(db, of.accountId, cutoffHour)).toEqual(NONE);
      expect(await compareTop5(db, of, now, random, 12)).toBeGreaterThan(30);
      // The upgraded database's next flushes add to the backfilled rows.
      await write(db, now, randomRows(random, now, of, 300, 3));
      expect(await methodRollupDifferences(db, of.accountId, cutoffHour)).toEqual(NONE);
      expect(await compareTop5(db, of, now, random, 8)).toBeGreaterThan(20);
    } finally {
      await opened.close();
    }
  });
});

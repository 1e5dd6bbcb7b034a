/**
 * Usage data for bench/reports.ts: a year of minute rows for one busy account (and a little for noisy neighbours),
 * generated with set-based SQL one local day at a time, rolled up into usage_hour / usage_day /
 * usage_day_key_method / usage_day_method (and their sums over the chains) exactly as services/usage/rollups.ts
 * does, and kept as minute rows (and per-method hours, usage_hour_method) only for the last
 * USAGE_MINUTE_RETENTION_DAYS days (the state production reaches once older minute rows expire).
 *
 * Every row is a deterministic function of (account seed, UTC minute, slot): hashint8extended() gives the random
 * bits, so two runs with the same settings write the same data on PGlite and PostgreSQL. Keys, networks and
 * methods are picked with a Zipf-like skew (a few hot keys, Ethereum first, eth_call first), requests per row are
 * heavy-tailed with a day/night cycle in the account's zone and grow over the year.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { accountMembers, accounts, apiKeys, users, type TDatabase } from '@rpc/db';
import { nextBucket, startOfLocalDay } from '@rpc/contract';
import type { TUsageBatch, TUsageRow } from '@rpc/gateway';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { TApiKeyCipher } from '../apps/server/src/lib/api-key-cipher';
import { writeUsageBatch } from '../apps/server/src/services/usage/write-usage-batch';
import { ROOT } from './bench-doc';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The five networks (ids from apps/gateway/config/chains.json), busiest first. */
export const BENCH_CHAINS = ['ethereum', 'bsc', 'polygon', 'arbitrum', 'base'] as const;

/** Forty methods of the RU table, roughly in the order real traffic uses them. */
export const BENCH_METHODS = [
  'eth_call',
  'eth_blockNumber',
  'eth_getBalance',
  'eth_getTransactionReceipt',
  'eth_getBlockByNumber',
  'eth_getLogs',
  'eth_chainId',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_getTransactionCount',
  'eth_getCode',
  'eth_sendRawTransaction',
  'eth_getTransactionByHash',
  'eth_feeHistory',
  'eth_maxPriorityFeePerGas',
  'net_version',
  'eth_getStorageAt',
  'eth_getBlockByHash',
  'eth_getBlockReceipts',
  'eth_subscribe',
  'eth_unsubscribe',
  'eth_newFilter',
  'eth_getFilterChanges',
  'eth_uninstallFilter',
  'eth_newBlockFilter',
  'eth_syncing',
  'web3_clientVersion',
  'eth_getProof',
  'eth_createAccessList',
  'eth_blobBaseFee',
  'eth_getFilterLogs',
  'eth_getBlockTransactionCountByNumber',
  'eth_getTransactionByBlockNumberAndIndex',
  'trace_transaction',
  'trace_block',
  'trace_call',
  'trace_filter',
  'eth_sendUserOperation',
  'eth_estimateUserOperationGas',
  'eth_getUserOperationReceipt',
] as const;

/** RUs per call of each bench method, from the gateway's RU table (10 for anything it does not list). */
function methodCosts(): number[] {
  const table = JSON.parse(
    readFileSync(path.join(ROOT, 'apps/gateway/config/ru-table.json'), 'utf8'),
  ) as { methods: Record<string, number> };
  return BENCH_METHODS.map((m) => table.methods[m] ?? 10);
}

export type TBenchAccount = {
  accountId: string;
  timeZone: string;
  keyIds: string[];
  /** minute-row slots per minute (rows that land on the same key, chain and method in a minute merge) */
  rowsPerMinute: number;
  seed: number;
};

export type TGenerated = {
  /** minute rows generated (after merging slots that picked the same key, chain and method) */
  minuteRows: number;
  /** of which kept in usage_minute (the retention window) */
  keptRows: number;
  requests: number;
  ru: number;
  ms: number;
  chunks: number;
  /** chunks wholly before the retention window (rollups only) and their time */
  oldChunks: number;
  oldMs: number;
};

/** Rows of a db.execute() answer: an array on postgres-js, { rows } on PGlite. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

async function query<T>(db: TDatabase, q: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(q));
}

const pgArray = (values: readonly (string | number)[]): string => `{${values.join(',')}}`;

/** Creates count api_keys rows for an account (sealed like the server's) and answers their ids, in creation order. */
export async function createKeys(
  db: TDatabase,
  cipher: TApiKeyCipher,
  accountId: string,
  count: number,
  createdAt: Date,
): Promise<string[]> {
  const rows = await db
    .insert(apiKeys)
    .values(
      Array.from({ length: count }, (_, i) => {
        const id = randomUUID();
        const key = `bench${randomBytes(16).toString('hex')}`;
        return {
          id,
          accountId,
          name: `bench key ${String(i + 1).padStart(2, '0')}`,
          keyHash: cipher.hash(key),
          keyCiphertext: cipher.seal(id, key),
          createdAt,
          updatedAt: createdAt,
        };
      }),
    )
    .returning({ id: apiKeys.id, name: apiKeys.name });
  return rows.sort((a, b) => (a.name < b.name ? -1 : 1)).map((r) => r.id);
}

/** The personal account of a signed-up user, with its report zone set (so no rebuild happens on first report). */
export async function personalAccountOf(
  db: TDatabase,
  email: string,
  timeZone: string,
): Promise<string> {
  const [row] = await db
    .select({ accountId: accountMembers.accountId })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(sql`${users.email} = ${email.toLowerCase()} and ${accounts.kind} = 'personal'`);
  if (!row) throw new Error(`no personal account for ${email}`);
  await db.update(accounts).set({ timeZone }).where(eq(accounts.id, row.accountId));
  return row.accountId;
}

/** An account nobody signs in to, with some usage of its own (so every report must filter by account). */
export async function createNoiseAccount(
  db: TDatabase,
  name: string,
  timeZone: string,
): Promise<string> {
  const [row] = await db
    .insert(accounts)
    .values({ kind: 'personal', name, timeZone })
    .returning({ id: accounts.id });
  return row!.id;
}

/** The rollups with every counter, by what they are keyed on (account, time, then these). */
export const COUNTER_ROLLUPS = [
  { table: 'usage_hour', by: ['key_id', 'chain'], time: 'hour' },
  { table: 'usage_hour_key', by: ['key_id'], time: 'hour' },
  { table: 'usage_hour_chain', by: ['chain'], time: 'hour' },
  { table: 'usage_day', by: ['key_id', 'chain'], time: 'day' },
  { table: 'usage_day_key', by: ['key_id'], time: 'day' },
  { table: 'usage_day_chain', by: ['chain'], time: 'day' },
] as const;

/** Every usage table the reports read. */
export const USAGE_TABLES = [
  'usage_minute',
  ...COUNTER_ROLLUPS.map((r) => r.table),
  'usage_day_key_method',
  'usage_day_key_method_all_chains',
  'usage_day_method',
  'usage_day_method_all_chains',
  'usage_hour_method',
] as const;

/** The tables kept only for the minute retention (the others hold every generated request). */
export const RETENTION_TABLES: readonly string[] = ['usage_minute', 'usage_hour_method'];

/** The per-offset day rollups: empty until a report in another zone first asks for an offset. */
export const OFFSET_TABLES = [
  'usage_day_offset',
  'usage_day_offset_key',
  'usage_day_offset_chain',
] as const;

/** `name as (insert … select … from source group by … on conflict do update add)` for one counter rollup. */
function rollupInsert(table: string, by: string[], time: 'hour' | 'day', source: string): SQL {
  const cols = ['account_id', ...by, time].join(', ');
  const add = ['requests', 'ru', 'errors', 'latency_ms_sum']
    .map((c) => `${c} = ${table}.${c} + excluded.${c}`)
    .join(', ');
  return sql.raw(`ins_${table} as (
      insert into ${table} (${cols}, requests, ru, errors, latency_ms_sum)
      select ${cols}, sum(requests), sum(ru), sum(errors), sum(latency_ms_sum)
      from ${source} group by ${cols}
      on conflict (account_id, ${time}, ${by.join(', ')}) do update set ${add}
    )`);
}

/**
 * One statement per (account, chunk): generate the chunk's minute rows, add them to the four rollups with the same
 * grouping as rollups.ts (hour = UTC hour; day = local date in the account's zone), keep the ones inside the
 * retention window as usage_minute rows, and answer the chunk's totals.
 */
function chunkStatement(
  a: TBenchAccount,
  from: number,
  to: number,
  yearFrom: number,
  yearTo: number,
  keepFrom: number,
  costs: number[],
): SQL {
  const nKeys = a.keyIds.length;
  const keys = pgArray(a.keyIds);
  const chains = pgArray(BENCH_CHAINS);
  const methods = pgArray(BENCH_METHODS);
  const cost = pgArray(costs);
  const fromIso = new Date(from).toISOString();
  const lastIso = new Date(to - MINUTE).toISOString();
  const keepIso = new Date(keepFrom).toISOString();
  const yearFromS = yearFrom / 1000;
  const yearSpanS = Math.max(1, (yearTo - yearFrom) / 1000);
  return sql`
    with m as materialized (
      select minute, (extract(epoch from minute)::int8 / 60) * 4096 as n,
        extract(hour from minute at time zone ${a.timeZone}::text)::int as lh,
        (extract(epoch from minute) - ${yearFromS}::float8) / ${yearSpanS}::float8 as grow
      from generate_series(${fromIso}::timestamptz, ${lastIso}::timestamptz, interval '1 minute') minute
    ),
    g as materialized (
      select m.minute, m.lh, m.grow, hashint8extended(m.n + s.i, ${a.seed}::int8) as x,
        hashint8extended(m.n + s.i, ${a.seed + 1}::int8) as y
      from m cross join generate_series(0, ${a.rowsPerMinute - 1}::int) s(i)
    ),
    u as (
      select minute,
        least(${nKeys - 1}::int,
          floor(exp(((x & 4294967295)::float8 / 4294967296.0) * ln(${nKeys + 1}::float8)))::int - 1) as ki,
        least(${BENCH_CHAINS.length - 1}::int,
          floor(exp((((x >> 32) & 4294967295)::float8 / 4294967296.0) * ln(${BENCH_CHAINS.length + 1}::float8)))::int - 1) as ci,
        least(${BENCH_METHODS.length - 1}::int,
          floor(exp(((y & 4294967295)::float8 / 4294967296.0) * ln(${BENCH_METHODS.length + 1}::float8)))::int - 1) as mi,
        -- heavy-tailed requests per row, a day/night cycle in the account's zone (quiet around 04:00), growth over the year
        1 + floor(power(((y >> 32) & 65535)::float8 / 65536.0, 3) * 120
          * (0.3 + 0.7 * (0.5 - 0.5 * cos(2 * pi() * (lh - 4) / 24.0))) * (0.5 + 0.5 * grow))::int8 as req,
        (y >> 48) & 32767 as e
      from g
    ),
    s as materialized (
      select ${a.accountId}::uuid as account_id, (${keys}::uuid[])[ki + 1] as key_id,
        (${chains}::text[])[ci + 1] as chain, (${methods}::text[])[mi + 1] as method, minute,
        sum(req)::int8 as requests,
        sum(req * (${cost}::int8[])[mi + 1])::int8 as ru,
        sum(case when e & 255 < 3 then (req + 9) / 10 else 0 end)::int8 as errors,
        sum(req * (20 + (e >> 8) % 100))::int8 as latency_ms_sum,
        max(2 * (20 + (e >> 8) % 100))::int as latency_ms_max
      from u group by ki, ci, mi, minute
    ),
    hr as materialized (
      select account_id, key_id, chain, date_trunc('hour', minute, 'UTC') as hour, sum(requests) as requests,
        sum(ru) as ru, sum(errors) as errors, sum(latency_ms_sum) as latency_ms_sum
      from s group by 1, 2, 3, 4
    ),
    dy as materialized (
      select account_id, key_id, chain, (minute at time zone ${a.timeZone}::text)::date as day,
        sum(requests) as requests, sum(ru) as ru, sum(errors) as errors, sum(latency_ms_sum) as latency_ms_sum
      from s group by 1, 2, 3, 4
    ),
    ${rollupInsert('usage_hour', ['key_id', 'chain'], 'hour', 'hr')},
    ${rollupInsert('usage_hour_key', ['key_id'], 'hour', 'hr')},
    ${rollupInsert('usage_hour_chain', ['chain'], 'hour', 'hr')},
    ${rollupInsert('usage_day', ['key_id', 'chain'], 'day', 'dy')},
    ${rollupInsert('usage_day_key', ['key_id'], 'day', 'dy')},
    ${rollupInsert('usage_day_chain', ['chain'], 'day', 'dy')},
    dkm as (
      insert into usage_day_key_method (account_id, key_id, chain, method, day, requests, ru)
      select account_id, key_id, chain, method, (minute at time zone ${a.timeZone}::text)::date, sum(requests),
        sum(ru)
      from s group by 1, 2, 3, 4, 5
      on conflict (key_id, day, chain, method) do update set
        requests = usage_day_key_method.requests + excluded.requests, ru = usage_day_key_method.ru + excluded.ru
    ),
    dka as (
      insert into usage_day_key_method_all_chains (account_id, key_id, method, day, requests, ru)
      select account_id, key_id, method, (minute at time zone ${a.timeZone}::text)::date, sum(requests), sum(ru)
      from s group by 1, 2, 3, 4
      on conflict (key_id, day, method) do update set
        requests = usage_day_key_method_all_chains.requests + excluded.requests,
        ru = usage_day_key_method_all_chains.ru + excluded.ru
    ),
    dm as (
      insert into usage_day_method (account_id, chain, method, day, requests, ru)
      select account_id, chain, method, (minute at time zone ${a.timeZone}::text)::date, sum(requests), sum(ru)
      from s group by 1, 2, 3, 4
      on conflict (account_id, chain, day, method) do update set
        requests = usage_day_method.requests + excluded.requests, ru = usage_day_method.ru + excluded.ru
    ),
    dma as (
      insert into usage_day_method_all_chains (account_id, method, day, requests, ru)
      select account_id, method, (minute at time zone ${a.timeZone}::text)::date, sum(requests), sum(ru)
      from s group by 1, 2, 3
      on conflict (account_id, day, method) do update set
        requests = usage_day_method_all_chains.requests + excluded.requests,
        ru = usage_day_method_all_chains.ru + excluded.ru
    ),
    hm as (
      insert into usage_hour_method (account_id, chain, method, hour, requests, ru)
      select account_id, chain, method, date_trunc('hour', minute, 'UTC'), sum(requests), sum(ru)
      from s where minute >= ${keepIso}::timestamptz group by 1, 2, 3, 4
      on conflict (account_id, hour, chain, method) do update set
        requests = usage_hour_method.requests + excluded.requests, ru = usage_hour_method.ru + excluded.ru
    ),
    mr as (
      insert into usage_minute (account_id, key_id, chain, method, minute, requests, ru, errors, latency_ms_sum,
        latency_ms_max)
      select account_id, key_id, chain, method, minute, requests, ru, errors, latency_ms_sum, latency_ms_max
      from s where minute >= ${keepIso}::timestamptz
    )
    select count(*)::int8 as rows, count(*) filter (where minute >= ${keepIso}::timestamptz)::int8 as kept,
      coalesce(sum(requests), 0)::int8 as requests, coalesce(sum(ru), 0)::int8 as ru
    from s`;
}

/** Chunk boundaries: [from, to) cut at every local midnight of the zone. */
function dayBounds(from: number, to: number, zone: string): number[] {
  const bounds: number[] = [from];
  for (
    let t = nextBucket(startOfLocalDay(from, zone), 'day', zone);
    t < to;
    t = nextBucket(t, 'day', zone)
  )
    bounds.push(t);
  bounds.push(to);
  return bounds;
}

/**
 * Generates [from, to) for every account, one local day of the account's own zone per statement (so no two
 * statements touch the same rollup row and they may run side by side), oldest first, `concurrency` at a time.
 * Minute rows before keepFrom are rolled up and never stored, as if they had expired.
 */
export async function generateUsage(
  db: TDatabase,
  list: TBenchAccount[],
  range: { from: number; to: number; keepFrom: number },
  concurrency: number,
  progress: (done: number, total: number, ms: number) => void,
): Promise<Map<string, TGenerated>> {
  const costs = methodCosts();
  const out = new Map<string, TGenerated>(
    list.map((a) => [
      a.accountId,
      { minuteRows: 0, keptRows: 0, requests: 0, ru: 0, ms: 0, chunks: 0, oldChunks: 0, oldMs: 0 },
    ]),
  );
  const tasks: Array<{ a: TBenchAccount; from: number; to: number }> = [];
  for (const a of list) {
    const b = dayBounds(range.from, range.to, a.timeZone);
    for (let i = 0; i + 1 < b.length; i++) tasks.push({ a, from: b[i]!, to: b[i + 1]! });
  }
  tasks.sort((x, y) => x.from - y.from);
  const t0 = performance.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, concurrency) }, async () => {
      while (next < tasks.length) {
        const { a, from, to } = tasks[next++]!;
        const t = performance.now();
        const statement = chunkStatement(a, from, to, range.from, range.to, range.keepFrom, costs);
        const [r] = await db.transaction(async (tx) => {
          // Room for the chunk's hash aggregates in memory (the default 4 MB spills to disk).
          await tx.execute(sql`set local work_mem = '64MB'`);
          return rowsOf<{ rows: string; kept: string; requests: string; ru: string }>(
            await tx.execute(statement),
          );
        });
        const g = out.get(a.accountId)!;
        g.minuteRows += Number(r!.rows);
        g.keptRows += Number(r!.kept);
        g.requests += Number(r!.requests);
        g.ru += Number(r!.ru);
        g.ms += performance.now() - t;
        g.chunks++;
        if (to <= range.keepFrom) {
          g.oldChunks++;
          g.oldMs += performance.now() - t;
        }
        done++;
        progress(done, tasks.length, performance.now() - t0);
      }
    }),
  );
  return out;
}

export type TTotals = { requests: number; ru: number };

/** requests and RUs per account in every usage table. */
export async function tableTotals(
  db: TDatabase,
): Promise<Record<string, Map<string, TTotals & { rows: number }>>> {
  const out: Record<string, Map<string, TTotals & { rows: number }>> = {};
  for (const table of USAGE_TABLES) {
    const rows = await query<{ account_id: string; rows: string; requests: string; ru: string }>(
      db,
      sql`select account_id, count(*)::int8 as rows, sum(requests)::int8 as requests, sum(ru)::int8 as ru
          from ${sql.identifier(table)} group by account_id`,
    );
    out[table] = new Map(
      rows.map((r) => [
        r.account_id,
        { rows: Number(r.rows), requests: Number(r.requests), ru: Number(r.ru) },
      ]),
    );
  }
  return out;
}

/**
 * Rows that differ between each rollup and the same rollup recomputed from the minute rows, over the hours and
 * local days the minute table still holds completely. 0 everywhere means the rollups agree with the minute rows.
 */
export async function rollupDifferences(
  db: TDatabase,
  keepFrom: number,
): Promise<Record<string, number>> {
  const firstHour = new Date(Math.ceil(keepFrom / HOUR) * HOUR).toISOString();
  const keep = new Date(keepFrom).toISOString();
  const count = async (q: SQL) => Number((await query<{ n: string }>(db, q))[0]!.n);
  const minutes = sql`usage_minute m join accounts a on a.id = m.account_id`;
  const fullDay = sql`(((${keep}::timestamptz) at time zone a.time_zone)::date + 1)`;
  const diff = (left: SQL, right: SQL) =>
    sql`select (select count(*) from (${left} except all ${right}) l)
             + (select count(*) from (${right} except all ${left}) r) as n`;
  const out: Record<string, number> = {};
  for (const r of COUNTER_ROLLUPS) {
    const by = sql.raw(r.by.map((c) => `m.${c}`).join(', '));
    const byPlain = sql.raw(r.by.map((c) => `d.${c}`).join(', '));
    const n = r.by.length;
    const groupCols = sql.raw(Array.from({ length: n + 2 }, (_, i) => String(i + 1)).join(', '));
    out[r.table] =
      r.time === 'hour'
        ? await count(
            diff(
              sql`select m.account_id, ${by}, date_trunc('hour', minute, 'UTC') as t, sum(requests), sum(ru),
                    sum(errors), sum(latency_ms_sum)
                  from usage_minute m where minute >= ${firstHour}::timestamptz group by ${groupCols}`,
              sql`select d.account_id, ${byPlain}, d.hour, requests::numeric, ru::numeric, errors::numeric,
                    latency_ms_sum::numeric
                  from ${sql.identifier(r.table)} d where d.hour >= ${firstHour}::timestamptz`,
            ),
          )
        : await count(
            diff(
              sql`select m.account_id, ${by}, (minute at time zone a.time_zone)::date as t, sum(requests),
                    sum(ru), sum(errors), sum(latency_ms_sum)
                  from ${minutes} where (minute at time zone a.time_zone)::date >= ${fullDay}
                  group by ${groupCols}`,
              sql`select d.account_id, ${byPlain}, d.day, requests::numeric, ru::numeric, errors::numeric,
                    latency_ms_sum::numeric
                  from ${sql.identifier(r.table)} d join accounts a on a.id = d.account_id
                  where d.day >= ${fullDay}`,
            ),
          );
  }
  return {
    ...out,
    usage_day_key_method: await count(
      diff(
        sql`select m.account_id, key_id, chain, method, (minute at time zone a.time_zone)::date as day,
              sum(requests), sum(ru)
            from ${minutes} where (minute at time zone a.time_zone)::date >= ${fullDay} group by 1, 2, 3, 4, 5`,
        sql`select d.account_id, key_id, chain, method, day, requests::numeric, ru::numeric
            from usage_day_key_method d join accounts a on a.id = d.account_id where day >= ${fullDay}`,
      ),
    ),
    usage_day_key_method_all_chains: await count(
      diff(
        sql`select m.account_id, key_id, method, (minute at time zone a.time_zone)::date as day,
              sum(requests), sum(ru)
            from ${minutes} where (minute at time zone a.time_zone)::date >= ${fullDay} group by 1, 2, 3, 4`,
        sql`select d.account_id, key_id, method, day, requests::numeric, ru::numeric
            from usage_day_key_method_all_chains d join accounts a on a.id = d.account_id
            where day >= ${fullDay}`,
      ),
    ),
    usage_day_method: await count(
      diff(
        sql`select m.account_id, chain, method, (minute at time zone a.time_zone)::date as day, sum(requests),
              sum(ru)
            from ${minutes} where (minute at time zone a.time_zone)::date >= ${fullDay} group by 1, 2, 3, 4`,
        sql`select d.account_id, chain, method, day, requests::numeric, ru::numeric
            from usage_day_method d join accounts a on a.id = d.account_id where day >= ${fullDay}`,
      ),
    ),
    usage_day_method_all_chains: await count(
      diff(
        sql`select m.account_id, method, (minute at time zone a.time_zone)::date as day, sum(requests), sum(ru)
            from ${minutes} where (minute at time zone a.time_zone)::date >= ${fullDay} group by 1, 2, 3`,
        sql`select d.account_id, method, day, requests::numeric, ru::numeric
            from usage_day_method_all_chains d join accounts a on a.id = d.account_id where day >= ${fullDay}`,
      ),
    ),
    usage_hour_method: await count(
      diff(
        sql`select account_id, chain, method, date_trunc('hour', minute, 'UTC') as hour, sum(requests), sum(ru)
            from usage_minute where minute >= ${firstHour}::timestamptz group by 1, 2, 3, 4`,
        sql`select account_id, chain, method, hour, requests::numeric, ru::numeric
            from usage_hour_method where hour >= ${firstHour}::timestamptz`,
      ),
    ),
  };
}

/**
 * One real batch through the production write path (writeUsageBatch): rows that land on minute rows the
 * generator wrote (the upsert's add path) and rows in the current minute, for the bench account and a neighbour.
 * Answers the batch's totals per account.
 */
export async function writeRealBatch(
  db: TDatabase,
  list: TBenchAccount[],
  now: number,
): Promise<{ totals: Map<string, TTotals>; rows: number; ms: number }> {
  const current = Math.floor(now / MINUTE) * MINUTE;
  const rows: TUsageRow[] = [];
  // Ten existing rows from the last generated minutes: the batch adds to them.
  const existing = await query<{
    account_id: string;
    key_id: string;
    chain: string;
    method: string;
    m: string;
  }>(
    db,
    sql`select account_id, key_id, chain, method, (extract(epoch from minute) * 1000)::int8 as m
        from usage_minute where account_id = ${list[0]!.accountId}::uuid and minute >= ${new Date(current - 5 * MINUTE).toISOString()}::timestamptz
        order by minute desc, key_id, chain, method limit 10`,
  );
  const seen = new Set<string>();
  const add = (r: Omit<TUsageRow, 'errors' | 'latencyMsSum' | 'latencyMsMax'>, i: number) => {
    const id = `${r.keyId}|${r.chain}|${r.method}|${r.minute}`;
    if (seen.has(id)) return;
    seen.add(id);
    rows.push({
      ...r,
      errors: i % 7 === 0 ? 1 : 0,
      latencyMsSum: r.requests * 30,
      latencyMsMax: 60,
    });
  };
  existing.forEach((e, i) =>
    add(
      {
        accountId: e.account_id,
        keyId: e.key_id,
        chain: e.chain,
        method: e.method,
        minute: Number(e.m),
        requests: 3 + i,
        ru: (3 + i) * 20,
      },
      i,
    ),
  );
  const costs = methodCosts();
  for (const [n, a] of [
    [40, list[0]!],
    [10, list[1] ?? list[0]!],
  ] as const) {
    for (let i = 0; i < n; i++) {
      const m = (i * 7) % BENCH_METHODS.length;
      const requests = 1 + (i % 5);
      add(
        {
          accountId: a.accountId,
          keyId: a.keyIds[i % a.keyIds.length]!,
          chain: BENCH_CHAINS[i % BENCH_CHAINS.length]!,
          method: BENCH_METHODS[m]!,
          minute: current,
          requests,
          ru: requests * costs[m]!,
        },
        i,
      );
    }
  }
  const batch: TUsageBatch = {
    batchId: `bench-${randomUUID()}`,
    ruTableVersion: 'bench',
    createdAt: now,
    rows,
  };
  const t = performance.now();
  const res = await writeUsageBatch(db, batch);
  const ms = performance.now() - t;
  if (!res.applied) throw new Error('the real batch was not applied');
  const totals = new Map<string, TTotals>();
  for (const r of rows) {
    const s = totals.get(r.accountId) ?? { requests: 0, ru: 0 };
    s.requests += r.requests;
    s.ru += r.ru;
    totals.set(r.accountId, s);
  }
  return { totals, rows: rows.length, ms };
}

/** Row counts and on-disk sizes (table + indexes) of the usage tables, and the database. */
export async function tableSizes(
  db: TDatabase,
): Promise<{ tables: Array<{ table: string; rows: number; bytes: number }>; dbBytes: number }> {
  const tables = [];
  for (const table of [...USAGE_TABLES, ...OFFSET_TABLES]) {
    const [r] = await query<{ rows: string; bytes: string }>(
      db,
      sql`select (select count(*) from ${sql.identifier(table)})::int8 as rows,
            pg_total_relation_size(${table}::regclass)::int8 as bytes`,
    );
    tables.push({ table, rows: Number(r!.rows), bytes: Number(r!.bytes) });
  }
  const [d] = await query<{ bytes: string }>(
    db,
    sql`select pg_database_size(current_database())::int8 as bytes`,
  );
  return { tables, dbBytes: Number(d!.bytes) };
}

export { DAY, HOUR, MINUTE };

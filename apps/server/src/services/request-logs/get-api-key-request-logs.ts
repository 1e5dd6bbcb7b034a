/**
 * One key's request log, newest first, SPEC §9 paging: only a live key of the acting account (else
 * `key_unknown`), only entries inside the retention and among the key's newest REQUEST_LOG_MAX_ROWS_PER_KEY, so
 * the answer keeps the bounds exactly even between two prune passes.
 */
import {
  REQUEST_LOG_FILTER_OUTCOMES,
  REQUEST_LOG_MAX_ROWS_PER_KEY,
  type TRequestLogFilter,
  type TRequestLogOutcome,
  type TRequestLogResult,
} from '@rpc/contract';
import { apiKeys, requestLogDrops, type TDatabase, type TRequestLogEntryRow } from '@rpc/db';
import { and, eq, gte, isNull, lt, sql, sum, type SQL } from 'drizzle-orm';
import { queryRows } from '../../lib/query-rows';
import { escapeLike } from '../api-keys/get-api-keys';
import { rankedEntriesOfKey } from './ranked-entries';
import { RequestLogError, type TRequestLogCaller } from './request-log-error';

const HOUR_MS = 3_600_000;

export type TGetRequestLogsParams = {
  keyId: string;
  page: number;
  perPage: number;
  method?: string;
  outcome: TRequestLogFilter;
  from?: number;
  to?: number;
};

export async function getApiKeyRequestLogs(o: {
  deps: { db: TDatabase; clock: { now(): number }; config: { requestLogRetentionHours: number } };
  caller: TRequestLogCaller;
  params: TGetRequestLogsParams;
}): Promise<TRequestLogResult> {
  const { db } = o.deps;
  const { params: p } = o;
  const accountId = o.caller.account.id;
  const retentionHours = o.deps.config.requestLogRetentionHours;
  const [key] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(
      and(eq(apiKeys.id, p.keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.deletedAt)),
    );
  if (!key) throw new RequestLogError('key_unknown');

  const since = Math.max(o.deps.clock.now() - retentionHours * HOUR_MS, p.from ?? 0);
  // The key's newest entries only (ranked-entries.ts), then the filters, in one statement.
  const where: SQL[] = [sql`rn <= ${REQUEST_LOG_MAX_ROWS_PER_KEY}`, sql`at >= ${since}`];
  if (p.to !== undefined) where.push(sql`at < ${p.to}`);
  const search = p.method?.trim();
  // PostgreSQL's default LIKE escape character is the backslash, on both drivers.
  if (search) where.push(sql`(v->>2) ilike ${`%${escapeLike(search)}%`}`);
  if (p.outcome !== 'all') {
    const outcomes = REQUEST_LOG_FILTER_OUTCOMES[p.outcome].map((x) => sql`${x}`);
    where.push(sql`(v->>4) in (${sql.join(outcomes, sql`, `)})`);
  }
  const ranked = rankedEntriesOfKey({
    keyId: p.keyId,
    accountId,
    max: REQUEST_LOG_MAX_ROWS_PER_KEY,
    since,
  });

  const dropWhere = [
    eq(requestLogDrops.accountId, accountId),
    eq(requestLogDrops.keyId, p.keyId),
    // A drop is counted per minute: the minute that holds `since` counts.
    gte(requestLogDrops.minute, new Date(since - (since % 60_000))),
    ...(p.to !== undefined ? [lt(requestLogDrops.minute, new Date(p.to))] : []),
  ];
  const [[page], [dropped]] = await Promise.all([
    queryRows<{ total: number | string; list: unknown }>(
      db,
      sql`with ${ranked},
        kept as (select v, rn from ranked where ${sql.join(where, sql` and `)})
        select (select count(*) from kept) as total,
          (select coalesce(json_agg(v order by rn), '[]'::json) from (
            select v, rn from kept order by rn limit ${p.perPage} offset ${(p.page - 1) * p.perPage}
          ) as shown) as list`,
    ),
    db
      .select({ n: sum(requestLogDrops.count) })
      .from(requestLogDrops)
      .where(and(...dropWhere)),
  ]);
  const list = (
    typeof page?.list === 'string' ? JSON.parse(page.list) : (page?.list ?? [])
  ) as TRequestLogEntryRow[];
  return {
    list: list.map(([at, chain, method, transport, outcome, errorCode, latencyMs, ru]) => ({
      at,
      chain,
      method,
      transport: transport === 'ws' ? 'ws' : 'http',
      outcome: outcome as TRequestLogOutcome,
      errorCode,
      latencyMs,
      ru,
    })),
    total: Number(page?.total ?? 0),
    page: p.page,
    perPage: p.perPage,
    dropped: Number(dropped?.n ?? 0),
    retentionHours,
    maxEntries: REQUEST_LOG_MAX_ROWS_PER_KEY,
  };
}

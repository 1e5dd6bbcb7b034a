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
import { apiKeys, requestLogDrops, requestLogs, type TDatabase } from '@rpc/db';
import {
  and,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  sql,
  sum,
  type SQL,
} from 'drizzle-orm';
import { escapeLike } from '../api-keys/get-api-keys';
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
  const ofKey = and(eq(requestLogs.accountId, accountId), eq(requestLogs.keyId, p.keyId));
  const where: (SQL | undefined)[] = [ofKey, gte(requestLogs.at, new Date(since))];
  if (p.to !== undefined) where.push(lt(requestLogs.at, new Date(p.to)));
  // The key's newest entries only: the oldest one kept bounds the rest (an index walk of at most N entries).
  const [edge] = await db
    .select({ at: requestLogs.at, id: requestLogs.id })
    .from(requestLogs)
    .where(ofKey)
    .orderBy(desc(requestLogs.at), desc(requestLogs.id))
    .offset(REQUEST_LOG_MAX_ROWS_PER_KEY - 1)
    .limit(1);
  if (edge)
    where.push(
      sql`(${requestLogs.at}, ${requestLogs.id}) >= (${edge.at.toISOString()}::timestamptz, ${edge.id})`,
    );
  const search = p.method?.trim();
  // PostgreSQL's default LIKE escape character is the backslash, on both drivers.
  if (search) where.push(ilike(requestLogs.method, `%${escapeLike(search)}%`));
  if (p.outcome !== 'all')
    where.push(inArray(requestLogs.outcome, [...REQUEST_LOG_FILTER_OUTCOMES[p.outcome]]));
  const filter = and(...where);

  const dropWhere = [
    eq(requestLogDrops.accountId, accountId),
    eq(requestLogDrops.keyId, p.keyId),
    // A drop is counted per minute: the minute that holds `since` counts.
    gte(requestLogDrops.minute, new Date(since - (since % 60_000))),
    ...(p.to !== undefined ? [lt(requestLogDrops.minute, new Date(p.to))] : []),
  ];
  const [rows, [total], [dropped]] = await Promise.all([
    db
      .select({
        at: requestLogs.at,
        chain: requestLogs.chain,
        method: requestLogs.method,
        transport: requestLogs.transport,
        outcome: requestLogs.outcome,
        errorCode: requestLogs.errorCode,
        latencyMs: requestLogs.latencyMs,
        ru: requestLogs.ru,
      })
      .from(requestLogs)
      .where(filter)
      .orderBy(desc(requestLogs.at), desc(requestLogs.id))
      .limit(p.perPage)
      .offset((p.page - 1) * p.perPage),
    db.select({ n: count() }).from(requestLogs).where(filter),
    db
      .select({ n: sum(requestLogDrops.count) })
      .from(requestLogDrops)
      .where(and(...dropWhere)),
  ]);
  return {
    list: rows.map((r) => ({
      at: r.at.getTime(),
      chain: r.chain,
      method: r.method,
      transport: r.transport === 'ws' ? 'ws' : 'http',
      outcome: r.outcome as TRequestLogOutcome,
      errorCode: r.errorCode,
      latencyMs: r.latencyMs,
      ru: r.ru,
    })),
    total: Number(total?.n ?? 0),
    page: p.page,
    perPage: p.perPage,
    dropped: Number(dropped?.n ?? 0),
    retentionHours,
    maxEntries: REQUEST_LOG_MAX_ROWS_PER_KEY,
  };
}

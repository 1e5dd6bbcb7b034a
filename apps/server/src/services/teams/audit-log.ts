/**
 * The team audit log (docs/decisions/teams.md): the dispatcher writes every successful audited call made as a team
 * (writeAuditFromCall); the team services write the lifecycle actions no method call covers in their own
 * transaction (writeAudit). Rows are never updated or deleted.
 */
import type { TMethodName, TTeamLifecycleAction } from '@rpc/contract';
import { teamAuditLogs, type TExecutor } from '@rpc/db';
import type { TAuth, TRpcContext } from '../../rpc/context';

export type TAuditEntry = {
  accountId: string;
  actorUserId: string | null;
  /** a lifecycle action, or (from the dispatcher) a method name */
  action: TTeamLifecycleAction | TMethodName;
  target?: string | null;
  detail?: Record<string, unknown>;
  ip: string | null;
  at: number;
};

export async function writeAudit(db: TExecutor, e: TAuditEntry): Promise<void> {
  await db.insert(teamAuditLogs).values({
    accountId: e.accountId,
    actorUserId: e.actorUserId,
    action: e.action,
    target: e.target ?? null,
    detail: e.detail ?? {},
    ip: e.ip,
    createdAt: new Date(e.at),
  });
}

const SECRET_KEY = /pass|secret|token|cvc|clientsecret|signature|privatekey/i;
const MAX_STRING = 200;
const MAX_DEPTH = 3;
const MAX_ENTRIES = 30;

/** A call's params as the log keeps them: secrets dropped, strings cut, depth and width bounded. */
export function auditDetail(params: unknown): Record<string, unknown> {
  const clean = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string')
      return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
    if (depth >= MAX_DEPTH) return '…';
    if (Array.isArray(value)) return value.slice(0, MAX_ENTRIES).map((v) => clean(v, depth + 1));
    if (typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value).slice(0, MAX_ENTRIES)) {
        if (!SECRET_KEY.test(k)) out[k] = clean(v, depth + 1);
      }
      return out;
    }
    return undefined;
  };
  const cleaned = clean(params ?? {}, 0);
  return typeof cleaned === 'object' && cleaned !== null && !Array.isArray(cleaned)
    ? (cleaned as Record<string, unknown>)
    : {};
}

/** Params that name what a call touched, in the order a reader looks for them. */
const TARGET_PARAMS = ['name', 'teamName', 'email', 'userCode', 'skuId', 'note'] as const;

/** What the log's Target column shows for a call: the first naming param present, else nothing. */
export function auditTarget(params: unknown): string | null {
  if (typeof params !== 'object' || params === null) return null;
  const record = params as Record<string, unknown>;
  for (const key of TARGET_PARAMS) {
    const value = record[key];
    if (typeof value === 'string' && value !== '') return value.slice(0, MAX_STRING);
  }
  return null;
}

/**
 * After a successful call made as a team. The call already committed, so a failure here is logged, not thrown:
 * the caller must not retry a purchase because its log line was lost.
 */
export async function writeAuditFromCall(
  ctx: Pick<TRpcContext, 'db' | 'clock' | 'ip' | 'logger'>,
  o: { auth: TAuth; method: TMethodName; params: unknown },
): Promise<void> {
  try {
    await writeAudit(ctx.db, {
      accountId: o.auth.account.id,
      actorUserId: o.auth.userId,
      action: o.method,
      target: auditTarget(o.params),
      detail: auditDetail(o.params),
      ip: ctx.ip,
      at: ctx.clock.now(),
    });
  } catch (err) {
    ctx.logger.error({ err, method: o.method }, 'team audit log write failed');
  }
}

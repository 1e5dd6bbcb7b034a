/**
 * The dedicated-node lifecycle sweep (a periodic job, jobs/dedicated-node-sweep.ts; tests call it with a moved clock):
 *
 *   pending ──provisioned and answering eth_chainId──▶ online ──DN_WILL_EXPIRE_DAYS before expiry──▶ will_expired
 *   pending | online | will_expired | stopped ──expiry──▶ expired (process stopped; data kept DN_GRACE_DAYS, then
 *   deleted)
 *   will_expired ──renewed──▶ online · expired within grace ──renewed──▶ pending (renew-node.ts)
 *
 * Every status change is a compare-and-set on the status (and time) it starts from, written with its event and its
 * notice in one transaction, so two sweeps at once, or a sweep racing a renewal, change nothing twice. Driver calls
 * (start, stop, delete: node-processes.ts) happen outside those transactions and are idempotent; (re)provisioning
 * holds the node's row lock and moves driver_generation, so one node never gets two processes. A node whose process is
 * gone while it should run (a console restart with the local driver) is provisioned again. Only nodes of this server's
 * driver are touched by the driver steps.
 */
import { DN_GRACE_DAYS, DN_WILL_EXPIRE_DAYS, type TDnStatus } from '@rpc/contract';
import { dedicatedNodeEvents, dedicatedNodes } from '@rpc/db';
import { and, asc, count, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import { raiseNotice } from '../notices/raise-notice';
import { GRACE_MS, nodeLabel } from './node-rows';
import { bringUpPending, destroyDeleted, recoverRunning, stopExpired } from './node-processes';
import { BATCH, changeOne, ofDriver, transition, type TDnLifecycleDeps } from './node-transition';

const DAY_MS = 86_400_000;
const WILL_EXPIRE_MS = DN_WILL_EXPIRE_DAYS * DAY_MS;

export type TDnSweepResult = {
  /** processes started (first start, after a renewal) */
  provisioned: number;
  online: number;
  willExpire: number;
  expired: number;
  /** processes of expired nodes stopped */
  stopped: number;
  /** grace periods that ended (data deleted) */
  dataDeleted: number;
  /** running nodes whose process was gone, started again */
  recovered: number;
  /** nodes still pending after the pass: the timer comes back sooner while there are any */
  pending: number;
};

export async function sweepDedicatedNodes(deps: TDnLifecycleDeps): Promise<TDnSweepResult> {
  const now = deps.clock.now();
  const result: TDnSweepResult = {
    provisioned: 0,
    online: 0,
    willExpire: 0,
    expired: 0,
    stopped: 0,
    dataDeleted: 0,
    recovered: 0,
    pending: 0,
  };
  result.expired = await expireDue(deps, now);
  result.willExpire = await warnSoon(deps, now);
  result.stopped = await stopExpired(deps);
  result.dataDeleted = await endGracePeriods(deps, now);
  await destroyDeleted(deps);
  const up = await bringUpPending(deps, now);
  result.provisioned = up.provisioned;
  result.online = up.online;
  result.recovered = await recoverRunning(deps, now);
  const [left] = await deps.db
    .select({ n: count() })
    .from(dedicatedNodes)
    .where(and(eq(dedicatedNodes.status, 'pending'), ofDriver(deps)));
  result.pending = left?.n ?? 0;
  return result;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function expireDue(deps: TDnLifecycleDeps, now: number): Promise<number> {
  // An operator's stop does not stop the clock: a stopped node expires too, and its data goes after the grace period.
  const from: TDnStatus[] = ['pending', 'stopped', 'online', 'will_expired'];
  const due = await deps.db
    .select()
    .from(dedicatedNodes)
    .where(and(inArray(dedicatedNodes.status, from), lte(dedicatedNodes.expiresAt, new Date(now))))
    .orderBy(asc(dedicatedNodes.expiresAt))
    .limit(BATCH);
  let n = 0;
  for (const node of due) {
    const graceEnd = node.expiresAt.getTime() + GRACE_MS;
    const changed = await changeOne(deps, async (tx) => {
      const moved = await transition(tx, {
        nodeId: node.id,
        from,
        to: 'expired',
        at: now,
        reason: 'term_ended',
        set: { stoppedAt: new Date(now) },
        where: lte(dedicatedNodes.expiresAt, new Date(now)),
      });
      if (!moved) return null;
      return raiseNotice({
        db: tx,
        at: now,
        type: 'normal_warn',
        accountId: node.accountId,
        title: 'Dedicated node expired',
        content:
          `${nodeLabel(deps, node)} expired on ${day(node.expiresAt.getTime())} and its endpoint is stopped. ` +
          `Its data is kept until ${day(graceEnd)}: renew it before then to bring it back.`,
        expand: { name: nodeLabel(deps, node), timeStamp: graceEnd, leftDays: DN_GRACE_DAYS },
      });
    });
    if (changed) n += 1;
  }
  return n;
}

async function warnSoon(deps: TDnLifecycleDeps, now: number): Promise<number> {
  const window = and(
    lte(dedicatedNodes.expiresAt, new Date(now + WILL_EXPIRE_MS)),
    gt(dedicatedNodes.expiresAt, new Date(now)),
  );
  const soon = await deps.db
    .select()
    .from(dedicatedNodes)
    .where(and(eq(dedicatedNodes.status, 'online'), window))
    .orderBy(asc(dedicatedNodes.expiresAt))
    .limit(BATCH);
  let n = 0;
  for (const node of soon) {
    const leftDays = Math.max(1, Math.ceil((node.expiresAt.getTime() - now) / DAY_MS));
    const changed = await changeOne(deps, async (tx) => {
      const moved = await transition(tx, {
        nodeId: node.id,
        from: ['online'],
        to: 'will_expired',
        at: now,
        reason: 'expires_soon',
        where: window,
      });
      if (!moved) return null;
      return raiseNotice({
        db: tx,
        at: now,
        type: 'normal_warn',
        accountId: node.accountId,
        title: 'Dedicated node expires soon',
        content:
          `${nodeLabel(deps, node)} expires on ${day(node.expiresAt.getTime())} ` +
          `(${leftDays} day${leftDays === 1 ? '' : 's'} left). Renew it to keep it running; ` +
          `after expiry its data is kept ${DN_GRACE_DAYS} days.`,
        expand: {
          name: nodeLabel(deps, node),
          timeStamp: node.expiresAt.getTime(),
          leftDays,
        },
      });
    });
    if (changed) n += 1;
  }
  return n;
}

/** The grace period is over: the node can no longer be renewed, and its data goes (destroyDeleted). */
async function endGracePeriods(deps: TDnLifecycleDeps, now: number): Promise<number> {
  const over = and(
    eq(dedicatedNodes.status, 'expired'),
    isNull(dedicatedNodes.dataDeletedAt),
    lte(dedicatedNodes.expiresAt, new Date(now - GRACE_MS)),
  );
  const rows = await deps.db.select().from(dedicatedNodes).where(over).limit(BATCH);
  let n = 0;
  for (const node of rows) {
    const changed = await changeOne(deps, async (tx) => {
      const at = new Date(now);
      const [marked] = await tx
        .update(dedicatedNodes)
        .set({ dataDeletedAt: at, updatedAt: at })
        .where(and(eq(dedicatedNodes.id, node.id), over))
        .returning({ id: dedicatedNodes.id });
      if (!marked) return null;
      await tx
        .insert(dedicatedNodeEvents)
        .values({ nodeId: node.id, status: 'expired', at, reason: 'data_deleted' });
      return [];
    });
    if (changed) n += 1;
  }
  return n;
}

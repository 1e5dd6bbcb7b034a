/** What the lifecycle's steps share: the one way a node's status changes (with its event), and its transaction. */
import type { TDnEventReason, TDnStatus } from '@rpc/contract';
import {
  dedicatedNodeEvents,
  dedicatedNodes,
  type TDedicatedNodeRow,
  type TExecutor,
  type TNoticeRow,
} from '@rpc/db';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { TDeps } from '../../rpc/context';

export type TDnLifecycleDeps = Pick<
  TDeps,
  'db' | 'clock' | 'logger' | 'noticeBus' | 'dnSkus' | 'dnDriver'
>;

/** Rows one step takes per pass. */
export const BATCH = 200;

/** Only this server's driver's nodes: another driver's refs mean nothing to it. */
export const ofDriver = (deps: TDnLifecycleDeps) => eq(dedicatedNodes.driver, deps.dnDriver.name);

/**
 * Moves one node from one of `from` to `to` if it is still there (and `where` still holds), with its event; answers
 * the moved row, or undefined when a concurrent sweep or renewal got there first.
 */
export async function transition(
  tx: TExecutor,
  o: {
    nodeId: string;
    from: TDnStatus[];
    to: TDnStatus;
    at: number;
    reason: TDnEventReason;
    set?: Partial<typeof dedicatedNodes.$inferInsert>;
    where?: SQL | undefined;
  },
): Promise<TDedicatedNodeRow | undefined> {
  const at = new Date(o.at);
  const [row] = await tx
    .update(dedicatedNodes)
    .set({ ...o.set, status: o.to, updatedAt: at })
    .where(and(eq(dedicatedNodes.id, o.nodeId), inArray(dedicatedNodes.status, o.from), o.where))
    .returning();
  if (!row) return undefined;
  await tx
    .insert(dedicatedNodeEvents)
    .values({ nodeId: o.nodeId, status: o.to, at, reason: o.reason });
  return row;
}

/** Runs one node's change and its notices in a transaction; notices go out after the commit. */
export async function changeOne(
  deps: Pick<TDnLifecycleDeps, 'db' | 'noticeBus'>,
  work: (tx: TExecutor) => Promise<TNoticeRow[] | null>,
): Promise<boolean> {
  const notices = await deps.db.transaction(work);
  if (notices === null) return false;
  deps.noticeBus.push(notices);
  return true;
}

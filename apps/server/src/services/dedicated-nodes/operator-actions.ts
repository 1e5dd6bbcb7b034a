/**
 * What an operator does to a node by hand (npm run ops:dn-node): stop it (status stopped; the gateway refuses it at
 * its next read, the lifecycle sweep stops its process and keeps its data) or start it again (back to pending; the
 * sweep provisions it over its previous ref and brings it online). Its term runs on either way: a stopped node still
 * expires at its expiry. The owner is told by a notice.
 */
import type { TDnStatus } from '@rpc/contract';
import { dedicatedNodes, type TDedicatedNodeRow, type TExecutor, type TNoticeRow } from '@rpc/db';
import { eq } from 'drizzle-orm';
import { raiseNotice } from '../notices/raise-notice';
import { nodeLabel } from './node-rows';
import type { TDeps } from '../../rpc/context';
import { changeOne, transition } from './node-transition';

/** No driver: the console's sweep, which owns it, stops or starts what runs. */
export type TOperatorDeps = Pick<TDeps, 'db' | 'clock' | 'noticeBus' | 'dnSkus'>;

export type TOperatorOutcome = 'stopped' | 'started' | 'not_found' | 'not_applicable';

const STOPPABLE: TDnStatus[] = ['pending', 'online', 'will_expired'];

export async function stopNodeByOperator(
  deps: TOperatorDeps,
  nodeId: string,
  why: string,
): Promise<TOperatorOutcome> {
  return act(deps, nodeId, STOPPABLE, 'stopped', async (node, tx, now) => {
    const moved = await transition(tx, {
      nodeId,
      from: STOPPABLE,
      to: 'stopped',
      at: now,
      reason: 'stopped_by_operator',
      set: { stoppedAt: new Date(now) },
    });
    if (!moved) return null;
    return raiseNotice({
      db: tx,
      at: now,
      type: 'normal_warn',
      accountId: node.accountId,
      title: 'Dedicated node stopped',
      content:
        `${nodeLabel(deps, node)} was stopped by our operators (${why}). Its data is kept and its term runs on; ` +
        'contact support to have it started again.',
      expand: { name: nodeLabel(deps, node) },
    });
  });
}

export async function startNodeByOperator(
  deps: TOperatorDeps,
  nodeId: string,
): Promise<TOperatorOutcome> {
  return act(deps, nodeId, ['stopped'], 'started', async (node, tx, now) => {
    const moved = await transition(tx, {
      nodeId,
      from: ['stopped'],
      to: 'pending',
      at: now,
      reason: 'started_by_operator',
      set: { stoppedAt: null },
    });
    if (!moved) return null;
    return raiseNotice({
      db: tx,
      at: now,
      type: 'normal_success',
      accountId: node.accountId,
      title: 'Dedicated node started again',
      content: `${nodeLabel(deps, node)} is being started again and comes online in a few minutes.`,
      expand: { name: nodeLabel(deps, node) },
    });
  });
}

async function act(
  deps: TOperatorDeps,
  nodeId: string,
  from: TDnStatus[],
  done: TOperatorOutcome,
  work: (node: TDedicatedNodeRow, tx: TExecutor, now: number) => Promise<TNoticeRow[] | null>,
): Promise<TOperatorOutcome> {
  const [node] = await deps.db.select().from(dedicatedNodes).where(eq(dedicatedNodes.id, nodeId));
  if (!node) return 'not_found';
  if (!from.includes(node.status)) return 'not_applicable';
  const now = deps.clock.now();
  return (await changeOne(deps, (tx) => work(node, tx, now))) ? done : 'not_applicable';
}

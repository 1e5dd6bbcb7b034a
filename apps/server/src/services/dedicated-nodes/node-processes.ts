/**
 * The lifecycle's driver steps: start pending nodes and bring them online once they answer, start again running
 * nodes whose process is gone, stop expired nodes' processes, delete what the driver keeps once the grace period is
 * over. Driver calls are idempotent and retried by later passes when they fail (the failure kept in last_error).
 */
import type { TDnEventReason, TDnStatus } from '@rpc/contract';
import {
  dedicatedNodeEvents,
  dedicatedNodes,
  type TDedicatedNodeRow,
  type TDnDriverRef,
  type TExecutor,
} from '@rpc/db';
import { and, asc, eq, gt, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { raiseNotice } from '../notices/raise-notice';
import type { TDnRunState } from './driver';
import { nodeLabel } from './node-rows';
import { BATCH, changeOne, ofDriver, transition, type TDnLifecycleDeps } from './node-transition';

/** Statuses whose node should be running. */
const RUNNING: TDnStatus[] = ['online', 'will_expired'];

/** The driver's view of a ref, or null when it could not tell (then nothing is done about the node this pass). */
async function runState(
  deps: TDnLifecycleDeps,
  node: TDedicatedNodeRow,
): Promise<TDnRunState | null> {
  if (!node.driverRef) return 'stopped';
  try {
    return await deps.dnDriver.status(node.driverRef);
  } catch (err) {
    deps.logger.warn({ err, nodeId: node.id }, 'dedicated node status unknown');
    return null;
  }
}

/** Keeps the driver's failure on the node (in `db`: the caller's transaction when it holds the row). */
async function noteError(
  deps: TDnLifecycleDeps,
  node: TDedicatedNodeRow,
  err: unknown,
  db: TExecutor = deps.db,
) {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  // Said once per failure, not on every pass that meets it again.
  if (node.lastError === message) return;
  deps.logger.error({ err, nodeId: node.id }, 'dedicated node driver failed');
  await db.update(dedicatedNodes).set({ lastError: message }).where(eq(dedicatedNodes.id, node.id));
}

/**
 * Expired nodes (in their grace period) and nodes an operator stopped keep their data, not their process: stops any
 * still running (also after a failed stop).
 */
export async function stopExpired(deps: TDnLifecycleDeps): Promise<number> {
  let n = 0;
  const inGrace = and(
    inArray(dedicatedNodes.status, ['expired', 'stopped']),
    isNull(dedicatedNodes.dataDeletedAt),
    isNotNull(dedicatedNodes.driverRef),
  );
  await forEachNode(deps, inGrace, async (node) => {
    const state = await runState(deps, node);
    if (state === null || state === 'stopped') return;
    try {
      await deps.dnDriver.stop(node.driverRef!);
      n += 1;
    } catch (err) {
      await noteError(deps, node, err);
    }
  });
  return n;
}

/** Deletes what the driver keeps of nodes past their grace period; the ref is dropped once it is gone. */
export async function destroyDeleted(deps: TDnLifecycleDeps): Promise<void> {
  const rows = await deps.db
    .select()
    .from(dedicatedNodes)
    .where(
      and(
        isNotNull(dedicatedNodes.dataDeletedAt),
        isNotNull(dedicatedNodes.driverRef),
        ofDriver(deps),
      ),
    )
    .limit(BATCH);
  for (const node of rows) {
    try {
      await deps.dnDriver.destroy(node.driverRef!);
      await deps.db
        .update(dedicatedNodes)
        .set({ driverRef: null })
        .where(
          and(
            eq(dedicatedNodes.id, node.id),
            eq(dedicatedNodes.driverGeneration, node.driverGeneration),
          ),
        );
    } catch (err) {
      await noteError(deps, node, err);
    }
  }
}

/**
 * Starts a node's process (again), at most once per generation: under the node's row lock (another sweep skips it)
 * and only if nobody provisioned it since `node` was read. `reason` adds an event that keeps the status.
 */
async function provision(
  deps: TDnLifecycleDeps,
  node: TDedicatedNodeRow,
  now: number,
  reason: TDnEventReason | null,
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(dedicatedNodes)
      .where(
        and(
          eq(dedicatedNodes.id, node.id),
          eq(dedicatedNodes.status, node.status),
          eq(dedicatedNodes.driverGeneration, node.driverGeneration),
        ),
      )
      .for('update', { skipLocked: true });
    if (!row) return false;
    let ref: TDnDriverRef;
    try {
      ref = await deps.dnDriver.provision(
        { id: row.id, chain: row.chain, nodeType: row.nodeType, region: row.region },
        row.driverRef ?? null,
      );
    } catch (err) {
      // Through the transaction: it holds the row's lock.
      await noteError(deps, row, err, tx);
      return false;
    }
    const at = new Date(now);
    await tx
      .update(dedicatedNodes)
      .set({
        driverRef: ref,
        driverGeneration: row.driverGeneration + 1,
        lastError: null,
        updatedAt: at,
      })
      .where(eq(dedicatedNodes.id, row.id));
    if (reason)
      await tx
        .insert(dedicatedNodeEvents)
        .values({ nodeId: row.id, status: row.status, at, reason });
    return true;
  });
}

/** Whether the node answers a JSON-RPC eth_chainId at its upstream: the test of "provisioned and answering". */
export async function answersRpc(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(3000),
    });
    const body = (await res.json()) as { result?: unknown };
    return typeof body.result === 'string';
  } catch {
    return false;
  }
}

export async function bringUpPending(
  deps: TDnLifecycleDeps,
  now: number,
): Promise<{ provisioned: number; online: number }> {
  let provisioned = 0;
  let online = 0;
  await forEachNode(deps, eq(dedicatedNodes.status, 'pending'), async (node) => {
    if (!deps.dnDriver.canProvision(node.chain)) {
      await noteError(deps, node, `the ${deps.dnDriver.name} driver cannot run ${node.chain}`);
      return;
    }
    const state = await runState(deps, node);
    if (state === 'stopped') {
      if (await provision(deps, node, now, null)) provisioned += 1;
      return;
    }
    if (state !== 'running') return;
    if (!(await answersRpc(deps.dnDriver.upstreamUrl(node.driverRef!).http))) return;
    const changed = await changeOne(deps, async (tx) => {
      const moved = await transition(tx, {
        nodeId: node.id,
        from: ['pending'],
        to: 'online',
        at: now,
        reason: 'answering',
        set: { onlineAt: new Date(now), lastError: null },
        // Not if it was provisioned again meanwhile (the process just probed may be gone).
        where: eq(dedicatedNodes.driverGeneration, node.driverGeneration),
      });
      if (!moved) return null;
      return raiseNotice({
        db: tx,
        at: now,
        type: 'normal_success',
        accountId: node.accountId,
        title: 'Dedicated node online',
        content: `${nodeLabel(deps, node)} is online. Call it at its private endpoint with one of your API keys.`,
        expand: { name: nodeLabel(deps, node) },
      });
    });
    if (changed) online += 1;
  });
  return { provisioned, online };
}

/** Nodes that should run but whose process is gone (a console restart, a crash) are started again. */
export async function recoverRunning(deps: TDnLifecycleDeps, now: number): Promise<number> {
  let recovered = 0;
  await forEachNode(deps, inArray(dedicatedNodes.status, RUNNING), async (node) => {
    if ((await runState(deps, node)) !== 'stopped') return;
    if (await provision(deps, node, now, 'restarted')) recovered += 1;
  });
  return recovered;
}

/**
 * Every node of this driver matching `where`, page by page in id order: checks that change nothing for most rows
 * (is the process there?) must still reach all of them, not the first page again and again.
 */
async function forEachNode(
  deps: TDnLifecycleDeps,
  where: SQL | undefined,
  visit: (node: TDedicatedNodeRow) => Promise<void>,
): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const page: TDedicatedNodeRow[] = await deps.db
      .select()
      .from(dedicatedNodes)
      .where(and(where, ofDriver(deps), after ? gt(dedicatedNodes.id, after) : undefined))
      .orderBy(asc(dedicatedNodes.id))
      .limit(BATCH);
    for (const node of page) await visit(node);
    if (page.length < BATCH) return;
    after = page[page.length - 1]!.id;
  }
}

/**
 * Starts an export for the acting account, or answers with the one already queued or running for the same kind
 * and filters (a partial unique index makes that hold across concurrent calls and instances).
 */
import type { TExportJob, TExportKind } from '@rpc/contract';
import { exportJobs, type TDatabase } from '@rpc/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { TClock } from '../../lib/clock';
import type { TExportCaller } from './export-error';
import type { TJobQueue } from './job-queue';
import { toExportJob } from './to-export-job';

export const EXPORT_QUEUE = 'export-csv';

type TDeps = { db: TDatabase; clock: TClock; jobs: TJobQueue };

/** Sorted keys, so the same filters always give the same key. */
export function filterKeyOf(filter: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(filter).sort(([a], [b]) => (a < b ? -1 : 1))),
  );
}

export async function requestExport(o: {
  deps: TDeps;
  caller: TExportCaller;
  kind: TExportKind;
  filter: Record<string, unknown>;
}): Promise<TExportJob> {
  const { db } = o.deps;
  const accountId = o.caller.account.id;
  const filterKey = filterKeyOf(o.filter);
  const open = and(
    eq(exportJobs.accountId, accountId),
    eq(exportJobs.kind, o.kind),
    eq(exportJobs.filterKey, filterKey),
    inArray(exportJobs.status, ['queued', 'running']),
  );
  const [existing] = await db.select().from(exportJobs).where(open).limit(1);
  if (existing) return toExportJob(existing);

  const [created] = await db
    .insert(exportJobs)
    .values({
      accountId,
      userId: o.caller.userId,
      kind: o.kind,
      filter: o.filter,
      filterKey,
      createdAt: new Date(o.deps.clock.now()),
    })
    .onConflictDoNothing()
    .returning();
  if (!created) {
    // Another call for the same filters won the race: answer with its job.
    const [winner] = await db.select().from(exportJobs).where(open).limit(1);
    if (winner) return toExportJob(winner);
    throw new Error('export: neither created nor found');
  }
  try {
    await o.deps.jobs.send(EXPORT_QUEUE, { exportId: created.id }, { singletonKey: created.id });
  } catch (err) {
    // Nothing queued: leave no open row behind that would answer every later call.
    await db.delete(exportJobs).where(eq(exportJobs.id, created.id));
    throw err;
  }
  return toExportJob(created);
}

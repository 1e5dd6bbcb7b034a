/**
 * The console role's export worker: runs export jobs from the engine, and at start re-sends exports still
 * queued in export_jobs (a crash between the row's commit and the engine's send would otherwise strand them;
 * the engine's singletonKey drops a re-send of a job still waiting). Old finished exports are deleted.
 */
import { exportJobs, type TDatabase } from '@rpc/db';
import { and, eq, inArray, lt, or } from 'drizzle-orm';
import type { TClock } from '../../lib/clock';
import type { TLogger } from '../../lib/logger';
import type { TDepositSettings } from '../deposits/deposit-settings';
import type { TNoticeBus } from '../notices/notice-bus';
import type { TJobQueue } from './job-queue';
import { EXPORT_QUEUE } from './request-export';
import { EXPORT_STALE_MS, runExport } from './run-export';

/** Finished exports (and their files) are kept this long. */
export const EXPORT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

type TDeps = {
  db: TDatabase;
  clock: TClock;
  logger: TLogger;
  noticeBus: TNoticeBus;
  deposits: TDepositSettings;
  jobs: TJobQueue;
};

export async function startExportWorker(deps: TDeps): Promise<void> {
  await deps.jobs.work(EXPORT_QUEUE, async (data) => {
    if (typeof data.exportId === 'string') await runExport(deps, data.exportId);
  });
  const now = deps.clock.now();
  await deps.db
    .delete(exportJobs)
    .where(
      and(
        inArray(exportJobs.status, ['done', 'failed']),
        lt(exportJobs.createdAt, new Date(now - EXPORT_RETENTION_MS)),
      ),
    );
  const stranded = await deps.db
    .select({ id: exportJobs.id })
    .from(exportJobs)
    .where(
      or(
        eq(exportJobs.status, 'queued'),
        and(
          eq(exportJobs.status, 'running'),
          lt(exportJobs.startedAt, new Date(now - EXPORT_STALE_MS)),
        ),
      ),
    );
  for (const { id } of stranded)
    await deps.jobs.send(EXPORT_QUEUE, { exportId: id }, { singletonKey: id });
  if (stranded.length > 0) deps.logger.info({ count: stranded.length }, 'exports re-queued');
}

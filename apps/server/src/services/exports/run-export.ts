/**
 * Runs one export job: claims it, writes the CSV into its row, and raises file_download for the user who asked,
 * in the same transaction as the status change (pushed on the bus after commit). A job delivered twice (engine
 * retry, or re-sent after a restart) does the work at most once per claim and notifies once.
 */
import { exportJobs, type TDatabase } from '@rpc/db';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { TClock } from '../../lib/clock';
import type { TLogger } from '../../lib/logger';
import type { TDepositSettings } from '../deposits/deposit-settings';
import type { TNoticeBus } from '../notices/notice-bus';
import { raiseNotice } from '../notices/raise-notice';
import { toCsv } from './csv';
import { exportTable } from './export-rows';

/** A job "running" for longer than this died with its process; a redelivery may take it over. */
export const EXPORT_STALE_MS = 10 * 60 * 1000;

type TDeps = {
  db: TDatabase;
  clock: TClock;
  logger: TLogger;
  noticeBus: TNoticeBus;
  deposits: TDepositSettings;
};

function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}

export async function runExport(deps: TDeps, exportId: string): Promise<void> {
  const { db } = deps;
  const now = deps.clock.now();
  const [job] = await db
    .update(exportJobs)
    .set({ status: 'running', startedAt: new Date(now), attempts: sql`${exportJobs.attempts} + 1` })
    .where(
      and(
        eq(exportJobs.id, exportId),
        or(
          eq(exportJobs.status, 'queued'),
          and(
            eq(exportJobs.status, 'running'),
            lt(exportJobs.startedAt, new Date(now - EXPORT_STALE_MS)),
          ),
        ),
      ),
    )
    .returning();
  if (!job) return;
  try {
    const table = await exportTable(deps, job.kind, job.accountId, job.filter);
    const csv = toCsv(table.header, table.rows);
    const finishedAt = deps.clock.now();
    const fileName = `${job.kind}s-${stamp(finishedAt)}-${job.id.slice(0, 8)}.csv`;
    const noticeRows = await db.transaction(async (tx) => {
      const [done] = await tx
        .update(exportJobs)
        .set({
          status: 'done',
          csv,
          rows: table.rows.length,
          truncated: table.truncated,
          fileName,
          finishedAt: new Date(finishedAt),
          error: null,
        })
        .where(and(eq(exportJobs.id, job.id), eq(exportJobs.status, 'running')))
        .returning({ id: exportJobs.id });
      if (!done) return [];
      return raiseNotice({
        db: tx,
        at: finishedAt,
        type: 'file_download',
        title: 'Your export is ready',
        content: `The ${job.kind} export ${fileName} is ready to download.`,
        expand: { name: fileName, type: job.kind, amount: table.rows.length, exportId: job.id },
        userId: job.userId,
        accountId: job.accountId,
      });
    });
    deps.noticeBus.push(noticeRows);
  } catch (err) {
    deps.logger.error({ err, exportId }, 'export failed');
    await db
      .update(exportJobs)
      .set({
        status: 'failed',
        error: String((err as Error).message ?? err).slice(0, 500),
        finishedAt: new Date(deps.clock.now()),
      })
      .where(eq(exportJobs.id, job.id));
  }
}

/**
 * One export of the acting account. When done, each call hands out a fresh download link: a random 32-byte
 * token whose SHA-256 alone is stored, expiring after EXPORT_LINK_TTL_MS (the browser's download cannot send
 * the bearer header, so possession of the link is the proof).
 */
import { createHash, randomBytes } from 'node:crypto';
import { EXPORT_LINK_TTL_MS, type TExportJob } from '@rpc/contract';
import { exportDownloadTokens, exportJobs, type TDatabase } from '@rpc/db';
import { and, eq, lt } from 'drizzle-orm';
import type { TClock } from '../../lib/clock';
import { ExportError, type TExportCaller } from './export-error';
import { toExportJob } from './to-export-job';

type TDeps = { db: TDatabase; clock: TClock; config: { publicUrl: string } };

export function hashDownloadToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function downloadPath(exportId: string, token: string): string {
  return `/exports/${exportId}/download?token=${token}`;
}

export async function getExportStatus(o: {
  deps: TDeps;
  caller: TExportCaller;
  params: { exportId: string };
}): Promise<TExportJob> {
  const { db, clock } = o.deps;
  const [row] = await db
    .select()
    .from(exportJobs)
    .where(
      and(eq(exportJobs.id, o.params.exportId), eq(exportJobs.accountId, o.caller.account.id)),
    );
  if (!row) throw new ExportError('not_found');
  if (row.status !== 'done') return toExportJob(row);

  const now = clock.now();
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    await tx
      .delete(exportDownloadTokens)
      .where(
        and(
          eq(exportDownloadTokens.exportId, row.id),
          lt(exportDownloadTokens.expiresAt, new Date(now)),
        ),
      );
    await tx.insert(exportDownloadTokens).values({
      tokenHash: hashDownloadToken(token),
      exportId: row.id,
      expiresAt: new Date(now + EXPORT_LINK_TTL_MS),
    });
  });
  return toExportJob(row, o.deps.config.publicUrl + downloadPath(row.id, token));
}

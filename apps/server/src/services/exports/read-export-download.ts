/** The file behind a download link, or null (unknown export, wrong, tampered or expired token, not done). */
import { exportDownloadTokens, exportJobs, type TDatabase } from '@rpc/db';
import { and, eq, gt } from 'drizzle-orm';
import type { TClock } from '../../lib/clock';
import { hashDownloadToken } from './get-export-status';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export async function readExportDownload(
  deps: { db: TDatabase; clock: TClock },
  exportId: string,
  token: string | undefined,
): Promise<{ fileName: string; csv: string } | null> {
  if (!UUID.test(exportId) || !token || !TOKEN.test(token)) return null;
  const [row] = await deps.db
    .select({ fileName: exportJobs.fileName, csv: exportJobs.csv })
    .from(exportDownloadTokens)
    .innerJoin(exportJobs, eq(exportJobs.id, exportDownloadTokens.exportId))
    .where(
      and(
        eq(exportDownloadTokens.tokenHash, hashDownloadToken(token)),
        eq(exportDownloadTokens.exportId, exportId),
        gt(exportDownloadTokens.expiresAt, new Date(deps.clock.now())),
        eq(exportJobs.status, 'done'),
      ),
    );
  if (!row || row.csv === null || row.fileName === null) return null;
  return { fileName: row.fileName, csv: row.csv };
}

import type { TExportJob } from '@rpc/contract';
import type { TExportJobRow } from '@rpc/db';

/** An export_jobs row as the API shows it; the download link is added by the caller that minted it. */
export function toExportJob(row: TExportJobRow, downloadUrl?: string): TExportJob {
  return {
    exportId: row.id,
    kind: row.kind,
    status: row.status,
    createdAt: row.createdAt.getTime(),
    ...(row.status === 'done'
      ? {
          fileName: row.fileName ?? undefined,
          rows: row.rows ?? 0,
          truncated: row.truncated,
          ...(downloadUrl ? { downloadUrl } : {}),
        }
      : {}),
  };
}

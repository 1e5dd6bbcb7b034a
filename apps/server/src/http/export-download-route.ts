/**
 * GET /exports/:exportId/download?token=… — an export's CSV for whoever holds a link minted for its account
 * (hub_getExportStatus). Anything else is a plain 404: unknown export, another's, wrong or expired token.
 */
import type { FastifyInstance } from 'fastify';
import type { TDeps } from '../rpc/context';
import { CSV_BOM } from '../services/exports/csv';
import { readExportDownload } from '../services/exports/read-export-download';

export function registerExportDownloadRoute(
  app: FastifyInstance,
  deps: Pick<TDeps, 'db' | 'clock'>,
): void {
  app.get<{ Params: { exportId: string }; Querystring: { token?: string } }>(
    '/exports/:exportId/download',
    async (request, reply) => {
      const token = typeof request.query.token === 'string' ? request.query.token : undefined;
      const file = await readExportDownload(deps, request.params.exportId, token);
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (!file) return reply.code(404).send({ error: 'Not Found' });
      const ascii = file.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
          )
          .header('x-content-type-options', 'nosniff')
          // The BOM is added here: PGlite's text decoding drops a leading one from stored text.
          .send(file.csv.startsWith(CSV_BOM) ? file.csv : CSV_BOM + file.csv)
      );
    },
  );
}

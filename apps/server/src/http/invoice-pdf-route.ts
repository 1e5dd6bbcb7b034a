/**
 * GET /invoice-pdf?code=…&lang=en|zh — the PDF of the invoice behind a live public code, for anyone holding the
 * link (SPEC §2's /invoice/{code} page links here). The code rides in the query so the request log masks it
 * (lib/logger.ts redactUrl). Anything else is a plain 404: unknown, malformed or revoked code.
 */
import { INVOICE_PDF_PATH } from '@rpc/contract';
import type { FastifyInstance } from 'fastify';
import type { TDeps } from '../rpc/context';
import { readPublicInvoicePdf } from '../services/invoices/get-invoice-pdf';

const MAX_CODE_LENGTH = 128;

export function registerInvoicePdfRoute(
  app: FastifyInstance,
  deps: Pick<TDeps, 'db' | 'config'>,
): void {
  app.get<{ Querystring: { code?: unknown; lang?: unknown } }>(
    INVOICE_PDF_PATH,
    async (request, reply) => {
      const { code, lang } = request.query;
      const language = lang === 'zh' ? 'zh' : 'en';
      const file =
        typeof code === 'string' && code.length <= MAX_CODE_LENGTH
          ? await readPublicInvoicePdf(deps, code.trim(), language)
          : null;
      reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex');
      if (!file) return reply.code(404).send({ error: 'Not Found' });
      const ascii = file.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .header('x-content-type-options', 'nosniff')
        .send(file.pdf);
    },
  );
}

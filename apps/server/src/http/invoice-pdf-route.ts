/**
 * GET /invoice-pdf?code=…&lang=en|zh — the PDF of the invoice behind a live public code, for anyone holding the
 * link (SPEC §2's /invoice/{code} page links here). The code rides in the query so the request log masks it
 * (lib/logger.ts redactUrl). Anything else is a plain 404: unknown, malformed or revoked code. Every request counts
 * against the client IP's `invoicePdf` throttle before any work; past it the answer is 429 with Retry-After.
 */
import { ERROR_CODES, INVOICE_PDF_PATH } from '@rpc/contract';
import type { FastifyInstance } from 'fastify';
import type { TDeps } from '../rpc/context';
import { RpcError } from '../rpc/errors';
import { readPublicInvoicePdf } from '../services/invoices/get-invoice-pdf';

const MAX_CODE_LENGTH = 128;

export function registerInvoicePdfRoute(
  app: FastifyInstance,
  deps: Pick<TDeps, 'db' | 'config' | 'throttle' | 'clock'>,
): void {
  app.get<{ Querystring: { code?: unknown; lang?: unknown } }>(
    INVOICE_PDF_PATH,
    async (request, reply) => {
      reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex');
      try {
        await deps.throttle.enforce({
          action: 'invoicePdf',
          email: null,
          ip: request.ip,
          limitType: 'type1',
        });
      } catch (err) {
        if (!(err instanceof RpcError) || err.code !== ERROR_CODES.RATE_LIMITED) throw err;
        const waitMs = (err.attemptsExpireAt ?? 0) - deps.clock.now();
        return reply
          .code(429)
          .header('retry-after', String(Math.max(1, Math.ceil(waitMs / 1000))))
          .send({ error: 'Too Many Requests' });
      }
      const { code, lang } = request.query;
      const language = lang === 'zh' ? 'zh' : 'en';
      const file =
        typeof code === 'string' && code.length <= MAX_CODE_LENGTH
          ? await readPublicInvoicePdf(deps, code.trim(), language)
          : null;
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

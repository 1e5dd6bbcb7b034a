/**
 * POST /support/ticket (SPEC §7: the support ticket's own path): multipart/form-data with the fields category,
 * subject, body, optional apiKeyId and one optional file part `attachment`. Signed in like the API (bearer token,
 * X-Team-Id: a team member's ticket belongs to the team) and answered like it: HTTP 200 with the JSON envelope
 * `{ id: null, result }` or `{ id: null, error }`, so the web app has one error path.
 */
import multipart from '@fastify/multipart';
import {
  ERROR_CODES,
  SUPPORT_TICKET_PATH,
  TEAM_ID_HEADER,
  TICKET_ATTACHMENT_MAX_BYTES,
  TICKET_BODY_MAX,
  roleAllows,
} from '@rpc/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveAuth } from '../auth/resolve-auth';
import type { TDeps } from '../rpc/context';
import { errorResponse } from '../rpc/dispatcher';
import { RpcError } from '../rpc/errors';
import { toRpcError } from '../rpc/methods/support/support-rpc-error';
import {
  createSupportTicket,
  type TTicketAttachmentInput,
} from '../services/support/create-support-ticket';
import { SupportError } from '../services/support/support-error';

const TEXT_FIELDS = new Set(['category', 'subject', 'body', 'apiKeyId']);
const FILE_FIELD = 'attachment';
/** Room for the longest body in 4-byte UTF-8; a longer value is cut by busboy and refused as too long. */
const FIELD_SIZE_LIMIT = TICKET_BODY_MAX * 4 + 1024;

export async function registerSupportTicketRoute(app: FastifyInstance, deps: TDeps): Promise<void> {
  await app.register(async (scope) => {
    // Encapsulated: the multipart parser exists on this path only (unless an outer scope already has it).
    if (!scope.hasRequestDecorator('isMultipart')) await scope.register(multipart);

    scope.setErrorHandler((err: { code?: string; statusCode?: number }, request, reply) => {
      const code =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ||
        err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE'
          ? ERROR_CODES.UNSUPPORTED_MEDIA_TYPE
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? ERROR_CODES.PAYLOAD_TOO_LARGE
            : err.statusCode && err.statusCode < 500
              ? ERROR_CODES.TICKET_FORM_INVALID
              : ERROR_CODES.INTERNAL_ERROR;
      if (code === ERROR_CODES.INTERNAL_ERROR) request.log.error({ err }, 'support ticket error');
      return reply.code(200).send(errorResponse({ logger: request.log }, new RpcError(code)));
    });

    scope.post(SUPPORT_TICKET_PATH, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        // The session first: a caller without one learns nothing about the form and no body is read.
        const auth = await resolveAuth({
          db: deps.db,
          clock: deps.clock,
          token: bearerToken(request),
          teamId: headerValue(request, TEAM_ID_HEADER),
        });
        // Any member of a team may file for it (every role holds 'view'): asking for help is not a privilege.
        if (!roleAllows(auth.account.role, 'view'))
          throw new RpcError(ERROR_CODES.TEAM_ROLE_FORBIDDEN);
        if (!request.isMultipart()) throw new RpcError(ERROR_CODES.UNSUPPORTED_MEDIA_TYPE);
        const { fields, attachment } = await readTicketForm(request);
        const result = await createSupportTicket({
          deps,
          caller: { ...auth, ip: request.ip },
          fields,
          attachment,
        });
        return reply.send({ id: null, result });
      } catch (err) {
        const mapped = err instanceof SupportError ? toRpcError(err) : err;
        return reply.send(errorResponse({ logger: request.log }, mapped));
      }
    });
  });
}

/** The form's text fields and its one file; anything unexpected is a SupportError before any write. */
async function readTicketForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; attachment: TTicketAttachmentInput | null }> {
  const fields: Record<string, string> = {};
  let attachment: TTicketAttachmentInput | null = null;
  let hasFilePart = false;
  try {
    for await (const part of request.parts({
      limits: {
        fileSize: TICKET_ATTACHMENT_MAX_BYTES,
        files: 1,
        fields: TEXT_FIELDS.size,
        fieldSize: FIELD_SIZE_LIMIT,
        fieldNameSize: 64,
        parts: TEXT_FIELDS.size + 1,
        headerPairs: 16,
      },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== FILE_FIELD || hasFilePart) {
          part.file.resume();
          throw new SupportError('form_invalid');
        }
        hasFilePart = true;
        const bytes = await part.toBuffer();
        // A form with an empty file input sends an empty part without a name: no attachment.
        if (bytes.length > 0 || part.filename !== '')
          attachment = { filename: part.filename, bytes };
        continue;
      }
      if (!TEXT_FIELDS.has(part.fieldname) || Object.hasOwn(fields, part.fieldname))
        throw new SupportError('form_invalid');
      if (part.valueTruncated)
        throw new SupportError('fields_invalid', [{ path: part.fieldname, message: 'Too long' }]);
      if (typeof part.value !== 'string') throw new SupportError('form_invalid');
      // An empty optional field is the same as leaving it out.
      if (!(part.fieldname === 'apiKeyId' && part.value === ''))
        fields[part.fieldname] = part.value;
    }
  } catch (err) {
    if (err instanceof SupportError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new SupportError('attachment_too_large');
    // Too many parts, files or fields, a prototype key, a broken multipart stream: the form, not the server.
    throw new SupportError('form_invalid');
  }
  return { fields, attachment };
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

function headerValue(request: FastifyRequest, name: string): string | null {
  const v = request.headers[name];
  return typeof v === 'string' && v !== '' ? v : null;
}

/**
 * POST /upload/avatar (SPEC §7: multipart/form-data, one image in the field `file`) and GET /avatar/:userId.
 *
 * The upload acts for the session's user (never the team in X-Team-Id) and answers like /api: HTTP 200 with
 * `{ id: null, result: { avatar } }` or `{ id: null, error }` from the catalogue, so the web client has one error
 * path. Nothing of the upload touches the disk, and what is served is only ever the server's own re-encoding
 * (services/account/avatar-image.ts; docs/decisions/avatars.md).
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import {
  AVATAR_FIELD,
  AVATAR_MAX_BYTES,
  AVATAR_PATH,
  AVATAR_UPLOAD_PATH,
  ERROR_CODES,
  ZUploadAvatarResultSchema,
  type TRpcResponse,
} from '@rpc/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveSession } from '../auth/resolve-auth';
import type { TDeps } from '../rpc/context';
import { errorResponse } from '../rpc/dispatcher';
import { RpcError } from '../rpc/errors';
import { AVATAR_VERSION_LENGTH } from '../services/account/avatar-url';
import { readAvatar } from '../services/account/read-avatar';
import { saveAvatar } from '../services/account/save-avatar';
import { bearerToken } from './api-route';

/** Room for the multipart framing and a few small fields around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/**
 * A body over the cap is still read (and dropped) up to this size so the client can read its 11001; a declared
 * length past it is refused unread and the connection closed, and a body that grows past it is cut off.
 */
const DRAIN_LIMIT_BYTES = 2 * AVATAR_MAX_BYTES + FORM_OVERHEAD_BYTES;

/** Busboy's limits: one file of at most the cap; a few short fields are tolerated and ignored. */
const FORM_LIMITS = {
  files: 1,
  fileSize: AVATAR_MAX_BYTES,
  fields: 10,
  fieldSize: 1024,
  fieldNameSize: 100,
  parts: 12,
  headerPairs: 50,
};

/**
 * For the image itself: a browser opening it as a page gets nothing that runs (default-src 'none', sandbox); the
 * inline style is only for the browser's own image viewer.
 */
const AVATAR_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
/** The URL carries the image's version (?v=), so that URL's bytes never change. */
const CACHE_VERSIONED = 'public, max-age=31536000, immutable';
/** Without the current version (no ?v, an old one): cacheable, but checked with the ETag every time. */
const CACHE_UNVERSIONED = 'public, no-cache';

type TUploadAnswer = { body: TRpcResponse; isBodyUnread: boolean };

export async function registerAvatarRoutes(app: FastifyInstance, deps: TDeps): Promise<void> {
  await app.register(async (scope) => {
    // Only multipart is parsed, and only once the handler asks, after the session and the throttle: other types
    // are left unread (10006) instead of being parsed as JSON or text first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request: FastifyRequest, _payload: IncomingMessage, done) =>
      done(null),
    );
    await scope.register(multipart, { limits: FORM_LIMITS, throwFileSizeLimit: true });

    scope.setErrorHandler((err: { statusCode?: number }, request, reply) => {
      const code =
        err.statusCode && err.statusCode < 500
          ? ERROR_CODES.INVALID_REQUEST
          : ERROR_CODES.INTERNAL_ERROR;
      if (code === ERROR_CODES.INTERNAL_ERROR) request.log.error({ err }, 'avatar upload error');
      return reply
        .code(200)
        .header('connection', 'close')
        .send(errorResponse({ logger: request.log }, new RpcError(code)));
    });

    scope.post(AVATAR_UPLOAD_PATH, async (request, reply) => {
      const answer = await upload(deps, request);
      // An unread body is left to Node to drain only when it is small and its length declared.
      if (answer.isBodyUnread && !isSmallDeclaredBody(request)) reply.header('connection', 'close');
      return reply.code(200).header('cache-control', 'no-store').send(answer.body);
    });
  });

  app.get<{ Params: { userId: string }; Querystring: { v?: unknown } }>(
    `${AVATAR_PATH}/:userId`,
    async (request, reply) => {
      const avatar = await readAvatar(deps.db, request.params.userId);
      reply
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', AVATAR_CSP);
      if (!avatar)
        return reply.code(404).header('cache-control', 'no-store').send({ error: 'Not Found' });
      const isCurrentVersion = request.query.v === avatar.sha256.slice(0, AVATAR_VERSION_LENGTH);
      reply
        .header('etag', `"${avatar.sha256}"`)
        .header('cache-control', isCurrentVersion ? CACHE_VERSIONED : CACHE_UNVERSIONED)
        .header('cross-origin-resource-policy', 'same-origin');
      if (matchesEtag(request.headers['if-none-match'], avatar.sha256))
        return reply.code(304).send();
      return reply
        .header('content-type', 'image/webp')
        .header('content-disposition', 'inline; filename="avatar.webp"')
        .send(avatar.image);
    },
  );
}

async function upload(deps: TDeps, request: FastifyRequest): Promise<TUploadAnswer> {
  let isBodyUnread = true;
  try {
    // The user behind the token, whatever team the console acts for: an avatar is the person's.
    const session = await resolveSession({
      db: deps.db,
      clock: deps.clock,
      token: bearerToken(request),
    });
    // Every attempt counts, before any work (decoding is the expensive part).
    await deps.throttle.enforce({
      action: 'avatarUpload',
      email: `user:${session.userId}`,
      ip: request.ip,
      limitType: 'type3',
    });
    if (!request.isMultipart()) throw new RpcError(ERROR_CODES.UNSUPPORTED_MEDIA_TYPE);
    if (Number(request.headers['content-length'] ?? 0) > DRAIN_LIMIT_BYTES)
      throw new RpcError(ERROR_CODES.AVATAR_TOO_LARGE);
    isBodyUnread = false;
    const bytes = await readAvatarFile(request);
    const result = await saveAvatar({
      db: deps.db,
      clock: deps.clock,
      userId: session.userId,
      bytes,
    });
    return { body: { id: null, result: ZUploadAvatarResultSchema.parse(result) }, isBodyUnread };
  } catch (err) {
    return { body: errorResponse({ logger: request.log }, err), isBodyUnread };
  }
}

/**
 * The bytes of the one file in the field `file`, read from the stream with the cap: past it nothing more is kept
 * (busboy counts and drops the rest). Other fields are ignored; a file under another name, a second file or no
 * file is 11005. Nothing is written to disk and the client's file name and type are never looked at.
 */
async function readAvatarFile(request: FastifyRequest): Promise<Buffer> {
  let received = 0;
  // A body without a declared length (chunked) is cut off once it grows past what a declared one may be.
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > DRAIN_LIMIT_BYTES) request.raw.destroy();
  };
  let image: Buffer | null = null;
  let isTooLarge = false;
  let isOtherFile = false;
  const parts = request.parts({ limits: FORM_LIMITS });
  // The first step starts the parser, which pipes the request into busboy; only then is the request watched, so
  // the extra listener cannot set the body flowing before busboy is there to read it.
  const first = parts.next();
  request.raw.on('data', onData);
  try {
    for (let step = await first; step.done !== true; step = await parts.next()) {
      const part = step.value;
      if (part.type !== 'file') continue;
      if (part.fieldname !== AVATAR_FIELD) {
        isOtherFile = true;
        await drain(part.file);
        continue;
      }
      const read = await readCapped(part.file);
      if (read === null) isTooLarge = true;
      else image = read;
    }
  } catch (err) {
    throw multipartError(err);
  } finally {
    request.raw.off('data', onData);
  }
  if (isTooLarge) throw new RpcError(ERROR_CODES.AVATAR_TOO_LARGE);
  if (isOtherFile || !image || image.length === 0)
    throw new RpcError(ERROR_CODES.AVATAR_FILE_REQUIRED);
  return image;
}

/** The file's bytes, or null when it was over the cap (read to its end, nothing past the cap kept). */
async function readCapped(file: Readable & { truncated?: boolean }): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  let isOver = false;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > AVATAR_MAX_BYTES) isOver = true;
    if (!isOver) chunks.push(chunk);
  }
  if (isOver || file.truncated) return null;
  return Buffer.concat(chunks, size);
}

async function drain(stream: Readable): Promise<void> {
  stream.resume();
  await finished(stream);
}

/** @fastify/multipart's and busboy's failures as catalogue errors. */
function multipartError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  const code = (err as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new RpcError(ERROR_CODES.AVATAR_TOO_LARGE);
  if (code === 'FST_FILES_LIMIT') return new RpcError(ERROR_CODES.AVATAR_FILE_REQUIRED);
  // Malformed multipart (no boundary, cut short, too many parts or fields): the client's fault.
  return new RpcError(ERROR_CODES.INVALID_REQUEST, { cause: err });
}

function isSmallDeclaredBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return length !== undefined && Number(length) <= FORM_OVERHEAD_BYTES;
}

/** If-None-Match against our strong ETag: `*`, or the quoted hash in a list (a weak W/ form matches too). */
function matchesEtag(header: string | undefined, sha256: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === `"${sha256}"`);
}

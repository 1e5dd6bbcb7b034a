/** /api: raw body → JSON → dispatcher; every transport failure still answers the JSON envelope with HTTP 200. */
import type { IncomingMessage } from 'node:http';
import { API_BODY_LIMIT_BYTES, API_PATH, ERROR_CODES, TEAM_ID_HEADER } from '@rpc/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createContext, type TDeps } from '../rpc/context';
import { dispatch, errorResponse } from '../rpc/dispatcher';
import { RpcError } from '../rpc/errors';
import { parseRequestBody } from '../rpc/parse-body';
import { BODY_TOO_LARGE, BodyTooLargeError, readLimitedBody } from './read-body';

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * A body over the limit is still read (and dropped) up to this size so the client can read its 10005; past it the
 * connection is closed, so nobody can make us swallow gigabytes.
 */
export const API_BODY_DRAIN_LIMIT_BYTES = 1024 * 1024;

export async function registerApiRoute(app: FastifyInstance, deps: TDeps): Promise<void> {
  await app.register(async (scope) => {
    // Take the body as text whatever its type, so a wrong type, bad JSON, an empty or an oversize body all get
    // our envelope instead of Fastify's own 4xx; the type is checked in the handler. Fastify's own size check
    // would answer and close the connection while the client is still sending (EPIPE, no answer read).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (request: FastifyRequest, payload: IncomingMessage) =>
      readLimitedBody(payload, request.headers['content-length'], {
        limit: API_BODY_LIMIT_BYTES,
        drainLimit: API_BODY_DRAIN_LIMIT_BYTES,
      }),
    );

    scope.setErrorHandler((err: { code?: string; statusCode?: number }, request, reply) => {
      const code =
        err instanceof BodyTooLargeError || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? ERROR_CODES.PAYLOAD_TOO_LARGE
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? ERROR_CODES.UNSUPPORTED_MEDIA_TYPE
            : err.statusCode && err.statusCode < 500
              ? ERROR_CODES.INVALID_REQUEST
              : ERROR_CODES.INTERNAL_ERROR;
      if (code === ERROR_CODES.INTERNAL_ERROR) request.log.error({ err }, 'api transport error');
      return reply.code(200).send(errorResponse({ logger: request.log }, new RpcError(code)));
    });

    scope.post(API_PATH, async (request, reply) => {
      const ctx = createContext(deps, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        token: bearerToken(request),
        teamId: headerValue(request, TEAM_ID_HEADER),
        requestId: request.id,
        logger: request.log,
      });
      if (request.body === BODY_TOO_LARGE) {
        return reply.send(errorResponse(ctx, new RpcError(ERROR_CODES.PAYLOAD_TOO_LARGE)));
      }
      // Only JSON is accepted: it also keeps cross-site "simple" form posts (text/plain) out.
      const contentType = request.headers['content-type'] ?? '';
      if (!JSON_TYPE.test(contentType)) {
        return reply.send(errorResponse(ctx, new RpcError(ERROR_CODES.UNSUPPORTED_MEDIA_TYPE)));
      }
      let body: unknown;
      try {
        body = parseRequestBody(typeof request.body === 'string' ? request.body : '');
      } catch (err) {
        return reply.send(errorResponse(ctx, err));
      }
      return reply.send(await dispatch(ctx, body));
    });

    // Every other HTTP method gets the envelope too (10007), not Fastify's 404/400, so a client has one error path.
    scope.route({
      method: scope.supportedMethods.filter((m) => m !== 'POST'),
      url: API_PATH,
      handler: async (request, reply) =>
        reply
          .header('allow', 'POST')
          .send(
            errorResponse(
              { logger: request.log },
              new RpcError(ERROR_CODES.HTTP_METHOD_NOT_ALLOWED),
            ),
          ),
    });
  });
}

/** The token of `Authorization: Bearer <token>`, or null (also for the avatar upload, avatar-routes.ts). */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

function headerValue(request: FastifyRequest, name: string): string | null {
  const v = request.headers[name];
  return typeof v === 'string' && v !== '' ? v : null;
}

/**
 * The console API dispatcher: envelope → method → params (validated) → session → handler → result (validated).
 * Knows nothing about HTTP; every failure leaves as a catalogue error, never as a stack trace.
 */
import {
  AUDITED_PERMISSIONS,
  ERROR_CODES,
  ZRpcRequestSchema,
  roleAllows,
  buildOpenRpcDocument,
  getMethod,
  type TMethodDef,
  type TMethodName,
  type TRpcError,
  type TRpcResponse,
} from '@rpc/contract';
import type { z } from 'zod';
import { resolveActingAccount, resolveSession } from '../auth/resolve-auth';
import { writeAuditFromCall } from '../services/teams/audit-log';
import type { TAuth, TRpcContext } from './context';
import { RpcError, toRpcErrorBody, type TErrorDetail } from './errors';
import { HANDLERS } from './handlers';
import { findHostileInput } from './hostile-input';
import { noteRpcCall } from '../metrics';

type TId = string | number | null;
type TAnyHandler = {
  auth: 'none' | 'user';
  run: (args: { ctx: TRpcContext; auth?: TAuth; params: unknown }) => Promise<unknown>;
};

export const DISCOVER_METHOD = 'rpc.discover';

/** Dispatches one already-parsed request body. */
export async function dispatch(ctx: TRpcContext, body: unknown): Promise<TRpcResponse> {
  const started = performance.now();
  const id = pickId(body);
  let method: string | undefined;
  try {
    const envelope = ZRpcRequestSchema.safeParse(body);
    if (!envelope.success) {
      throw new RpcError(ERROR_CODES.INVALID_REQUEST, { details: toDetails(envelope.error) });
    }
    method = envelope.data.method;
    const result = await call(ctx, method, envelope.data.params);
    ctx.logger.info({ method, ms: elapsed(started) }, 'rpc ok');
    noteRpcCall(ctx, method, 0);
    return { id, result };
  } catch (err) {
    const error = toErrorBody(ctx, err, method, started);
    noteRpcCall(ctx, method, error.code);
    return { id, error };
  }
}

/** Wraps a failure that happened before dispatch (bad JSON, body too large) in the same envelope. */
export function errorResponse(
  ctx: Pick<TRpcContext, 'logger'>,
  err: unknown,
  id: TId = null,
): TRpcResponse {
  return { id, error: toErrorBody(ctx, err, undefined, performance.now()) };
}

async function call(ctx: TRpcContext, method: string, rawParams: unknown): Promise<unknown> {
  if (method === DISCOVER_METHOD) return buildOpenRpcDocument(ctx.config.version);
  const def = getMethod(method);
  const handler = def ? (HANDLERS as unknown as Record<string, TAnyHandler>)[method] : undefined;
  if (!def || !handler) throw new RpcError(ERROR_CODES.METHOD_NOT_FOUND);

  // The contract decides whether a session is needed; a handler of the other kind is a wiring bug.
  if (handler.auth !== def.auth)
    throw new Error(`handler auth of ${method} disagrees with the contract`);
  // Session first: a caller without one learns nothing about a method's params.
  let auth: TAuth | undefined;
  let params: unknown;
  if (def.auth === 'user') {
    const session = await resolveSession({
      ...ctx,
      allowTwoFactorPending: def.allowsTwoFactorPending === true,
    });
    if (def.teamFrom === 'params') {
      // Team management names its team in the params: membership and role are checked on that team, which must
      // be a team (a user is the owner of their personal account, which is not something to disband).
      params = validateParams(def, rawParams);
      auth = await resolveActingAccount(ctx.db, session, (params as { teamId: string }).teamId);
      if (auth.account.kind !== 'team') throw new RpcError(ERROR_CODES.TEAM_FORBIDDEN);
      checkRole(def, auth);
    } else {
      // A method about the session itself (hub_logout) ignores X-Team-Id, so a stale team id cannot keep anyone
      // signed in. The role is checked before the params: a refused role learns nothing about them.
      auth = await resolveActingAccount(ctx.db, session, def.ignoresTeamHeader ? null : ctx.teamId);
      checkRole(def, auth);
      params = validateParams(def, rawParams);
    }
  } else {
    params = validateParams(def, rawParams);
  }
  const result = await handler.run({ ctx, params, ...(auth ? { auth } : {}) });
  if (
    auth?.account.kind === 'team' &&
    def.auth === 'user' &&
    AUDITED_PERMISSIONS.has(def.permission) &&
    !def.readOnly
  ) {
    await writeAuditFromCall(ctx, { auth, method: method as TMethodName, params });
  }

  // The contract promises the shape of every answer; a mismatch is our bug, reported as 10500.
  const checked = def.result.safeParse(result);
  if (!checked.success) {
    throw new Error(`result of ${method} does not match the contract: ${checked.error.message}`);
  }
  return checked.data;
}

/** The one role check of the whole API (teams/permissions.ts): handlers never look at roles. */
function checkRole(def: TMethodDef, auth: TAuth): void {
  if (def.auth === 'user' && !roleAllows(auth.account.role, def.permission)) {
    throw new RpcError(ERROR_CODES.TEAM_ROLE_FORBIDDEN);
  }
}

function validateParams(def: TMethodDef, raw: unknown): unknown {
  // Missing params mean {}; older clients send [{…}] (or []), so one-element arrays are unwrapped.
  let value: unknown = raw ?? {};
  if (Array.isArray(value)) value = value.length === 0 ? {} : value[0];
  const hostile = findHostileInput(value);
  if (hostile) throw new RpcError(ERROR_CODES.INVALID_PARAMS, { details: [hostile] });
  const parsed = def.params.safeParse(value);
  if (!parsed.success)
    throw new RpcError(ERROR_CODES.INVALID_PARAMS, { details: toDetails(parsed.error) });
  return parsed.data;
}

function toDetails(error: z.ZodError): TErrorDetail[] {
  return error.issues.slice(0, 20).map((i) => ({
    path: i.path.map(String).join('.') || '(root)',
    message: i.message,
  }));
}

function toErrorBody(
  ctx: Pick<TRpcContext, 'logger'>,
  err: unknown,
  method: string | undefined,
  started: number,
): TRpcError {
  if (err instanceof RpcError) {
    ctx.logger.info({ method, errorCode: err.code, ms: elapsed(started) }, 'rpc error');
    return toRpcErrorBody(err.code, err);
  }
  // Unexpected: full detail to the log, nothing but the catalogue text to the caller.
  ctx.logger.error({ err, method, ms: elapsed(started) }, 'rpc internal error');
  return toRpcErrorBody(ERROR_CODES.INTERNAL_ERROR);
}

function pickId(body: unknown): TId {
  if (typeof body !== 'object' || body === null || !('id' in body)) return null;
  const id = (body as { id: unknown }).id;
  if (typeof id === 'string' && id.length <= 64) return id;
  if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
  return null;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/** Builds the OpenRPC document of every method from the contract's zod schemas; never written by hand. */
import { z } from 'zod';
import { ERROR_CATALOGUE } from './errors';
import { METHODS } from './methods';
import type { TMethodDef } from './define-method';

function schemaOf(s: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
}

export function buildOpenRpcDocument(version: string): Record<string, unknown> {
  const methods = (Object.values(METHODS) as TMethodDef[]).map((m) => ({
    name: m.name,
    summary: m.summary,
    paramStructure: 'by-name',
    params: [{ name: 'params', required: true, schema: schemaOf(m.params, 'input') }],
    result: { name: 'result', schema: schemaOf(m.result, 'output') },
    'x-auth': m.auth,
    ...(m.permission ? { 'x-permission': m.permission } : {}),
    ...(m.teamFrom === 'params' ? { 'x-team-from': 'params' } : {}),
    ...(m.limitType ? { 'x-limit-type': m.limitType } : {}),
    ...(m.hideError ? { 'x-hide-error': true } : {}),
  }));
  return {
    openrpc: '1.3.2',
    info: {
      title: 'Console API',
      version,
      description:
        "POST /api with {method, params, id}. Answers {id, result} or {id, error: {code, message, messageZh, limitType?, attemptsExpireAt?}}. Authorization: Bearer <token>; X-Team-Id: <teamId> in team login. x-permission names what the caller's role on the acting account must allow (owner: all; admin: self, view, keys, billing, members; billing: self, view, billing; viewer: self, view).",
    },
    methods,
    components: {
      errors: Object.fromEntries(
        Object.entries(ERROR_CATALOGUE).map(([code, e]) => [
          code,
          {
            code: Number(code),
            message: e.en,
            data: { messageZh: e.zh, silent: e.silent === true },
          },
        ]),
      ),
    },
  };
}

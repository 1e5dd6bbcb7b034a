/** Builds the OpenRPC document of every method from the contract's zod schemas; never written by hand. */
import { z } from 'zod';
import * as account from './account/methods';
import * as apiKeys from './api-keys/methods';
import * as chains from './chains/methods';
import * as notices from './notices/methods';
import * as reports from './reports/methods';
import { CARD_METHODS } from './cards/methods';
import { DN_METHODS } from './dedicated-nodes/methods';
import { DEPOSIT_METHODS } from './deposits/methods';
import { EXPORT_METHODS } from './exports/methods';
import { INVOICE_METHODS } from './invoices/methods';
import { TEAM_METHODS } from './teams/methods';
import { SIGN_IN_METHODS } from './sign-in/methods';
import { SUPPORT_METHODS } from './support/methods';
import { REQUEST_LOG_METHODS } from './request-logs/methods';
import { WALLET_METHODS } from './wallet/methods';
import { ERROR_CATALOGUE } from './errors';
import { METHODS } from './methods';
import type { TMethodDef } from './define-method';

/** The domain (folder) each method is declared in: the document's tag, which readers group by. */
const DOMAINS: Record<string, readonly unknown[]> = {
  account: Object.values(account),
  'sign-in': SIGN_IN_METHODS,
  'api-keys': Object.values(apiKeys),
  chains: Object.values(chains),
  notices: Object.values(notices),
  reports: Object.values(reports),
  wallet: WALLET_METHODS,
  deposits: DEPOSIT_METHODS,
  cards: CARD_METHODS,
  invoices: INVOICE_METHODS,
  exports: EXPORT_METHODS,
  teams: TEAM_METHODS,
  'dedicated-nodes': DN_METHODS,
  support: SUPPORT_METHODS,
  'request-logs': REQUEST_LOG_METHODS,
};

const TAG_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(DOMAINS).flatMap(([tag, exported]) =>
    // A domain module exports schemas too: a method is what has a hub_ name.
    exported.flatMap((m) =>
      m &&
      typeof m === 'object' &&
      'name' in m &&
      typeof m.name === 'string' &&
      m.name.startsWith('hub_')
        ? [[m.name, tag] as const]
        : [],
    ),
  ),
);

/** The method's domain tag; undefined only for a method declared outside every domain above. */
export function methodTag(name: string): string | undefined {
  return TAG_OF.get(name);
}

function schemaOf(s: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
}

export function buildOpenRpcDocument(version: string): Record<string, unknown> {
  const methods = (Object.values(METHODS) as TMethodDef[]).map((m) => ({
    name: m.name,
    summary: m.summary,
    ...(TAG_OF.has(m.name) ? { tags: [{ name: TAG_OF.get(m.name)! }] } : {}),
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

/**
 * The one request client of the console API (SPEC §7–9): POST {method, params, id: 1} to API_PATH,
 * bearer token and team header, 60 s timeout, cancel of duplicate in-flight calls, cancel on route change,
 * and the error catalogue behaviour of SPEC §8 — all of it here and nowhere else.
 */
import type { TLimitType, TMethodName, TParamsIn, TResult, TRpcError } from '@rpc/contract';
import {
  API_PATH,
  ERROR_CODES,
  HTTP_TIMEOUT_MS,
  LIMIT_TYPES,
  POPUP_DURATION_S,
  SESSION_ERROR_CODES,
  SILENT_ERROR_CODES,
  TEAM_ID_HEADER,
} from '@rpc/contract';
import Cookies from 'js-cookie';
// The contract's per-method flags, built from its method table (method-flags-plugin.ts): no schemas shipped.
import METHOD_FLAGS from 'virtual:rpc-method-flags';
import { currentLang, i18n } from './i18n';
import { showPopup } from './popups';
import { COOKIE } from './storage-keys';

/** Code of errors that never reached the API's envelope (network failure, HTTP status without a body). */
export const TRANSPORT_ERROR_CODE = -1;

export type TCallOptions = {
  signal?: AbortSignal;
  /** no error popup (the method's own hideError flag also counts) */
  hideError?: boolean;
  /** no 10429 popup (the method's own hideLimit flag also counts) */
  hideLimit?: boolean;
  /** on 10101–10104 do not sign out and leave the page (the message still shows unless hideError) */
  keepSession?: boolean;
  /** error codes the caller shows in its own way (a field message, a prompt): no popup for these */
  silentCodes?: readonly number[];
  /**
   * The bearer token to send instead of the cookie's: a sign-in still waiting for its two-factor code is kept out
   * of the cookie (it answers 10104 to everything else) and only its own calls carry it.
   */
  token?: string;
};

/** A call the API (or the transport) answered with an error; the popup rules have already run. */
export class RpcCallError extends Error {
  readonly code: number;
  readonly messageZh: string;
  readonly limitType?: TLimitType;
  readonly attemptsExpireAt?: number;
  readonly details?: TRpcError['details'];
  /** the HTTP status when it was not 2xx */
  readonly httpStatus?: number;
  readonly method: string;

  constructor(method: string, error: TRpcError, httpStatus?: number) {
    super(error.message);
    this.name = 'RpcCallError';
    this.method = method;
    this.code = error.code;
    this.messageZh = error.messageZh;
    if (error.limitType) this.limitType = error.limitType;
    if (error.attemptsExpireAt !== undefined) this.attemptsExpireAt = error.attemptsExpireAt;
    if (error.details) this.details = error.details;
    if (httpStatus !== undefined) this.httpStatus = httpStatus;
  }
}

export type TCancelReason = 'cancelled' | 'duplicate' | 'route-change' | 'timeout';

/** A call that was cancelled or timed out: callers ignore it, nothing is shown. */
export class RpcCancelledError extends Error {
  readonly reason: TCancelReason;
  constructor(method: string, reason: TCancelReason) {
    super(`${method} ${reason === 'timeout' ? 'timed out' : `cancelled (${reason})`}`);
    this.name = 'RpcCancelledError';
    this.reason = reason;
  }
}

export function isCancelledError(error: unknown): error is RpcCancelledError {
  return error instanceof RpcCancelledError;
}

export function isTimeoutError(error: unknown): boolean {
  return error instanceof RpcCancelledError && error.reason === 'timeout';
}

// --- Session hand-off (the session module registers itself; this keeps the import graph acyclic) ---

export type TSessionInvalidHandler = (error: RpcCallError) => void | Promise<void>;
let onSessionInvalid: TSessionInvalidHandler = () => {};

/** Who signs out and goes to / when the API says the session is unusable (10101–10103). */
export function setSessionInvalidHandler(handler: TSessionInvalidHandler): void {
  onSessionInvalid = handler;
}

// --- In-flight calls ---

type TPending = { key: string; controller: AbortController; keepDuplicates: boolean };
const pending = new Set<TPending>();

/** JSON with object keys sorted, so { a, b } and { b, a } are the same call. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Cancels every call in flight; the router calls it when the route name changes (SPEC §9). */
export function cancelAllPending(reason: TCancelReason = 'route-change'): void {
  for (const entry of pending) entry.controller.abort(reason);
  pending.clear();
}

export function pendingCount(): number {
  return pending.size;
}

// --- Popups (SPEC §8) ---

const t = (key: string, options?: Record<string, unknown>): string =>
  i18n.t(key, { ns: 'errors', ...options });

/** "1 min", "5 minutes", "3 hours", "2 days" until attempts reset (SPEC §9). */
export function remainingTimeText(ms: number): string {
  const minutes = Math.ceil(Math.max(ms, 0) / 60_000);
  if (minutes <= 1) return t('remaining.oneMinute');
  if (minutes < 60) return t('remaining.minutes', { count: minutes });
  const hours = Math.ceil(minutes / 60);
  if (hours < 24) return t('remaining.hours', { count: hours });
  return t('remaining.days', { count: Math.ceil(hours / 24) });
}

/** The 10429 wording, or null for limit types that show nothing (SPEC §8 "custom"). */
export function limitMessage(
  limitType: string | undefined,
  attemptsExpireAt: number | undefined,
  now = Date.now(),
): string | null {
  const type = limitType ?? 'type1';
  if (!(LIMIT_TYPES as readonly string[]).includes(type)) return null;
  if (attemptsExpireAt === undefined) return t(`limit.${type}NoTime`);
  return t(`limit.${type}`, { time: remainingTimeText(attemptsExpireAt - now) });
}

function errorText(error: Pick<TRpcError, 'message' | 'messageZh'>): string {
  const text = currentLang() === 'zh' ? error.messageZh : error.message;
  return text || t('networkError');
}

/**
 * The text of a failed call in the page's language, for screens that show it themselves (calls without popups,
 * such as hub_checkOauthCode); "Network Error" for anything that is not an API answer.
 */
export function describeRpcError(error: unknown): string {
  return error instanceof RpcCallError ? errorText(error) : t('networkError');
}

function popup(kind: 'error' | 'warning', content: string): void {
  showPopup(kind, content, POPUP_DURATION_S);
}

type TFlags = {
  hideError: boolean;
  hideLimit: boolean;
  keepSession: boolean;
  limitType?: TLimitType;
};

/**
 * The codes after which the session cannot go on: SPEC §4's 10101–10103, and 10104 — a session still owing its
 * two-factor code can only finish signing in, which starts again at the password step.
 */
const SIGN_OUT_CODES: readonly number[] = [...SESSION_ERROR_CODES, ERROR_CODES.TWO_FACTOR_PENDING];

/** SPEC §8 for an error envelope, in the order the spec lists the rules. */
function applyErrorRules(error: RpcCallError, flags: TFlags): void {
  if (SILENT_ERROR_CODES.includes(error.code)) return;
  if (error.code === 10429) {
    if (flags.hideLimit) return;
    const text = limitMessage(flags.limitType ?? error.limitType, error.attemptsExpireAt);
    if (text) popup('warning', text);
    return;
  }
  if (SIGN_OUT_CODES.includes(error.code)) {
    if (flags.keepSession) {
      if (!flags.hideError) popup('error', errorText(error));
      return;
    }
    popup('error', errorText(error));
    void Promise.resolve(onSessionInvalid(error)).catch((e: unknown) => {
      console.error('Sign-out after an invalid session failed', e);
    });
    return;
  }
  if (!flags.hideError) popup('error', errorText(error));
}

/** SPEC §8 transport rules: HTTP 429 has its own text; anything else shows its message or Network Error. */
function applyTransportRules(error: RpcCallError, flags: TFlags): void {
  if (error.httpStatus === 429) {
    if (!flags.hideLimit) popup('warning', t('tooManyAttempts'));
    return;
  }
  if (!flags.hideError) popup('error', errorText(error));
}

function transportError(method: string, status: number | undefined, text?: string): RpcCallError {
  const fallbackEn = i18n.t('networkError', { ns: 'errors', lng: 'en' });
  const fallbackZh = i18n.t('networkError', { ns: 'errors', lng: 'zh' });
  return new RpcCallError(
    method,
    { code: TRANSPORT_ERROR_CODE, message: text || fallbackEn, messageZh: text || fallbackZh },
    status,
  );
}

function isErrorEnvelope(body: unknown): body is { error: TRpcError } {
  if (!body || typeof body !== 'object' || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return !!error && typeof error === 'object' && typeof (error as TRpcError).code === 'number';
}

function buildHeaders(tokenOverride?: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = tokenOverride ?? Cookies.get(COOKIE.token);
  if (token) headers.authorization = `Bearer ${token}`;
  const teamId = Cookies.get(COOKIE.teamId);
  if (teamId) headers[TEAM_ID_HEADER] = teamId;
  return headers;
}

/**
 * Calls one console API method. Resolves with its result; rejects with RpcCallError after the SPEC §8
 * popups have run, or with an error for which isCancelledError() is true when cancelled or timed out.
 */
export async function callRpc<N extends TMethodName>(
  method: N,
  params: TParamsIn<N>,
  opts: TCallOptions = {},
): Promise<TResult<N>> {
  return (await send(method, params, opts)) as TResult<N>;
}

/** The API's own OpenRPC method: not in the contract's table, so its answer is unknown until the caller parses it. */
export const DISCOVER_METHOD = 'rpc.discover';

/** rpc.discover: the OpenRPC document of every method, with the same transport and error rules as callRpc. */
export function callDiscover(opts: TCallOptions = {}): Promise<unknown> {
  return send(DISCOVER_METHOD, {}, opts);
}

async function send(method: string, params: unknown, opts: TCallOptions): Promise<unknown> {
  const def = Object.hasOwn(METHOD_FLAGS, method) ? METHOD_FLAGS[method] : undefined;
  const flags: TFlags = {
    hideError: opts.hideError ?? def?.hideError ?? false,
    hideLimit: opts.hideLimit ?? def?.hideLimit ?? false,
    keepSession: opts.keepSession ?? false,
    ...(def?.limitType ? { limitType: def.limitType } : {}),
  };
  const keepDuplicates = def?.keepDuplicates ?? false;
  const key = `${method}:${stableStringify(params)}`;

  if (!keepDuplicates) {
    for (const entry of pending) {
      if (entry.key === key) {
        entry.controller.abort('duplicate' satisfies TCancelReason);
        pending.delete(entry);
      }
    }
  }

  const controller = new AbortController();
  const entry: TPending = { key, controller, keepDuplicates };
  pending.add(entry);
  const timer = setTimeout(
    () => controller.abort('timeout' satisfies TCancelReason),
    HTTP_TIMEOUT_MS,
  );
  const onOuterAbort = () => controller.abort('cancelled' satisfies TCancelReason);
  if (opts.signal?.aborted) onOuterAbort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const cancelled = (): RpcCancelledError =>
    new RpcCancelledError(method, (controller.signal.reason as TCancelReason) ?? 'cancelled');

  try {
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(API_PATH, {
        method: 'POST',
        headers: buildHeaders(opts.token),
        body: JSON.stringify({ method, params, id: 1 }),
        signal: controller.signal,
        credentials: 'same-origin',
      });
      body = await response.json().catch(() => undefined);
    } catch {
      if (controller.signal.aborted) throw cancelled();
      const failure = transportError(method, undefined);
      applyTransportRules(failure, flags);
      throw failure;
    }
    if (controller.signal.aborted) throw cancelled();

    if (isErrorEnvelope(body)) {
      const failure = new RpcCallError(
        method,
        body.error,
        response.ok ? undefined : response.status,
      );
      const rules = opts.silentCodes?.includes(failure.code)
        ? { ...flags, hideError: true }
        : flags;
      // An HTTP 429 without the API's own 10429 comes from a proxy in front of it.
      if (response.status === 429 && failure.code !== 10429) applyTransportRules(failure, rules);
      else applyErrorRules(failure, rules);
      throw failure;
    }
    if (response.status >= 400 || !body || typeof body !== 'object' || !('result' in body)) {
      const failure = transportError(method, response.status);
      applyTransportRules(failure, flags);
      throw failure;
    }
    return (body as { result: unknown }).result;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
    pending.delete(entry);
  }
}

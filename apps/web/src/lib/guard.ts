/**
 * The route guard of SPEC §2 as pure functions: (route, session state) -> decision. The router applies
 * the answer; nothing here touches the browser, cookies or the network.
 */
import type { TLanguage, TUserProfile } from '@rpc/contract';
import { getSafeRedirect } from './safe-redirect';

export const ROUTE_NAMES = [
  'index',
  'register',
  'register-confirm',
  'activate-account',
  'email-confirm',
  'reset-password',
  'reset-password-checking',
  'reset-password-set',
  'set-password-checking',
  'set-password-set',
  'third-party-login',
  'auth-callback',
  'bind-callback',
  'first-login',
  'choose-team',
  'invite-member',
  'invoice-code',
  'login',
  'workbench',
  '404',
  'slug',
  'rpc',
  'rpc-billings',
  'rpc-billings-charge',
  'rpc-billings-invoice',
  'rpc-dedicated-node',
  'rpc-dedicated-node-new',
  'rpc-endpoint',
  'rpc-profile',
  'rpc-statistic',
  'rpc-team',
  'rpc-team-logs',
  'rpc-notifications',
  'rpc-api-reference',
] as const;

export type TRouteName = (typeof ROUTE_NAMES)[number];

export type TLayoutName = 'default' | 'dashboard';
export type TLoginType = 'personal' | 'team';

/** What a validate rule answers: true passes; false is a 404; an object carries its own status and message. */
export type TValidateResult = boolean | { status: number; message: string };

export type TRouteMeta = {
  layout: TLayoutName;
  /** i18n key of the document title */
  titleKey: string;
  validate?: (to: TRouteTarget) => TValidateResult;
  /** the page keeps its scroll position on navigation (SPEC §2 scroll rule) */
  keepScroll?: boolean;
};

export type TRouteTarget = {
  name: TRouteName;
  /** path without query and hash, with the locale prefix */
  path: string;
  /** path + query + hash, as shown in the address bar */
  fullPath: string;
  query: Record<string, string>;
  params: Record<string, string | undefined>;
  hash: string;
  lang: TLanguage;
  meta: TRouteMeta;
};

export type TGuardState = {
  token: string | null;
  user: TUserProfile | null;
  loginType: TLoginType | null;
  teamIdCookie: string | null;
};

/** A side effect the router performs before following the decision. */
export type TGuardEffect =
  { kind: 'set-login-type'; loginType: TLoginType } | { kind: 'choose-team'; teamId: string };

export type TGuardDecision =
  | { kind: 'allow'; effects?: TGuardEffect[] }
  | { kind: 'redirect'; to: string; effects?: TGuardEffect[] }
  /** notFoundPath: set when the page is simply not found, so the screen can say so in the page's language */
  | { kind: 'error'; status: number; message: string; notFoundPath?: string }
  | { kind: 'clear-token-and-allow' }
  /** a token exists but the user is unknown: restore the session (SPEC §4), then ask again */
  | { kind: 'load-user' };

/** Reachable without a token (SPEC §2). */
export const PUBLIC_ROUTES: ReadonlySet<TRouteName> = new Set<TRouteName>([
  'index',
  'register',
  'register-confirm',
  'third-party-login',
  'auth-callback',
  'reset-password',
  'reset-password-checking',
  'reset-password-set',
  'set-password-checking',
  'set-password-set',
  'bind-callback',
  'activate-account',
  'invite-member',
  'slug',
  '404',
  'invoice-code',
]);

/** A signed-in user opening one of these goes to /rpc/endpoint (SPEC §2). */
export const SIGNED_IN_REDIRECT_ROUTES: ReadonlySet<TRouteName> = new Set<TRouteName>([
  'index',
  'reset-password',
  'reset-password-checking',
  'register',
  'auth-callback',
  'third-party-login',
  'set-password-checking',
  'set-password-set',
]);

/** Stay reachable while signed in, whatever the login state (SPEC §2). */
export const SIGNED_IN_ALLOWED_ROUTES: ReadonlySet<TRouteName> = new Set<TRouteName>([
  'register-confirm',
  'activate-account',
]);

export const HOME_PATH = '/rpc/endpoint';
/** Any origin will do: getSafeRedirect only accepts paths, which resolve against it. */
const SAME_SITE = 'http://same-site.invalid';
export const CHOOSE_TEAM_PATH = '/choose-team';
export const FIRST_LOGIN_PATH = '/first-login';

/** '/rpc', '/rpc/…' with or without a query: a page behind the login-type rules. */
function isDashboardPath(fullPath: string): boolean {
  const path = fullPath.split(/[?#]/)[0]!;
  return path === '/rpc' || path.startsWith('/rpc/');
}

function withLang(path: string, lang: TLanguage): string {
  if (lang === 'en') return path;
  return path === '/' ? '/zh' : `/zh${path}`;
}

export function notFoundMessage(fullPath: string): string {
  return `Page Not Found: ${fullPath}`;
}

function redirect(to: TRouteTarget, path: string, effects?: TGuardEffect[]): TGuardDecision {
  const target = withLang(path, to.lang);
  // Already there: let it through instead of looping (the effects still apply).
  if (target === to.path) return effects ? { kind: 'allow', effects } : { kind: 'allow' };
  return effects ? { kind: 'redirect', to: target, effects } : { kind: 'redirect', to: target };
}

/** Runs the route's validate rule; undefined when it passes. */
function validateRoute(to: TRouteTarget): TGuardDecision | undefined {
  if (!to.meta.validate) return undefined;
  const result = to.meta.validate(to);
  if (result === true) return undefined;
  if (result === false) {
    return {
      kind: 'error',
      status: 404,
      message: notFoundMessage(to.fullPath),
      notFoundPath: to.fullPath,
    };
  }
  return { kind: 'error', status: result.status, message: result.message };
}

/**
 * Works out a missing login type (SPEC §2 "No login type yet"): effects to apply on the way, or where to go
 * instead. `home` is where a personal user without teams goes: /rpc/endpoint, or the page a sign-in returns to.
 */
function decideLoginType(
  to: TRouteTarget,
  user: TUserProfile,
  home: string = HOME_PATH,
): TGuardDecision | TGuardEffect[] {
  if (user.userType === 'team') {
    if (user.teamList.length === 1) {
      const teamId = user.teamList[0]!.teamId;
      return [
        { kind: 'choose-team', teamId },
        { kind: 'set-login-type', loginType: 'team' },
      ];
    }
    // Several teams (or none yet): the user picks on the choose-team page.
    return to.name === 'choose-team' ? { kind: 'allow' } : redirect(to, CHOOSE_TEAM_PATH);
  }
  if (user.teamList.length > 0) {
    return to.name === 'choose-team' ? { kind: 'allow' } : redirect(to, CHOOSE_TEAM_PATH);
  }
  return redirect(to, home, [{ kind: 'set-login-type', loginType: 'personal' }]);
}

/** The whole guard. Rules are checked in SPEC §2 order; the first that answers wins. */
export function decideNavigation(to: TRouteTarget, state: TGuardState): TGuardDecision {
  const invalid = validateRoute(to);
  if (invalid) return invalid;

  // The invoice page is shared by link with people who are not users: no guard at all.
  if (to.name === 'invoice-code') return { kind: 'allow' };

  if (!state.token) {
    return PUBLIC_ROUTES.has(to.name) ? { kind: 'allow' } : redirect(to, '/');
  }

  if (to.name === 'third-party-login' && to.query.from === 'admin') {
    return { kind: 'clear-token-and-allow' };
  }
  if (SIGNED_IN_REDIRECT_ROUTES.has(to.name)) {
    // Signing in on "/?redirect=/rpc/…" goes where the user was headed, whichever navigation runs first (the
    // login form's or this one, which the new session state triggers).
    const back = to.name === 'index' ? getSafeRedirect(to.query.redirect ?? null, SAME_SITE) : null;
    if (back && !state.loginType && state.user && isDashboardPath(back)) {
      // A first sign-in has no login type yet: it is worked out here, on the way back, or the dashboard page it
      // leads to would send the user on to /rpc/endpoint by that rule (and the way back was kept only when the
      // login form's own navigation happened to come last). Public pages (an invitation) need no login type.
      const answer = decideLoginType(to, state.user, back);
      return Array.isArray(answer) ? redirect(to, back, answer) : answer;
    }
    return redirect(to, back ?? HOME_PATH);
  }
  if (SIGNED_IN_ALLOWED_ROUTES.has(to.name)) return { kind: 'allow' };

  // Public pages that are not account pages (not-found, invitations, bind callback) need no login state.
  if (PUBLIC_ROUTES.has(to.name)) return { kind: 'allow' };

  if (!state.user) return { kind: 'load-user' };
  const user = state.user;

  let loginType = state.loginType;
  let teamId = state.teamIdCookie;
  let effects: TGuardEffect[] | undefined;
  if (!loginType) {
    const answer = decideLoginType(to, user);
    if (!Array.isArray(answer)) return answer;
    effects = answer;
    loginType = 'team';
    teamId = user.teamList[0]!.teamId;
  }

  const allow = (): TGuardDecision => (effects ? { kind: 'allow', effects } : { kind: 'allow' });
  const go = (path: string): TGuardDecision => redirect(to, path, effects);

  if (loginType === 'team' && !teamId) {
    return to.name === 'choose-team' ? allow() : go(CHOOSE_TEAM_PATH);
  }
  // Choosing a team (or switching back to personal) is always possible once signed in.
  if (to.name === 'choose-team') return allow();

  const needsFirstLogin = loginType === 'personal' && !user.initialize;
  if (needsFirstLogin) return to.name === 'first-login' ? allow() : go(FIRST_LOGIN_PATH);
  if (to.name === 'first-login') return go(HOME_PATH);

  return allow();
}

// --- Navigation targets (SPEC §2: external URLs refused unless allowed; some protocols always) ---

export const DANGEROUS_PROTOCOLS: readonly string[] = [
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
];

export type TNavigationCheck =
  | { kind: 'internal'; path: string }
  | { kind: 'external'; href: string }
  | { kind: 'refuse'; reason: 'dangerous-protocol' | 'external-not-allowed' | 'malformed' };

export type TNavigationPolicy = {
  /** the app's own origin, e.g. https://console.example.com */
  origin: string;
  /** hosts (exact, lowercase) the app may send the browser to */
  allowedHosts?: readonly string[];
};

/** True for javascript:, data:, vbscript: and file: URLs, however they are disguised with case or whitespace. */
export function hasDangerousProtocol(url: string): boolean {
  // Browsers ignore control characters and whitespace inside the scheme; so must we.
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  return DANGEROUS_PROTOCOLS.some((p) => compact.startsWith(p));
}

/** Classifies a navigation target: an internal path, an allowed external URL, or refused. */
export function checkNavigationTarget(target: string, policy: TNavigationPolicy): TNavigationCheck {
  if (hasDangerousProtocol(target)) return { kind: 'refuse', reason: 'dangerous-protocol' };
  let url: URL;
  try {
    url = new URL(target, policy.origin);
  } catch {
    return { kind: 'refuse', reason: 'malformed' };
  }
  if (url.origin === new URL(policy.origin).origin) {
    return { kind: 'internal', path: `${url.pathname}${url.search}${url.hash}` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== 'mailto:') {
    return { kind: 'refuse', reason: 'dangerous-protocol' };
  }
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'mailto:' || (policy.allowedHosts ?? []).includes(host)) {
    return { kind: 'external', href: url.href };
  }
  return { kind: 'refuse', reason: 'external-not-allowed' };
}

// --- Scroll (SPEC §2) ---

export type TScrollLocation = { pathname: string; hash: string };

export type TScrollDecision = { kind: 'none' } | { kind: 'top' } | { kind: 'anchor'; id: string };

/** Where to scroll after a navigation: to the hash anchor, to the top, or nowhere. */
export function decideScroll(
  from: TScrollLocation | null,
  to: TScrollLocation,
  meta: Pick<TRouteMeta, 'keepScroll'>,
): TScrollDecision {
  if (to.hash && to.hash !== '#') {
    let id = to.hash.slice(1);
    try {
      id = decodeURIComponent(id);
    } catch {
      // keep the raw id
    }
    return { kind: 'anchor', id };
  }
  if (meta.keepScroll) return { kind: 'none' };
  // A query-only change (filters, pages of a table) is not a route change.
  if (from && from.pathname === to.pathname) return { kind: 'none' };
  return { kind: 'top' };
}

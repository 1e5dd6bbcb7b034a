/** Who is signed in, and the sign-in, sign-out and session-restore steps of SPEC §4. */
import type { TResult } from '@rpc/contract';
import { SESSION_TTL_MS } from '@rpc/contract';
import Cookies from 'js-cookie';
import { create } from 'zustand';
import { appNavigate } from './app-navigation';
import type { TLoginType } from './guard';
import { currentLang, onAfterLanguageSwitch, readLangCookie } from './i18n';
import { localePath } from './locale-path';
import { closeAllPopups, closeMessages } from './popups';
import {
  RpcCallError,
  TRANSPORT_ERROR_CODE,
  callRpc,
  isCancelledError,
  setSessionInvalidHandler,
} from './rpc-client';
import { COOKIE, COOKIE_DAYS, STORAGE_KEY } from './storage-keys';

export type TUser = TResult<'hub_getUserProfile'>;

export type TSessionState = {
  token: string | null;
  user: TUser | null;
  loginType: TLoginType | null;
  teamId: string | null;
};

const cookieOptions = (days: number) => ({ expires: days, sameSite: 'Lax' as const, path: '/' });

function readLoginTypeCookie(): TLoginType | null {
  const value = Cookies.get(COOKIE.loginType);
  return value === 'personal' || value === 'team' ? value : null;
}

/** The state as the cookies describe it; the store starts from it and sign-out returns to it. */
function initialState(): TSessionState {
  return {
    token: Cookies.get(COOKIE.token) ?? null,
    user: null,
    loginType: readLoginTypeCookie(),
    teamId: Cookies.get(COOKIE.teamId) ?? null,
  };
}

export const useSession = create<TSessionState>()(() => initialState());

/** The team whose id is in the team cookie (SPEC §3 current team), if the user belongs to it. */
export function selectCurrentTeam(state: TSessionState): TUser['teamList'][number] | null {
  return state.user?.teamList.find((team) => team.teamId === state.teamId) ?? null;
}

// --- Local copy of the user info (SPEC §4: used when the API answers HTTP 429 on restore) ---

export function saveUserLocally(user: TUser): void {
  try {
    localStorage.setItem(STORAGE_KEY.userInfo, JSON.stringify(user));
  } catch {
    // storage full or disabled: the copy is only a fallback
  }
}

export function readLocalUser(): TUser | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY.userInfo);
    return raw ? (JSON.parse(raw) as TUser) : null;
  } catch {
    return null;
  }
}

// --- Setters used by the guard's effects and the choose-team page ---

export function setLoginType(loginType: TLoginType): void {
  Cookies.set(COOKIE.loginType, loginType, cookieOptions(COOKIE_DAYS.loginType));
  useSession.setState({ loginType });
}

/** Selecting a team stores its id in a cookie for 30 days (SPEC §4). */
export function chooseTeam(teamId: string): void {
  Cookies.set(COOKIE.teamId, teamId, cookieOptions(COOKIE_DAYS.teamId));
  useSession.setState({ teamId });
}

/** Acting as yourself: the team cookie goes, so no request carries X-Team-Id (SPEC §6 login type Personal). */
export function choosePersonal(): void {
  Cookies.remove(COOKIE.teamId, { path: '/' });
  Cookies.set(COOKIE.loginType, 'personal', cookieOptions(COOKIE_DAYS.loginType));
  useSession.setState({ loginType: 'personal', teamId: null });
}

/**
 * Forgets the acting account (team and login-type cookies) but keeps the session, after the user left or
 * disbanded the team the console acted for. The profile is fetched again first (without the stale team header),
 * and the store learns the new team list and the missing login type together, so the guard works the login type
 * out again (SPEC §2 "No login type yet") from the teams that remain.
 */
export async function clearActingAccount(): Promise<void> {
  Cookies.remove(COOKIE.teamId, { path: '/' });
  Cookies.remove(COOKIE.loginType, { path: '/' });
  let user = useSession.getState().user;
  try {
    user = await callRpc('hub_getUserProfile', {});
    saveUserLocally(user);
  } catch (error) {
    if (!isCancelledError(error)) console.warn('The profile could not be refreshed', error);
  }
  useSession.setState({ user, loginType: null, teamId: null });
}

/** Forgets the token only (SPEC §2 third-party-login?from=admin, §4 restore failure). */
export function clearToken(): void {
  Cookies.remove(COOKIE.token, { path: '/' });
  useSession.setState({ token: null, user: null });
}

// --- Seams for steps of SPEC §4 that later issues fill in ---

export type TSessionHook = (state: TSessionState) => void | Promise<void>;

const hooks = {
  /** team list (page 1, 1000 per page) and wallet overview (SPEC §4 Login) */
  loadAccountData: new Set<TSessionHook>(),
  /** socket, unread notices, limit info; only for personal-initialised or team logins (SPEC §4 Login) */
  afterLogin: new Set<TSessionHook>(),
  /** close the socket, clear notices (SPEC §4 Logout) */
  beforeLogout: new Set<TSessionHook>(),
};

function register(set: Set<TSessionHook>, hook: TSessionHook): () => void {
  set.add(hook);
  return () => set.delete(hook);
}

/** Team list and wallet overview loaders (issues for teams and wallet plug in here). */
export const onLoadAccountData = (hook: TSessionHook) => register(hooks.loadAccountData, hook);
/** Socket, unread notices and limit info (notice and limit issues plug in here). */
export const onAfterLogin = (hook: TSessionHook) => register(hooks.afterLogin, hook);
/** Socket close and notice clean-up on sign-out. */
export const onBeforeLogout = (hook: TSessionHook) => register(hooks.beforeLogout, hook);

/**
 * Loads the modules that register hooks (main.tsx loads them only once a session exists, so the sign-in page does
 * not carry them); awaited before hooks run, so a hook registered by a late module still runs.
 */
let loadHookModules: () => Promise<void> = () => Promise.resolve();

export function setSessionHookLoader(load: () => Promise<void>): void {
  loadHookModules = load;
}

async function runHooks(set: Set<TSessionHook>, label: string): Promise<void> {
  const state = useSession.getState();
  try {
    await loadHookModules();
  } catch (error) {
    console.error(`Session hooks could not be loaded (${label})`, error);
  }
  await Promise.all(
    [...set].map(async (hook) => {
      try {
        await hook(state);
      } catch (error) {
        console.error(`Session hook failed (${label})`, error);
      }
    }),
  );
}

/** The token whose after-login hooks have run: they run once per session, whichever step made it ready. */
let afterLoginRanFor: string | null = null;

/** Socket, notices, limit info: only when the account is ready to use (SPEC §4 Login). */
export async function afterLoginHooks(): Promise<void> {
  const { token, user, loginType } = useSession.getState();
  if (!token || !user) return;
  const ready = loginType === 'team' || (loginType === 'personal' && user.initialize);
  if (!ready || afterLoginRanFor === token) return;
  afterLoginRanFor = token;
  await runHooks(hooks.afterLogin, 'after login');
}

// The session often becomes ready after signIn returns (the guard sets the login type, a reload restores the
// user, first-login initialises the account), so readiness is watched rather than checked once.
useSession.subscribe((state, prev) => {
  if (!state.token) afterLoginRanFor = null;
  if (
    state.token !== prev.token ||
    state.user !== prev.user ||
    state.loginType !== prev.loginType
  ) {
    void afterLoginHooks();
  }
});

// --- Sign in, refresh, sign out ---

/** Fetches the user info and keeps it in the store and locally. */
export async function refreshUser(): Promise<void> {
  const user = await callRpc('hub_getUserProfile', {});
  useSession.setState({ user });
  saveUserLocally(user);
}

/**
 * The cookie's language, told to the server when it differs from the user's (SPEC §4 Login). Only an explicit
 * switch writes that cookie; the language of the URL alone (a /zh link) never changes the account's language.
 */
async function syncLanguage(user: TUser): Promise<TUser> {
  const lang = readLangCookie();
  if (!lang || user.language === lang) return user;
  try {
    const { language } = await callRpc('hub_changeUserLang', { lang }, { hideError: true });
    return { ...user, language };
  } catch (error) {
    if (!isCancelledError(error)) console.error('Language sync failed', error);
    return user;
  }
}

/**
 * Every SPEC §4 Login step: token cookie, register-confirm cookie cleared, user info, language, seams.
 * The store learns token and user together at the end, so the guard does not move the user (and
 * cancel these calls on the route change) half-way through.
 */
export async function signIn(token: string): Promise<void> {
  Cookies.set(COOKIE.token, token, cookieOptions(Math.round(SESSION_TTL_MS / 86_400_000)));
  Cookies.remove(COOKIE.registerConfirm, { path: '/' });
  try {
    const profile = await callRpc('hub_getUserProfile', {});
    const user = await syncLanguage(profile);
    saveUserLocally(user);
    // Popups of failed attempts ("Wrong e-mail or password") must not follow the user into the dashboard.
    closeMessages();
    useSession.setState({
      token,
      user,
      loginType: readLoginTypeCookie(),
      teamId: Cookies.get(COOKIE.teamId) ?? null,
    });
  } catch (error) {
    // Not signed in after all: no half-set session is left behind.
    Cookies.remove(COOKIE.token, { path: '/' });
    throw error;
  }
  await runHooks(hooks.loadAccountData, 'load account data');
  await afterLoginHooks();
}

let signingOut: Promise<void> | null = null;

/** SPEC §4 Logout: the server is told; whatever it answers, everything local is cleared. */
export function signOut(): Promise<void> {
  signingOut ??= (async () => {
    try {
      if (useSession.getState().token) {
        await callRpc('hub_logout', {}, { keepSession: true, hideError: true });
      }
    } catch {
      // Logged out locally whatever the server says.
    }
    await runHooks(hooks.beforeLogout, 'logout');
    Cookies.remove(COOKIE.token, { path: '/' });
    Cookies.remove(COOKIE.teamId, { path: '/' });
    Cookies.remove(COOKIE.loginType, { path: '/' });
    try {
      localStorage.clear();
      sessionStorage.clear();
    } catch {
      // storage disabled: nothing to clear
    }
    useSession.setState({ token: null, user: null, loginType: null, teamId: null });
    closeAllPopups();
  })().finally(() => {
    signingOut = null;
  });
  return signingOut;
}

export type TRestoreOutcome =
  /** user info is in the store */
  | 'restored'
  /** the API was too busy (HTTP 429): the locally saved info is used */
  | 'local'
  /** no answer from the server (timed out, cancelled, aborted, network down): try the navigation again */
  | 'retry'
  /** the token is gone: go to / */
  | 'reset';

/** What a failed restore call means for the session; the token is kept unless this says 'reset'. */
export type TRestoreFailureDecision = 'use-local' | 'retry-now' | 'retry-later' | 'reset';

/**
 * SPEC §4 session restore, the failure half. Only the server may end a session: 10101–10103 or any other
 * error it answered with (an error envelope, or an HTTP error status). A call that never got an answer
 * (cancelled, timed out, aborted when the page unloads, network down, a reply cut off mid-body) says
 * nothing about the token, so it is kept and the restore tried again.
 */
export function decideRestoreFailure(error: unknown): TRestoreFailureDecision {
  if (isCancelledError(error)) return 'retry-now';
  if (!(error instanceof RpcCallError)) return 'retry-later';
  if (error.httpStatus === 429) return 'use-local';
  const isServerAnswer =
    error.code !== TRANSPORT_ERROR_CODE ||
    (error.httpStatus !== undefined && error.httpStatus >= 400);
  return isServerAnswer ? 'reset' : 'retry-later';
}

/** Waits before another restore after a call that got no answer: 1 s, 2 s, 4 s … up to 30 s. */
export const RESTORE_RETRY_BASE_MS = 1000;
export const RESTORE_RETRY_MAX_MS = 30_000;
let unansweredInARow = 0;

function retryDelay(): number {
  const delay = Math.min(RESTORE_RETRY_BASE_MS * 2 ** unansweredInARow, RESTORE_RETRY_MAX_MS);
  unansweredInARow += 1;
  return delay;
}

/** The restore under way: main.tsx starts it before the first render and AppShell's call joins it. */
let restoring: Promise<TRestoreOutcome> | null = null;

/** SPEC §4 session restore, for a token whose user is not known yet (one at a time: a second call joins it). */
export function restoreSession(): Promise<TRestoreOutcome> {
  restoring ??= restoreSessionOnce().finally(() => {
    restoring = null;
  });
  return restoring;
}

async function restoreSessionOnce(): Promise<TRestoreOutcome> {
  try {
    await refreshUser();
    unansweredInARow = 0;
    return 'restored';
  } catch (error) {
    const decision = decideRestoreFailure(error);
    if (decision === 'use-local') {
      const user = readLocalUser();
      if (user) {
        useSession.setState({ user });
        return 'local';
      }
    }
    if (decision === 'reset') {
      unansweredInARow = 0;
      clearToken();
      return 'reset';
    }
    // A busy API without a local copy is asked again later too: being throttled is not being signed out.
    if (decision !== 'retry-now') {
      const delay = retryDelay();
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    return 'retry';
  }
}

/** Reads the cookies again (after another tab signed in or out, or in tests). */
export function resetSessionFromCookies(): void {
  useSession.setState(initialState(), true);
}

// The request client signs out through here on 10101–10103; the server learns language switches here.
setSessionInvalidHandler(async () => {
  await signOut();
  appNavigate(localePath('/', currentLang()), { replace: true });
});

onAfterLanguageSwitch(async ({ to }) => {
  const { token, user } = useSession.getState();
  if (!token) return;
  const { language } = await callRpc('hub_changeUserLang', { lang: to }, { hideError: true });
  if (user) useSession.setState({ user: { ...user, language } });
});

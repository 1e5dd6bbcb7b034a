import { HTTP_TIMEOUT_MS } from '@rpc/contract';
import { Modal, message, notification } from 'antd';
import Cookies from 'js-cookie';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from './i18n';
import { loadPopups } from './popups';
import { RpcCancelledError, callRpc } from './rpc-client';
import {
  RESTORE_RETRY_BASE_MS,
  RESTORE_RETRY_MAX_MS,
  decideRestoreFailure,
  onAfterLogin,
  onBeforeLogout,
  onLoadAccountData,
  readLocalUser,
  restoreSession,
  setLoginType,
  signIn,
  signOut,
  useSession,
} from './session';
import { COOKIE, STORAGE_KEY } from './storage-keys';
import { makeUser } from '../test/fixtures';

const profile = makeUser();

type TReply = (
  method: string,
  params: Record<string, unknown>,
  init: RequestInit,
) => Promise<Response>;
let reply: TReply;
const methods: string[] = [];
const ok = (result: unknown) => Promise.resolve(new Response(JSON.stringify({ id: 1, result })));

beforeAll(async () => {
  await initI18n('en');
  // The popups load with the first one (lib/popups.ts); loaded here, they open at once, as on a page that has them.
  await loadPopups();
});

// signOut closes antd's static popups, whose React roots finish their work in setImmediate callbacks; on a
// loaded machine that work once ran after jsdom was torn down ("window is not defined"). Let it drain first.
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 200));
});

beforeEach(async () => {
  methods.length = 0;
  reply = (method, params) =>
    method === 'hub_getUserProfile'
      ? ok(profile)
      : method === 'hub_changeUserLang'
        ? ok({ language: params.lang })
        : ok({ success: true });
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as {
        method: string;
        params: Record<string, unknown>;
      };
      methods.push(body.method);
      return reply(body.method, body.params, init);
    }),
  );
  vi.spyOn(message, 'open').mockImplementation((() => {}) as unknown as typeof message.open);
  for (const name of Object.values(COOKIE)) Cookies.remove(name, { path: '/' });
  localStorage.clear();
  sessionStorage.clear();
  useSession.setState({ token: null, user: null, loginType: null, teamId: null });
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('signIn (SPEC §4 Login)', () => {
  it('stores the token, clears the register-confirm cookie, loads and saves the user', async () => {
    Cookies.set(COOKIE.registerConfirm, 'ada@example.com');
    await signIn('tok-1');
    expect(Cookies.get(COOKIE.token)).toBe('tok-1');
    expect(Cookies.get(COOKIE.registerConfirm)).toBeUndefined();
    expect(useSession.getState()).toMatchObject({ token: 'tok-1', user: profile });
    expect(readLocalUser()).toEqual(profile);
    expect(methods).toEqual(['hub_getUserProfile']);
  });

  it('tells the server the language cookie when it differs', async () => {
    Cookies.set(COOKIE.lang, 'zh');
    await signIn('tok-1');
    expect(methods).toEqual(['hub_getUserProfile', 'hub_changeUserLang']);
    expect(useSession.getState().user?.language).toBe('zh');
  });

  it('leaves the account language alone without a language cookie, even on a /zh page', async () => {
    await i18n.changeLanguage('zh'); // what a /zh URL does
    await signIn('tok-1');
    expect(methods).toEqual(['hub_getUserProfile']);
    expect(useSession.getState().user?.language).toBe('en');
  });

  it('closes popups of failed attempts once signed in', async () => {
    const destroyMessages = vi.spyOn(message, 'destroy');
    await signIn('tok-1');
    expect(destroyMessages).toHaveBeenCalled();
  });

  it('runs the account-data and after-login seams', async () => {
    const loadAccountData = vi.fn();
    const afterLogin = vi.fn();
    const stops = [onLoadAccountData(loadAccountData), onAfterLogin(afterLogin)];
    Cookies.set(COOKIE.loginType, 'personal');
    await signIn('tok-1');
    stops.forEach((stop) => stop());
    expect(loadAccountData).toHaveBeenCalledOnce();
    expect(afterLogin).toHaveBeenCalledOnce();
  });

  it('runs the after-login seam once the guard sets the login type, and only once per session', async () => {
    const afterLogin = vi.fn();
    const stop = onAfterLogin(afterLogin);
    await signIn('tok-2');
    expect(afterLogin).not.toHaveBeenCalled();
    setLoginType('personal');
    await vi.waitFor(() => expect(afterLogin).toHaveBeenCalledOnce());
    useSession.setState({ user: { ...profile, nickname: 'Changed' } });
    setLoginType('personal');
    await new Promise((r) => setTimeout(r, 0));
    stop();
    expect(afterLogin).toHaveBeenCalledOnce();
  });

  it('leaves no token behind when the profile cannot be loaded', async () => {
    reply = () =>
      Promise.resolve(
        new Response(
          JSON.stringify({ id: 1, error: { code: 10500, message: 'x', messageZh: 'x' } }),
        ),
      );
    await expect(signIn('tok-1')).rejects.toThrow();
    expect(Cookies.get(COOKIE.token)).toBeUndefined();
    expect(useSession.getState().token).toBeNull();
  });
});

describe('signOut (SPEC §4 Logout)', () => {
  beforeEach(() => {
    Cookies.set(COOKIE.token, 'tok-1');
    Cookies.set(COOKIE.teamId, 'T1');
    Cookies.set(COOKIE.loginType, 'team');
    localStorage.setItem(STORAGE_KEY.userInfo, '{}');
    sessionStorage.setItem('x', '1');
    useSession.setState({ token: 'tok-1', user: profile, loginType: 'team', teamId: 'T1' });
  });

  it.each([
    ['succeeds', () => ok({ success: true })],
    ['fails', () => Promise.reject(new TypeError('offline'))],
  ])('clears everything whether the server call %s', async (_name, answer) => {
    reply = answer;
    const destroyMessages = vi.spyOn(message, 'destroy');
    const destroyNotifications = vi.spyOn(notification, 'destroy');
    const destroyModals = vi.spyOn(Modal, 'destroyAll');
    const beforeLogout = vi.fn();
    const stop = onBeforeLogout(beforeLogout);
    await signOut();
    stop();
    expect(methods).toEqual(['hub_logout']);
    expect(Cookies.get(COOKIE.token)).toBeUndefined();
    expect(Cookies.get(COOKIE.teamId)).toBeUndefined();
    expect(Cookies.get(COOKIE.loginType)).toBeUndefined();
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(useSession.getState()).toEqual({
      token: null,
      user: null,
      loginType: null,
      teamId: null,
    });
    expect(beforeLogout).toHaveBeenCalledOnce();
    expect(destroyMessages).toHaveBeenCalled();
    expect(destroyNotifications).toHaveBeenCalled();
    expect(destroyModals).toHaveBeenCalled();
  });

  it('shows no popup when the logout call fails', async () => {
    reply = () => Promise.resolve(new Response('', { status: 500 }));
    await signOut();
    expect(message.open).not.toHaveBeenCalled();
  });
});

describe('restoreSession (SPEC §4 Session restore)', () => {
  beforeEach(() => {
    Cookies.set(COOKIE.token, 'tok-1');
    useSession.setState({ token: 'tok-1', user: null });
  });

  const envelope =
    (code: number, status = 200) =>
    () =>
      Promise.resolve(
        new Response(JSON.stringify({ id: 1, error: { code, message: 'x', messageZh: 'x' } }), {
          status,
        }),
      );
  const status = (code: number) => () => Promise.resolve(new Response('', { status: code }));
  const abortedByUnload = () => Promise.reject(new DOMException('The user aborted.', 'AbortError'));
  const networkDown = () => Promise.reject(new TypeError('Failed to fetch'));
  /** Headers came, then the page went: the body cannot be read. */
  const cutOffMidBody = () =>
    Promise.resolve(
      new Response(
        new ReadableStream({
          start(controller) {
            controller.error(new TypeError('network error'));
          },
        }),
        { status: 200 },
      ),
    );

  // SPEC §4: only an answer from the server (10101–10103 or another error) ends the session.
  it.each([
    ['10101 session missing', envelope(10101), 'reset'],
    ['10102 session expired', envelope(10102), 'reset'],
    ['10103 session revoked', envelope(10103), 'reset'],
    ['another API error (10500)', envelope(10500), 'reset'],
    ['an API error with an HTTP error status', envelope(10500, 500), 'reset'],
    ['HTTP 500 without a body', status(500), 'reset'],
    ['HTTP 502 from a proxy', status(502), 'reset'],
    ['a request aborted when the page unloads', abortedByUnload, 'retry-later'],
    ['a network error', networkDown, 'retry-later'],
    ['a reply cut off mid-body', cutOffMidBody, 'retry-later'],
    ['HTTP 429', status(429), 'use-local'],
    ['10429 with HTTP 429', envelope(10429, 429), 'use-local'],
  ] as const)('decides on %s: %s', async (_name, answer, expected) => {
    reply = answer;
    const error = await callRpc('hub_getUserProfile', {}).then(
      () => null,
      (e: unknown) => e,
    );
    expect(decideRestoreFailure(error)).toBe(expected);
  });

  it.each([
    [
      'a cancelled call (route change)',
      new RpcCancelledError('hub_getUserProfile', 'route-change'),
    ],
    ['a timed-out call', new RpcCancelledError('hub_getUserProfile', 'timeout')],
  ])('retries at once after %s', (_name, error) => {
    expect(decideRestoreFailure(error)).toBe('retry-now');
  });

  it('keeps the token when something other than the server fails', () => {
    expect(decideRestoreFailure(new Error('bug'))).toBe('retry-later');
  });

  it('loads the user', async () => {
    await expect(restoreSession()).resolves.toBe('restored');
    expect(useSession.getState().user).toEqual(profile);
  });

  it('asks for a retry on timeout', async () => {
    vi.useFakeTimers();
    reply = (_m, _p, init) =>
      new Promise((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(new DOMException('', 'AbortError'))),
      );
    const outcome = restoreSession();
    await vi.advanceTimersByTimeAsync(HTTP_TIMEOUT_MS);
    await expect(outcome).resolves.toBe('retry');
    expect(useSession.getState().token).toBe('tok-1');
  });

  it.each([
    ['aborted by an unload', abortedByUnload],
    ['a network error', networkDown],
    ['cut off mid-body', cutOffMidBody],
  ])('keeps the token and retries after a pause when the call is %s', async (_name, answer) => {
    vi.useFakeTimers();
    reply = answer;
    let outcome: string | undefined;
    void restoreSession().then((o) => (outcome = o));
    await vi.advanceTimersByTimeAsync(RESTORE_RETRY_BASE_MS - 1);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(RESTORE_RETRY_MAX_MS);
    expect(outcome).toBe('retry');
    expect(Cookies.get(COOKIE.token)).toBe('tok-1');
    expect(useSession.getState().token).toBe('tok-1');
  });

  it('waits longer after each unanswered restore, up to the cap', async () => {
    await restoreSession(); // an answer starts the count afresh
    vi.useFakeTimers();
    reply = networkDown;
    const waits: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const started = Date.now();
      const outcome = restoreSession();
      await vi.runAllTimersAsync();
      await expect(outcome).resolves.toBe('retry');
      waits.push(Date.now() - started);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    reply = () => ok(profile);
    await expect(restoreSession()).resolves.toBe('restored');
    reply = networkDown;
    const afterAnswer = Date.now();
    const outcome = restoreSession();
    await vi.runAllTimersAsync();
    await expect(outcome).resolves.toBe('retry');
    expect(Date.now() - afterAnswer).toBe(RESTORE_RETRY_BASE_MS);
  });

  it('uses the locally saved user on HTTP 429', async () => {
    localStorage.setItem(STORAGE_KEY.userInfo, JSON.stringify(profile));
    reply = () => Promise.resolve(new Response('', { status: 429 }));
    await expect(restoreSession()).resolves.toBe('local');
    expect(useSession.getState().user).toEqual(profile);
  });

  it('keeps the token and retries later on HTTP 429 without a local copy', async () => {
    vi.useFakeTimers();
    reply = () => Promise.resolve(new Response('', { status: 429 }));
    const outcome = restoreSession();
    await vi.runAllTimersAsync();
    await expect(outcome).resolves.toBe('retry');
    expect(Cookies.get(COOKIE.token)).toBe('tok-1');
  });

  it.each([
    ['HTTP 500', status(500)],
    ['another API error', envelope(10500)],
  ])('resets the token when the server answers with %s', async (_name, answer) => {
    reply = answer;
    await expect(restoreSession()).resolves.toBe('reset');
    expect(Cookies.get(COOKIE.token)).toBeUndefined();
    expect(useSession.getState().token).toBeNull();
  });
});

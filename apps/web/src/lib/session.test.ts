import { HTTP_TIMEOUT_MS } from '@rpc/contract';
import { Modal, message, notification } from 'antd';
import Cookies from 'js-cookie';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from './i18n';
import {
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

  it('uses the locally saved user on HTTP 429', async () => {
    localStorage.setItem(STORAGE_KEY.userInfo, JSON.stringify(profile));
    reply = () => Promise.resolve(new Response('', { status: 429 }));
    await expect(restoreSession()).resolves.toBe('local');
    expect(useSession.getState().user).toEqual(profile);
  });

  it('resets the token on any other error', async () => {
    reply = () => Promise.resolve(new Response('', { status: 500 }));
    await expect(restoreSession()).resolves.toBe('reset');
    expect(Cookies.get(COOKIE.token)).toBeUndefined();
    expect(useSession.getState().token).toBeNull();
  });
});

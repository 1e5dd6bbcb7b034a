import { API_PATH, HTTP_TIMEOUT_MS } from '@rpc/contract';
import { message } from 'antd';
import Cookies from 'js-cookie';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAppNavigator } from './app-navigation';
import { i18n, initI18n } from './i18n';
import { loadPopups } from './popups';
import {
  RpcCallError,
  callDiscover,
  callRpc,
  cancelAllPending,
  isCancelledError,
  isTimeoutError,
  limitMessage,
  pendingCount,
  remainingTimeText,
} from './rpc-client';
import { useSession } from './session';
import { COOKIE } from './storage-keys';

type TCall = {
  url: string;
  init: RequestInit;
  body: { method: string; params: unknown; id: number };
};

let calls: TCall[] = [];
let answer: (call: TCall) => Promise<Response>;
const popups = vi.fn();
const navigator = vi.fn();

function json(body: unknown, status = 200): Promise<Response> {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}
const ok = (result: unknown) => json({ id: 1, result });
const fail = (error: Record<string, unknown>, status = 200) =>
  json({ id: 1, error: { message: '', messageZh: '', ...error } }, status);

/** A response that never comes, until the request is aborted. */
function hanging(init: RequestInit): Promise<Response> {
  return new Promise((_, reject) => {
    init.signal?.addEventListener('abort', () =>
      reject(new DOMException('The operation was aborted.', 'AbortError')),
    );
  });
}

const fakeFetch = (url: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
  const call: TCall = {
    url: String(url),
    init,
    body: JSON.parse(String(init.body)) as TCall['body'],
  };
  calls.push(call);
  return answer(call);
};

/** Settles a promise into a value or an error, for assertions. */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

const shown = () =>
  popups.mock.calls.map(([arg]) => arg as { type: string; content: string; duration: number });

beforeAll(async () => {
  await initI18n('en');
  // The popups load with the first one (lib/popups.ts); loaded here, they open at once, as on a page that has them.
  await loadPopups();
});

beforeEach(async () => {
  calls = [];
  answer = () => ok({ success: true });
  popups.mockReset();
  navigator.mockReset();
  vi.spyOn(message, 'open').mockImplementation(((args: unknown) => {
    popups(args);
    return Object.assign(() => {}, { then: () => Promise.resolve(true) });
  }) as unknown as typeof message.open);
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  setAppNavigator(navigator);
  Cookies.remove(COOKIE.token);
  Cookies.remove(COOKIE.teamId);
  await i18n.changeLanguage('en');
});

afterEach(() => {
  cancelAllPending();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('request shape (SPEC §7, §6)', () => {
  it('POSTs {method, params, id: 1} to the API path and resolves with the result', async () => {
    answer = () => ok({ exists: true });
    await expect(callRpc('hub_emailExists', { email: 'a@b.co' })).resolves.toEqual({
      exists: true,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(API_PATH);
    expect(calls[0]!.init.method).toBe('POST');
    expect(calls[0]!.body).toEqual({
      method: 'hub_emailExists',
      params: { email: 'a@b.co' },
      id: 1,
    });
  });

  it('asks rpc.discover for the OpenRPC document the same way, and shows its errors the same way', async () => {
    answer = () => ok({ openrpc: '1.3.2', methods: [] });
    await expect(callDiscover()).resolves.toEqual({ openrpc: '1.3.2', methods: [] });
    expect(calls[0]!.body).toEqual({ method: 'rpc.discover', params: {}, id: 1 });
    answer = () => fail({ code: 10500, message: 'Internal error.' });
    expect((await settle(callDiscover())).error).toBeInstanceOf(RpcCallError);
    expect(shown()).toEqual([
      expect.objectContaining({ type: 'error', content: 'Internal error.' }),
    ]);
  });

  it('sends no Authorization or team header without cookies', async () => {
    await callRpc('hub_getConfig', {});
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-team-id']).toBeUndefined();
  });

  it('sends the bearer token and X-Team-Id when the cookies are set', async () => {
    Cookies.set(COOKIE.token, 'tok-1');
    Cookies.set(COOKIE.teamId, 'team-9');
    await callRpc('hub_getConfig', {});
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer tok-1');
    expect(headers['x-team-id']).toBe('team-9');
  });

  it("sends a pending two-factor sign-in's own token instead of the cookie's", async () => {
    Cookies.set(COOKIE.token, 'tok-1');
    await callRpc('hub_verifyTwoFactorLogin', { code: '123456' }, { token: 'pending-1' });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer pending-1');
  });
});

describe('timeout and cancel (SPEC §8, §9)', () => {
  it('times out after HTTP_TIMEOUT_MS, silently', async () => {
    vi.useFakeTimers();
    answer = (call) => hanging(call.init);
    const result = settle(callRpc('hub_getConfig', {}));
    await vi.advanceTimersByTimeAsync(HTTP_TIMEOUT_MS - 1);
    expect(pendingCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const { error } = await result;
    expect(isCancelledError(error)).toBe(true);
    expect(isTimeoutError(error)).toBe(true);
    expect(popups).not.toHaveBeenCalled();
    expect(pendingCount()).toBe(0);
  });

  it('cancels an earlier identical call in flight', async () => {
    answer = (call) => (calls.length === 1 ? hanging(call.init) : ok({ exists: false }));
    const first = settle(callRpc('hub_emailExists', { email: 'a@b.co' }));
    const second = callRpc('hub_emailExists', { email: 'a@b.co' });
    await expect(second).resolves.toEqual({ exists: false });
    const { error } = await first;
    expect(isCancelledError(error)).toBe(true);
    expect(isTimeoutError(error)).toBe(false);
    expect(popups).not.toHaveBeenCalled();
  });

  it('treats params with keys in another order as the same call', async () => {
    answer = (call) => (calls.length === 1 ? hanging(call.init) : ok({ sent: true }));
    const first = settle(
      callRpc('hub_sendResetPasswordMail', { email: 'a@b.co', purpose: 'reset' }),
    );
    await callRpc('hub_sendResetPasswordMail', { purpose: 'reset', email: 'a@b.co' });
    expect(isCancelledError((await first).error)).toBe(true);
  });

  it('keeps calls with different params', async () => {
    let release: () => void = () => {};
    answer = (call) =>
      calls.length === 1
        ? new Promise((resolve) => {
            release = () => void ok({ exists: true }).then(resolve);
            void call;
          })
        : ok({ exists: false });
    const first = callRpc('hub_emailExists', { email: 'a@b.co' });
    await callRpc('hub_emailExists', { email: 'c@d.co' });
    release();
    await expect(first).resolves.toEqual({ exists: true });
  });

  it('does not cancel duplicates of a keepDuplicates method (hub_logout)', async () => {
    let release: () => void = () => {};
    answer = () =>
      calls.length === 1
        ? new Promise((resolve) => {
            release = () => void ok({ success: true }).then(resolve);
          })
        : ok({ success: true });
    const first = callRpc('hub_logout', {}, { keepSession: true });
    await callRpc('hub_logout', {}, { keepSession: true });
    release();
    await expect(first).resolves.toEqual({ success: true });
  });

  it('cancelAllPending (route name change) cancels everything in flight, silently', async () => {
    answer = (call) => hanging(call.init);
    const a = settle(callRpc('hub_getConfig', {}));
    const b = settle(callRpc('hub_emailExists', { email: 'a@b.co' }));
    expect(pendingCount()).toBe(2);
    cancelAllPending('route-change');
    expect(isCancelledError((await a).error)).toBe(true);
    expect(isCancelledError((await b).error)).toBe(true);
    expect(popups).not.toHaveBeenCalled();
  });

  it("honours the caller's own AbortSignal", async () => {
    answer = (call) => hanging(call.init);
    const controller = new AbortController();
    const result = settle(callRpc('hub_getConfig', {}, { signal: controller.signal }));
    controller.abort();
    expect(isCancelledError((await result).error)).toBe(true);
    expect(popups).not.toHaveBeenCalled();
  });
});

describe('error catalogue (SPEC §8)', () => {
  it.each([50404, 50409, 10020, 10400])('%i is rejected silently', async (code) => {
    answer = () => fail({ code, message: 'nope' });
    const { error } = await settle(callRpc('hub_getConfig', {}));
    expect(error).toBeInstanceOf(RpcCallError);
    expect((error as RpcCallError).code).toBe(code);
    expect(popups).not.toHaveBeenCalled();
  });

  it('other errors: error popup for 5 s with the English message', async () => {
    answer = () =>
      fail({ code: 10202, message: 'Wrong e-mail or password.', messageZh: '邮箱或密码错误。' });
    const { error } = await settle(
      callRpc('hub_login', { email: 'a@b.co', password: 'x'.repeat(32) }),
    );
    expect((error as RpcCallError).messageZh).toBe('邮箱或密码错误。');
    expect(shown()).toEqual([{ type: 'error', content: 'Wrong e-mail or password.', duration: 5 }]);
  });

  it('other errors: the Chinese message when the language is Chinese', async () => {
    await i18n.changeLanguage('zh');
    answer = () =>
      fail({ code: 10202, message: 'Wrong e-mail or password.', messageZh: '邮箱或密码错误。' });
    await settle(callRpc('hub_getConfig', {}));
    expect(shown()[0]!.content).toBe('邮箱或密码错误。');
  });

  it('other errors: "Network Error" (or 网络错误) when the error has no text', async () => {
    answer = () => fail({ code: 10500 });
    await settle(callRpc('hub_getConfig', {}));
    await i18n.changeLanguage('zh');
    await settle(callRpc('hub_getConfig', {}));
    expect(shown().map((p) => p.content)).toEqual(['Network Error', '网络错误']);
  });

  it('hideError from the call options suppresses the popup', async () => {
    answer = () => fail({ code: 10500, message: 'boom' });
    const { error } = await settle(callRpc('hub_getConfig', {}, { hideError: true }));
    expect(error).toBeInstanceOf(RpcCallError);
    expect(popups).not.toHaveBeenCalled();
  });

  it('silentCodes leaves those codes to the caller and pops up the others', async () => {
    answer = () => fail({ code: 10219, message: 'Enter your two-factor code.' });
    await settle(callRpc('hub_getConfig', {}, { silentCodes: [10219] }));
    expect(popups).not.toHaveBeenCalled();
    answer = () => fail({ code: 10500, message: 'boom' });
    await settle(callRpc('hub_getConfig', {}, { silentCodes: [10219] }));
    expect(shown().map((p) => p.content)).toEqual(['boom']);
  });

  it("the method's hideError flag suppresses the popup (hub_emailConfirm)", async () => {
    answer = () => fail({ code: 10204, message: 'bad code' });
    await settle(callRpc('hub_emailConfirm', { code: 'a'.repeat(20) }));
    expect(popups).not.toHaveBeenCalled();
  });

  describe('10429 rate limit', () => {
    const inMinutes = (m: number) => Date.now() + m * 60_000;

    it("words the warning by the method's limit type (hub_login: type1)", async () => {
      answer = () =>
        fail({ code: 10429, limitType: 'type1', attemptsExpireAt: inMinutes(5) - 1000 });
      await settle(callRpc('hub_login', { email: 'a@b.co', password: 'x'.repeat(32) }));
      expect(shown()).toEqual([
        {
          type: 'warning',
          content: 'Too many sign-in attempts. Please try again in 5 minutes.',
          duration: 5,
        },
      ]);
    });

    it('type2 (hub_sendRegisterConfirmMail) in Chinese', async () => {
      await i18n.changeLanguage('zh');
      answer = () => fail({ code: 10429, attemptsExpireAt: inMinutes(2) - 1000 });
      await settle(callRpc('hub_sendRegisterConfirmMail', { email: 'a@b.co' }));
      expect(shown()[0]!.content).toBe('邮件发送请求过多，请在 2 分钟 后重试。');
    });

    it('type3 (hub_register) with hours left', async () => {
      answer = () => fail({ code: 10429, attemptsExpireAt: inMinutes(150) });
      await settle(
        callRpc('hub_register', {
          email: 'a@b.co',
          password: 'x'.repeat(32),
          confirmPassword: 'x'.repeat(32),
        }),
      );
      expect(shown()[0]!.content).toBe('Too many requests. Please try again in 3 hours.');
    });

    it("defaults to type1, or the error's own limit type, for methods without one", async () => {
      answer = () => fail({ code: 10429, attemptsExpireAt: inMinutes(0.5) });
      await settle(callRpc('hub_getConfig', {}));
      answer = () => fail({ code: 10429, limitType: 'type2' });
      await settle(callRpc('hub_getConfig', {}));
      expect(shown().map((p) => p.content)).toEqual([
        'Too many sign-in attempts. Please try again in 1 min.',
        'Too many e-mails requested. Please try again later.',
      ]);
    });

    it('hideLimit suppresses the warning', async () => {
      answer = () => fail({ code: 10429, limitType: 'type1', attemptsExpireAt: inMinutes(5) });
      const { error } = await settle(callRpc('hub_getConfig', {}, { hideLimit: true }));
      expect((error as RpcCallError).code).toBe(10429);
      expect(popups).not.toHaveBeenCalled();
    });

    it('an unknown (custom) limit type shows nothing', () => {
      expect(limitMessage('custom', Date.now() + 60_000)).toBeNull();
    });

    it('remaining time reads 1 min, minutes, hours, days (SPEC §9)', () => {
      expect(remainingTimeText(10_000)).toBe('1 min');
      expect(remainingTimeText(60_000)).toBe('1 min');
      expect(remainingTimeText(61_000)).toBe('2 minutes');
      expect(remainingTimeText(59 * 60_000)).toBe('59 minutes');
      expect(remainingTimeText(60 * 60_000)).toBe('1 hour');
      expect(remainingTimeText(5 * 3_600_000)).toBe('5 hours');
      expect(remainingTimeText(24 * 3_600_000)).toBe('1 day');
      expect(remainingTimeText(3 * 86_400_000)).toBe('3 days');
    });
  });

  describe.each([10101, 10102, 10103, 10104])('session error %i', (code) => {
    beforeEach(() => {
      Cookies.set(COOKIE.token, 'tok-1');
      Cookies.set(COOKIE.teamId, 'T1');
      Cookies.set(COOKIE.loginType, 'team');
      localStorage.setItem('user-info', '{}');
      useSession.setState({ token: 'tok-1', loginType: 'team', teamId: 'T1' });
    });

    it('shows the message, signs out (server told, cookies and storage cleared) and goes to /', async () => {
      answer = (call) =>
        call.body.method === 'hub_logout'
          ? fail({ code: 10102, message: 'expired' })
          : fail({ code, message: 'Please sign in again.', messageZh: '请重新登录。' });
      const { error } = await settle(callRpc('hub_getUserProfile', {}));
      expect((error as RpcCallError).code).toBe(code);
      expect(shown()).toEqual([{ type: 'error', content: 'Please sign in again.', duration: 5 }]);
      await vi.waitFor(() => expect(navigator).toHaveBeenCalledWith('/', { replace: true }));
      expect(calls.map((c) => c.body.method)).toEqual(['hub_getUserProfile', 'hub_logout']);
      expect(Cookies.get(COOKIE.token)).toBeUndefined();
      expect(Cookies.get(COOKIE.teamId)).toBeUndefined();
      expect(Cookies.get(COOKIE.loginType)).toBeUndefined();
      expect(localStorage.getItem('user-info')).toBeNull();
      expect(useSession.getState()).toMatchObject({
        token: null,
        user: null,
        loginType: null,
        teamId: null,
      });
    });

    it('in Chinese goes to /zh with the Chinese message', async () => {
      await i18n.changeLanguage('zh');
      answer = (call) =>
        call.body.method === 'hub_logout'
          ? ok({ success: true })
          : fail({ code, messageZh: '请重新登录。' });
      await settle(callRpc('hub_getUserProfile', {}));
      expect(shown()[0]!.content).toBe('请重新登录。');
      await vi.waitFor(() => expect(navigator).toHaveBeenCalledWith('/zh', { replace: true }));
    });

    it('a call that opts out keeps the session', async () => {
      answer = () => fail({ code, message: 'Please sign in again.' });
      await settle(callRpc('hub_getUserProfile', {}, { keepSession: true }));
      await new Promise((r) => setTimeout(r, 10));
      expect(navigator).not.toHaveBeenCalled();
      expect(calls.map((c) => c.body.method)).toEqual(['hub_getUserProfile']);
      expect(Cookies.get(COOKIE.token)).toBe('tok-1');
    });
  });
});

describe('transport (SPEC §8)', () => {
  it('HTTP 429 shows "Too many attempts." for 5 s', async () => {
    answer = () => Promise.resolve(new Response('slow down', { status: 429 }));
    const { error } = await settle(callRpc('hub_getConfig', {}));
    expect((error as RpcCallError).httpStatus).toBe(429);
    expect(shown()).toEqual([{ type: 'warning', content: 'Too many attempts.', duration: 5 }]);
  });

  it('HTTP 429 in Chinese', async () => {
    await i18n.changeLanguage('zh');
    answer = () => Promise.resolve(new Response('', { status: 429 }));
    await settle(callRpc('hub_getConfig', {}));
    expect(shown()[0]!.content).toBe('尝试次数过多。');
  });

  it.each([400, 404, 500, 502, 599])(
    'HTTP %i is an error even with a result body',
    async (status) => {
      answer = () => json({ id: 1, result: { ok: true } }, status);
      const { error } = await settle(callRpc('hub_getConfig', {}));
      expect((error as RpcCallError).httpStatus).toBe(status);
      expect(shown()).toEqual([{ type: 'error', content: 'Network Error', duration: 5 }]);
    },
  );

  it('an error envelope with HTTP 4xx follows the catalogue', async () => {
    answer = () => fail({ code: 10004, message: 'Invalid parameters.' }, 400);
    await settle(callRpc('hub_getConfig', {}));
    expect(shown()[0]!.content).toBe('Invalid parameters.');
  });

  it('a network failure shows "Network Error"', async () => {
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    const { error } = await settle(callRpc('hub_getConfig', {}));
    expect(error).toBeInstanceOf(RpcCallError);
    expect(isCancelledError(error)).toBe(false);
    expect(shown()).toEqual([{ type: 'error', content: 'Network Error', duration: 5 }]);
  });
});

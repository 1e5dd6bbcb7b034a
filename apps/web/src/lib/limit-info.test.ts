/** Limit info: the SPEC §4 "get limit info twice" timing, the local copy, and the after-login seam. */
import type { TResult, TUserProfile } from '@rpc/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchLimitInfo, getLimitInfoTwice, resetLimitInfo, useLimitInfo } from './limit-info';
import type * as RpcClientModule from './rpc-client';
import { callRpc } from './rpc-client';
import { afterLoginHooks, useSession } from './session';
import { STORAGE_KEY } from './storage-keys';

vi.mock('./rpc-client', async (importOriginal) => ({
  ...(await importOriginal<typeof RpcClientModule>()),
  callRpc: vi.fn(),
}));

const rpc = vi.mocked(callRpc);

const info: TResult<'hub_getUserLimitInfo'> = {
  currentLimitRate: 20,
  currentLimitRateLevel: 'free',
  currentLimitRateOrder: 1,
  currentLimitRateValue: 400,
  currentLimitRateLevelView: 'Free',
  currentLimitRateTitleView: 'Free',
  reqPerSec: 20,
  ruPerSec: 400,
  concurrency: 10,
  ruBalance: 1_000_000,
  tiers: [{ level: 'free', name: 'Free', order: 1, reqPerSec: 20, ruPerSec: 400, concurrency: 10 }],
};

beforeEach(() => {
  rpc.mockReset();
  rpc.mockResolvedValue(info as never);
  localStorage.clear();
  resetLimitInfo();
});

afterEach(() => {
  vi.useRealTimers();
});

function limitCalls() {
  return rpc.mock.calls.filter(([method]) => method === 'hub_getUserLimitInfo').length;
}

describe('getLimitInfoTwice', () => {
  it('fetches after 2000 ms and again 10000 ms later', async () => {
    vi.useFakeTimers();
    getLimitInfoTwice();
    await vi.advanceTimersByTimeAsync(1999);
    expect(limitCalls()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(limitCalls()).toBe(1);
    await vi.advanceTimersByTimeAsync(9999);
    expect(limitCalls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(limitCalls()).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(limitCalls()).toBe(2);
  });

  it('can be cancelled before it runs', async () => {
    vi.useFakeTimers();
    const cancel = getLimitInfoTwice();
    await vi.advanceTimersByTimeAsync(2000);
    cancel();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(limitCalls()).toBe(1);
  });
});

describe('fetchLimitInfo', () => {
  it('keeps the info in the store and in localStorage under the limit info key', async () => {
    await fetchLimitInfo();
    expect(useLimitInfo.getState().info).toEqual(info);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY.limitInfo) ?? 'null')).toEqual(info);
  });

  it('shares one call between concurrent callers and survives a failure', async () => {
    await Promise.all([fetchLimitInfo(), fetchLimitInfo()]);
    expect(limitCalls()).toBe(1);
    rpc.mockRejectedValueOnce(new Error('down'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(fetchLimitInfo()).resolves.toBeNull();
    expect(useLimitInfo.getState().info).toEqual(info);
  });
});

describe('after sign-in', () => {
  it('loads limit info twice through the session seam, for a ready account only', async () => {
    vi.useFakeTimers();
    const user = { initialize: true } as TUserProfile;
    useSession.setState({ token: 't', user, loginType: 'personal', teamId: null });
    await afterLoginHooks();
    await vi.advanceTimersByTimeAsync(12_000);
    expect(limitCalls()).toBe(2);

    rpc.mockClear();
    useSession.setState({ user: { ...user, initialize: false } });
    await afterLoginHooks();
    await vi.advanceTimersByTimeAsync(12_000);
    expect(limitCalls()).toBe(0);
  });
});

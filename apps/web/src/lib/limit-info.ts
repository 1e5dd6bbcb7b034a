/**
 * The account's rate-limit info (SPEC §3, hub_getUserLimitInfo): one store shared by every screen, cached in
 * localStorage under the SPEC §9 limit info key, loaded after sign-in and by the "get limit info twice" action.
 */
import type { TResult } from '@rpc/contract';
import { LIMIT_INFO_REFETCH_DELAYS_MS } from '@rpc/contract';
import { create } from 'zustand';
import { callRpc, isCancelledError } from './rpc-client';
import { onAfterLogin, onBeforeLogout } from './session';
import { STORAGE_KEY } from './storage-keys';

export type TLimitInfo = TResult<'hub_getUserLimitInfo'>;
export type TTier = TLimitInfo['tiers'][number];

export type TLimitInfoState = {
  info: TLimitInfo | null;
  /** epoch ms of the last successful fetch (0: never in this page's life) */
  fetchedAt: number;
  isLoading: boolean;
};

function readCached(): TLimitInfo | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY.limitInfo);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<TLimitInfo>;
    return Array.isArray(parsed.tiers) ? (parsed as TLimitInfo) : null;
  } catch {
    return null;
  }
}

function writeCached(info: TLimitInfo): void {
  try {
    localStorage.setItem(STORAGE_KEY.limitInfo, JSON.stringify(info));
  } catch {
    // storage full or disabled: the copy only speeds up the next page load
  }
}

export const useLimitInfo = create<TLimitInfoState>()(() => ({
  info: readCached(),
  fetchedAt: 0,
  isLoading: false,
}));

let inFlight: Promise<TLimitInfo | null> | null = null;

/** Fetches the limit info once (concurrent callers share the call); null when it failed or was cancelled. */
export function fetchLimitInfo(): Promise<TLimitInfo | null> {
  inFlight ??= (async () => {
    useLimitInfo.setState({ isLoading: true });
    try {
      // hideError comes from the contract: a failed background refresh shows no popup.
      const info = await callRpc('hub_getUserLimitInfo', {});
      writeCached(info);
      useLimitInfo.setState({ info, fetchedAt: Date.now() });
      return info;
    } catch (error) {
      if (!isCancelledError(error)) console.warn('Limit info could not be loaded', error);
      return null;
    } finally {
      useLimitInfo.setState({ isLoading: false });
    }
  })().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/**
 * SPEC §4 "get limit info twice": fetch after 2000 ms and again 10000 ms after that (the tier can change
 * a moment after a purchase or sign-in settles). Returns a function that cancels what has not run yet.
 */
export function getLimitInfoTwice(
  delays: readonly number[] = LIMIT_INFO_REFETCH_DELAYS_MS,
): () => void {
  const timers: ReturnType<typeof setTimeout>[] = [];
  let elapsed = 0;
  for (const delay of delays) {
    elapsed += delay;
    timers.push(setTimeout(() => void fetchLimitInfo(), elapsed));
  }
  return () => timers.forEach(clearTimeout);
}

/** Forgets the info (sign-out); signOut clears localStorage itself. */
export function resetLimitInfo(): void {
  useLimitInfo.setState({ info: null, fetchedAt: 0, isLoading: false });
}

let cancelPending: (() => void) | null = null;

// SPEC §4 Login: limit info loads after sign-in (only for ready accounts, as the seam decides).
onAfterLogin(() => {
  cancelPending?.();
  cancelPending = getLimitInfoTwice();
});
onBeforeLogout(() => {
  cancelPending?.();
  cancelPending = null;
  resetLimitInfo();
});

/**
 * Page views and a few named actions (hub_saveEventTracking), batched: sent every TRACKING_FLUSH_MS, when a batch
 * is full and on pagehide. Nothing personal goes out: a route path with ids masked and no query string, a short
 * action code and a time; the server adds only the acting account. Failures are dropped without a word, nothing
 * waits for it, and it is off in tests unless a test turns it on (setTrackingEnabled).
 */
import {
  API_PATH,
  TEAM_ID_HEADER,
  TRACKING_MAX_EVENTS,
  TRACKING_PAGE_MAX,
  type TTrackingEvent,
} from '@rpc/contract';
import Cookies from 'js-cookie';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { COOKIE } from './storage-keys';

export const TRACKING_FLUSH_MS = 10_000;
/** Events kept while sends fail or nobody is signed in; older ones are dropped first. */
const MAX_QUEUED = TRACKING_MAX_EVENTS * 4;

export type TTrackingAction =
  'view' | 'support.open' | 'support.submit' | 'banner.dismiss' | 'banner.link';

export type TTrackingSend = (
  events: TTrackingEvent[],
  opts: { isUnloading: boolean },
) => Promise<void>;

/**
 * A route path as the server accepts it: no locale prefix, query or fragment, and any segment that could name
 * something (an id, a code, an address: digits among 8+ characters, or 24+ characters) replaced by ":id".
 */
export function normalisePage(pathname: string): string {
  const path = pathname.split(/[?#]/)[0] ?? '/';
  const segments = path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => ((/\d/.test(s) && s.length >= 8) || s.length >= 24 ? ':id' : s))
    .map((s) => (/^[A-Za-z0-9_.~:-]+$/.test(s) ? s : ':id'));
  if (segments[0] === 'zh') segments.shift();
  const page = `/${segments.join('/')}`;
  return page.length > TRACKING_PAGE_MAX ? page.slice(0, TRACKING_PAGE_MAX) : page;
}

/** The real sender: a plain keepalive fetch (it must outlive pagehide), never a popup, never a sign-out. */
export const sendTrackingBatch: TTrackingSend = async (events, { isUnloading }) => {
  const token = Cookies.get(COOKIE.token);
  if (!token) return;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
  };
  const teamId = Cookies.get(COOKIE.teamId);
  if (teamId) headers[TEAM_ID_HEADER] = teamId;
  await fetch(API_PATH, {
    method: 'POST',
    headers,
    body: JSON.stringify({ method: 'hub_saveEventTracking', params: { events }, id: 1 }),
    credentials: 'same-origin',
    keepalive: isUnloading,
  });
};

export type TTracker = {
  track: (action: TTrackingAction, pathname?: string) => void;
  /** Sends what is queued (up to one batch per call); resolves when done, never rejects. */
  flush: (opts?: { isUnloading?: boolean }) => Promise<void>;
  /** Events waiting to be sent (tests look). */
  queued: () => number;
  stop: () => void;
};

export function createTracker(o: {
  send: TTrackingSend;
  now?: () => number;
  intervalMs?: number;
  /** where pages come from when `track` is given none */
  currentPath?: () => string;
}): TTracker {
  const now = o.now ?? Date.now;
  const currentPath = o.currentPath ?? (() => window.location.pathname);
  let queue: TTrackingEvent[] = [];
  let timer: ReturnType<typeof setInterval> | undefined;

  const flush: TTracker['flush'] = async (opts = {}) => {
    while (queue.length > 0) {
      const batch = queue.slice(0, TRACKING_MAX_EVENTS);
      queue = queue.slice(batch.length);
      try {
        await o.send(batch, { isUnloading: opts.isUnloading ?? false });
      } catch {
        // Dropped: tracking is worth less than a retry loop or a word to the user.
      }
      if (!opts.isUnloading) break;
    }
  };
  const onPageHide = () => void flush({ isUnloading: true });

  const ensureStarted = () => {
    if (timer !== undefined) return;
    timer = setInterval(() => void flush(), o.intervalMs ?? TRACKING_FLUSH_MS);
    window.addEventListener('pagehide', onPageHide);
  };

  return {
    track: (action, pathname) => {
      queue.push({ page: normalisePage(pathname ?? currentPath()), action, at: now() });
      if (queue.length > MAX_QUEUED) queue = queue.slice(-MAX_QUEUED);
      ensureStarted();
      if (queue.length >= TRACKING_MAX_EVENTS) void flush();
    },
    flush,
    queued: () => queue.length,
    stop: () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      window.removeEventListener('pagehide', onPageHide);
    },
  };
}

// --- The app's one tracker ---

let isEnabled = import.meta.env.MODE !== 'test';
let tracker: TTracker | null = null;

/** Tests turn tracking on (or off again); a new tracker starts with the next event. */
export function setTrackingEnabled(enabled: boolean): void {
  isEnabled = enabled;
  tracker?.stop();
  tracker = null;
}

/** Records one action on the current page (or `pathname`); does nothing while tracking is off. */
export function trackEvent(action: TTrackingAction, pathname?: string): void {
  if (!isEnabled) return;
  try {
    tracker ??= createTracker({ send: sendTrackingBatch });
    tracker.track(action, pathname);
  } catch {
    // Never in the way of the page.
  }
}

/** A page view per route change (pathname only: query strings never leave). */
export function usePageViewTracking(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    trackEvent('view', pathname);
  }, [pathname]);
}

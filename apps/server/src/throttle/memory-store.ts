import type { TClock } from '../lib/clock';
import type { THitResult, TThrottleStore } from './throttle';

/** In-process counters, lost on restart: for unit tests of the throttle logic (the server uses the database or Redis). */
export function createMemoryThrottleStore(clock: TClock): TThrottleStore {
  const windows = new Map<string, THitResult>();
  let lastSweep = 0;

  function sweep(now: number): void {
    // Drop finished windows at most once a minute so memory stays bounded by live keys.
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  }

  return {
    hit: async (key, windowMs) => {
      const now = clock.now();
      sweep(now);
      const current = windows.get(key);
      if (!current || current.resetAt <= now) {
        const fresh = { count: 1, resetAt: now + windowMs };
        windows.set(key, fresh);
        return { ...fresh };
      }
      current.count += 1;
      return { ...current };
    },
    reset: async (key) => {
      windows.delete(key);
    },
    close: async () => {
      windows.clear();
    },
  };
}

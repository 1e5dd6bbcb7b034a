/** Fixed-window attempt counters behind one interface: the database (default), Redis (scale mode), memory (unit tests). */
export type TThrottleRule = { limit: number; windowMs: number };

export type THitResult = {
  /** attempts in the current window, including this one */
  count: number;
  /** epoch ms when the current window ends and attempts reset */
  resetAt: number;
};

export type TThrottleStore = {
  /** Counts one attempt against `key` and tells where the window stands. */
  hit: (key: string, windowMs: number) => Promise<THitResult>;
  /** Drops the counter of `key`, so its next hit starts a fresh window. */
  reset: (key: string) => Promise<void>;
  close: () => Promise<void>;
};

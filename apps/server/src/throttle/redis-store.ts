import { Redis } from 'ioredis';
import type { TClock } from '../lib/clock';
import type { TThrottleStore } from './throttle';

// INCR and PEXPIRE in one atomic step: the first hit of a window starts its expiry, and no
// crash between the two commands can leave a counter that never expires.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

export type TRedisThrottleOptions = {
  url: string;
  clock: TClock;
  /** Namespaces the keys (tests use a random one). */
  keyPrefix?: string;
  /** Connection trouble; ioredis reconnects by itself, this only reports it. */
  onError?: (err: Error) => void;
};

/** Counters shared by every console instance (scale mode). */
export function createRedisThrottleStore(opts: TRedisThrottleOptions): TThrottleStore {
  const redis = new Redis(opts.url, { maxRetriesPerRequest: 2 });
  // Without a listener ioredis prints every reconnect failure as an unhandled error event. While Redis is
  // down, hit() rejects and throttled calls answer 10500: failing closed beats unthrottled password guessing.
  redis.on('error', (err: Error) => opts.onError?.(err));
  const prefix = opts.keyPrefix ?? 'throttle:';
  return {
    hit: async (key, windowMs) => {
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, String(windowMs))) as [
        number,
        number,
      ];
      return { count, resetAt: opts.clock.now() + ttl };
    },
    reset: async (key) => {
      await redis.del(prefix + key);
    },
    close: async () => {
      // quit() waits for a connection that may never come; only a connected client can say goodbye.
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

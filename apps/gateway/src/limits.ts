/** Per-key token buckets (requests/s and RU/s, one second of burst) and an in-flight concurrency cap. */
import type { TTierLimits } from './types';

export type TBucketState = {
  reqTokens: number;
  ruTokens: number;
  last: number;
  inFlight: number;
  limits: TTierLimits;
};

export type TLimitVerdict =
  | { ok: true }
  | { ok: false; kind: 'requests' | 'ru' | 'concurrency'; retryAfterSec: number; message: string };

const OK: TLimitVerdict = { ok: true };

/**
 * One process's limiter. The buckets refill here, by the clock: exact for one gateway process. Several processes
 * sharing keys either split the tier (`share`) or take their tokens from one bucket per key in Redis
 * (apps/server/src/gateway/redis-rate-limiter.ts, which overrides the token source below).
 */
export class KeyLimiter {
  protected readonly state = new Map<string, TBucketState>();

  /**
   * `share`: this process's part of each key's concurrency, and of its sustained rates when the buckets refill
   * here (1 / live processes in scale mode). Bursts keep the tier's full one second, so a batch that fits the
   * tier fits here too; across N processes a first second may reach N× the tier, not more.
   */
  constructor(
    protected readonly now: () => number = () => performance.now(),
    protected readonly share: () => number = () => 1,
  ) {}

  /** Tokens of a key seen for the first time: a full second of its tier. */
  protected initialTokens(limits: TTierLimits): { req: number; ru: number } {
    return { req: limits.reqPerSec, ru: limits.ruPerSec };
  }

  /** Refills a bucket for the time since it was last looked at (this process's share of the tier). */
  protected refill(s: TBucketState, elapsedSec: number): void {
    const share = this.share();
    s.reqTokens = Math.min(
      s.limits.reqPerSec,
      s.reqTokens + elapsedSec * s.limits.reqPerSec * share,
    );
    s.ruTokens = Math.min(s.limits.ruPerSec, s.ruTokens + elapsedSec * s.limits.ruPerSec * share);
  }

  /** The part of the tier's rates this process's bucket refills at (for Retry-After). */
  protected rateShare(): number {
    return this.share();
  }

  /**
   * The key's tokens here do not cover an admission: may it take them anyway, into debt? Never here (the
   * bucket is exact); a limiter whose tokens come from elsewhere may, while it asks for more.
   */
  protected mayBorrow(_keyId: string, _s: TBucketState): boolean {
    return false;
  }

  /** After an admission took its tokens, or was refused for want of them (`refused`). */
  protected spent(_keyId: string, _s: TBucketState, _refused: boolean): void {}

  private get(keyId: string, limits: TTierLimits): TBucketState {
    let s = this.state.get(keyId);
    const t = this.now();
    if (!s) {
      const first = this.initialTokens(limits);
      s = { reqTokens: first.req, ruTokens: first.ru, last: t, inFlight: 0, limits };
      this.state.set(keyId, s);
      return s;
    }
    if (s.limits !== limits) s.limits = limits; // tier changed: new rates apply from now
    const elapsed = (t - s.last) / 1000;
    if (elapsed > 0) {
      this.refill(s, elapsed);
      s.last = t;
    }
    return s;
  }

  /**
   * Takes `requests` request tokens and `ru` RU tokens (the estimate) and one concurrency slot per call, or
   * refuses without taking anything.
   */
  acquire(keyId: string, limits: TTierLimits, requests: number, ru: number): TLimitVerdict {
    const s = this.get(keyId, limits);
    if (s.inFlight + 1 > Math.max(1, Math.ceil(limits.concurrency * this.share()))) {
      return {
        ok: false,
        kind: 'concurrency',
        retryAfterSec: 1,
        message: `too many concurrent requests for this key (limit ${limits.concurrency})`,
      };
    }
    const short = s.reqTokens < requests || s.ruTokens < ru;
    if (short && !this.mayBorrow(keyId, s)) {
      this.spent(keyId, s, true);
      const rate = this.rateShare();
      if (s.reqTokens < requests) {
        const wait = (requests - s.reqTokens) / (limits.reqPerSec * rate);
        return {
          ok: false,
          kind: 'requests',
          retryAfterSec: Math.max(1, Math.ceil(wait)),
          message: `rate limit exceeded: ${limits.reqPerSec} requests per second for this key`,
        };
      }
      const wait = (ru - s.ruTokens) / (limits.ruPerSec * rate);
      return {
        ok: false,
        kind: 'ru',
        retryAfterSec: Math.max(1, Math.ceil(wait)),
        message: `rate limit exceeded: ${limits.ruPerSec} RU per second for this key`,
      };
    }
    s.reqTokens -= requests;
    s.ruTokens -= ru;
    s.inFlight += 1;
    this.spent(keyId, s, false);
    return OK;
  }

  /** Ends a call: frees its slot and settles RU tokens (actual − estimate; may go into debt). */
  release(keyId: string, estimatedRu: number, actualRu: number): void {
    const s = this.state.get(keyId);
    if (!s) return;
    s.inFlight = Math.max(0, s.inFlight - 1);
    s.ruTokens -= actualRu - estimatedRu;
  }

  /** Calls of a key holding a slot now (tests: every path ends with none). */
  inFlight(keyId: string): number {
    return this.state.get(keyId)?.inFlight ?? 0;
  }

  forget(keyId: string): void {
    this.state.delete(keyId);
  }

  /** Ends background work (a limiter backed by another store closes its connection). */
  async stop(): Promise<void> {}
}

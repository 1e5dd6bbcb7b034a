/** Per-key token buckets (requests/s and RU/s, one second of burst) and an in-flight concurrency cap. */
import type { TTierLimits } from './types';

type TBucketState = {
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

export class KeyLimiter {
  private readonly state = new Map<string, TBucketState>();

  /**
   * `share`: this process's part of each key's sustained rates and concurrency when several gateway processes
   * serve the same keys (1 / live processes in scale mode). Bursts keep the tier's full one second, so a batch
   * that fits the tier fits here too; across N processes a first second may reach N× the tier, not more.
   */
  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly share: () => number = () => 1,
  ) {}

  private get(keyId: string, limits: TTierLimits): TBucketState {
    let s = this.state.get(keyId);
    const t = this.now();
    if (!s) {
      s = { reqTokens: limits.reqPerSec, ruTokens: limits.ruPerSec, last: t, inFlight: 0, limits };
      this.state.set(keyId, s);
      return s;
    }
    if (s.limits !== limits) s.limits = limits; // tier changed: new rates apply from now
    const elapsed = (t - s.last) / 1000;
    if (elapsed > 0) {
      const share = this.share();
      s.reqTokens = Math.min(limits.reqPerSec, s.reqTokens + elapsed * limits.reqPerSec * share);
      s.ruTokens = Math.min(limits.ruPerSec, s.ruTokens + elapsed * limits.ruPerSec * share);
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
    const share = this.share();
    if (s.inFlight + 1 > Math.max(1, Math.ceil(limits.concurrency * share))) {
      return {
        ok: false,
        kind: 'concurrency',
        retryAfterSec: 1,
        message: `too many concurrent requests for this key (limit ${limits.concurrency})`,
      };
    }
    if (s.reqTokens < requests) {
      const wait = (requests - s.reqTokens) / (limits.reqPerSec * share);
      return {
        ok: false,
        kind: 'requests',
        retryAfterSec: Math.max(1, Math.ceil(wait)),
        message: `rate limit exceeded: ${limits.reqPerSec} requests per second for this key`,
      };
    }
    if (s.ruTokens < ru) {
      const wait = (ru - s.ruTokens) / (limits.ruPerSec * share);
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
}

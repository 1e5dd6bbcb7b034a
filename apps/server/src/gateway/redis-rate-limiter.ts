/**
 * Scale mode: one token bucket per key in Redis (requests/s and RU/s, one second of burst, refilled by Redis's
 * clock), shared by every gateway process and worker, so a key gets its whole tier however its calls spread over
 * them: a client on one keep-alive connection reaches one worker, and splitting the tier 1/N per process would give
 * it 1/N. Each process spends tokens it took from the key's bucket in leases of a twentieth of a second of the tier
 * (at least four requests' worth) and asks for the next lease before this one runs out: one Redis call per key per lease, none per call.
 *
 * Bounds (docs/scale-mode.md, "Limits"): when its lease does not cover an admission and Redis has not said the
 * bucket is dry, a process admits into debt (at most one lease plus one admission deep) and the next lease pays the
 * debt first (a process never holds more than one lease of a key); once Redis grants less than asked, the process refuses the key until the bucket has had time to
 * refill. So N processes exceed a key's tier by at most N × (one lease + one admission) per dry spell. Concurrency
 * stays split (1/N of the key's concurrency per process): a shared count would cost a Redis call per call.
 * If Redis does not answer, the process falls back to refilling its own bucket at 1/N of the tier.
 */
import { KeyLimiter, type TBucketState } from '@rpc/gateway';
import { Redis } from 'ioredis';

/**
 * Takes up to ARGV[3] request and ARGV[4] RU tokens from the key's bucket (KEYS[1]) after refilling it for the time
 * since its last take at ARGV[1] requests/s and ARGV[2] RU/s (capacity: one second). Returns what it granted and
 * what is left, as strings (fractions survive).
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local reqRate = tonumber(ARGV[1])
local ruRate = tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 'req', 'ru', 'at')
local req = tonumber(s[1]) or reqRate
local ru = tonumber(s[2]) or ruRate
local at = tonumber(s[3]) or now
local dt = math.max(0, now - at) / 1000
req = math.min(reqRate, req + dt * reqRate)
ru = math.min(ruRate, ru + dt * ruRate)
local gReq = math.min(tonumber(ARGV[3]), math.max(0, math.floor(req)))
local gRu = math.min(tonumber(ARGV[4]), math.max(0, math.floor(ru)))
req = req - gReq
ru = ru - gRu
redis.call('HSET', KEYS[1], 'req', tostring(req), 'ru', tostring(ru), 'at', now)
redis.call('PEXPIRE', KEYS[1], 10000)
return { gReq, gRu, tostring(req), tostring(ru) }
`;

type TRateRedis = Redis & {
  rateTake(
    key: string,
    reqRate: number,
    ruRate: number,
    wantReq: number,
    wantRu: number,
  ): Promise<[number, number, string, string]>;
};

/** A lease is this part of a second of the key's tier… */
const LEASE_SECONDS = 1 / 20;
/**
 * …but at least this many requests' worth (up to the whole second): with a 1-request lease (the free tier's 20/s),
 * a worker took two calls before Redis answered, so three calls arriving together on one worker met a 429 with
 * the bucket full. Four requests' worth admits a small burst before the first answer.
 */
const MIN_LEASE_REQUESTS = 4;

export type TRedisKeyLimiterOptions = {
  redisUrl: string;
  /** Prefix of the bucket keys (default `rpc:rate:`). */
  keyPrefix?: string;
  /** This process's share of each key's concurrency (1 / live gateway processes), and of its rates without Redis. */
  share: () => number;
  onError?: (err: unknown) => void;
  now?: () => number;
};

type TKeyLease = {
  /** A take in flight for this key (one at a time). */
  taking: Promise<void> | undefined;
  /** Redis granted less than asked: no admission into debt before this time (this process's clock, ms). */
  dryUntil: number;
};

export class RedisKeyLimiter extends KeyLimiter {
  private readonly redis: TRateRedis;
  private readonly prefix: string;
  private readonly leases = new Map<string, TKeyLease>();
  /** Redis failed on the last take: buckets refill here at this process's share until it answers again. */
  private isFallback = false;

  constructor(private readonly o: TRedisKeyLimiterOptions) {
    super(o.now, o.share);
    this.prefix = o.keyPrefix ?? 'rpc:rate:';
    this.redis = new Redis(o.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
    }) as TRateRedis;
    this.redis.on('error', (err: unknown) => this.o.onError?.(err));
    this.redis.defineCommand('rateTake', { numberOfKeys: 1, lua: TAKE });
  }

  /** Connects before the gateway serves, so a key's first lease does not wait for the connection. */
  async start(): Promise<void> {
    await this.redis.connect();
  }

  /** Nothing until leased: the first admission of a key goes into debt while its first lease is asked for. */
  protected override initialTokens(): { req: number; ru: number } {
    return { req: 0, ru: 0 };
  }

  /** Tokens come from leases; only while Redis is unreachable does the bucket refill here (1/N of the tier). */
  protected override refill(s: TBucketState, elapsedSec: number): void {
    if (this.isFallback) super.refill(s, elapsedSec);
  }

  protected override rateShare(): number {
    return this.isFallback ? this.share() : 1;
  }

  protected override mayBorrow(keyId: string, s: TBucketState): boolean {
    if (this.isFallback) return false;
    const lease = this.leases.get(keyId);
    if (lease && lease.dryUntil > this.now()) return false;
    return s.reqTokens >= -leaseReq(s) && s.ruTokens >= -leaseRu(s);
  }

  protected override spent(keyId: string, s: TBucketState, refused: boolean): void {
    // Every admission passes here: two numbers, no allocation.
    if (refused || s.reqTokens < leaseReq(s) / 2 || s.ruTokens < leaseRu(s) / 2)
      void this.take(keyId, s);
  }

  /** One lease request at a time per key; what it grants pays any debt, then is spent here. */
  private take(keyId: string, s: TBucketState): Promise<void> {
    let lease = this.leases.get(keyId);
    if (!lease) {
      lease = { taking: undefined, dryUntil: 0 };
      this.leases.set(keyId, lease);
    }
    if (lease.taking || lease.dryUntil > this.now()) return lease.taking ?? Promise.resolve();
    const l = lease;
    // Up to one lease in hand (debt included): never more, so idle processes do not sit on a key's tokens.
    const wantReq = Math.max(0, Math.ceil(leaseReq(s) - s.reqTokens));
    const wantRu = Math.max(0, Math.ceil(leaseRu(s) - s.ruTokens));
    if (wantReq === 0 && wantRu === 0) return Promise.resolve();
    const { reqPerSec, ruPerSec } = s.limits;
    l.taking = this.redis
      .rateTake(`${this.prefix}${keyId}`, reqPerSec, ruPerSec, wantReq, wantRu)
      .then(([gReq, gRu]) => {
        this.isFallback = false;
        // The state may have been replaced (key forgotten and seen again): credit the live one.
        const live = this.state.get(keyId) ?? s;
        live.reqTokens += Number(gReq);
        live.ruTokens += Number(gRu);
        live.last = this.now();
        const wait = Math.max((wantReq - gReq) / reqPerSec, (wantRu - gRu) / ruPerSec);
        if (wait > 0) l.dryUntil = this.now() + Math.max(10, wait * 1000);
      })
      .catch((err: unknown) => {
        if (!this.isFallback) this.o.onError?.(err);
        this.isFallback = true;
      })
      .finally(() => {
        l.taking = undefined;
      });
    return l.taking;
  }

  override forget(keyId: string): void {
    super.forget(keyId);
    this.leases.delete(keyId);
  }

  /** Leases asked for so far have come back (tests). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.leases.values()].map((l) => l.taking));
  }

  override async stop(): Promise<void> {
    await this.settle();
    this.redis.disconnect();
  }
}

/** The seconds of the key's tier one lease holds: LEASE_SECONDS, or MIN_LEASE_REQUESTS' worth, at most one. */
function leaseSeconds(s: TBucketState): number {
  return Math.max(LEASE_SECONDS, Math.min(1, MIN_LEASE_REQUESTS / s.limits.reqPerSec));
}

/** Request tokens in one lease of the key's tier (at least one). */
function leaseReq(s: TBucketState): number {
  return Math.max(1, Math.ceil(s.limits.reqPerSec * leaseSeconds(s)));
}

/** RU tokens in one lease of the key's tier (at least one), the same part of a second as its requests. */
function leaseRu(s: TBucketState): number {
  return Math.max(1, Math.ceil(s.limits.ruPerSec * leaseSeconds(s)));
}

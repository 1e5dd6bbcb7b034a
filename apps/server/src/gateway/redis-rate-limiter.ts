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
 *
 * A lease taken where the bucket was short and left unused for LEASE_IDLE_MS goes back to the bucket (one sweep
 * timer per process, nothing per call), within its capacity and only while fresh: with many processes, leases held
 * by those a key's calls seldom reach would otherwise keep tokens from those they do reach.
 */
import { KeyLimiter, type TBucketState } from '@rpc/gateway';
import { Redis } from 'ioredis';

/**
 * Refills the key's bucket (KEYS[1]) to Redis's clock at ARGV[1] requests/s and ARGV[2] RU/s (capacity: one
 * second), noting when each side was last full (`reqFull`, `ruFull`, Redis's ms): tokens leased before then would
 * have overflowed had they stayed, so their lease has expired. A bucket that is missing (new, or idle past its
 * PEXPIRE) is full now. Shared by TAKE and GIVE_BACK; SAVE writes the result.
 */
const REFILL = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local reqRate = tonumber(ARGV[1])
local ruRate = tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 'req', 'ru', 'at', 'reqFull', 'ruFull')
local req = tonumber(s[1]) or reqRate
local ru = tonumber(s[2]) or ruRate
local at = tonumber(s[3]) or now
local reqFull = tonumber(s[4]) or at
local ruFull = tonumber(s[5]) or at
local dt = math.max(0, now - at) / 1000
req = math.min(reqRate, req + dt * reqRate)
ru = math.min(ruRate, ru + dt * ruRate)
if req >= reqRate then reqFull = now end
if ru >= ruRate then ruFull = now end
`;

const SAVE = `
redis.call('HSET', KEYS[1], 'req', tostring(req), 'ru', tostring(ru), 'at', now, 'reqFull', reqFull, 'ruFull', ruFull)
redis.call('PEXPIRE', KEYS[1], 10000)
`;

/**
 * Takes up to ARGV[3] request and ARGV[4] RU tokens from the key's bucket (KEYS[1]) after refilling it. Returns
 * what it granted, what is left (as strings: fractions survive), Redis's time of the grant (ms), which a give back
 * names, and for each side whether it was full before the grant (1: tokens were not scarce).
 */
const TAKE = `${REFILL}
local gReq = math.min(tonumber(ARGV[3]), math.max(0, math.floor(req)))
local gRu = math.min(tonumber(ARGV[4]), math.max(0, math.floor(ru)))
local reqWasFull = reqFull == now and 1 or 0
local ruWasFull = ruFull == now and 1 or 0
req = req - gReq
ru = ru - gRu
${SAVE}
return { gReq, gRu, tostring(req), tostring(ru), now, reqWasFull, ruWasFull }
`;

/**
 * Gives back ARGV[3] request and ARGV[4] RU tokens of a lease granted at ARGV[5] (Redis's time, ms) to the key's
 * bucket (KEYS[1]), refilled first and never above its capacity. A side that has been full since the grant gets
 * nothing back: had the tokens stayed, they would have overflowed then (the lease has expired in the bucket's
 * view); so does a bucket that is gone (idle past its PEXPIRE: full). Returns what was taken back, as strings.
 */
const GIVE_BACK = `
if redis.call('EXISTS', KEYS[1]) == 0 then return { '0', '0' } end
${REFILL}
local leasedAt = tonumber(ARGV[5])
local bReq = 0
local bRu = 0
if reqFull <= leasedAt then bReq = math.max(0, math.min(tonumber(ARGV[3]), reqRate - req)) end
if ruFull <= leasedAt then bRu = math.max(0, math.min(tonumber(ARGV[4]), ruRate - ru)) end
req = req + bReq
ru = ru + bRu
${SAVE}
return { tostring(bReq), tostring(bRu) }
`;

type TRateRedis = Redis & {
  rateTake(
    key: string,
    reqRate: number,
    ruRate: number,
    wantReq: number,
    wantRu: number,
  ): Promise<[number, number, string, string, number, number, number]>;
  rateGiveBack(
    key: string,
    reqRate: number,
    ruRate: number,
    req: number,
    ru: number,
    leasedAt: number,
  ): Promise<[string, string]>;
};

/** A lease is this part of a second of the key's tier… */
const LEASE_SECONDS = 1 / 20;
/**
 * …but at least this many requests' worth (up to the whole second): with a 1-request lease (the free tier's 20/s),
 * a worker took two calls before Redis answered, so three calls arriving together on one worker met a 429 with
 * the bucket full. Four requests' worth admits a small burst before the first answer.
 */
const MIN_LEASE_REQUESTS = 4;
/**
 * A lease unused this long is offered back to the key's bucket (what is left of it; the sweep runs every half of
 * this, so it goes 100–150 ms after its last use). Held by a process the key's calls seldom reach, a lease keeps
 * tokens from the processes they do reach: sixteen processes on a 20/s key may hold sixteen leases of four, three
 * times the bucket. What is held is then about the leases taken per second times how long an unused one stays:
 * at the tier's rate with every call on a process holding none, 20 × 0.15 s × 4 = 12 tokens, under the bucket's 20
 * (at 250 ms it was the whole bucket, and calls were refused below the tier: redis-rate-limiter.test.ts). Much
 * shorter would take leases from processes between calls they would have spent them on. Redis is not churned:
 * only a grant out of a bucket that was not full is offered (a key with tokens to spare costs what it did), and
 * at most once, so a short key costs at most one Redis call more per lease.
 */
export const LEASE_IDLE_MS = 100;

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
  /** The last grant not yet given back: its tokens and Redis's time of it (ms). */
  grantReq: number;
  grantRu: number;
  grantAt: number;
};

export class RedisKeyLimiter extends KeyLimiter {
  private readonly redis: TRateRedis;
  private readonly prefix: string;
  private readonly leases = new Map<string, TKeyLease>();
  /** Keys whose last grant may still be in hand here: what the idle sweep looks at. */
  private readonly holding = new Set<string>();
  private sweep: NodeJS.Timeout | undefined;
  /** The sweep's give back under way (stop waits for it before disconnecting). */
  private giving: Promise<unknown> | undefined;
  /** Redis failed on the last take: buckets refill here at this process's share until it answers again. */
  private isFallback = false;

  constructor(private readonly o: TRedisKeyLimiterOptions) {
    super(o.now, o.share);
    this.prefix = o.keyPrefix ?? 'rpc:rate:';
    this.redis = new Redis(o.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      // A command whose answer a dropped connection lost is not sent again: a give back that ran would run twice
      // (tokens made up); a take that ran only loses its tokens, and the caller falls back for it meanwhile.
      autoResendUnfulfilledCommands: false,
    }) as TRateRedis;
    this.redis.on('error', (err: unknown) => this.o.onError?.(err));
    this.redis.defineCommand('rateTake', { numberOfKeys: 1, lua: TAKE });
    this.redis.defineCommand('rateGiveBack', { numberOfKeys: 1, lua: GIVE_BACK });
  }

  /**
   * Connects before the gateway serves, so a key's first lease does not wait for the connection, and starts the
   * sweep giving idle leases back (one timer per process: nothing per call).
   */
  async start(): Promise<void> {
    await this.redis.connect();
    this.sweep ??= setInterval(() => {
      this.giving = this.giveBackIdle().catch((err: unknown) => this.o.onError?.(err));
    }, LEASE_IDLE_MS / 2);
    this.sweep.unref();
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
      lease = { taking: undefined, dryUntil: 0, grantReq: 0, grantRu: 0, grantAt: 0 };
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
      .then(([gReq, gRu, , , at, reqWasFull, ruWasFull]) => {
        this.isFallback = false;
        // The state may have been replaced (key forgotten and seen again): credit the live one.
        const live = this.state.get(keyId) ?? s;
        live.reqTokens += Number(gReq);
        live.ruTokens += Number(gRu);
        live.last = this.now();
        // What an idle sweep may offer back: a side's grant out of a bucket that was not full (tokens were short
        // there). A grant of nothing leaves the last one's note as it was.
        if (gReq > 0 || gRu > 0) {
          l.grantReq = Number(reqWasFull) === 1 ? 0 : Number(gReq);
          l.grantRu = Number(ruWasFull) === 1 ? 0 : Number(gRu);
          l.grantAt = Number(at);
          if (l.grantReq > 0 || l.grantRu > 0) this.holding.add(keyId);
        }
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

  /**
   * Offers the bucket back what is left of each lease unused for `idleMs` (one Redis call per lease, after its
   * last call here): the part of its last grant still in hand. The bucket takes what is still fresh, up to its
   * capacity (GIVE_BACK); the rest stays here, as every lease stayed before (an expired lease taken back would be
   * tokens the bucket never had). The offer leaves this process before Redis is asked, so nothing is spent here
   * and taken back too, and the grant is forgotten, so nothing of it is offered twice; what Redis did not take
   * comes back here, and an unknown outcome (Redis failed) loses the offer (fewer tokens for a moment, never
   * more). A call after a give back borrows and takes a new lease, as on a fresh process. Answers what the
   * buckets took back (tests).
   */
  async giveBackIdle(idleMs = LEASE_IDLE_MS): Promise<{ req: number; ru: number }> {
    const back = { req: 0, ru: 0 };
    if (this.isFallback || this.holding.size === 0) return back;
    const now = this.now();
    const offers: Promise<void>[] = [];
    for (const keyId of this.holding) {
      const lease = this.leases.get(keyId);
      const s = this.state.get(keyId);
      if (!lease || !s) {
        this.holding.delete(keyId);
        continue;
      }
      if (lease.taking || now - s.last < idleMs) continue;
      this.holding.delete(keyId);
      const req = Math.min(Math.max(0, Math.floor(s.reqTokens)), lease.grantReq);
      const ru = Math.min(Math.max(0, Math.floor(s.ruTokens)), lease.grantRu);
      const at = lease.grantAt;
      lease.grantReq = 0;
      lease.grantRu = 0;
      if (req === 0 && ru === 0) continue;
      s.reqTokens -= req;
      s.ruTokens -= ru;
      const { reqPerSec, ruPerSec } = s.limits;
      offers.push(
        this.redis
          .rateGiveBack(`${this.prefix}${keyId}`, reqPerSec, ruPerSec, req, ru, at)
          .then(([bReq, bRu]) => {
            back.req += Number(bReq);
            back.ru += Number(bRu);
            const live = this.state.get(keyId);
            if (live) {
              live.reqTokens += req - Number(bReq);
              live.ruTokens += ru - Number(bRu);
            }
          }),
      );
    }
    await Promise.all(offers);
    return back;
  }

  override forget(keyId: string): void {
    super.forget(keyId);
    this.leases.delete(keyId);
    this.holding.delete(keyId);
  }

  /** Leases asked for so far have come back (tests). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.leases.values()].map((l) => l.taking));
  }

  /** Stops the sweep and offers back its leases as an idle sweep would, idle or not (none will be spent here). */
  override async stop(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
    await this.giving;
    await this.settle();
    await this.giveBackIdle(0).catch((err: unknown) => this.o.onError?.(err));
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

/**
 * Scale mode: one RU pool per account shared by every gateway process through Redis, spent in leases. A process
 * admits calls against its own lease in memory (RuBudget: the estimate held until settled, so it overdraws its lease
 * by at most one call) and asks Redis for more before the lease runs dry; the leases of all processes never add up
 * to more than the account's balance. Across N processes the overdraft is therefore at most N calls.
 *
 * Redis hash `<prefix><accountId>`: `base` (accounts.ru_balance at `v` = accounts.ru_version), and `lease:<pid>`
 * per process (RUs leased to it and not yet written to the ledger, spent or not). pool = base − Σ live leases.
 * A process that stops gives its leases back; one that dies stops refreshing its entry in `<prefix>alive` and its
 * leases are dropped by the next grant. The same heartbeat counts live processes, for each one's share of the
 * keys' rate limits. Design and bounds: docs/decisions/gateway-design.md ("RU budgets").
 */
import { randomUUID } from 'node:crypto';
import { accounts, type TDatabase, spendableRu } from '@rpc/db';
import { RuBudget } from '@rpc/gateway';
import { inArray } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type { TAccountState, TBalanceCrossing, TGatewayBalance } from './balances';

/**
 * Lua, shared by the scripts below: `pool` = base − the leases of live processes (ARGV[1] is this one, always live);
 * leases of dead processes are dropped on the way. Returns -1 when the account has no base yet.
 */
const POOL = `
local h = KEYS[1]
local base = redis.call('HGET', h, 'base')
if not base then return -1 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pool = tonumber(base)
local fields = redis.call('HGETALL', h)
for i = 1, #fields, 2 do
  local f = fields[i]
  if string.sub(f, 1, 6) == 'lease:' then
    local pid = string.sub(f, 7)
    local alive = redis.call('ZSCORE', KEYS[2], pid)
    if pid ~= ARGV[1] and (not alive or tonumber(alive) < now) then
      redis.call('HDEL', h, f)
    else
      pool = pool - tonumber(fields[i + 1])
    end
  end
end
`;

/** Grants up to ARGV[2] from the pool (half the pool when it is short), dropping leases of dead processes. */
const GRANT = `${POOL}
if pool <= 0 then return 0 end
local want = tonumber(ARGV[2])
local grant = want
if pool < 2 * want then grant = math.ceil(pool / 2) end
redis.call('HINCRBY', h, 'lease:' .. ARGV[1], grant)
return grant
`;

/** Marks this process alive until now + ARGV[2] ms (Redis's clock), forgets expired ones, counts the living. */
const HEARTBEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])
`;

/** Sets base to a newer ledger state (ARGV[1] balance at ARGV[2] version); older states are ignored. */
const REBASE = `
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '-1')
if tonumber(ARGV[2]) > v then
  redis.call('HSET', KEYS[1], 'base', ARGV[1], 'v', ARGV[2])
end
return 1
`;

/** A usage batch is in the ledger: its RUs leave this process's lease (ARGV[2]) as base moves to the new state. */
const SETTLE = `
if tonumber(ARGV[2]) ~= 0 then
  redis.call('HINCRBY', KEYS[1], 'lease:' .. ARGV[1], -tonumber(ARGV[2]))
end
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '-1')
if tonumber(ARGV[4]) > v then
  redis.call('HSET', KEYS[1], 'base', ARGV[3], 'v', ARGV[4])
end
return 1
`;

/**
 * An idle process's unspent lease (ARGV[2]) goes back only when the rest of the pool (what other processes could
 * still be granted) is under ARGV[3]: with plenty left the lease stays, so the account's next call here is served
 * at once instead of refused while a new lease is asked for. Returns what was given back.
 */
const GIVE_BACK = `${POOL}
if pool >= tonumber(ARGV[3]) then return 0 end
redis.call('HINCRBY', h, 'lease:' .. ARGV[1], -tonumber(ARGV[2]))
return tonumber(ARGV[2])
`;

type TLeaseRedis = Redis & {
  ruGiveBack(
    key: string,
    aliveKey: string,
    pid: string,
    unspent: number,
    shortUnder: number,
  ): Promise<number>;
  ruGrant(key: string, aliveKey: string, pid: string, want: number): Promise<number>;
  ruHeartbeat(aliveKey: string, pid: string, ttlMs: number): Promise<number>;
  ruRebase(key: string, base: number, version: number): Promise<number>;
  ruSettle(key: string, pid: string, own: number, base: number, version: number): Promise<number>;
};

export type TRedisBalanceOptions = {
  db: TDatabase;
  redisUrl: string;
  /** RUs asked for at a time (default 2,000); more is asked when less than half is left. */
  leaseRu?: number;
  keyPrefix?: string;
  lowRuThreshold: number;
  onLow?: TBalanceCrossing;
  onError?: (err: unknown) => void;
  /** Leases of accounts idle this long go back to the pool (default 10 s). */
  idleMs?: number;
  /** Live gateway processes known without Redis (this one's GATEWAY_WORKERS siblings); default 1. */
  minLiveProcesses?: number;
};

export class RedisLeasedBalance extends RuBudget implements TGatewayBalance {
  readonly pid = randomUUID();
  private readonly redis: TLeaseRedis;
  private readonly prefix: string;
  private readonly leaseRu: number;
  /** RUs charged here whose usage batch is not written yet (they are still inside our lease in Redis). */
  private readonly unflushed = new Map<string, number>();
  private readonly refilling = new Map<string, Promise<void>>();
  private readonly lastUse = new Map<string, number>();
  /** Accounts seen and not yet leased for (batched by seen()). */
  private readonly unleased = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: TRedisBalanceOptions) {
    super();
    this.prefix = o.keyPrefix ?? 'rpc:ru:';
    this.leaseRu = o.leaseRu ?? 2000;
    this.liveProcesses = Math.max(1, o.minLiveProcesses ?? 1);
    this.redis = new Redis(o.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 3,
    }) as TLeaseRedis;
    // Connection trouble is reported, never thrown from an event (a refused grant only refuses calls).
    this.redis.on('error', (err: unknown) => this.o.onError?.(err));
    this.redis.defineCommand('ruGrant', { numberOfKeys: 2, lua: GRANT });
    this.redis.defineCommand('ruHeartbeat', { numberOfKeys: 1, lua: HEARTBEAT });
    this.redis.defineCommand('ruRebase', { numberOfKeys: 1, lua: REBASE });
    this.redis.defineCommand('ruSettle', { numberOfKeys: 1, lua: SETTLE });
    this.redis.defineCommand('ruGiveBack', { numberOfKeys: 2, lua: GIVE_BACK });
  }

  private key(accountId: string): string {
    return `${this.prefix}${accountId}`;
  }

  /** Sorted set of live gateway processes (pid → alive until, ms on Redis's clock). */
  private get aliveKey(): string {
    return `${this.prefix}alive`;
  }

  /** Gateway processes alive now (this one included), as of the last heartbeat. */
  liveProcesses: number;

  async start(): Promise<void> {
    await this.redis.connect();
    await this.heartbeat();
    this.timer = setInterval(() => {
      this.heartbeat().catch(this.onError);
      this.giveBackIdle().catch(this.onError);
    }, 3000);
    this.timer.unref();
  }

  private readonly onError = (err: unknown) => this.o.onError?.(err);

  private async heartbeat(): Promise<void> {
    const counted = await this.redis.ruHeartbeat(this.aliveKey, this.pid, 15_000);
    this.liveProcesses = Math.max(1, this.o.minLiveProcesses ?? 1, counted);
  }

  override reserve(accountId: string, ru: number, lastCallRu: number): boolean {
    const ok = super.reserve(accountId, ru, lastCallRu);
    this.lastUse.set(accountId, Date.now());
    // Ask before the lease runs dry; a refused call asks too, so the next one may pass.
    if (!ok || this.available(accountId) < this.leaseRu / 2) void this.refill(accountId);
    return ok;
  }

  protected override charged(accountId: string, ru: number): void {
    this.unflushed.set(accountId, (this.unflushed.get(accountId) ?? 0) + ru);
  }

  /** One lease request at a time per account. Resolves when the grant (if any) is spendable here. */
  refill(accountId: string): Promise<void> {
    let running = this.refilling.get(accountId);
    if (running) return running;
    running = (async () => {
      let grant = await this.redis.ruGrant(
        this.key(accountId),
        this.aliveKey,
        this.pid,
        this.leaseRu,
      );
      if (grant === -1) {
        await this.resync([accountId]);
        grant = await this.redis.ruGrant(
          this.key(accountId),
          this.aliveKey,
          this.pid,
          this.leaseRu,
        );
      }
      if (grant > 0) this.set(accountId, (this.spendable.get(accountId) ?? 0) + grant);
    })()
      .catch(this.onError)
      .finally(() => this.refilling.delete(accountId));
    this.refilling.set(accountId, running);
    return running;
  }

  /**
   * An account's key was loaded: lease for it soon, so its first call does not wait for Redis. Accounts seen
   * together (all keys at start) are re-based with one query per 1,000 before their grants are asked.
   */
  seen(accountId: string): void {
    if (this.spendable.has(accountId)) return;
    this.spendable.set(accountId, 0);
    this.unleased.add(accountId);
    if (this.unleased.size === 1)
      this.leasing = new Promise<void>((resolve) =>
        setImmediate(() => {
          const ids = [...this.unleased];
          this.unleased.clear();
          this.resync(ids)
            .then(() => Promise.all(ids.map((id) => this.refill(id))))
            .catch(this.onError)
            .finally(resolve);
        }),
      );
  }

  /** The first leases of the accounts seen so far: awaited before a gateway serves, so its first calls pass. */
  private leasing: Promise<void> = Promise.resolve();

  async ready(): Promise<void> {
    await this.leasing;
  }

  get(accountId: string): number | undefined {
    return this.spendable.get(accountId);
  }

  async settled(
    ruByAccount: Map<string, number>,
    states: Map<string, TAccountState>,
  ): Promise<void> {
    for (const [accountId, ru] of ruByAccount) {
      // Only what this process charged: a batch replayed from an earlier run's journal was never in our lease.
      const mine = Math.min(ru, this.unflushed.get(accountId) ?? 0);
      if (mine > 0) {
        const left = (this.unflushed.get(accountId) ?? 0) - mine;
        if (left > 0) this.unflushed.set(accountId, left);
        else this.unflushed.delete(accountId);
      }
      const s = states.get(accountId);
      if (!s) continue;
      await this.redis.ruSettle(this.key(accountId), this.pid, mine, s.ruBalance, s.ruVersion);
      if (s.ruBalance <= this.o.lowRuThreshold) this.o.onLow?.(accountId, s.ruBalance);
    }
  }

  /** Moves each account's base to the ledger's current state (purchases, gifts, other writers). */
  async resync(accountIds?: string[]): Promise<void> {
    const ids = accountIds ?? [...this.spendable.keys()];
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.o.db
        .select({ id: accounts.id, ruBalance: spendableRu, ruVersion: accounts.ruVersion })
        .from(accounts)
        .where(inArray(accounts.id, ids.slice(i, i + 1000)));
      const pipeline = this.redis.pipeline() as unknown as TLeaseRedis;
      for (const r of rows) void pipeline.ruRebase(this.key(r.id), r.ruBalance, r.ruVersion);
      await (pipeline as unknown as ReturnType<Redis['pipeline']>).exec();
    }
  }

  /**
   * Leases of accounts not used for a while go back to the pool (only the unspent part), when the pool is short:
   * then other processes may need them. With plenty in the pool the lease stays (checked again every idle period),
   * since a process holding nothing refuses the account's next call while it asks for a new lease.
   */
  async giveBackIdle(): Promise<void> {
    const idleMs = this.o.idleMs ?? 10_000;
    const now = Date.now();
    // Short: less than every live process could be granted once more.
    const shortUnder = this.liveProcesses * this.leaseRu * 2;
    for (const [accountId, at] of this.lastUse) {
      if (at > now - idleMs || this.heldRu(accountId) > 0) continue;
      const unspent = this.spendable.get(accountId) ?? 0;
      if (unspent <= 0) {
        this.lastUse.delete(accountId);
        continue;
      }
      // Nothing of it is spent here while Redis decides (a call in that moment asks for a new lease).
      this.set(accountId, 0);
      let given = 0;
      try {
        given = await this.redis.ruGiveBack(
          this.key(accountId),
          this.aliveKey,
          this.pid,
          unspent,
          shortUnder,
        );
      } finally {
        // Kept (or not known to be given back): spendable again, plus any grant that arrived meanwhile.
        if (given <= 0) this.set(accountId, (this.spendable.get(accountId) ?? 0) + unspent);
      }
      // Kept: asked again one idle period from now.
      if (given <= 0) this.lastUse.set(accountId, now);
      else this.lastUse.delete(accountId);
    }
  }

  /** After the final usage flush: every lease goes back and this process is no longer alive. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled(this.refilling.values());
    try {
      const pipeline = this.redis.pipeline();
      for (const accountId of this.spendable.keys())
        pipeline.hdel(this.key(accountId), `lease:${this.pid}`);
      pipeline.zrem(this.aliveKey, this.pid);
      await pipeline.exec();
    } finally {
      this.redis.disconnect();
    }
  }
}

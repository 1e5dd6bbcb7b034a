/**
 * The gateway wired to the console's database: key cache, balances, usage sink and notices, with no database
 * on the hot path (ARCHITECTURE.md "Gateway"). Used by `npm start` and the end-to-end tests.
 */
import {
  CachedKeyStore,
  startGateway,
  type TGateway,
  type TGatewayOptions,
  type UsageSink,
} from '@rpc/gateway';
import { apiKeys } from '@rpc/db';
import { gt } from 'drizzle-orm';
import type { TDeps } from '../rpc/context';
import { writeRequestLogBatch } from '../services/request-logs/write-request-log-batch';
import { writeRefusalBatch } from '../services/usage/write-refusal-batch';
import { writeUsageBatch } from '../services/usage/write-usage-batch';
import { DbAccountBalance, type TGatewayBalance } from './balances';
import { RedisLeasedBalance } from './redis-balance';
import { RedisKeyLimiter } from './redis-rate-limiter';
import { DbDnNodeStore } from './dn-node-store';
import { createDbKeyLoader } from './key-loader';
import { createGatewayNotifier, PAUSED_NOTICE_EVERY_MS, type TGatewayNotifier } from './notifier';

const KEY_REFRESH_MARGIN_MS = 10_000;

export type TDbGateway = {
  gateway: TGateway;
  keys: CachedKeyStore;
  balance: TGatewayBalance;
  notifier: TGatewayNotifier;
  url: string;
  /** Re-reads the dedicated nodes now (tests; a timer does it every dnRefreshIntervalMs). */
  refreshDedicatedNodes: () => Promise<void>;
  /** Final usage flush, then stops the gateway and its refresh timer. */
  stop: () => Promise<void>;
};

export type TStartDbGatewayOptions = Omit<
  TGatewayOptions,
  'keys' | 'balance' | 'usageSink' | 'notify' | 'chains'
> & {
  deps: Pick<
    TDeps,
    'db' | 'keyEvents' | 'logger' | 'noticeBus' | 'config' | 'chains' | 'apiKeyCipher' | 'dnDriver'
  >;
  /** How often the dedicated nodes are re-read (status, address). Default 2 s. */
  dnRefreshIntervalMs?: number;
  /** How often balances and recently changed keys are re-read from the database. Default 30 s. */
  refreshIntervalMs?: number;
  /**
   * Scale mode: every gateway process spends an account's RUs from one pool in Redis, in leases (see
   * redis-balance.ts); without it each process budgets alone against the database balance (one process).
   */
  /**
   * `minLiveProcesses`: gateway processes known to run beside this one (its GATEWAY_WORKERS siblings), counted
   * before their first heartbeat reaches Redis, so a worker never starts out keeping a whole tier to itself.
   */
  redis?: { url: string; keyPrefix?: string; leaseRu?: number; minLiveProcesses?: number };
};

export async function startDbGateway(o: TStartDbGatewayOptions): Promise<TDbGateway> {
  const {
    deps,
    refreshIntervalMs = 30_000,
    dnRefreshIntervalMs = 2000,
    redis,
    ...gatewayOptions
  } = o;
  const log = deps.logger;
  const onError = (err: unknown) => log.error({ err }, 'gateway background error');
  const notifier = createGatewayNotifier({ db: deps.db, bus: deps.noticeBus, logger: log });
  const leased = redis
    ? new RedisLeasedBalance({
        db: deps.db,
        redisUrl: redis.url,
        keyPrefix: redis.keyPrefix,
        leaseRu: redis.leaseRu,
        minLiveProcesses: redis.minLiveProcesses,
        lowRuThreshold: deps.config.lowRuThreshold,
        onLow: notifier.onLowRu,
        onError,
      })
    : undefined;
  // Scale mode: every key's rates come from one bucket in Redis shared by all gateway processes; each of N
  // live processes keeps 1/N of its concurrency.
  const limiter =
    leased && redis
      ? new RedisKeyLimiter({
          redisUrl: redis.url,
          keyPrefix: redis.keyPrefix ? `${redis.keyPrefix}rate:` : undefined,
          share: () => 1 / leased.liveProcesses,
          onError,
        })
      : undefined;
  await limiter?.start();
  const balance: TGatewayBalance =
    leased ?? new DbAccountBalance(deps.db, deps.config.lowRuThreshold, notifier.onLowRu);
  await balance.start?.();
  // The store gets a silent channel: we subscribe ourselves, returning the reload's promise, so an in-process
  // publish (LocalInvalidationChannel) resolves only once this gateway serves the new state.
  const keys = new CachedKeyStore(
    createDbKeyLoader(
      deps.db,
      deps.apiKeyCipher,
      (accountId, ru) => balance.seen(accountId, ru),
      (accountId) =>
        balance.resync([accountId]).catch((err: unknown) => {
          deps.logger.warn({ err, accountId }, 'balance re-read after a key change failed');
        }),
    ),
    { subscribe: () => () => {}, publish: async () => {} },
    onError,
  );
  const unsubscribe = deps.keyEvents.subscribe((keyId) => keys.refresh(keyId).catch(onError));
  await keys.start();
  // Every known account can spend before the first call arrives (scale mode: leases granted).
  await balance.ready?.();

  const dnNodes = new DbDnNodeStore(deps);
  await dnNodes.refresh();

  const usageSink: UsageSink = {
    write: async (batch) => {
      const { states } = await writeUsageBatch(deps.db, batch);
      // Applied now or before (a retry): either way these RUs are in the ledger.
      const ruByAccount = new Map<string, number>();
      for (const r of batch.rows)
        ruByAccount.set(r.accountId, (ruByAccount.get(r.accountId) ?? 0) + r.ru);
      await Promise.resolve(balance.settled(ruByAccount, states)).catch(onError);
    },
    // Calls the gateway refused (limits, no RUs, allowlists), for the statistics page; never billed.
    writeRefusals: async (batch) => {
      await writeRefusalBatch(deps.db, batch);
    },
    // The per-key request log (docs/decisions/request-log.md); never params, results or bodies.
    writeRequestLogs: async (batch) => {
      await writeRequestLogBatch(deps.db, batch);
    },
  };

  const gateway = await startGateway({
    pausedNoticeEveryMs: PAUSED_NOTICE_EVERY_MS,
    onError,
    ...gatewayOptions,
    chains: deps.chains,
    keys,
    dnNodes,
    balance,
    usageSink,
    notify: notifier.notify,
    ...(limiter ? { limiter } : {}),
  });

  // Now and then, re-read what may have changed without this process hearing of it: balances (RU bought,
  // another gateway's usage) and keys changed while the invalidation channel was down (Redis outage).
  let keysSeenUntil = Date.now();
  const refresh = setInterval(() => {
    void (async () => {
      await balance.resync();
      // Keys stamped since the last pass, with a margin for clock skew between the processes that stamp them.
      const passStartedAt = Date.now();
      const changed = await deps.db
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(gt(apiKeys.updatedAt, new Date(keysSeenUntil - KEY_REFRESH_MARGIN_MS)));
      for (const k of changed) await keys.refresh(k.id);
      keysSeenUntil = passStartedAt;
    })().catch(onError);
  }, refreshIntervalMs);
  refresh.unref();
  const dnRefresh = setInterval(() => {
    dnNodes.refresh().catch(onError);
  }, dnRefreshIntervalMs);
  dnRefresh.unref();

  return {
    gateway,
    keys,
    balance,
    notifier,
    url: gateway.url,
    refreshDedicatedNodes: () => dnNodes.refresh(),
    stop: async () => {
      clearInterval(refresh);
      clearInterval(dnRefresh);
      await gateway.stop();
      // After the final flush: in scale mode the leases go back to the pool.
      await balance.stop?.().catch(onError);
      unsubscribe();
      keys.stop();
      await notifier.settle();
    },
  };
}

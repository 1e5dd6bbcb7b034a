/** The RPC gateway (data plane) as a library: the console wires its key store, balances and usage sink in. */
export { startGateway } from './server';
export type { TGateway, TGatewayOptions } from './server';
export { startLocalnet } from './localnet';
export type { TLocalnet } from './localnet';
export { listChains, loadChains, withUpstreams, resolveUpstreams } from './chains';
export type { TChain, TChainInfo, TChainFeature, TUpstreamGroups } from './chains';
export { computeRu, estimateRu, listedPrice, defaultRuTable } from './metering';
export type { TRuTable, TRuInput, TOutcome } from './metering';
export { tiers, getTier, defaultTier } from './tiers';
export type { TTier } from './tiers';
export { MemoryKeyStore, CachedKeyStore, MemoryInvalidationChannel } from './key-cache';
export type { TKeyLoader } from './key-cache';
export { RedisInvalidationChannel, DEFAULT_INVALIDATION_CHANNEL } from './redis-invalidation';
export { MemoryUsageSink, UsageAggregator } from './usage';
export { BUNDLERS } from './types';
export { RuBudget, unlimitedBalance } from './budget';
export { KeyLimiter } from './limits';
export type { TBucketState, TLimitVerdict } from './limits';
export { CORS_ALLOWED_HEADERS } from './http-handler';
export { WS_CLOSE } from './ws-relay';
export { addProcessMetrics, createGatewayMetrics, isScrapeAllowed } from './metrics';
export { serveClusterMetrics } from './cluster-metrics';
export type { TGatewayMetrics } from './metrics';
export type {
  AccountBalance,
  InvalidationChannel,
  KeyStore,
  TBundler,
  TKeyAllowlists,
  TKeyInfo,
  DnNodeStore,
  TDnRoute,
  TMevMode,
  TNotifier,
  TServicePausedEvent,
  TRefusalBatch,
  TRefusalRow,
  TRequestLogBatch,
  TRequestLogDrop,
  TRequestLogEntry,
  TRequestOutcome,
  TRequestTransport,
  TTierLimits,
  TUsageBatch,
  TUsageRow,
  UsageSink,
} from './types';

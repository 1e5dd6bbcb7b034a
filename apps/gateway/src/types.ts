/** The gateway's injected dependencies: everything it needs from the console side, with no database in sight. */

export type TMevMode = '' | 'auto' | 'globalcast';
export type TBundler = 'default' | 'stackup' | 'candide' | 'pimlico' | 'etherspot';
export const BUNDLERS: readonly TBundler[] = [
  'default',
  'stackup',
  'candide',
  'pimlico',
  'etherspot',
];

export type TTierLimits = {
  reqPerSec: number;
  ruPerSec: number;
  concurrency: number;
  /** Calls per batch; default min(100, reqPerSec): a batch bigger than one second of requests could never pass. */
  maxBatch?: number;
  /** Open WebSockets per key (default 10). */
  socketsPerKey?: number;
  /** Subscriptions per WebSocket (default 10). */
  subscriptionsPerSocket?: number;
};

export type TKeyAllowlists = {
  /** Exact origins (`https://app.example.com`) or wildcard hosts (`https://*.example.com`, `*.example.com`). */
  origins: string[];
  /** Exact IPv4/IPv6 addresses or IPv4 CIDR blocks (`10.0.0.0/8`). */
  ips: string[];
  /** Lower-case 0x addresses; every address a call touches must be one of them (method-policy.ts). */
  contracts: string[];
  methods: string[];
};

/** What the gateway knows about one API key. Empty allowlists allow everything. */
export type TKeyInfo = {
  key: string;
  keyId: string;
  accountId: string;
  paused: boolean;
  deleted?: boolean;
  archiveMode: boolean;
  mev: TMevMode;
  bundler: TBundler;
  allowlists: TKeyAllowlists;
  tier: TTierLimits;
};

/** Synchronous lookup served from an in-process cache: no I/O on the hot path. */
export type KeyStore = { get(apiKey: string): TKeyInfo | undefined };

/**
 * RU budget of an account, served from memory. A call is admitted by `reserve` (its estimate is held) and ended by
 * `settle` (the hold released, the charged RUs spent), so concurrent calls cannot overdraw by more than one call.
 */
export type AccountBalance = {
  /** Whether the account has anything left (the WebSocket upgrade check). */
  hasRu(accountId: string): boolean;
  /** Holds `ru` for a group of calls whose last is estimated at `lastCallRu`; false refuses them all. */
  reserve(accountId: string, ru: number, lastCallRu: number): boolean;
  /** Releases `reserved` and spends `charged` (0 for a call that was not answered). */
  settle(accountId: string, reserved: number, charged: number): void;
};

/** Carries "key `keyId` changed" between processes (in-memory here, Redis pub/sub in scale mode). */
export type InvalidationChannel = {
  subscribe(fn: (keyId: string) => void): () => void;
  publish(keyId: string): Promise<void>;
};

/** One aggregated usage row: per (account, key, chain, method, minute). */
export type TUsageRow = {
  accountId: string;
  keyId: string;
  chain: string;
  method: string;
  /** Epoch ms of the start of the UTC minute. */
  minute: number;
  requests: number;
  ru: number;
  errors: number;
  latencyMsSum: number;
  latencyMsMax: number;
};

/**
 * A flushed batch. `batchId` is unique per batch and stays the same on every retry of that batch, so a sink
 * that records it in the same transaction as the rows (unique constraint) never counts a batch twice.
 */
export type TUsageBatch = {
  batchId: string;
  ruTableVersion: string;
  createdAt: number;
  rows: TUsageRow[];
};

/** Calls the gateway refused itself for a known key (refusals.ts): per (key, chain, JSON-RPC code, minute). */
export type TRefusalRow = {
  accountId: string;
  keyId: string;
  chain: string;
  /** the JSON-RPC error code of the answer: -32005 rate limited, -32006 no RU, -32004 not allowed, … */
  code: number;
  /** Epoch ms of the start of the UTC minute. */
  minute: number;
  count: number;
};

/** A flushed set of refusal counts; `batchId` stays the same on a retry, like a usage batch's. */
export type TRefusalBatch = { batchId: string; createdAt: number; rows: TRefusalRow[] };

export type TRequestTransport = 'http' | 'ws';
export type TRequestOutcome = 'ok' | 'rpc_error' | 'refused' | 'upstream_failed' | 'cancelled';

/**
 * One call in the per-key request log (request-log.ts): what happened to it, never its params, result or body.
 * `method` is '' when the call had no valid method (or was refused before one was read).
 */
export type TRequestLogEntry = {
  /** epoch ms when it was settled or refused */
  at: number;
  accountId: string;
  keyId: string;
  chain: string;
  method: string;
  transport: TRequestTransport;
  outcome: TRequestOutcome;
  /** the JSON-RPC error code of the answer (the gateway's own or the node's), null when none or unknown */
  errorCode: number | null;
  /** whole ms */
  latencyMs: number;
  ru: number;
};

/** Entries of a key not kept (over a cap), per UTC minute. */
export type TRequestLogDrop = { accountId: string; keyId: string; minute: number; count: number };

export type TRequestLogBatch = {
  batchId: string;
  createdAt: number;
  entries: TRequestLogEntry[];
  dropped: TRequestLogDrop[];
};

export type UsageSink = {
  write(batch: TUsageBatch): Promise<void>;
  /** Optional: without it refusals are not counted at all. */
  writeRefusals?(batch: TRefusalBatch): Promise<void>;
  /** Optional: without it no per-key request log is kept (request-log.ts). */
  writeRequestLogs?(batch: TRequestLogBatch): Promise<void>;
};

export type TServicePausedEvent = {
  type: 'api_service_is_paused';
  accountId: string;
  keyId: string;
  chain: string;
  at: number;
};

export type TNotifier = (event: TServicePausedEvent) => void;

/**
 * A dedicated node the gateway serves at /dn/{nodeId}/{apiKey} (only to keys of its owner): where it runs and
 * whether it serves now. Its calls are counted as usage (chain `dn:<nodeId>`) and charged no RUs (the node is paid
 * by its term), and the shared tier's rate limits do not apply to them.
 */
export type TDnRoute = {
  nodeId: string;
  accountId: string;
  /** the chain it runs (the catalogue's id), for its RU table multiplier and name */
  chain: string;
  http: string;
  ws: string | null;
  /** online or will_expired: its endpoint answers */
  serving: boolean;
  /** epoch ms: from then on it does not serve, whatever the store has heard */
  expiresAt: number;
};

/** Synchronous lookup from an in-process cache, like KeyStore. */
export type DnNodeStore = { get(nodeId: string): TDnRoute | undefined };

/**
 * What the gateway forwards for a user's key: the method catalogue (the RU table, minus anything that administers
 * the node or acts with its accounts) and, for every catalogued method, the addresses a call touches, checked
 * against the key's contract allowlist. Pure; decisions in docs/decisions/gateway-design.md "What may be forwarded".
 */
import type { TGatewayError, TNotOffered } from './errors';
import { ERR } from './errors';
import type { TRuTable } from './metering';
import { listedPrice } from './metering';
import { txTargets } from './raw-transaction';
import type { TKeyInfo } from './types';

// ---------------------------------------------------------------------------------------------------------------
// Method catalogue

export type TForwardable = { ok: true } | { ok: false; reason: TNotOffered };

/** Never forwarded, whatever the RU table lists: they act on the node itself or with the node's own keys. */
export const NOT_FORWARDED: ReadonlyArray<{
  pattern: RegExp;
  reason: Exclude<TNotOffered, 'unknown'>;
  why: string;
}> = [
  { pattern: /^admin_/, reason: 'admin', why: 'peers, RPC servers, chain import/export' },
  { pattern: /^miner_/, reason: 'admin', why: 'block production: start/stop, etherbase, prices' },
  {
    pattern: /^(?:hardhat|evm|anvil|ganache)_/,
    reason: 'admin',
    why: 'dev-chain control: balances, code, storage, impersonation, mining, snapshots, reset',
  },
  {
    pattern: /^engine_/,
    reason: 'admin',
    why: 'consensus-layer Engine API: fork choice, payloads',
  },
  {
    pattern: /^(?:clique|parity|les)_/,
    reason: 'admin',
    why: 'signer votes, node mode and peers, light-server settings',
  },
  {
    pattern:
      /^debug_(?:set|start|stop|write|cpuProfile|blockProfile|mutexProfile|goTrace|freeOSMemory|verbosity|vmodule|backtraceAt|chaindb|db|gcStats|memStats|stacks|metrics)/,
    reason: 'admin',
    why: 'node tuning, profiling, raw database access, chain rewind (debug_setHead)',
  },
  {
    // debug_traceBlockFromFile would otherwise match the table's debug_trace price prefix.
    pattern: /^debug_\w*(?:From|To)File$/,
    reason: 'admin',
    why: "reads or writes files on the node's disk",
  },
  { pattern: /^eth_(?:getWork|submitWork|submitHashrate)$/, reason: 'admin', why: 'mining' },
  { pattern: /^personal_/, reason: 'node-account', why: "the node's keystore: unlock, sign, send" },
  {
    pattern: /^eth_(?:accounts|coinbase|sendTransaction|sign|signTransaction|signTypedData\w*)$/,
    reason: 'node-account',
    why: "signs or sends with (or lists) the node's unlocked accounts; users sign locally",
  },
];

/** In the table to price notifications; the node sends it, a client never calls it. */
const NOTIFICATION_ONLY = new Set(['eth_subscription']);

function decide(table: TRuTable, method: string): TForwardable {
  for (const rule of NOT_FORWARDED)
    if (rule.pattern.test(method)) return { ok: false, reason: rule.reason };
  if (NOTIFICATION_ONLY.has(method) || listedPrice(table, method) === undefined)
    return { ok: false, reason: 'unknown' };
  return { ok: true };
}

/** Decisions for a table's exact method names, made once: the hot path does one Map lookup, not ten regexes. */
const decided = new WeakMap<TRuTable, Map<string, TForwardable>>();

/** Whether a method may be forwarded at all: priced by the table and not node administration. */
export function forwardable(table: TRuTable, method: string): TForwardable {
  let memo = decided.get(table);
  if (!memo) {
    memo = new Map();
    for (const m in table.methods) memo.set(m, decide(table, m));
    decided.set(table, memo);
  }
  return memo.get(method) ?? decide(table, method);
}

// ---------------------------------------------------------------------------------------------------------------
// Addresses each method touches

/** What one positional parameter holds, for the contract allowlist. */
export type TParamRole =
  /** an account address: must be in the allowlist */
  | 'address'
  /** a call object: its `to` (absent = contract creation, refused) and any `authorizationList` delegates */
  | 'call'
  /** a log filter: its `address`, a string or a non-empty array (absent = every contract, refused) */
  | 'filter'
  /** a signed transaction: its decoded `to` (creation refused) and EIP-7702 delegates */
  | 'rawTransaction'
  /** an ERC-4337 user operation: `sender`, and `factory` / `paymaster` (or their v0.6 byte forms) when set */
  | 'userOperation'
  /** a filter id on the node: passes only when the caller vouches that this key made it */
  | 'filterId'
  /** debug_traceCall options: named built-in tracers only, no state overrides */
  | 'traceConfig'
  /** a state override: must be absent or empty (it could replace an allowed contract's code) */
  | 'noOverride'
  /** a block tag, trace types, entry point, block overrides: no account */
  | 'any';

export type TTouches =
  /** touches no particular account: chain data, fees, one transaction or receipt by hash */
  | { kind: 'none'; why: string }
  /** reads or runs arbitrary contracts in a way its params do not show: refused under a contract allowlist */
  | { kind: 'unchecked'; why: string }
  /** positional params with these roles; later positions must be absent or null */
  | { kind: 'params'; params: readonly TParamRole[] }
  /** eth_subscribe: 'logs' needs a filter with addresses; newHeads, newPendingTransactions, syncing touch none */
  | { kind: 'subscription' };

const none = (why: string): TTouches => ({ kind: 'none', why });
const unchecked = (why: string): TTouches => ({ kind: 'unchecked', why });
const at = (...params: TParamRole[]): TTouches => ({ kind: 'params', params });

const NODE = none('chain or node facts');
const FEES = none('head and fee data of the chain');
const BY_BLOCK = none('a block or transaction by number/hash: chain data, not contract state');
const ACCOUNT = at('address', 'any');
const ACCOUNT_AT = at('address', 'any', 'any');
const CALL = at('call', 'any', 'noOverride', 'any'); // call, block, state override, block overrides
const TRACE = 'internal calls and state of any contract the transaction reached';

/** For every method of the RU table (a unit test keeps the two in step): which addresses a call touches. */
export const METHOD_TOUCHES: Readonly<Record<string, TTouches>> = {
  eth_chainId: NODE,
  net_version: NODE,
  net_listening: NODE,
  net_peerCount: NODE,
  web3_clientVersion: NODE,
  eth_syncing: NODE,
  eth_protocolVersion: NODE,
  eth_blockNumber: FEES,
  eth_gasPrice: FEES,
  eth_maxPriorityFeePerGas: FEES,
  eth_blobBaseFee: FEES,
  eth_feeHistory: FEES,
  eth_getBalance: ACCOUNT,
  eth_getCode: ACCOUNT,
  eth_getTransactionCount: ACCOUNT,
  eth_getStorageAt: ACCOUNT_AT, // address, slot, block
  eth_getProof: ACCOUNT_AT, // address, storage keys, block
  eth_getBlockTransactionCountByHash: BY_BLOCK,
  eth_getBlockTransactionCountByNumber: BY_BLOCK,
  eth_getUncleCountByBlockHash: BY_BLOCK,
  eth_getUncleCountByBlockNumber: BY_BLOCK,
  eth_getBlockByNumber: BY_BLOCK,
  eth_getBlockByHash: BY_BLOCK,
  eth_getTransactionByHash: BY_BLOCK,
  eth_getTransactionByBlockHashAndIndex: BY_BLOCK,
  eth_getTransactionByBlockNumberAndIndex: BY_BLOCK,
  eth_getUncleByBlockHashAndIndex: BY_BLOCK,
  eth_getUncleByBlockNumberAndIndex: BY_BLOCK,
  eth_getTransactionReceipt: none('one receipt by hash: how a sender follows its own transaction'),
  eth_getBlockReceipts: unchecked('every log of a block, of every contract'),
  eth_call: CALL,
  eth_estimateGas: CALL,
  eth_createAccessList: at('call', 'any', 'noOverride'),
  eth_getLogs: at('filter'),
  eth_newFilter: at('filter'),
  eth_newBlockFilter: none('block hashes'),
  eth_newPendingTransactionFilter: none('pending transaction hashes'),
  eth_getFilterChanges: at('filterId'),
  eth_getFilterLogs: at('filterId'),
  eth_uninstallFilter: none('removes a filter, reads nothing'),
  eth_subscribe: { kind: 'subscription' },
  eth_unsubscribe: none('ends a subscription'),
  eth_subscription: none('a notification from the node; refused as a call by forwardable()'),
  eth_sendRawTransaction: at('rawTransaction'),
  eth_sendUserOperation: at('userOperation', 'any'), // op, entry point
  eth_estimateUserOperationGas: at('userOperation', 'any', 'noOverride'),
  eth_getUserOperationByHash: none('one user operation by hash, like a transaction'),
  eth_getUserOperationReceipt: none('one receipt by hash, like a transaction receipt'),
  eth_supportedEntryPoints: none("the bundler's configuration"),
  trace_call: at('call', 'any', 'any'), // call, trace types, block
  trace_block: unchecked('every call of a block, into any contract'),
  trace_filter: unchecked(
    'clients differ on from/to address semantics (union or intersection); no address = every contract',
  ),
  trace_transaction: unchecked(TRACE),
  trace_get: unchecked(TRACE),
  trace_replayTransaction: unchecked(`${TRACE}, with state diffs`),
  trace_replayBlockTransactions: unchecked('state diffs of every contract a block touched'),
  debug_traceCall: at('call', 'any', 'traceConfig'),
  debug_traceTransaction: unchecked(TRACE),
  debug_traceBlockByNumber: unchecked('every call of a block, into any contract'),
  debug_traceBlockByHash: unchecked('every call of a block, into any contract'),
};

/** For each price prefix of the RU table: the rule of methods under it that have no exact entry above. */
export const PREFIX_TOUCHES: Readonly<Record<string, TTouches>> = {
  debug_trace: unchecked('a debug_trace method whose parameters this gateway does not know'),
};

/** The address rule of a method: its exact entry, else its table prefix's; undefined when there is none. */
export function touchesOf(method: string): TTouches | undefined {
  const exact = METHOD_TOUCHES[method];
  if (exact) return exact;
  for (const prefix in PREFIX_TOUCHES) if (method.startsWith(prefix)) return PREFIX_TOUCHES[prefix];
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Contract allowlist check

export type TContractCheck = { ok: true } | { ok: false; address?: string; reason: string };

type TRefusal = { ok: false; address?: string; reason: string };
type TJsonObject = Record<string, unknown>;

const PASS: TContractCheck = { ok: true };
const ADDRESS = /^0x[0-9a-f]{40}$/;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
/** Tracers that report only what the call itself touched; a JS tracer could read any contract's storage. */
const BUILTIN_TRACERS = new Set([
  'callTracer',
  'flatCallTracer',
  'prestateTracer',
  '4byteTracer',
  'noopTracer',
]);
const SUBSCRIPTIONS_WITHOUT_ADDRESS = new Set(['newHeads', 'newPendingTransactions', 'syncing']);

function refuse(reason: string): TRefusal {
  return { ok: false, reason };
}

function isObject(v: unknown): v is TJsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (!isObject(v)) return false;
  for (const _ in v) return false;
  return true;
}

/**
 * A member of a JSON object, or a refusal when another key differs from its name only in case: Go's encoding/json
 * (geth, erigon) matches keys case-insensitively, with Unicode folding (U+212A KELVIN SIGN is "k"), while JS nodes
 * do not, so `{"to": A, "To": B}` or a lone `"To"` could mean different calls here and on the node.
 */
function member(o: TJsonObject, name: string): { value: unknown } | TRefusal {
  const folded = name.toLowerCase();
  for (const k in o)
    if (k !== name && k.toUpperCase().toLowerCase() === folded)
      return refuse(`ambiguous member '${k}' (nodes may read it as '${name}')`);
  return { value: o[name] };
}

function checkAddress(v: unknown, allow: readonly string[], what: string): TRefusal | undefined {
  if (typeof v !== 'string') return refuse(`${what} is not an address`);
  const a = v.toLowerCase();
  for (const entry of allow) if (entry === a || entry.toLowerCase() === a) return undefined;
  return ADDRESS.test(a)
    ? { ok: false, address: a, reason: `${a} is not in this key's contract allowlist` }
    : refuse(`${what} is not an address`);
}

/** The leading 20-byte address of a v0.6 `initCode` / `paymasterAndData` field ("0x" = none). */
function checkPackedAddress(
  v: unknown,
  allow: readonly string[],
  what: string,
): TRefusal | undefined {
  if (v === undefined || v === null || v === '0x') return undefined;
  if (typeof v !== 'string' || v.length < 42) return refuse(`${what} is not an address`);
  return checkAddress(v.slice(0, 42), allow, what);
}

function checkCall(c: unknown, allow: readonly string[]): TRefusal | undefined {
  if (!isObject(c)) return refuse('the call is not an object');
  const to = member(c, 'to');
  if ('ok' in to) return to;
  if (to.value === undefined || to.value === null)
    return refuse('a call without `to` creates a contract; its code cannot be checked');
  const bad = checkAddress(to.value, allow, '`to`');
  if (bad) return bad;
  const auths = member(c, 'authorizationList');
  if ('ok' in auths) return auths;
  if (auths.value === undefined || auths.value === null) return undefined;
  if (!Array.isArray(auths.value)) return refuse('`authorizationList` is not a list');
  for (const auth of auths.value) {
    if (!isObject(auth)) return refuse('an authorization is not an object');
    const address = member(auth, 'address');
    if ('ok' in address) return address;
    if (address.value === ZERO_ADDRESS) continue; // resets a delegation: installs no code
    const denied = checkAddress(address.value, allow, 'an authorization address');
    if (denied) return denied;
  }
  return undefined;
}

function checkFilter(f: unknown, allow: readonly string[]): TRefusal | undefined {
  if (!isObject(f)) return refuse('the log filter is missing or not an object');
  const address = member(f, 'address');
  if ('ok' in address) return address;
  const list =
    typeof address.value === 'string'
      ? [address.value]
      : Array.isArray(address.value)
        ? address.value
        : [];
  if (list.length === 0) return refuse('a log filter without `address` matches every contract');
  for (const a of list) {
    const bad = checkAddress(a, allow, 'a filter address');
    if (bad) return bad;
  }
  return undefined;
}

function checkRawTransaction(raw: unknown, allow: readonly string[]): TRefusal | undefined {
  const tx = txTargets(raw);
  if (!tx.ok) return refuse(`the transaction cannot be decoded: ${tx.reason}`);
  if (tx.to === undefined)
    return refuse('the transaction creates a contract; its code cannot be checked');
  const bad = checkAddress(tx.to, allow, '`to`');
  if (bad) return bad;
  for (const d of tx.delegates) {
    const denied = checkAddress(d, allow, 'an EIP-7702 delegate');
    if (denied) return denied;
  }
  return undefined;
}

function checkUserOperation(op: unknown, allow: readonly string[]): TRefusal | undefined {
  if (!isObject(op)) return refuse('the user operation is not an object');
  const sender = member(op, 'sender');
  if ('ok' in sender) return sender;
  const bad = checkAddress(sender.value, allow, '`sender`');
  if (bad) return bad;
  for (const name of ['factory', 'paymaster'] as const) {
    const m = member(op, name);
    if ('ok' in m) return m;
    if (m.value === undefined || m.value === null) continue;
    const denied = checkAddress(m.value, allow, `\`${name}\``);
    if (denied) return denied;
  }
  for (const name of ['initCode', 'paymasterAndData'] as const) {
    const m = member(op, name);
    if ('ok' in m) return m;
    const denied = checkPackedAddress(m.value, allow, `\`${name}\``);
    if (denied) return denied;
  }
  const auth = member(op, 'eip7702Auth');
  if ('ok' in auth) return auth;
  if (auth.value === undefined || auth.value === null) return undefined;
  if (!isObject(auth.value)) return refuse('`eip7702Auth` is not an object');
  const delegate = member(auth.value, 'address');
  if ('ok' in delegate) return delegate;
  return checkAddress(delegate.value, allow, 'the EIP-7702 delegate');
}

function checkTraceConfig(config: unknown): TRefusal | undefined {
  if (config === undefined || config === null) return undefined;
  if (!isObject(config)) return refuse('the trace options are not an object');
  const overrides = member(config, 'stateOverrides');
  if ('ok' in overrides) return overrides;
  if (!isEmpty(overrides.value))
    return refuse("state overrides could replace an allowed contract's code");
  const tracer = member(config, 'tracer');
  if ('ok' in tracer) return tracer;
  if (tracer.value === undefined || tracer.value === null) return undefined;
  if (typeof tracer.value === 'string' && BUILTIN_TRACERS.has(tracer.value)) return undefined;
  return refuse('only the built-in call, prestate, 4byte and noop tracers are allowed');
}

function checkParam(
  role: TParamRole,
  v: unknown,
  allow: readonly string[],
  ownsFilter: ((filterId: string) => boolean) | undefined,
): TRefusal | undefined {
  switch (role) {
    case 'any':
      return undefined;
    case 'address':
      return checkAddress(v, allow, 'the address parameter');
    case 'call':
      return checkCall(v, allow);
    case 'filter':
      return checkFilter(v, allow);
    case 'rawTransaction':
      return checkRawTransaction(v, allow);
    case 'userOperation':
      return checkUserOperation(v, allow);
    case 'filterId':
      return typeof v === 'string' && ownsFilter?.(v)
        ? undefined
        : refuse('a filter id is checked only when this key created the filter');
    case 'traceConfig':
      return checkTraceConfig(v);
    case 'noOverride':
      return isEmpty(v)
        ? undefined
        : refuse("state overrides could replace an allowed contract's code");
  }
}

/**
 * Whether a call touches only contracts of `allowlist` (lower-case 0x addresses; an empty list allows everything).
 * Conservative: a call whose addresses cannot be found — unknown method, params not a positional array, missing
 * or malformed address, contract creation, undecodable transaction, filter id of unknown origin — is refused.
 * Never throws. `ownsFilter(id)` says whether this key created the filter `id` (see eth_getFilterChanges).
 */
export function checkContracts(
  method: string,
  params: unknown,
  allowlist: readonly string[],
  ownsFilter?: (filterId: string) => boolean,
): TContractCheck {
  if (allowlist.length === 0) return PASS;
  const rule = touchesOf(method);
  if (!rule) return refuse('no address rule for this method');
  if (rule.kind === 'none') return PASS;
  if (rule.kind === 'unchecked') return refuse(rule.why);
  if (!Array.isArray(params)) return refuse('params must be a positional array');
  if (rule.kind === 'subscription') {
    const [topic, filter] = params as unknown[];
    if (topic === 'logs') return checkFilter(filter, allowlist) ?? PASS;
    return typeof topic === 'string' && SUBSCRIPTIONS_WITHOUT_ADDRESS.has(topic)
      ? PASS
      : refuse(`subscription '${String(topic).slice(0, 40)}' cannot be checked`);
  }
  // Every role is checked even when its param is absent: a missing call or filter is as unknown as a bad one.
  const n = Math.max(params.length, rule.params.length);
  for (let i = 0; i < n; i++) {
    const role = rule.params[i];
    const v: unknown = params[i];
    if (role === undefined) {
      if (v !== null) return refuse(`unexpected parameter ${i + 1}`);
      continue;
    }
    const bad = checkParam(role, v, allowlist, ownsFilter);
    if (bad) return bad;
  }
  return PASS;
}

// ---------------------------------------------------------------------------------------------------------------
// Composition for the call pipeline

/** Which filters a key created through this gateway (kept by the caller, e.g. from eth_newFilter answers). */
export type TFilterOwners = { owns(keyId: string, filterId: string): boolean };

/**
 * One per-call check for the pipeline, in the documented order: catalogue (forwardable), the key's method
 * allowlist, the key's contract allowlist. Returns the catalogue error to answer with, or undefined to go on.
 */
export function createCallPolicy(
  table: TRuTable,
  filters?: TFilterOwners,
): (
  method: string,
  params: unknown,
  key: Pick<TKeyInfo, 'keyId' | 'allowlists'>,
) => TGatewayError | undefined {
  return (method, params, key) => {
    const offered = forwardable(table, method);
    if (!offered.ok) return ERR.methodNotOffered(method, offered.reason);
    const methods = key.allowlists.methods;
    if (methods.length > 0 && !methods.includes(method)) return ERR.methodDenied(method);
    const contracts = key.allowlists.contracts;
    if (contracts.length === 0) return undefined;
    const ownsFilter = filters && ((id: string) => filters.owns(key.keyId, id));
    const checked = checkContracts(method, params, contracts, ownsFilter);
    if (checked.ok) return undefined;
    return checked.address
      ? ERR.contractDenied(checked.address)
      : ERR.contractUnchecked(method, checked.reason);
  };
}

import { describe, expect, it } from 'vitest';
import { RECIPIENT, SIGNED, TOKEN } from '../test/fixtures/signed-transactions';
import { ERR } from './errors';
import type { TRuTable } from './metering';
import { defaultRuTable, listedPrice } from './metering';
import {
  checkContracts,
  createCallPolicy,
  forwardable,
  METHOD_TOUCHES,
  PREFIX_TOUCHES,
  touchesOf,
} from './method-policy';

const A = `0x${'aa'.repeat(20)}`;
const B = `0x${'bb'.repeat(20)}`;
const A_CHECKSUM = `0x${'Aa'.repeat(20)}`;
const ALLOW = [A];
const HASH = `0x${'12'.repeat(32)}`;

const tableMethods = Object.keys(defaultRuTable.methods);
const tablePrefixes = Object.keys(defaultRuTable.prefixes);

describe('the address table covers the RU table', () => {
  it.each(tableMethods)('%s has an address rule', (method) => {
    expect(METHOD_TOUCHES[method], `decide which addresses ${method} touches`).toBeDefined();
  });

  it.each(tablePrefixes)('prefix %s has an address rule', (prefix) => {
    expect(PREFIX_TOUCHES[prefix], `decide which addresses ${prefix}* touches`).toBeDefined();
  });

  it('has no rule for a method the table does not price (no stale entries)', () => {
    for (const method of Object.keys(METHOD_TOUCHES))
      expect(listedPrice(defaultRuTable, method), method).toBeDefined();
  });

  it('gives a reason for every method it does not inspect', () => {
    for (const [method, rule] of Object.entries(METHOD_TOUCHES))
      if (rule.kind === 'none' || rule.kind === 'unchecked') expect(rule.why, method).not.toBe('');
  });
});

describe('forwardable: the method catalogue', () => {
  it.each(tableMethods.filter((m) => m !== 'eth_subscription'))('%s is forwarded', (method) => {
    expect(forwardable(defaultRuTable, method)).toEqual({ ok: true });
  });

  it.each([
    'debug_traceTransaction',
    'debug_traceCall',
    'debug_traceBlockByNumber',
    'debug_traceBadBlock',
  ])('%s is forwarded (debug_trace price prefix)', (method) => {
    expect(forwardable(defaultRuTable, method)).toEqual({ ok: true });
  });

  it.each([
    ['hardhat_setBalance', 'admin'],
    ['hardhat_reset', 'admin'],
    ['hardhat_impersonateAccount', 'admin'],
    ['hardhat_setCode', 'admin'],
    ['hardhat_mine', 'admin'],
    ['evm_mine', 'admin'],
    ['evm_snapshot', 'admin'],
    ['evm_revert', 'admin'],
    ['evm_setNextBlockTimestamp', 'admin'],
    ['anvil_setBalance', 'admin'],
    ['ganache_snapshot', 'admin'],
    ['debug_setHead', 'admin'],
    ['debug_setGCPercent', 'admin'],
    ['debug_startCPUProfile', 'admin'],
    ['debug_writeMemProfile', 'admin'],
    ['debug_chaindbCompact', 'admin'],
    ['debug_dbGet', 'admin'],
    ['debug_traceBlockFromFile', 'admin'],
    ['debug_standardTraceBlockToFile', 'admin'],
    ['admin_addPeer', 'admin'],
    ['admin_peers', 'admin'],
    ['admin_nodeInfo', 'admin'],
    ['miner_start', 'admin'],
    ['miner_setEtherbase', 'admin'],
    ['engine_forkchoiceUpdatedV3', 'admin'],
    ['clique_propose', 'admin'],
    ['parity_setMode', 'admin'],
    ['les_addBalance', 'admin'],
    ['eth_submitWork', 'admin'],
    ['personal_unlockAccount', 'node-account'],
    ['personal_sendTransaction', 'node-account'],
    ['personal_sign', 'node-account'],
    ['eth_sendTransaction', 'node-account'],
    ['eth_sign', 'node-account'],
    ['eth_signTransaction', 'node-account'],
    ['eth_signTypedData_v4', 'node-account'],
    ['eth_accounts', 'node-account'],
    ['eth_coinbase', 'node-account'],
  ] as const)('%s is refused (%s)', (method, reason) => {
    expect(forwardable(defaultRuTable, method)).toEqual({ ok: false, reason });
  });

  it('refuses node-admin and node-account methods even when the table lists them', () => {
    const table: TRuTable = {
      ...defaultRuTable,
      methods: { ...defaultRuTable.methods, hardhat_setBalance: 5, eth_sendTransaction: 200 },
      prefixes: { ...defaultRuTable.prefixes, evm_: 5 },
    };
    expect(forwardable(table, 'hardhat_setBalance')).toEqual({ ok: false, reason: 'admin' });
    expect(forwardable(table, 'evm_mine')).toEqual({ ok: false, reason: 'admin' });
    expect(forwardable(table, 'eth_sendTransaction')).toEqual({
      ok: false,
      reason: 'node-account',
    });
  });

  it('lists no method the catalogue refuses (the table carries no dead entries)', () => {
    for (const method of tableMethods.filter((m) => m !== 'eth_subscription'))
      expect(forwardable(defaultRuTable, method).ok, method).toBe(true);
  });

  it.each([
    'eth_subscription', // a notification the node sends, priced for that only
    'txpool_content',
    'eth_getBalanceX',
    'ETH_CALL',
    'eth_call ',
    '',
    'foo',
    'erigon_getHeaderByNumber',
    'eth_simulateV1',
    'rpc_modules',
  ])('%j is refused as unknown', (method) => {
    expect(forwardable(defaultRuTable, method)).toEqual({ ok: false, reason: 'unknown' });
  });
});

/** [case, method, params, the refused address or the reason it is refused for]. */
type TRefusalCase = [string, string, unknown, string | RegExp];
type TCase = [string, string, unknown];

const call = (o: Record<string, unknown>, ...rest: unknown[]) => [o, 'latest', ...rest];

const EVERY = /every contract/;
const OVERRIDE = /state overrides/;
const AMBIGUOUS = /ambiguous member/;
const NOT_ADDRESS = /is not an address/;
const CREATION = /creates a contract/;
const POSITIONAL = /positional array/;
const WHY = /./; // an 'unchecked' rule: its own reason, compared below

function expectRefused(method: string, params: unknown, expected: string | RegExp): void {
  const r = checkContracts(method, params, ALLOW);
  expect(r.ok).toBe(false);
  if (r.ok) return;
  if (typeof expected === 'string') expect(r.address).toBe(expected);
  else {
    expect(r.address).toBeUndefined();
    expect(r.reason).toMatch(expected);
  }
  const rule = touchesOf(method);
  if (rule?.kind === 'unchecked') expect(r.reason).toBe(rule.why);
}

describe('checkContracts: the gaps of the hardening issue are closed (allowlist [0xaaaa…])', () => {
  it.each<TRefusalCase>([
    [
      'eth_getLogs without address',
      'eth_getLogs',
      [{ fromBlock: '0x1', toBlock: 'latest' }],
      EVERY,
    ],
    ['eth_getLogs by blockHash without address', 'eth_getLogs', [{ blockHash: HASH }], EVERY],
    ['eth_getLogs with address []', 'eth_getLogs', [{ address: [] }], EVERY],
    ['eth_getLogs with address null', 'eth_getLogs', [{ address: null }], EVERY],
    ['eth_getLogs without a filter', 'eth_getLogs', [], /filter is missing/],
    ['eth_newFilter without address', 'eth_newFilter', [{ topics: [HASH] }], EVERY],
    ['eth_getStorageAt on another address', 'eth_getStorageAt', [B, '0x0', 'latest'], B],
    ['eth_getCode on another address', 'eth_getCode', [B, 'latest'], B],
    ['eth_sendTransaction', 'eth_sendTransaction', [{ from: A, to: B }], /no address rule/],
    ['eth_sendRawTransaction, EIP-1559', 'eth_sendRawTransaction', [SIGNED.eip1559], RECIPIENT],
    ['eth_sendRawTransaction, legacy', 'eth_sendRawTransaction', [SIGNED.legacy], RECIPIENT],
    ['eth_sendRawTransaction, EIP-2930', 'eth_sendRawTransaction', [SIGNED.eip2930], TOKEN],
    [
      'eth_sendRawTransaction creating a contract',
      'eth_sendRawTransaction',
      [SIGNED.creation],
      CREATION,
    ],
    [
      'eth_sendRawTransaction of garbage',
      'eth_sendRawTransaction',
      ['0xdeadbeef'],
      /cannot be decoded/,
    ],
    ['eth_call with object params', 'eth_call', { to: A, data: '0x' }, POSITIONAL],
    [
      'eth_call with named params',
      'eth_call',
      { transaction: { to: A }, block: 'latest' },
      POSITIONAL,
    ],
  ])('%s is refused', (_name, method, params, expected) => {
    expectRefused(method, params, expected);
  });
});

describe('checkContracts: refusals', () => {
  it.each<TRefusalCase>([
    // account params
    ['eth_getBalance of another account', 'eth_getBalance', [B, 'latest'], B],
    ['eth_getTransactionCount of another account', 'eth_getTransactionCount', [B, 'latest'], B],
    ['eth_getProof of another account', 'eth_getProof', [B, [], 'latest'], B],
    ['eth_getBalance without params', 'eth_getBalance', [], NOT_ADDRESS],
    ['eth_getBalance of null', 'eth_getBalance', [null, 'latest'], NOT_ADDRESS],
    ['eth_getBalance of a number', 'eth_getBalance', [42], NOT_ADDRESS],
    ['eth_getBalance with an extra param', 'eth_getBalance', [A, 'latest', 'x'], /parameter 3/],
    // calls
    ['eth_call to another contract', 'eth_call', call({ to: B }), B],
    ['eth_call without to (creation)', 'eth_call', call({ data: '0x6000' }), CREATION],
    ['eth_call with to null (creation)', 'eth_call', call({ to: null, data: '0x6000' }), CREATION],
    [
      'eth_call with a state override',
      'eth_call',
      call({ to: A }, { [A]: { code: '0x00' } }),
      OVERRIDE,
    ],
    ['eth_call with a 5th param', 'eth_call', call({ to: A }, null, null, {}), /parameter 5/],
    ['eth_call with "To" beside "to"', 'eth_call', call({ to: A, To: B }), AMBIGUOUS],
    ['eth_call with a lone "TO"', 'eth_call', call({ TO: A }), AMBIGUOUS],
    ['eth_call with a non-string to', 'eth_call', call({ to: 42 }), NOT_ADDRESS],
    ['eth_call with an array call', 'eth_call', [[{ to: A }], 'latest'], /not an object/],
    [
      'eth_call delegating to another contract (7702)',
      'eth_call',
      call({ to: A, authorizationList: [{ address: B, chainId: '0x1', nonce: '0x0' }] }),
      B,
    ],
    [
      'eth_call with a malformed authorizationList',
      'eth_call',
      call({ to: A, authorizationList: {} }),
      /not a list/,
    ],
    ['eth_estimateGas to another contract', 'eth_estimateGas', call({ to: B }), B],
    [
      'eth_estimateGas with a balance override',
      'eth_estimateGas',
      call({ to: A }, { [A]: { balance: '0x1' } }),
      OVERRIDE,
    ],
    ['eth_createAccessList to another contract', 'eth_createAccessList', call({ to: B }), B],
    ['trace_call to another contract', 'trace_call', [{ to: B }, ['trace'], 'latest'], B],
    ['debug_traceCall to another contract', 'debug_traceCall', call({ to: B }), B],
    [
      'debug_traceCall with a JS tracer',
      'debug_traceCall',
      call({ to: A }, { tracer: '{ result: function (ctx, db) { return db.getState(...) } }' }),
      /tracers/,
    ],
    [
      'debug_traceCall with muxTracer',
      'debug_traceCall',
      call({ to: A }, { tracer: 'muxTracer' }),
      /tracers/,
    ],
    [
      'debug_traceCall with state overrides',
      'debug_traceCall',
      call({ to: A }, { stateOverrides: { [A]: { code: '0x00' } } }),
      OVERRIDE,
    ],
    [
      'debug_traceCall with "StateOverrides" (Go reads it case-insensitively)',
      'debug_traceCall',
      call({ to: A }, { StateOverrides: { [A]: { code: '0x00' } } }),
      AMBIGUOUS,
    ],
    // log filters
    ['eth_getLogs of another contract', 'eth_getLogs', [{ address: B }], B],
    ['eth_getLogs of an allowed and another contract', 'eth_getLogs', [{ address: [A, B] }], B],
    [
      'eth_getLogs with "Address" beside "address"',
      'eth_getLogs',
      [{ address: A, Address: B }],
      AMBIGUOUS,
    ],
    [
      'eth_getLogs with "addreſs" (folds to address in Go)',
      'eth_getLogs',
      [{ address: A, 'addre\u017fs': B }],
      AMBIGUOUS,
    ],
    ['eth_getLogs with a non-string address', 'eth_getLogs', [{ address: [A, 7] }], NOT_ADDRESS],
    ['eth_getLogs with an array filter', 'eth_getLogs', [[{ address: A }]], /not an object/],
    ['eth_subscribe to logs without a filter', 'eth_subscribe', ['logs'], /filter is missing/],
    ['eth_subscribe to logs of every contract', 'eth_subscribe', ['logs', { topics: [] }], EVERY],
    ['eth_subscribe to logs of another contract', 'eth_subscribe', ['logs', { address: B }], B],
    [
      'eth_subscribe to an unknown stream',
      'eth_subscribe',
      ['alchemy_minedTransactions'],
      /cannot be checked/,
    ],
    ['eth_subscribe with object params', 'eth_subscribe', { type: 'newHeads' }, POSITIONAL],
    // filters made elsewhere
    ['eth_getFilterChanges of an unknown filter', 'eth_getFilterChanges', ['0x1'], /filter id/],
    ['eth_getFilterLogs of an unknown filter', 'eth_getFilterLogs', ['0x1'], /filter id/],
    // transactions
    [
      'EIP-7702 transaction to another contract',
      'eth_sendRawTransaction',
      [SIGNED.eip7702],
      RECIPIENT,
    ],
    ['blob transaction to another contract', 'eth_sendRawTransaction', [SIGNED.eip4844], TOKEN],
    ['eth_sendRawTransaction without params', 'eth_sendRawTransaction', [], /cannot be decoded/],
    ['eth_sendRawTransaction of a number', 'eth_sendRawTransaction', [1], /cannot be decoded/],
    // user operations
    ['user operation of another sender', 'eth_sendUserOperation', [{ sender: B }, A], B],
    [
      'user operation without sender',
      'eth_sendUserOperation',
      [{ callData: '0x' }, A],
      NOT_ADDRESS,
    ],
    [
      'user operation deployed by another factory',
      'eth_sendUserOperation',
      [{ sender: A, factory: B }, A],
      B,
    ],
    [
      'user operation with another paymaster',
      'eth_sendUserOperation',
      [{ sender: A, paymaster: B }, A],
      B,
    ],
    [
      'v0.6 user operation with another factory in initCode',
      'eth_sendUserOperation',
      [{ sender: A, initCode: `${B}abcdef` }, A],
      B,
    ],
    [
      'v0.6 user operation with another paymaster in paymasterAndData',
      'eth_sendUserOperation',
      [{ sender: A, paymasterAndData: `${B}00` }, A],
      B,
    ],
    [
      'v0.6 user operation with a short initCode',
      'eth_sendUserOperation',
      [{ sender: A, initCode: '0x1234' }, A],
      NOT_ADDRESS,
    ],
    [
      'user operation delegating to another contract (7702)',
      'eth_sendUserOperation',
      [{ sender: A, eip7702Auth: { address: B } }, A],
      B,
    ],
    [
      'user operation gas estimate with a state override',
      'eth_estimateUserOperationGas',
      [{ sender: A }, A, { [A]: { code: '0x00' } }],
      OVERRIDE,
    ],
    // whose effect cannot be seen from the params
    ['eth_getBlockReceipts', 'eth_getBlockReceipts', ['latest'], WHY],
    ['trace_block', 'trace_block', ['latest'], WHY],
    ['trace_filter even with toAddress', 'trace_filter', [{ toAddress: [A] }], WHY],
    ['trace_transaction', 'trace_transaction', [HASH], WHY],
    ['trace_get', 'trace_get', [HASH, ['0x0']], WHY],
    ['trace_replayTransaction', 'trace_replayTransaction', [HASH, ['stateDiff']], WHY],
    ['trace_replayBlockTransactions', 'trace_replayBlockTransactions', ['latest', ['trace']], WHY],
    ['debug_traceTransaction', 'debug_traceTransaction', [HASH], WHY],
    ['debug_traceBlockByNumber', 'debug_traceBlockByNumber', ['latest'], WHY],
    ['debug_traceBlockByHash', 'debug_traceBlockByHash', [HASH], WHY],
    ['debug_traceBadBlock (prefix rule)', 'debug_traceBadBlock', [HASH], WHY],
    ['a method without any rule', 'eth_simulateV1', [{ blockStateCalls: [] }], /no address rule/],
  ])('%s', (_name, method, params, expected) => {
    expectRefused(method, params, expected);
  });

  it('names the refused address, lower-cased', () => {
    expect(checkContracts('eth_getCode', [B.toUpperCase().replace('0X', '0x')], ALLOW)).toEqual({
      ok: false,
      address: B,
      reason: `${B} is not in this key's contract allowlist`,
    });
  });

  it('does not echo a long non-address back', () => {
    const r = checkContracts('eth_getCode', [`0x${'b'.repeat(10_000)}`], ALLOW);
    expect(r).toEqual({ ok: false, reason: 'the address parameter is not an address' });
  });
});

describe('checkContracts: allowed calls', () => {
  it.each<TCase>([
    ['eth_call to the allowed contract', 'eth_call', call({ to: A, data: '0x' })],
    ['eth_call with a checksummed address', 'eth_call', call({ to: A_CHECKSUM })],
    ['eth_call with an empty state override', 'eth_call', call({ to: A }, {})],
    ['eth_call with block overrides', 'eth_call', call({ to: A }, null, { time: '0x1' })],
    ['eth_call with only the call', 'eth_call', [{ to: A }]],
    [
      'eth_call with a 7702 authorization to the allowed contract',
      'eth_call',
      call({ to: A, authorizationList: [{ address: A }] }),
    ],
    ['eth_estimateGas', 'eth_estimateGas', [{ from: B, to: A, value: '0x1' }]],
    ['eth_createAccessList', 'eth_createAccessList', call({ to: A })],
    ['trace_call', 'trace_call', [{ to: A }, ['trace', 'stateDiff'], 'latest']],
    ['debug_traceCall', 'debug_traceCall', call({ to: A })],
    [
      'debug_traceCall with callTracer',
      'debug_traceCall',
      call({ to: A }, { tracer: 'callTracer' }),
    ],
    [
      'debug_traceCall with prestateTracer and empty overrides',
      'debug_traceCall',
      call({ to: A }, { tracer: 'prestateTracer', stateOverrides: {} }),
    ],
    ['eth_getBalance', 'eth_getBalance', [A, 'latest']],
    ['eth_getBalance without a block', 'eth_getBalance', [A]],
    ['eth_getCode', 'eth_getCode', [A_CHECKSUM, 'latest']],
    ['eth_getStorageAt', 'eth_getStorageAt', [A, '0x0', 'latest']],
    ['eth_getTransactionCount', 'eth_getTransactionCount', [A, 'pending']],
    ['eth_getProof', 'eth_getProof', [A, ['0x0'], 'latest']],
    ['eth_getLogs of the allowed contract', 'eth_getLogs', [{ address: A, fromBlock: '0x0' }]],
    ['eth_getLogs of [the allowed contract]', 'eth_getLogs', [{ address: [A, A_CHECKSUM] }]],
    ['eth_getLogs by blockHash', 'eth_getLogs', [{ address: A, blockHash: HASH }]],
    ['eth_newFilter', 'eth_newFilter', [{ address: [A], topics: [HASH] }]],
    ['eth_subscribe to logs', 'eth_subscribe', ['logs', { address: A }]],
    ['eth_subscribe to newHeads', 'eth_subscribe', ['newHeads']],
    ['eth_subscribe to pending transactions', 'eth_subscribe', ['newPendingTransactions', true]],
    ['eth_subscribe to syncing', 'eth_subscribe', ['syncing']],
    ['eth_unsubscribe', 'eth_unsubscribe', ['0x1']],
    ['eth_newBlockFilter', 'eth_newBlockFilter', []],
    ['eth_uninstallFilter', 'eth_uninstallFilter', ['0x1']],
    ['eth_blockNumber', 'eth_blockNumber', []],
    ['eth_blockNumber without params', 'eth_blockNumber', undefined],
    ['eth_chainId with object params', 'eth_chainId', {}],
    ['eth_getBlockByNumber with transactions', 'eth_getBlockByNumber', ['latest', true]],
    ['eth_getTransactionReceipt', 'eth_getTransactionReceipt', [HASH]],
    ['user operation of the allowed sender', 'eth_sendUserOperation', [{ sender: A }, B]],
    [
      'user operation with allowed factory and paymaster',
      'eth_sendUserOperation',
      [{ sender: A, factory: A, paymaster: A, factoryData: '0x' }, B],
    ],
    [
      'v0.6 user operation with allowed initCode and paymasterAndData',
      'eth_sendUserOperation',
      [{ sender: A, initCode: `${A}abcd`, paymasterAndData: '0x' }, B],
    ],
    ['user operation gas estimate', 'eth_estimateUserOperationGas', [{ sender: A }, B]],
    ['eth_getUserOperationReceipt', 'eth_getUserOperationReceipt', [HASH]],
  ])('%s', (_name, method, params) => {
    expect(checkContracts(method, params, ALLOW)).toEqual({ ok: true });
  });

  it.each([
    ['legacy', SIGNED.legacy, RECIPIENT],
    ['legacy, the EIP-155 example', SIGNED.eip155Example, `0x${'35'.repeat(20)}`],
    ['EIP-2930', SIGNED.eip2930, TOKEN],
    ['EIP-1559', SIGNED.eip1559, RECIPIENT],
    ['EIP-4844', SIGNED.eip4844, TOKEN],
  ])('eth_sendRawTransaction %s to the allowed contract', (_name, raw, to) => {
    expect(checkContracts('eth_sendRawTransaction', [raw], [to])).toEqual({ ok: true });
  });

  it('eth_sendRawTransaction EIP-7702 needs both its target and its delegate allowed', () => {
    const delegate = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
    expect(checkContracts('eth_sendRawTransaction', [SIGNED.eip7702], [RECIPIENT])).toMatchObject({
      ok: false,
      address: delegate,
    });
    expect(
      checkContracts('eth_sendRawTransaction', [SIGNED.eip7702], [RECIPIENT, delegate]),
    ).toEqual({ ok: true });
  });

  it('compares allowlist entries case-insensitively', () => {
    expect(checkContracts('eth_getCode', [A], [A_CHECKSUM])).toEqual({ ok: true });
  });

  it('reads filters this key made when the caller vouches for them', () => {
    const mine = new Set(['0x1']);
    const owns = (id: string) => mine.has(id);
    expect(checkContracts('eth_getFilterChanges', ['0x1'], ALLOW, owns)).toEqual({ ok: true });
    expect(checkContracts('eth_getFilterLogs', ['0x1'], ALLOW, owns)).toEqual({ ok: true });
    expect(checkContracts('eth_getFilterChanges', ['0x2'], ALLOW, owns).ok).toBe(false);
  });

  it('checks nothing without an allowlist', () => {
    for (const method of [...tableMethods, 'eth_sendTransaction', 'hardhat_reset'])
      expect(checkContracts(method, 'garbage', [])).toEqual({ ok: true });
  });
});

describe('checkContracts: malformed params never throw', () => {
  /** A small deterministic generator of odd JSON values. */
  function* oddValues(): Generator<unknown> {
    const leaves: unknown[] = [null, 0, -1, 1e308, true, '', '0x', A, B, 'latest', HASH, {}, []];
    yield* leaves;
    for (const l of leaves) {
      yield [l];
      yield [l, l, l, l, l];
      yield { to: l, address: l, sender: l, tracer: l, stateOverrides: l, authorizationList: l };
      yield [{ to: l, address: l, sender: l, factory: l, initCode: l, eip7702Auth: l }, l, l];
      yield [{ authorizationList: [l], address: [l] }];
    }
    yield Object.create(null) as unknown;
    yield JSON.parse(
      '{"__proto__": {"to": "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}',
    ) as unknown;
  }

  const methods = [
    ...Object.keys(METHOD_TOUCHES),
    'debug_traceBadBlock',
    'nope',
    'eth_sendTransaction',
  ];

  it('answers ok or a refusal for every method and odd params', () => {
    let refused = 0;
    for (const method of methods)
      for (const params of oddValues()) {
        const r = checkContracts(method, params, ALLOW);
        expect(typeof r.ok).toBe('boolean');
        if (!r.ok) refused++;
        const rule = touchesOf(method);
        if (rule?.kind === 'params' || rule?.kind === 'subscription')
          if (!Array.isArray(params))
            expect(r.ok, `${method} ${JSON.stringify(params)}`).toBe(false);
      }
    expect(refused).toBeGreaterThan(0);
  });

  it('does not read a "__proto__" member as the "to" of the call', () => {
    const params = [
      JSON.parse('{"__proto__": {"to": "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}') as unknown,
    ];
    expect(checkContracts('eth_call', params, ALLOW).ok).toBe(false);
  });
});

describe('createCallPolicy: the pipeline check', () => {
  const key = (contracts: string[], methods: string[] = []) => ({
    keyId: 'k1',
    allowlists: { origins: [], ips: [], contracts, methods },
  });
  const policy = createCallPolicy(defaultRuTable, {
    owns: (keyId, id) => keyId === 'k1' && id === '0x9',
  });

  it('refuses node-admin, node-account and unknown methods with -32601', () => {
    expect(policy('hardhat_setBalance', [A, '0x1'], key([]))).toEqual(
      ERR.methodNotOffered('hardhat_setBalance', 'admin'),
    );
    expect(policy('eth_sendTransaction', [{ to: A }], key([]))).toEqual(
      ERR.methodNotOffered('eth_sendTransaction', 'node-account'),
    );
    expect(policy('txpool_content', [], key([]))).toEqual(
      ERR.methodNotOffered('txpool_content', 'unknown'),
    );
    expect(ERR.methodNotOffered('x', 'unknown')).toMatchObject({ status: 400, code: -32601 });
  });

  it("applies the key's method allowlist after the catalogue", () => {
    expect(policy('eth_chainId', [], key([], ['eth_blockNumber']))).toEqual(
      ERR.methodDenied('eth_chainId'),
    );
    expect(policy('hardhat_reset', [], key([], ['hardhat_reset']))).toEqual(
      ERR.methodNotOffered('hardhat_reset', 'admin'),
    );
  });

  it('refuses contracts outside the allowlist with -32004', () => {
    expect(policy('eth_getCode', [B, 'latest'], key([A]))).toEqual(ERR.contractDenied(B));
    const unchecked = policy('eth_getLogs', [{}], key([A]));
    expect(unchecked).toMatchObject({ status: 403, code: -32004 });
    expect(unchecked?.message).toMatch(/^eth_getLogs cannot be checked .*every contract/);
  });

  it('lets allowed calls through, and the filters of this key', () => {
    expect(policy('eth_call', [{ to: A }, 'latest'], key([A]))).toBeUndefined();
    expect(policy('eth_getLogs', [{}], key([]))).toBeUndefined();
    expect(policy('eth_getFilterChanges', ['0x9'], key([A]))).toBeUndefined();
    expect(policy('eth_getFilterChanges', ['0x9'], { ...key([A]), keyId: 'k2' })).toMatchObject({
      code: -32004,
    });
  });
});

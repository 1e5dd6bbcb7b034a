/** Pure helpers of the endpoint page: URL building, allowlist checks and the cost calculator's arithmetic. */
import { ALLOWLIST_MAX_ENTRIES } from '@rpc/contract';
import { describe, expect, it } from 'vitest';
import { checkAllowlistEntry, splitEntries } from './allowlists';
import type { TTierLimits } from './cost-calculator';
import { estimateCost, ruPerCall } from './cost-calculator';
import { buildEndpointUrl, curlExample, maskKey } from './endpoint-urls';
import { groupMethods, methodGroup } from './method-groups';

describe('buildEndpointUrl', () => {
  it.each([
    [
      'http://localhost:3001/v1/localnet/{key}',
      'abc123',
      'http://localhost:3001/v1/localnet/abc123',
    ],
    ['wss://eth.example.com/v1/ws/{key}', 'k', 'wss://eth.example.com/v1/ws/k'],
    ['https://{key}.example.com/{key}', 'k1', 'https://k1.example.com/k1'],
    ['https://x.example.com/v1/{key}', 'a/b?c', 'https://x.example.com/v1/a%2Fb%3Fc'],
    ['https://x.example.com/no-placeholder', 'k', 'https://x.example.com/no-placeholder'],
  ])('%s with %s → %s', (template, key, url) => {
    expect(buildEndpointUrl(template, key)).toBe(url);
  });

  it('writes a curl call of eth_blockNumber to the URL', () => {
    const curl = curlExample('https://x.example.com/v1/k');
    expect(curl).toContain("curl -X POST 'https://x.example.com/v1/k'");
    expect(curl).toContain('"method":"eth_blockNumber"');
  });

  it('masks all but the first and last four characters', () => {
    expect(maskKey('abcd1234567890wxyz')).toBe('abcd••••••••••wxyz');
    expect(maskKey('short')).toBe('•••••');
  });
});

describe('checkAllowlistEntry', () => {
  it.each([
    ['origins', 'https://app.example.com', 'https://app.example.com'],
    ['origins', ' *.Example.com ', '*.example.com'],
    ['ips', '203.0.113.7', '203.0.113.7'],
    ['ips', '10.0.0.0/8', '10.0.0.0/8'],
    ['ips', '2001:db8::1', '2001:db8::1'],
    [
      'contracts',
      '0xABCDEF0123456789abcdef0123456789ABCDEF01',
      '0xabcdef0123456789abcdef0123456789abcdef01',
    ],
    ['methods', 'eth_call', 'eth_call'],
  ] as const)('accepts %s entry %s', (kind, raw, value) => {
    expect(checkAllowlistEntry(kind, raw, [])).toEqual({ ok: true, value });
  });

  it.each([
    ['origins', 'javascript:alert(1)'],
    ['origins', 'https://exa mple.com'],
    ['ips', '300.1.1.1'],
    ['ips', '10.0.0.0/33'],
    ['ips', 'localhost'],
    ['contracts', '0x1234'],
    ['contracts', 'abcdef0123456789abcdef0123456789abcdef01'],
    ['methods', 'eth call'],
    ['methods', '1eth'],
  ] as const)('rejects %s entry %s', (kind, raw) => {
    expect(checkAllowlistEntry(kind, raw, [])).toEqual({ ok: false, reason: 'invalid' });
  });

  it('rejects duplicates (after normalising) and a full list', () => {
    expect(checkAllowlistEntry('origins', 'HTTPS://A.COM', ['https://a.com'])).toEqual({
      ok: false,
      reason: 'duplicate',
    });
    const full = Array.from({ length: ALLOWLIST_MAX_ENTRIES }, (_, i) => `m${i}x`);
    expect(checkAllowlistEntry('methods', 'eth_call', full)).toEqual({ ok: false, reason: 'full' });
  });

  it('splits pasted text on commas, spaces and lines', () => {
    expect(splitEntries(' a, b\nc ;d  ')).toEqual(['a', 'b', 'c', 'd']);
  });
});

const TIERS: TTierLimits[] = [
  { level: 'premium', name: 'Premium', order: 3, reqPerSec: 2500, ruPerSec: 100_000 },
  { level: 'free', name: 'Free', order: 1, reqPerSec: 20, ruPerSec: 400 },
  { level: 'elementary', name: 'Elementary', order: 2, reqPerSec: 1000, ruPerSec: 40_000 },
];
const PRICES = new Map([
  ['eth_chainId', 5],
  ['eth_blockNumber', 10],
  ['eth_getBalance', 15],
  ['eth_call', 20],
  ['eth_getLogs', 50],
]);

describe('ruPerCall (the gateway’s integer arithmetic)', () => {
  it.each([
    [20, false, 30, 1, 20],
    [20, true, 30, 1, 26],
    [15, true, 30, 1, 20], // 19.5 rounds up
    [10, false, 30, 1.5, 15],
    [5, true, 30, 1.1, 8], // 5 × 1.3 × 1.1 = 7.15 → 8
  ])('base %i, archive %s (+%i%%), ×%f → %i', (base, archive, pct, multiplier, expected) => {
    expect(ruPerCall(base, { archive, archiveSurchargePercent: pct, multiplier })).toBe(expected);
  });
});

describe('estimateCost', () => {
  it.each([
    {
      name: 'one method, no archive',
      lines: [{ method: 'eth_call', callsPerMonth: 1_000_000 }],
      archive: false,
      peak: 10,
      total: 20_000_000,
      peakRu: 200,
      tier: 'Free',
    },
    {
      name: 'a mix with archive',
      lines: [
        { method: 'eth_blockNumber', callsPerMonth: 3_000_000 },
        { method: 'eth_getBalance', callsPerMonth: 1_000_000 },
      ],
      archive: true,
      peak: 100,
      // 13 × 3M + 20 × 1M
      total: 59_000_000,
      // average 14.75 RU × 100 req/s
      peakRu: 1475,
      tier: 'Elementary',
    },
    {
      name: 'a peak only Premium serves',
      lines: [{ method: 'eth_getLogs', callsPerMonth: 10 }],
      archive: false,
      peak: 1500,
      total: 500,
      peakRu: 75_000,
      tier: 'Premium',
    },
    {
      name: 'a peak no tier serves',
      lines: [{ method: 'eth_getLogs', callsPerMonth: 10 }],
      archive: false,
      peak: 3000,
      total: 500,
      peakRu: 150_000,
      tier: null,
    },
    {
      name: 'unknown methods and negative counts count nothing',
      lines: [
        { method: 'no_such', callsPerMonth: 5 },
        { method: 'eth_chainId', callsPerMonth: -4 },
      ],
      archive: false,
      peak: 0,
      total: 0,
      peakRu: 0,
      tier: 'Free',
    },
  ])('$name', ({ lines, archive, peak, total, peakRu, tier }) => {
    const estimate = estimateCost({
      lines,
      prices: PRICES,
      archive,
      archiveSurchargePercent: 30,
      peakReqPerSec: peak,
      tiers: TIERS,
    });
    expect(estimate.totalRuPerMonth).toBe(total);
    expect(estimate.peakRuPerSec).toBe(peakRu);
    expect(estimate.minimumTier?.name ?? null).toBe(tier);
  });
});

describe('methodGroup', () => {
  it.each([
    ['eth_chainId', 'network'],
    ['net_version', 'network'],
    ['web3_clientVersion', 'network'],
    ['eth_blockNumber', 'network'],
    ['eth_feeHistory', 'fees'],
    ['eth_estimateGas', 'fees'],
    ['eth_getTransactionCount', 'state'],
    ['eth_call', 'state'],
    ['eth_getBlockTransactionCountByHash', 'blocks'],
    ['eth_getBlockReceipts', 'blocks'],
    ['eth_getUncleByBlockHashAndIndex', 'blocks'],
    ['eth_getTransactionReceipt', 'transactions'],
    ['eth_sendRawTransaction', 'transactions'],
    ['eth_getFilterChanges', 'logs'],
    ['eth_uninstallFilter', 'logs'],
    ['eth_subscription', 'subscriptions'],
    ['eth_getUserOperationReceipt', 'accountAbstraction'],
    ['eth_supportedEntryPoints', 'accountAbstraction'],
    ['trace_replayTransaction', 'trace'],
    ['debug_trace*', 'trace'],
    ['bor_getAuthor', 'other'],
  ] as const)('%s is in %s', (method, group) => {
    expect(methodGroup(method)).toBe(group);
  });

  it('groups in a fixed order and filters by any part of the name', () => {
    const methods = [
      { method: 'trace_block', ru: 150 },
      { method: 'eth_getLogs', ru: 50 },
      { method: 'eth_chainId', ru: 5 },
      { method: 'eth_newFilter', ru: 20 },
    ];
    expect(groupMethods(methods).map((g) => g.group)).toEqual(['network', 'logs', 'trace']);
    expect(groupMethods(methods, ' FILTER ')).toEqual([
      { group: 'logs', methods: [{ method: 'eth_newFilter', ru: 20 }] },
    ]);
    expect(groupMethods(methods, 'nothing')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { TRuInput } from './metering';
import { computeRu, defaultRuTable, estimateRu } from './metering';

const KB = 1024;
const MB = 1024 * 1024;
const base: TRuInput = {
  method: 'eth_chainId',
  responseBytes: 40,
  archive: false,
  multiplier: 1,
  outcome: 'ok',
};

// Each row: what the rule says, the call, the RUs it must cost.
const cases: [string, Partial<TRuInput>, number][] = [
  ['eth_chainId is 5', { method: 'eth_chainId' }, 5],
  ['eth_blockNumber is 10', { method: 'eth_blockNumber' }, 10],
  ['eth_getBalance is 15', { method: 'eth_getBalance' }, 15],
  ['eth_call is 20', { method: 'eth_call' }, 20],
  ['eth_getLogs is 50', { method: 'eth_getLogs', responseBytes: 1000 }, 50],
  ['debug_traceTransaction is 150 (prefix)', { method: 'debug_traceTransaction' }, 150],
  ['debug_traceCall is 150 (prefix)', { method: 'debug_traceCall' }, 150],
  ['debug_traceBlockByNumber is 150 (prefix)', { method: 'debug_traceBlockByNumber' }, 150],
  ['eth_getBlockReceipts is 150', { method: 'eth_getBlockReceipts' }, 150],
  ['eth_sendRawTransaction is 200', { method: 'eth_sendRawTransaction' }, 200],
  ['trace_replayTransaction is 2900', { method: 'trace_replayTransaction' }, 2900],
  ['eth_subscription notification is 10', { method: 'eth_subscription' }, 10],
  // Unlisted: 5 RU per started 250 bytes, at least 5.
  ['unlisted, 0 bytes → minimum 5', { method: 'evm_mine', responseBytes: 0 }, 5],
  ['unlisted, 1 byte → 5', { method: 'evm_mine', responseBytes: 1 }, 5],
  ['unlisted, 250 bytes → 5', { method: 'evm_mine', responseBytes: 250 }, 5],
  ['unlisted, 251 bytes → 10', { method: 'evm_mine', responseBytes: 251 }, 10],
  ['unlisted, 1000 bytes → 20', { method: 'evm_mine', responseBytes: 1000 }, 20],
  [
    'unlisted, 2 MB → size only, no large-response surcharge',
    { method: 'x_big', responseBytes: 2 * MB },
    41945,
  ],
  // Archive +30%, integer exact.
  ['archive eth_call 20 → 26 (not 27 from float error)', { method: 'eth_call', archive: true }, 26],
  [
    'archive eth_getBalance 15 → 19.5 → 20 (rounded up)',
    { method: 'eth_getBalance', archive: true },
    20,
  ],
  [
    'archive unlisted 251 bytes 10 → 13',
    { method: 'evm_mine', responseBytes: 251, archive: true },
    13,
  ],
  // eth_getLogs: +100% per started 200 KB beyond 200 KB, instead of the 1 MB rule.
  ['eth_getLogs exactly 200 KB → 50', { method: 'eth_getLogs', responseBytes: 200 * KB }, 50],
  ['eth_getLogs 200 KB + 1 → 100', { method: 'eth_getLogs', responseBytes: 200 * KB + 1 }, 100],
  ['eth_getLogs 400 KB → 100', { method: 'eth_getLogs', responseBytes: 400 * KB }, 100],
  ['eth_getLogs 400 KB + 1 → 150', { method: 'eth_getLogs', responseBytes: 400 * KB + 1 }, 150],
  [
    'eth_getLogs 1.5 MB → 50 × (1 + 7) = 400',
    { method: 'eth_getLogs', responseBytes: 1.5 * MB },
    400,
  ],
  [
    'eth_getLogs 400 KB + 1 archive → 150 × 1.3 = 195',
    { method: 'eth_getLogs', responseBytes: 400 * KB + 1, archive: true },
    195,
  ],
  // Any listed response: +100% per started MB beyond 1 MB.
  [
    'eth_getBlockReceipts exactly 1 MB → 150',
    { method: 'eth_getBlockReceipts', responseBytes: MB },
    150,
  ],
  [
    'eth_getBlockReceipts 1 MB + 1 → 300',
    { method: 'eth_getBlockReceipts', responseBytes: MB + 1 },
    300,
  ],
  [
    'eth_getBlockReceipts 3.2 MB → 150 × 4 = 600',
    { method: 'eth_getBlockReceipts', responseBytes: 3.2 * MB },
    600,
  ],
  [
    'debug_traceTransaction 2 MB archive → 150 × 2 × 1.3 = 390',
    { method: 'debug_traceTransaction', responseBytes: 2 * MB, archive: true },
    390,
  ],
  // Chain multiplier.
  ['multiplier 2 doubles', { method: 'eth_call', multiplier: 2 }, 40],
  ['multiplier 1.5 on 15 → 22.5 → 23', { method: 'eth_getBalance', multiplier: 1.5 }, 23],
  ['multiplier 0.5 on 5 → 2.5 → 3', { method: 'eth_chainId', multiplier: 0.5 }, 3],
  [
    'multiplier 1.5 with archive on 20 → 39',
    { method: 'eth_call', multiplier: 1.5, archive: true },
    39,
  ],
  ['multiplier 1.1 on 10 → 11 exactly', { method: 'eth_blockNumber', multiplier: 1.1 }, 11],
  // Nothing charged that was not served.
  ['upstream error is free', { method: 'eth_call', outcome: 'upstream_error' }, 0],
  ['rejected by our limits is free', { method: 'trace_replayTransaction', outcome: 'rejected' }, 0],
  [
    'upstream error on a big unlisted response is free',
    { method: 'x', responseBytes: MB, outcome: 'upstream_error' },
    0,
  ],
];

describe('computeRu follows the RU table', () => {
  it.each(cases)('%s', (_name, input, expected) => {
    expect(computeRu({ ...base, ...input })).toBe(expected);
  });

  it('always returns a non-negative integer', () => {
    for (const [, input] of cases)
      expect(Number.isInteger(computeRu({ ...base, ...input }))).toBe(true);
  });

  it('the table is versioned', () => {
    expect(defaultRuTable.version).toMatch(/\S/);
  });

  it('estimates with the listed price or the size minimum', () => {
    expect(estimateRu(defaultRuTable, 'eth_call')).toBe(20);
    expect(estimateRu(defaultRuTable, 'debug_traceTransaction')).toBe(150);
    expect(estimateRu(defaultRuTable, 'evm_mine')).toBe(5);
  });
});

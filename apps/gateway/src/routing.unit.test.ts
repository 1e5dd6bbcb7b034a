import { describe, expect, it } from 'vitest';
import { chooseRoute, isHistorical, isIpAllowed, isOriginAllowed } from './routing';

const HEAD = 1000;
const plain = { archiveMode: false, mev: '' as const, bundler: 'default' as const };
const archive = { ...plain, archiveMode: true };

describe('historical blocks (head − 128 and older)', () => {
  it.each([
    ['eth_getBalance at latest', 'eth_getBalance', ['0xabc', 'latest'], false],
    ['eth_getBalance at earliest', 'eth_getBalance', ['0xabc', 'earliest'], true],
    [
      'eth_getBalance at head − 128 (still recent)',
      'eth_getBalance',
      ['0xabc', '0x' + (HEAD - 128).toString(16)],
      false,
    ],
    [
      'eth_getBalance at head − 129',
      'eth_getBalance',
      ['0xabc', '0x' + (HEAD - 129).toString(16)],
      true,
    ],
    ['eth_call at block 1', 'eth_call', [{ to: '0x1' }, '0x1'], true],
    ['eth_getStorageAt param 2', 'eth_getStorageAt', ['0xabc', '0x0', '0x1'], true],
    ['eth_getBlockByNumber 0x1', 'eth_getBlockByNumber', ['0x1', false], true],
    ['EIP-1898 blockNumber', 'eth_getBalance', ['0xabc', { blockNumber: '0x2' }], true],
    ['EIP-1898 blockHash', 'eth_getBalance', ['0xabc', { blockHash: '0x12' }], true],
    ['eth_getLogs fromBlock 0x1', 'eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest' }], true],
    ['eth_getLogs recent', 'eth_getLogs', [{ fromBlock: '0x3e7' }], false],
    ['eth_getLogs by blockHash', 'eth_getLogs', [{ blockHash: '0x12' }], false],
    ['eth_blockNumber has no block', 'eth_blockNumber', [], false],
    ['params not an array', 'eth_getBalance', { a: 1 }, false],
  ])('%s', (_n, method, params, expected) => {
    expect(isHistorical(method as string, params, HEAD)).toBe(expected);
  });

  it('head unknown (0): only earliest is historical', () => {
    expect(isHistorical('eth_getBalance', ['0xabc', '0x1'], 0)).toBe(false);
    expect(isHistorical('eth_getBalance', ['0xabc', 'earliest'], 0)).toBe(true);
  });
});

describe('route choice', () => {
  it.each([
    [
      'historical read, archive mode → archive',
      archive,
      'eth_getBalance',
      ['0x1', '0x1'],
      { group: 'archive' },
    ],
    [
      'historical read, no archive mode → full',
      plain,
      'eth_getBalance',
      ['0x1', '0x1'],
      { group: 'full' },
    ],
    [
      'recent read, archive mode → full',
      archive,
      'eth_getBalance',
      ['0x1', 'latest'],
      { group: 'full' },
    ],
    [
      'raw tx, mev auto → mev',
      { ...plain, mev: 'auto' },
      'eth_sendRawTransaction',
      ['0x'],
      { group: 'mev' },
    ],
    [
      'raw tx, mev globalcast → mev',
      { ...plain, mev: 'globalcast' },
      'eth_sendRawTransaction',
      ['0x'],
      { group: 'mev' },
    ],
    ['raw tx, no mev → full', plain, 'eth_sendRawTransaction', ['0x'], { group: 'full' }],
    [
      '4337 method → chosen bundler',
      { ...plain, bundler: 'pimlico' },
      'eth_sendUserOperation',
      [],
      { group: 'bundler', provider: 'pimlico' },
    ],
    [
      '4337 supportedEntryPoints → bundler',
      plain,
      'eth_supportedEntryPoints',
      [],
      { group: 'bundler', provider: 'default' },
    ],
  ])('%s', (_n, key, method, params, expected) => {
    expect(chooseRoute(key as typeof plain, method as string, params, HEAD)).toEqual(expected);
  });
});

describe('allowlists', () => {
  it.each([
    [[], 'https://x.com', true],
    [['https://app.example.com'], 'https://app.example.com', true],
    [['https://app.example.com'], 'https://evil.com', false],
    [['https://*.example.com'], 'https://a.example.com', true],
    [['https://*.example.com'], 'http://a.example.com', false],
    [['https://*.example.com'], 'https://example.com', false],
    [['*.example.com'], 'http://b.example.com', true],
    [['example.com'], 'https://example.com', true],
    [['https://*.example.com'], 'https://a.example.com.evil.io', false],
    // The probe: a path that ends like an allowed host is not that host.
    [['*.wild.example.org'], 'https://evil.com/.wild.example.org', false],
    [['https://*.wild.example.org'], 'https://evil.com/.wild.example.org', false],
    [['wild.example.org'], 'https://evil.com/wild.example.org', false],
    [['*.wild.example.org'], 'https://a.wild.example.org', true],
    [['*.example.com'], 'https://user@a.example.com', false],
    [['*.example.com'], 'null', false],
    [['*.example.com'], 'https://a.example.com:8443', true],
    [['https://app.example.com:8443'], 'https://app.example.com', false],
    [['https://app.example.com:8443'], 'https://app.example.com:8443', true],
    [['HTTPS://App.Example.com'], 'https://app.example.com', true],
  ])('origins %j allow %s: %s', (allow, origin, expected) => {
    expect(isOriginAllowed(allow, origin)).toBe(expected);
  });

  it.each([
    [[], '1.2.3.4', true],
    [['1.2.3.4'], '1.2.3.4', true],
    [['1.2.3.4'], '::ffff:1.2.3.4', true],
    [['1.2.3.4'], '1.2.3.5', false],
    [['10.0.0.0/8'], '10.20.30.40', true],
    [['10.0.0.0/8'], '11.0.0.1', false],
    [['192.168.1.0/24'], '::ffff:192.168.1.77', true],
    [['::1'], '::1', true],
  ])('ips %j allow %s: %s', (allow, ip, expected) => {
    expect(isIpAllowed(allow, ip)).toBe(expected);
  });
});

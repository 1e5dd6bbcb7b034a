/** The EIP-1193 helpers: hex encoding for personal_sign, chain ids, and how wallet errors are told apart. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundWalletAddress, connectWallet, parseChainId, toHexUtf8 } from './wallet';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('toHexUtf8', () => {
  it.each([
    ['', '0x'],
    ['A', '0x41'],
    ['中', '0xe4b8ad'],
    ['a\nb', '0x610a62'],
  ])('%j -> %s', (text, hex) => {
    expect(toHexUtf8(text)).toBe(hex);
  });
});

describe('parseChainId', () => {
  it.each([
    ['0x1', 1],
    ['0x89', 137],
    ['0x7A69', 31337],
    ['1', null],
    ['0x', null],
    ['0x0', null],
    [1, null],
  ])('%j -> %j', (value, id) => {
    expect(parseChainId(value)).toBe(id);
  });
});

describe('connectWallet', () => {
  const ADDRESS = '0x1234567890abcdef1234567890abcdef12345678';

  function stubWallet(request: (args: { method: string }) => Promise<unknown>) {
    vi.stubGlobal('ethereum', { request });
  }

  it('is "missing" without an injected provider', async () => {
    await expect(connectWallet()).rejects.toMatchObject({ kind: 'missing' });
  });

  it.each([
    [{ code: 4001, message: 'User rejected the request.' }, 'rejected'],
    [{ code: 'ACTION_REJECTED' }, 'rejected'],
    [{ code: -32002, message: 'Request already pending' }, 'busy'],
    [{ code: -32603, message: 'Internal error' }, 'failed'],
  ])('tells %j apart as %s', async (error, kind) => {
    stubWallet(() => Promise.reject(error));
    await expect(connectWallet()).rejects.toMatchObject({ kind });
  });

  it('answers the first account and the chain as a number', async () => {
    stubWallet(async ({ method }) => (method === 'eth_requestAccounts' ? [ADDRESS] : '0xa'));
    await expect(connectWallet()).resolves.toMatchObject({ address: ADDRESS, chainId: 10 });
  });
});

describe('boundWalletAddress', () => {
  it('reads the wallet from the oauth list entry named "wallet"', () => {
    expect(
      boundWalletAddress([
        { provider: 'github', email: 'ada@example.com' },
        { provider: 'wallet', email: '0xabc' },
      ]),
    ).toBe('0xabc');
    expect(boundWalletAddress([{ provider: 'github', email: null }])).toBeNull();
  });
});

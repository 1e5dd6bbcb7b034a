/** Address derivation against published vectors, the settings join, and the cents arithmetic. */
import { loadChains, withUpstreams } from '@rpc/gateway';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  deriveAddress,
  LOCALNET_TEST_XPUB,
  MAX_DERIVATION_INDEX,
  parseXpub,
} from './derive-address';
import { loadDepositSettings } from './deposit-settings';
import { usdCentsOf } from './scan-chain';

const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk';
/** m/44'/60'/0'/0 of that mnemonic; its children are Hardhat's published, pre-funded accounts #0, #1, #2. */
const HARDHAT_ACCOUNT0_XPUB =
  'xpub6DyUKdwoLWmUJ4Tn9Bbsdtx7B5Ws18mEN19e5HT52ikE53FiUheSQXrZUNPovqfyKmw4579A1Mm3GXXKM39N64uooBfJ4tNAzFsEbodRTx4';
const HARDHAT_PUBLISHED = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
];

describe('deriveAddress', () => {
  it('derives the published Hardhat accounts from their xpub (public derivation only)', () => {
    const key = parseXpub(HARDHAT_ACCOUNT0_XPUB);
    expect([0, 1, 2].map((i) => deriveAddress(key, i))).toEqual(
      HARDHAT_PUBLISHED.map((a) => a.toLowerCase()),
    );
  });

  it('gives the same addresses as private derivation of the mnemonic (viem) for the localnet key', () => {
    const key = parseXpub(LOCALNET_TEST_XPUB);
    for (const i of [0, 1, 2, 7, 1000]) {
      const viaPrivate = mnemonicToAccount(HARDHAT_MNEMONIC, { accountIndex: 1, addressIndex: i });
      expect(deriveAddress(key, i)).toBe(viaPrivate.address.toLowerCase());
    }
    // and none of them is one of the pre-funded test accounts
    expect(HARDHAT_PUBLISHED.map((a) => a.toLowerCase())).not.toContain(deriveAddress(key, 0));
  });

  it.each([
    // BIP-32 test vector 1's master key
    [
      'an extended private key',
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
      /not a private one/,
    ],
    ['garbage', 'xpub-not-a-key', /./],
  ])('refuses %s', (_, value, message) => {
    expect(() => parseXpub(value)).toThrow(message);
  });

  it.each([-1, 1.5, MAX_DERIVATION_INDEX + 1])(
    'refuses index %s (hardened or not an index)',
    (i) => {
      expect(() => deriveAddress(parseXpub(LOCALNET_TEST_XPUB), i)).toThrow();
    },
  );
});

describe('loadDepositSettings', () => {
  const chains = loadChains({}); // localnet has its default upstream; real chains have none
  const withEthereum = chains.map((c) =>
    c.id === 'ethereum' ? withUpstreams(c, { full: ['http://127.0.0.1:1'] }) : c,
  );

  it('without DEPOSIT_XPUB, takes deposits on localnet only, with the public test key', () => {
    const s = loadDepositSettings({ chains: withEthereum });
    expect(s.chains.map((c) => c.chain)).toEqual(['localnet']);
    expect(s.chains[0]!.xpub).toBe(LOCALNET_TEST_XPUB);
    // the test token has no built-in contract: not offered until DEPOSIT_TOKENS names one
    expect(s.chains[0]!.coins.map((c) => c.coin)).toEqual(['ETH']);
  });

  it('with DEPOSIT_XPUB, every chain with coins and an upstream; DEPOSIT_TOKENS adds the localnet token', () => {
    const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const s = loadDepositSettings({
      chains: withEthereum,
      xpub: HARDHAT_ACCOUNT0_XPUB,
      tokens: { 'localnet:USDT': token.toLowerCase() },
    });
    expect(s.chains.map((c) => c.chain)).toEqual(['localnet', 'ethereum']);
    expect(s.chains.every((c) => c.xpub === HARDHAT_ACCOUNT0_XPUB)).toBe(true);
    expect(s.chains[0]!.coins.find((c) => c.coin === 'USDT')?.contract).toBe(token.toLowerCase());
    expect(s.chains[1]!.coins.map((c) => c.coin)).toEqual(['USDT', 'USDC']);
  });

  it('nothing usable: no chains (deposits not configured)', () => {
    const noLocal = chains.map((c) => (c.id === 'localnet' ? withUpstreams(c, { full: [] }) : c));
    expect(loadDepositSettings({ chains: noLocal }).chains).toEqual([]);
  });

  it('fails at start on a bad DEPOSIT_XPUB', () => {
    expect(() => loadDepositSettings({ chains, xpub: 'xpub123' })).toThrow();
  });
});

describe('usdCentsOf', () => {
  const coin = (decimals: number, usdCentsPerCoin: number) => ({
    coin: 'X',
    name: 'X',
    contract: null,
    decimals,
    usdCentsPerCoin,
    minDeposit: 0n,
  });
  it.each([
    [25_000_000n, coin(6, 100), 2500n],
    [1n, coin(6, 100), 0n],
    [10n ** 18n / 2n, coin(18, 300_000), 150_000n],
    [123_456_789_012_345_678_901n, coin(18, 100), 12_345n],
  ])('%s base units → %s cents', (amount, c, cents) => {
    expect(usdCentsOf(amount, c)).toBe(cents);
  });
});

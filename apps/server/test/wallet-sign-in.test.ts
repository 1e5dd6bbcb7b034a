/**
 * Wallet sign-in (issue 14): Sign-In with Ethereum messages from hub_getMetamaskNonce, signed by viem local accounts
 * and by a smart-contract wallet (EIP-1271) deployed on a real Hardhat node; replayed, expired, altered (domain,
 * chain, URI), foreign-signed and wrong-purpose messages refused; binding and unbinding; on each database.
 */
import { ERROR_CODES } from '@rpc/contract';
import { authChallenges, sessions, userIdentities, users } from '@rpc/db';
import type { TLocalnet } from '@rpc/gateway';
import { count, eq } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGE_KEEP_MS, pruneAuthChallenges } from '../src/services/sign-in/prune-challenges';
import { RECENT_SIGN_IN_MS } from '../src/services/sign-in/two-factor';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, digest, type THarness } from './helpers/harness';
import { startTestLocalnet } from './helpers/localnet';
import { chainClients, fixtureBytecode } from './helpers/test-token';

const LOCALNET = 31337;
const WALLET_1271_ABI = [
  {
    type: 'constructor',
    inputs: [{ name: 'owner_', type: 'address' }],
    stateMutability: 'nonpayable',
  },
] as const;

let localnet: TLocalnet;
let chains: Awaited<ReturnType<typeof startTestLocalnet>>['chains'];
beforeAll(async () => {
  ({ localnet, chains } = await startTestLocalnet());
});
afterAll(async () => {
  await localnet?.stop();
});

describe.each(TEST_DATABASES)('wallet sign-in on $name', ({ open }) => {
  let h: THarness;
  beforeAll(async () => {
    h = await createHarness(open, { chains });
  });
  afterAll(async () => {
    await h?.close();
  });

  async function ok<T>(p: Promise<{ ok: boolean; result?: T; error?: unknown }>): Promise<T> {
    const res = await p;
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.result as T;
  }
  async function codeOf(p: Promise<{ ok: boolean; error?: { code: number } }>): Promise<number> {
    const res = await p;
    return res.ok ? 0 : res.error!.code;
  }

  async function nonce(
    account: { address: Hex },
    purpose: 'login' | 'bind' = 'login',
    chainId = LOCALNET,
  ) {
    return ok(h.call('hub_getMetamaskNonce', { address: account.address, chainId, purpose }));
  }
  async function signed(account: PrivateKeyAccount, purpose: 'login' | 'bind' = 'login') {
    const { message } = await nonce(account, purpose);
    return { message, signature: await account.signMessage({ message }) };
  }
  async function counts() {
    const [u] = await h.database.db.select({ n: count() }).from(users);
    const [i] = await h.database.db.select({ n: count() }).from(userIdentities);
    const [s] = await h.database.db.select({ n: count() }).from(sessions);
    return { users: u!.n, identities: i!.n, sessions: s!.n };
  }

  it('creates an uninitialised account for a new wallet, then signs the same user in', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const first = await ok(h.call('hub_metamaskRegister', await signed(account)));
    expect(first.created).toBe(true);
    expect(first.twoFactorRequired).toBe(false);
    const profile = await ok(h.call('hub_getUserProfile', {}, { token: first.token }));
    expect(profile).toMatchObject({
      email: null,
      initialize: false,
      isNoPassword: true,
      acceptTerm: false,
      mailStatus: 0,
    });
    expect(profile.oauth).toContainEqual({
      provider: 'wallet',
      email: account.address.toLowerCase(),
    });
    const second = await ok(h.call('hub_metamaskRegister', await signed(account)));
    expect(second.created).toBe(false);
    const again = await ok(h.call('hub_getUserProfile', {}, { token: second.token }));
    expect(again.id).toBe(profile.id);
    const [row] = await h.database.db
      .select({ method: sessions.method })
      .from(sessions)
      .where(eq(sessions.userId, profile.id))
      .limit(1);
    expect(row!.method).toBe('wallet');
  });

  it('the message names this console, the chain, the address and a 10-minute expiry', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { message, expiresAt } = await nonce(account);
    expect(message).toMatch(/^console\.test wants you to sign in with your Ethereum account:\n/);
    expect(message).toContain(`\n${account.address}\n`);
    expect(message).toContain('\nURI: http://console.test\n');
    expect(message).toContain('\nChain ID: 31337\n');
    expect(message).toMatch(/\nNonce: [0-9a-f]{32}\n/);
    expect(expiresAt - h.clock.now()).toBe(10 * 60_000);
  });

  it('refuses a replayed signature, an expired message and a wrong-purpose one', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const login = await signed(account);
    await ok(h.call('hub_metamaskRegister', login));
    expect(await codeOf(h.call('hub_metamaskRegister', login))).toBe(
      ERROR_CODES.SIWE_NONCE_INVALID,
    );

    const late = await signed(account);
    h.clock.advance(10 * 60_000 + 1);
    expect(await codeOf(h.call('hub_metamaskRegister', late))).toBe(ERROR_CODES.SIWE_NONCE_INVALID);

    // A sign-in signature cannot bind, nor a bind signature sign in.
    const { token } = await h.signUp();
    expect(await codeOf(h.call('hub_bindMetamask', await signed(account), { token }))).toBe(
      ERROR_CODES.SIWE_NONCE_INVALID,
    );
    expect(await codeOf(h.call('hub_metamaskRegister', await signed(account, 'bind')))).toBe(
      ERROR_CODES.SIWE_NONCE_INVALID,
    );
  });

  it('refuses altered messages (domain, chain, URI, address) and foreign signatures', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const before = await counts();
    const alter = async (edit: (m: string) => string) => {
      const { message } = await nonce(account);
      const changed = edit(message);
      expect(changed).not.toBe(message);
      return codeOf(
        h.call('hub_metamaskRegister', {
          message: changed,
          signature: await account.signMessage({ message: changed }),
        }),
      );
    };
    expect(await alter((m) => m.replace(/^console\.test/, 'evil.test'))).toBe(
      ERROR_CODES.SIWE_INVALID,
    );
    expect(await alter((m) => m.replace('Chain ID: 31337', 'Chain ID: 1'))).toBe(
      ERROR_CODES.SIWE_INVALID,
    );
    expect(await alter((m) => m.replace('URI: http://console.test', 'URI: http://evil.test'))).toBe(
      ERROR_CODES.SIWE_INVALID,
    );
    expect(await alter((m) => m.replace(account.address, other.address))).toBe(
      ERROR_CODES.SIWE_INVALID,
    );
    // The right message signed by someone else.
    const { message } = await nonce(account);
    expect(
      await codeOf(
        h.call('hub_metamaskRegister', {
          message,
          signature: await other.signMessage({ message }),
        }),
      ),
    ).toBe(ERROR_CODES.SIWE_INVALID);
    // A chain we do not serve gets no nonce at all.
    expect(
      await codeOf(
        h.call('hub_getMetamaskNonce', {
          address: account.address,
          chainId: 999_999,
          purpose: 'login',
        }),
      ),
    ).toBe(ERROR_CODES.SIWE_INVALID);
    const after = await counts();
    expect(after).toEqual(before);
  });

  it('answers bad input with 10004 and writes nothing', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { message } = await nonce(account);
    const before = await counts();
    const [c0] = await h.database.db.select({ n: count() }).from(authChallenges);
    const good = await account.signMessage({ message });
    const bad: Array<[string, unknown]> = [
      ['hub_getMetamaskNonce', { address: '0x1234', chainId: LOCALNET }],
      ['hub_getMetamaskNonce', { address: account.address, chainId: -1 }],
      ['hub_getMetamaskNonce', { address: account.address, chainId: 1.5 }],
      ['hub_getMetamaskNonce', { address: account.address, chainId: LOCALNET, purpose: 'x' }],
      ['hub_metamaskRegister', { message, signature: '0x1234' }],
      ['hub_metamaskRegister', { message, signature: `0x${'zz'.repeat(65)}` }],
      ['hub_metamaskRegister', { message, signature: `0x${'ab'.repeat(9000)}` }],
      ['hub_metamaskRegister', { message: 'x'.repeat(5000), signature: good }],
      ['hub_metamaskRegister', { message: '', signature: good }],
      ['hub_metamaskRegister', { signature: good }],
      ['hub_metamaskRegister', { message: ['a'], signature: good }],
      ['hub_metamaskRegister', { message, signature: good, language: 'fr' }],
    ];
    for (const [method, params] of bad) {
      const res = await h.raw({ method, params, id: 1 });
      expect(res.error?.code, `${method} ${JSON.stringify(params).slice(0, 80)}`).toBe(
        ERROR_CODES.INVALID_PARAMS,
      );
    }
    // Text that is not a SIWE message at all.
    expect(
      await codeOf(h.call('hub_metamaskRegister', { message: 'hello', signature: good })),
    ).toBe(ERROR_CODES.SIWE_INVALID);
    expect(await counts()).toEqual(before);
    const [c1] = await h.database.db.select({ n: count() }).from(authChallenges);
    expect(c1!.n).toBe(c0!.n);
    // The nonce was not spent by any of it: the real signature still signs in.
    expect((await ok(h.call('hub_metamaskRegister', { message, signature: good }))).created).toBe(
      true,
    );
  });

  it('binds a wallet to a password user, who then signs in with it; refuses taking and doubling', async () => {
    const owner = await h.signUp();
    const account = privateKeyToAccount(generatePrivateKey());
    const bound = await ok(h.call('hub_bindMetamask', await signed(account, 'bind'), owner));
    expect(bound.address).toBe(account.address.toLowerCase());
    const viaWallet = await ok(h.call('hub_metamaskRegister', await signed(account)));
    expect(viaWallet.created).toBe(false);
    const p1 = await ok(h.call('hub_getUserProfile', {}, owner));
    const p2 = await ok(h.call('hub_getUserProfile', {}, { token: viaWallet.token }));
    expect(p2.id).toBe(p1.id);

    // Someone else cannot bind it; the owner cannot bind a second wallet.
    const other = await h.signUp();
    expect(await codeOf(h.call('hub_bindMetamask', await signed(account, 'bind'), other))).toBe(
      ERROR_CODES.IDENTITY_TAKEN,
    );
    const second = privateKeyToAccount(generatePrivateKey());
    expect(await codeOf(h.call('hub_bindMetamask', await signed(second, 'bind'), owner))).toBe(
      ERROR_CODES.IDENTITY_ALREADY_BOUND,
    );

    // A password user may unbind; a second unbind finds nothing.
    await ok(h.call('hub_unbindMetamask', {}, owner));
    expect(await codeOf(h.call('hub_unbindMetamask', {}, owner))).toBe(ERROR_CODES.NOT_FOUND);
    // The wallet is free again: it now makes a new account.
    expect((await ok(h.call('hub_metamaskRegister', await signed(account)))).created).toBe(true);
  });

  it('binds only for a sign-in within 15 minutes (10225), so a stolen old session cannot add a wallet', async () => {
    const owner = await h.signUp();
    h.clock.advance(RECENT_SIGN_IN_MS + 1);
    const account = privateKeyToAccount(generatePrivateKey());
    const bind = await signed(account, 'bind');
    const before = await counts();
    expect(await codeOf(h.call('hub_bindMetamask', bind, owner))).toBe(
      ERROR_CODES.RECENT_SIGN_IN_REQUIRED,
    );
    // Nothing bound, and the wallet still makes no sign-in of the owner.
    expect(await counts()).toEqual(before);
    expect((await ok(h.call('hub_getUserProfile', {}, owner))).oauth).toEqual([]);
    // Signed in again, the user binds with the same signature: the refusal did not spend its nonce.
    const again = await ok(
      h.call('hub_login', { email: owner.email, password: digest(owner.password) }),
    );
    const bound = await ok(h.call('hub_bindMetamask', bind, { token: again.token }));
    expect(bound.address).toBe(account.address.toLowerCase());
    expect((await ok(h.call('hub_getUserProfile', {}, owner))).oauth).toContainEqual({
      provider: 'wallet',
      email: account.address.toLowerCase(),
    });
  });

  it('refuses to unbind the only way a wallet-made account signs in', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { token } = await ok(h.call('hub_metamaskRegister', await signed(account)));
    expect(await codeOf(h.call('hub_unbindMetamask', {}, { token }))).toBe(
      ERROR_CODES.LAST_SIGN_IN_METHOD,
    );
    const profile = await ok(h.call('hub_getUserProfile', {}, { token }));
    expect(profile.oauth.map((o) => o.provider)).toContain('wallet');
  });

  it('the hourly prune deletes challenges a day past their expiry, and only those', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const old = await nonce(account);
    h.clock.advance(CHALLENGE_KEEP_MS + 10 * 60_000 + 1);
    const fresh = await signed(account);
    const hashOf = (m: string) =>
      createHash('sha256')
        .update(/Nonce: (\w+)/.exec(m)![1]!)
        .digest('hex');
    const exists = async (m: string) =>
      (
        await h.database.db
          .select({ id: authChallenges.id })
          .from(authChallenges)
          .where(eq(authChallenges.secretHash, hashOf(m)))
      ).length === 1;
    expect(await exists(old.message)).toBe(true);
    expect(await pruneAuthChallenges(h.database.db, h.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await exists(old.message)).toBe(false);
    expect(await exists(fresh.message)).toBe(true);
    // The fresh one still signs in.
    expect((await ok(h.call('hub_metamaskRegister', fresh))).created).toBe(true);
  });

  it('signs in a smart-contract wallet (EIP-1271) through the chain', async () => {
    const ownerKey = privateKeyToAccount(generatePrivateKey());
    const { wallet, pub } = chainClients(localnet.url);
    const hash = await wallet.deployContract({
      abi: WALLET_1271_ABI,
      bytecode: fixtureBytecode('test-1271-wallet.sol', 'Test1271Wallet'),
      args: [ownerKey.address],
    });
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const contract = receipt.contractAddress!;
    const { message } = await nonce({ address: contract });
    // The owner's key signs; the contract says it is valid for itself.
    const signature = await ownerKey.signMessage({ message });
    const res = await ok(h.call('hub_metamaskRegister', { message, signature }));
    expect(res.created).toBe(true);
    const profile = await ok(h.call('hub_getUserProfile', {}, { token: res.token }));
    expect(profile.oauth).toContainEqual({ provider: 'wallet', email: contract.toLowerCase() });
    // A stranger's signature is not valid for the contract.
    const stranger = privateKeyToAccount(generatePrivateKey());
    const next = await nonce({ address: contract });
    expect(
      await codeOf(
        h.call('hub_metamaskRegister', {
          message: next.message,
          signature: await stranger.signMessage({ message: next.message }),
        }),
      ),
    ).toBe(ERROR_CODES.SIWE_INVALID);
  });
});

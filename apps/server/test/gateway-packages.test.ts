/**
 * Packages as the gateway spends them (real gateway, real Hardhat node, each test database): a purchase reaches the
 * gateway as soon as hub_buyPackage answers (tier and RUs), real calls drain the package that expires first and
 * move on to the next, the gateway refuses at zero, and pay-as-you-go then bills every further RU exactly.
 */
import { randomUUID } from 'node:crypto';
import { accounts, apiKeys, ruPackages } from '@rpc/db';
import { type TChain, type TLocalnet } from '@rpc/gateway';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalInvalidationChannel } from '../src/gateway/local-invalidation';
import { startDbGateway, type TDbGateway } from '../src/gateway/start-db-gateway';
import { ledgerBalance } from '../src/services/ledger/append-ru-ledger';
import { loadSkuCatalogue, type TSkuCatalogue } from '../src/services/wallet/sku-catalogue';
import { ledgerWalletCents, postMoney } from '../src/services/wallet/post-money';
import { TEST_DATABASES } from './helpers/databases';
import { startTestLocalnet } from './helpers/localnet';
import { createHarness, type THarness } from './helpers/harness';

const GIFT = 50;

/** The real catalogue's shapes at tiny sizes, so a few calls drain a package. */
function tinyCatalogue(): TSkuCatalogue {
  const real = loadSkuCatalogue();
  const base = real.skus.find((s) => s.id === 'standard-100m')!;
  const payg = real.skus.find((s) => s.id === 'payg')!;
  return {
    ...real,
    version: 'test-tiny',
    skus: [
      { ...base, id: 'tiny-short', ru: 100, priceCents: 100, validityDays: 10, tier: 'elementary' },
      { ...base, id: 'tiny-long', ru: 100, priceCents: 100, validityDays: 20, tier: 'elementary' },
      // one cent per RU, no arrears: the wallet is the limit
      { ...payg, paygCentsPerMillionRu: 1_000_000, arrearsLimitCents: 0 },
    ],
  };
}

let localnet: TLocalnet;
let chains: TChain[];
beforeAll(async () => {
  ({ localnet, chains } = await startTestLocalnet());
});
afterAll(async () => {
  await localnet?.stop();
});

describe.each(TEST_DATABASES)('packages through the gateway on $name', ({ open }) => {
  let h: THarness;
  let gw: TDbGateway;
  beforeAll(async () => {
    h = await createHarness(open, {
      keyEvents: new LocalInvalidationChannel(),
      chains,
      skus: tinyCatalogue(),
      env: { REGISTER_GIFT_RU: GIFT },
    });
    gw = await startDbGateway({
      deps: h.server.deps,
      port: 0,
      host: '127.0.0.1',
      flushIntervalMs: 60_000, // flushed by hand
      healthCheckIntervalMs: 60_000,
      refreshIntervalMs: 60_000, // nothing arrives by the periodic pass: only through the key change
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await h?.close();
  });

  async function call(url: string) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    });
    return res.status;
  }

  /** n calls of eth_blockNumber (10 RU each), then the usage flush; returns how many were answered. */
  async function spend(url: string, n: number) {
    let ok = 0;
    for (let i = 0; i < n; i++) if ((await call(url)) === 200) ok += 1;
    await gw.gateway.flushUsage();
    return ok;
  }

  async function packagesLeft(accountId: string) {
    const rows = await h.database.db
      .select()
      .from(ruPackages)
      .where(eq(ruPackages.accountId, accountId))
      .orderBy(ruPackages.createdAt);
    return rows.map((p) => [p.skuId, p.ruTotal - p.ruUsed, p.status]);
  }

  it('spends the package that expires first, then the next, then the gift, refuses at zero, then bills pay-as-you-go', async () => {
    const s = await h.signUp();
    const made = await h.call('hub_generateApiKey', { name: 'k' }, { token: s.token });
    const [key] = await h.database.db
      .select({ accountId: apiKeys.accountId, key: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.id, made.result!.keyId));
    const accountId = key!.accountId;
    const url = `${gw.url}/v1/localnet/${made.result!.key}`;
    await h.database.db.transaction((tx) =>
      postMoney(tx, { accountId, delta: 500, kind: 'deposit', ref: 't', at: h.clock.now() }),
    );

    expect(gw.keys.get(made.result!.key)?.tier.reqPerSec).toBe(20); // free
    for (const skuId of ['tiny-long', 'tiny-short']) {
      h.clock.advance(1);
      const bought = await h.call(
        'hub_buyPackage',
        { skuId, idempotencyKey: randomUUID() },
        { token: s.token },
      );
      expect(bought.ok).toBe(true);
    }
    // When hub_buyPackage has answered, this gateway already serves the new tier and RUs.
    expect(gw.keys.get(made.result!.key)?.tier.reqPerSec).toBe(1000); // elementary
    expect(gw.balance.get(accountId)).toBe(GIFT + 200);

    expect(await spend(url, 12)).toBe(12); // 120 RU: tiny-short (100) and 20 of tiny-long
    expect(await packagesLeft(accountId)).toEqual([
      ['register-gift', 50, 'active'],
      ['tiny-long', 80, 'active'],
      ['tiny-short', 0, 'exhausted'],
    ]);
    // 13 more: 80 + 50 = 130 RU are left, so all 13 are served and everything is spent.
    expect(await spend(url, 13)).toBe(13);
    expect(await spend(url, 2)).toBe(0); // refused at zero, nothing billed
    expect(await packagesLeft(accountId)).toEqual([
      ['register-gift', 0, 'exhausted'],
      ['tiny-long', 0, 'exhausted'],
      ['tiny-short', 0, 'exhausted'],
    ]);

    const payg = await h.call(
      'hub_buyPackage',
      { skuId: 'payg', idempotencyKey: randomUUID() },
      { token: s.token },
    );
    expect(payg.ok).toBe(true);
    // $3 left at one cent per RU: 300 RU, 30 calls; the 31st is refused.
    expect(gw.balance.get(accountId)).toBe(300);
    expect(await spend(url, 31)).toBe(30);
    const [a] = await h.database.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(a!.walletCents).toBe(0);
    expect(a!.ruBalance).toBe(0);
    expect(await ledgerWalletCents(h.database.db, accountId)).toBe(0);
    expect(await ledgerBalance(h.database.db, accountId)).toBe(0);
  });
});

/**
 * npm run bench:billing — purchases from the wallet per second on PostgreSQL: against one wallet (every purchase
 * waits for the account row lock) and across 1,000 wallets, p50/p99 per purchase, at several concurrencies. Each
 * cell sits beside a reference measured in the same run on the same pool: the smallest transaction that does what a
 * purchase must at least do (lock the account row, move its wallet), so the ratio says what the rest costs.
 *
 * What is measured is the purchase itself (services/wallet/purchase-package.ts in one transaction: lock, request
 * key, quote, package, purchase, money and RU ledger entries, reconcile, tier, notice), in-process: no HTTP, no
 * session check (those are the API's cost, measured by the other benches).
 *
 * Options (env): PURCHASES per cell (2000), CONCURRENCY ("1,16,64"), WALLETS (1000), BENCH_PG_ADMIN_URL,
 * BENCH_WRITE_DOC=0 to print only.
 */
import { randomUUID } from 'node:crypto';
import { accounts, type TDatabase } from '@rpc/db';
import { eq, sql } from 'drizzle-orm';
import { purchasePackage } from '../apps/server/src/services/wallet/purchase-package';
import { ledgerWalletCents, postMoney } from '../apps/server/src/services/wallet/post-money';
import { findSku, loadSkuCatalogue } from '../apps/server/src/services/wallet/sku-catalogue';
import { machine, writeBenchSection } from './bench-doc';
import { openBenchDatabase } from './reports-db';

const PURCHASES = Number(process.env.PURCHASES ?? 2000);
const CONCURRENCY = (process.env.CONCURRENCY ?? '1,16,64').split(',').map(Number);
const WALLETS = Number(process.env.WALLETS ?? 1000);
const WRITE_DOC = process.env.BENCH_WRITE_DOC !== '0';

type TCell = { perSecond: number; p50: number; p99: number; max: number };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs `n` operations with `concurrency` in flight; latency of each in ms. */
async function drive(
  n: number,
  concurrency: number,
  op: (i: number) => Promise<void>,
): Promise<TCell> {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        await op(i);
        times.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    perSecond: n / seconds,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times[times.length - 1] ?? 0,
  };
}

async function newAccounts(db: TDatabase, n: number, cents: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 500) {
    const rows = await db
      .insert(accounts)
      .values(
        Array.from({ length: Math.min(500, n - i) }, (_, j) => ({
          kind: 'personal' as const,
          name: `bench-${i + j}`,
        })),
      )
      .returning({ id: accounts.id });
    ids.push(...rows.map((r) => r.id));
  }
  for (const id of ids)
    await db.transaction((tx) =>
      postMoney(tx, { accountId: id, delta: cents, kind: 'deposit', ref: 'bench', at: Date.now() }),
    );
  return ids;
}

async function main() {
  const bench = await openBenchDatabase('postgres');
  const db = bench.opened.db;
  const catalogue = loadSkuCatalogue();
  const sku = { ...findSku(catalogue, 'standard-100m')!, priceCents: 1 };
  const rows: string[] = [];
  try {
    for (const concurrency of CONCURRENCY) {
      for (const spread of ['one wallet', `${WALLETS} wallets`] as const) {
        const wallets = await newAccounts(db, spread === 'one wallet' ? 1 : WALLETS, PURCHASES * 2);
        const pick = (i: number) => wallets[i % wallets.length]!;
        const purchase = await drive(PURCHASES, concurrency, async (i) => {
          await db.transaction((tx) =>
            purchasePackage(tx, {
              accountId: pick(i),
              userId: null,
              sku,
              catalogueVersion: catalogue.version,
              requestKey: `bench:${randomUUID()}`,
              reason: 'purchase',
              autoRenew: false,
              useDiscount: false,
              now: Date.now(),
            }),
          );
        });
        const reference = await drive(PURCHASES, concurrency, async (i) => {
          await db.transaction(async (tx) => {
            await tx
              .select({ id: accounts.id })
              .from(accounts)
              .where(eq(accounts.id, pick(i)))
              .for('update');
            await tx
              .update(accounts)
              .set({ walletCents: sql`${accounts.walletCents} - 1` })
              .where(eq(accounts.id, pick(i)));
          });
        });
        // Exactness after the run: every wallet's cache is its ledger (the reference moved the cache alone, by
        // exactly PURCHASES cents in all, which is added back here).
        let cached = 0;
        let ledger = 0;
        for (const id of wallets) {
          const [a] = await db
            .select({ c: accounts.walletCents })
            .from(accounts)
            .where(eq(accounts.id, id));
          cached += a!.c;
          ledger += await ledgerWalletCents(db, id);
        }
        if (cached + PURCHASES !== ledger)
          throw new Error(`wallet cache ${cached + PURCHASES} ≠ ledger ${ledger}`);
        const line = `| ${spread} | ${concurrency} | ${purchase.perSecond.toFixed(0)} | ${purchase.p50.toFixed(1)} | ${purchase.p99.toFixed(1)} | ${reference.perSecond.toFixed(0)} | ${reference.p50.toFixed(2)} | ${reference.p99.toFixed(2)} | ${((purchase.perSecond / reference.perSecond) * 100).toFixed(0)}% |`;
        console.log(line);
        rows.push(line);
      }
    }
  } finally {
    await bench.destroy();
  }
  const section = `## Billing (\`npm run bench:billing\`)

${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, PostgreSQL (${bench.where}, pool of 10), ${PURCHASES} purchases per cell, in-process
(services/wallet/purchase-package.ts in one transaction, no HTTP). Reference: the smallest transaction a purchase
must at least run (lock the account row, move its wallet), same pool, same run. Machine: ${machine()}.

| wallets | in flight | purchases/s | p50 ms | p99 ms | reference/s | ref p50 ms | ref p99 ms | purchase / reference |
| --- | --: | --: | --: | --: | --: | --: | --: | --: |
${rows.join('\n')}

Every purchase's wallet cache was checked against its ledger after each cell.
`;
  console.log(section);
  if (WRITE_DOC) await writeBenchSection('billing', section);
}

await main();

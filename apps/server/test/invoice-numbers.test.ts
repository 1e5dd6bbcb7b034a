/**
 * Invoice numbers on each test database: INV-<year>-<seq> per account, 1..N without gaps or duplicates whatever
 * fails or runs at once, a rolled-back purchase taking its number with it, and a new count every UTC year.
 */
import { randomUUID } from 'node:crypto';
import { ERROR_CODES } from '@rpc/contract';
import { invoiceCounters, invoices, purchases, type TDatabase } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueInvoice } from '../src/services/invoices/issue-invoice';
import { purchasePackage } from '../src/services/wallet/purchase-package';
import { findSku } from '../src/services/wallet/sku-catalogue';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, digest, type THarness } from './helpers/harness';
import { invoiceTestKit } from './helpers/invoices';

describe.each(TEST_DATABASES)('invoice numbers on $name', ({ open }) => {
  let h: THarness;
  let db: TDatabase;
  const kit = invoiceTestKit(() => h);
  beforeAll(async () => {
    h = await createHarness(open);
    db = h.database.db;
  });
  afterAll(async () => {
    await h?.close();
  });

  const year = () => new Date(h.clock.now()).getUTCFullYear();

  async function seqs(accountId: string, y = year()) {
    const rows = await db
      .select({ seq: invoices.seq, number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), eq(invoices.year, y)));
    for (const r of rows) expect(r.number).toBe(`INV-${y}-${String(r.seq).padStart(6, '0')}`);
    return rows.map((r) => r.seq).sort((a, b) => a - b);
  }

  const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  it('counts 1..N without gaps or duplicates through refusals, retries and parallel purchases', async () => {
    const u = await kit.user();
    await kit.credit(u.accountId, 4900 * 20);
    for (let i = 0; i < 8; i++) {
      await kit.buy(u.token);
      // A purchase refused after the account was locked (its price moved) uses no number.
      const refused = await h.call(
        'hub_buyPackage',
        { skuId: 'standard-100m', idempotencyKey: randomUUID(), expectedPayCents: 1 },
        { token: u.token },
      );
      expect(refused.error?.code).toBe(ERROR_CODES.PRICE_CHANGED);
    }
    // A retried request is the same purchase and the same invoice.
    const params = { skuId: 'standard-100m', idempotencyKey: randomUUID() };
    const first = await h.call('hub_buyPackage', params, { token: u.token });
    const again = await h.call('hub_buyPackage', params, { token: u.token });
    expect(again.result!.purchase.id).toBe(first.result!.purchase.id);
    // Purchases at once: the account row and the counter row make them take turns.
    const parallel = await Promise.all(
      Array.from({ length: 6 }, () =>
        h.call(
          'hub_buyPackage',
          { skuId: 'standard-100m', idempotencyKey: randomUUID() },
          {
            token: u.token,
          },
        ),
      ),
    );
    expect(parallel.every((r) => r.ok)).toBe(true);

    expect(await seqs(u.accountId)).toEqual(oneTo(15));
    const [counter] = await db
      .select()
      .from(invoiceCounters)
      .where(eq(invoiceCounters.accountId, u.accountId));
    expect(counter).toMatchObject({ year: year(), lastSeq: 15 });
    // Every invoice is one purchase's, and every paid purchase has one.
    const paid = await db.select().from(purchases).where(eq(purchases.accountId, u.accountId));
    const issued = await db.select().from(invoices).where(eq(invoices.accountId, u.accountId));
    expect(issued.map((i) => i.purchaseId).sort()).toEqual(
      paid
        .filter((p) => p.paidCents > 0)
        .map((p) => p.id)
        .sort(),
    );
  });

  it('leaves no hole when the purchase rolls back after its invoice was issued', async () => {
    const u = await kit.user();
    await kit.credit(u.accountId, 20_000);
    await kit.buy(u.token);
    const sku = findSku(h.server.deps.skus, 'standard-100m')!;
    const failed = db.transaction(async (tx) => {
      const outcome = await purchasePackage(tx, {
        accountId: u.accountId,
        userId: u.userId,
        sku,
        catalogueVersion: h.server.deps.skus.version,
        requestKey: `test:${randomUUID()}`,
        reason: 'purchase',
        autoRenew: false,
        useDiscount: true,
        seller: h.server.deps.config.invoiceSeller,
        now: h.clock.now(),
      });
      expect(outcome.purchase.paidCents).toBe(4900);
      throw new Error('something after the purchase failed');
    });
    await expect(failed).rejects.toThrow('something after the purchase failed');
    expect(await seqs(u.accountId)).toEqual([1]);
    await kit.buy(u.token);
    expect(await seqs(u.accountId)).toEqual([1, 2]);
  });

  it('issues an invoice once per purchase, however often it is asked', async () => {
    const u = await kit.user();
    await kit.credit(u.accountId, 10_000);
    const bought = await kit.buy(u.token);
    const [purchase] = await db.select().from(purchases).where(eq(purchases.id, bought.id));
    const again = await db.transaction((tx) =>
      issueInvoice(tx, {
        purchase: purchase!,
        seller: h.server.deps.config.invoiceSeller,
        now: h.clock.now(),
      }),
    );
    expect(again!.seq).toBe(1);
    expect(await seqs(u.accountId)).toEqual([1]);
    // Nothing paid, no invoice and no number.
    expect(
      await db.transaction((tx) =>
        issueInvoice(tx, {
          purchase: { ...purchase!, id: randomUUID(), paidCents: 0 },
          seller: h.server.deps.config.invoiceSeller,
          now: 0,
        }),
      ),
    ).toBeNull();
  });

  // Last: it moves the shared clock past the new year (sessions made before then have expired).
  it('starts again at 1 in a new UTC year, leaving last year’s numbers as they were', async () => {
    const u = await kit.user();
    await kit.credit(u.accountId, 20_000);
    await kit.buy(u.token);
    await kit.buy(u.token);
    const before = year();
    h.clock.advance(Date.UTC(before + 1, 0, 1, 0, 0, 1) - h.clock.now());
    expect(year()).toBe(before + 1);
    const login = await h.call('hub_login', { email: u.email, password: digest(u.password) });
    const token = login.result!.token;
    await kit.buy(token);
    expect(await seqs(u.accountId, before)).toEqual([1, 2]);
    expect(await seqs(u.accountId)).toEqual([1]);
    const newest = (await kit.invoicesOf(token)).list[0]!;
    expect(newest.number).toBe(`INV-${before + 1}-000001`);
  });
});

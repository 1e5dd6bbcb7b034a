/** Paged history: purchases (hub_getViewUserPurchaseInfo) and packages (hub_getViewUsedInfo), SPEC §3 filters. */
import type { TParams, TResult } from '@rpc/contract';
import { purchases, ruPackages, type TExecutor } from '@rpc/db';
import { and, asc, count, desc, eq, gt, isNull, lte, or, type SQL } from 'drizzle-orm';
import { toPackage, toPurchase } from './package-rows';

export async function getPurchaseHistory(
  db: TExecutor,
  o: { accountId: string; params: TParams<'hub_getViewUserPurchaseInfo'> },
): Promise<TResult<'hub_getViewUserPurchaseInfo'>> {
  const p = o.params;
  const where = and(
    eq(purchases.accountId, o.accountId),
    p.channel === 'all' ? undefined : eq(purchases.channel, p.channel),
    p.packageType === 'all' ? undefined : eq(purchases.type, p.packageType),
  );
  const order = p.sort === 'asc' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(purchases)
      .where(where)
      .orderBy(order(purchases.createdAt), order(purchases.id))
      .limit(p.perPage)
      .offset((p.page - 1) * p.perPage),
    db.select({ n: count() }).from(purchases).where(where),
  ]);
  return { list: rows.map(toPurchase), total: total?.n ?? 0, page: p.page, perPage: p.perPage };
}

export async function getPackageHistory(
  db: TExecutor,
  o: { accountId: string; now: number; params: TParams<'hub_getViewUsedInfo'> },
): Promise<TResult<'hub_getViewUsedInfo'>> {
  const p = o.params;
  const at = new Date(o.now);
  // A package past its expiry the sweep has not reached yet counts as expired, as it is shown.
  const live = and(
    eq(ruPackages.status, 'active'),
    or(isNull(ruPackages.expiresAt), gt(ruPackages.expiresAt, at)),
  );
  const lapsed = and(eq(ruPackages.status, 'active'), lte(ruPackages.expiresAt, at));
  const byStatus: Record<string, SQL | undefined> = {
    all: undefined,
    active: live,
    expired: or(eq(ruPackages.status, 'expired'), lapsed),
    exhausted: eq(ruPackages.status, 'exhausted'),
    replaced: eq(ruPackages.status, 'replaced'),
  };
  const where = and(
    eq(ruPackages.accountId, o.accountId),
    p.packageType === 'all' ? undefined : eq(ruPackages.type, p.packageType),
    byStatus[p.status],
  );
  const order = p.sort === 'asc' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(ruPackages)
      .where(where)
      .orderBy(order(ruPackages.createdAt), order(ruPackages.id))
      .limit(p.perPage)
      .offset((p.page - 1) * p.perPage),
    db.select({ n: count() }).from(ruPackages).where(where),
  ]);
  return {
    list: rows.map((r) => toPackage(r, o.now)),
    total: total?.n ?? 0,
    page: p.page,
    perPage: p.perPage,
  };
}

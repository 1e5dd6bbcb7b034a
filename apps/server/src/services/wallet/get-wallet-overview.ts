/** hub_getUserWalletOverview: amount and arrears from the ledger's cache, RUs left and active packages. */
import { formatCents, type TWalletOverview } from '@rpc/contract';
import { accounts, ruPackages, type TExecutor } from '@rpc/db';
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { toPackage } from './package-rows';
import { activePayg } from './post-money';

export async function getWalletOverview(
  db: TExecutor,
  o: { accountId: string; now: number },
): Promise<TWalletOverview> {
  const [account] = await db
    .select({ walletCents: accounts.walletCents, tier: accounts.tier })
    .from(accounts)
    .where(eq(accounts.id, o.accountId));
  const rows = await db
    .select()
    .from(ruPackages)
    .where(
      and(
        eq(ruPackages.accountId, o.accountId),
        eq(ruPackages.status, 'active'),
        or(isNull(ruPackages.expiresAt), gt(ruPackages.expiresAt, new Date(o.now))),
      ),
    )
    .orderBy(sql`${ruPackages.expiresAt} asc nulls last`, asc(ruPackages.createdAt));
  const packages = rows.map((r) => toPackage(r, o.now));
  const wallet = account?.walletCents ?? 0;
  return {
    currency: 'USD',
    amount: formatCents(Math.max(wallet, 0)),
    amountCents: Math.max(wallet, 0),
    arrears: formatCents(Math.max(-wallet, 0)),
    arrearsCents: Math.max(-wallet, 0),
    ruLeft: packages.reduce((sum, p) => sum + p.ruLeft, 0),
    tier: account?.tier ?? 'free',
    isPaygActive: (await activePayg(db, o.accountId, o.now)) !== undefined,
    packages,
  };
}

/** hub_setUserDiscountCode / hub_getUserDiscountCodeDetail: one code per account at a time, used once. */
import { ERROR_CODES, type TDiscountDetail, type TParams } from '@rpc/contract';
import { accountDiscounts, discountCodes, type TExecutor } from '@rpc/db';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { RpcError } from '../../rpc/errors';
import type { TWalletCaller, TWalletDeps } from './wallet-caller';

async function detail(
  db: TExecutor,
  accountId: string,
  code: string,
): Promise<TDiscountDetail | null> {
  const [row] = await db
    .select({
      code: discountCodes.code,
      percentOff: discountCodes.percentOff,
      skuIds: discountCodes.skuIds,
      expiresAt: discountCodes.expiresAt,
      usedAt: accountDiscounts.usedAt,
    })
    .from(accountDiscounts)
    .innerJoin(discountCodes, eq(discountCodes.code, accountDiscounts.code))
    .where(and(eq(accountDiscounts.accountId, accountId), eq(accountDiscounts.code, code)));
  if (!row) return null;
  return {
    code: row.code,
    percentOff: row.percentOff,
    skuIds: row.skuIds,
    expiresAt: row.expiresAt?.getTime() ?? null,
    usedAt: row.usedAt?.getTime() ?? null,
  };
}

export async function setDiscountCode(
  deps: TWalletDeps,
  caller: TWalletCaller,
  params: TParams<'hub_setUserDiscountCode'>,
): Promise<TDiscountDetail> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [code] = await tx.select().from(discountCodes).where(eq(discountCodes.code, params.code));
    if (!code || (code.expiresAt && code.expiresAt.getTime() <= now))
      throw new RpcError(ERROR_CODES.DISCOUNT_CODE_INVALID);
    const [attached] = await tx
      .select()
      .from(accountDiscounts)
      .where(
        and(eq(accountDiscounts.accountId, caller.accountId), eq(accountDiscounts.code, code.code)),
      );
    if (attached?.usedAt) throw new RpcError(ERROR_CODES.DISCOUNT_CODE_USED);
    if (!attached) {
      // One unused code at a time: a new one replaces an unused earlier one.
      await tx
        .delete(accountDiscounts)
        .where(
          and(eq(accountDiscounts.accountId, caller.accountId), isNull(accountDiscounts.usedAt)),
        );
      await tx
        .insert(accountDiscounts)
        .values({ accountId: caller.accountId, code: code.code, attachedAt: new Date(now) })
        .onConflictDoNothing();
    }
    return (await detail(tx, caller.accountId, code.code))!;
  });
}

/** The unused code attached to the account, else the last one used, else null. */
export async function getDiscountCodeDetail(
  deps: Pick<TWalletDeps, 'db'>,
  caller: TWalletCaller,
): Promise<TDiscountDetail | null> {
  const [row] = await deps.db
    .select({ code: accountDiscounts.code })
    .from(accountDiscounts)
    .where(eq(accountDiscounts.accountId, caller.accountId))
    .orderBy(desc(isNull(accountDiscounts.usedAt)), desc(accountDiscounts.attachedAt))
    .limit(1);
  return row ? detail(deps.db, caller.accountId, row.code) : null;
}

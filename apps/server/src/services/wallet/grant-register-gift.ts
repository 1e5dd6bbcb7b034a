/**
 * The register gift: RUs credited in the sign-up transaction (ref = the user id, once per user) and held as a
 * free package that never expires, so usage is always spent from packages (it goes last: no expiry).
 */
import { ruPackages, type TExecutor } from '@rpc/db';
import { appendRuLedger } from '../ledger/append-ru-ledger';

export async function grantRegisterGift(
  tx: TExecutor,
  o: { accountId: string; userId: string; ru: number; at: number },
): Promise<boolean> {
  const isNew = await appendRuLedger(tx, {
    accountId: o.accountId,
    delta: o.ru,
    kind: 'register_gift',
    ref: o.userId,
    at: o.at,
  });
  if (!isNew) return false;
  await tx.insert(ruPackages).values({
    accountId: o.accountId,
    skuId: 'register-gift',
    skuVersion: 'register',
    type: 'free',
    name: { en: 'Welcome gift', zh: '注册赠送' },
    tier: 'free',
    ruTotal: o.ru,
    startsAt: new Date(o.at),
    createdAt: new Date(o.at),
  });
  return true;
}

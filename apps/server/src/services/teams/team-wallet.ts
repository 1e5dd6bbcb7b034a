/**
 * Moving a team's money to its owner's personal wallet: at disbanding (membership.ts) and afterwards, for money that
 * reaches the team late (settle-disbanded-teams.ts). Both lock the same two rows the same way and write the same pair
 * of ledger entries and notice.
 */
import { formatCents, renderServerNoticeText, type TServerNoticeKey } from '@rpc/contract';
import { NOTICE_TEXTS } from '@rpc/contract/notice-texts';
import { accounts, users, type TExecutor, type TNoticeRow } from '@rpc/db';
import { asc, eq, inArray } from 'drizzle-orm';
import { raiseNotice } from '../notices/raise-notice';
import { postMoney } from '../wallet/post-money';

/**
 * The team's and the owner's personal account rows, locked in id order (every money posting takes its account's
 * lock, so the balance cannot move between this read and the commit, and a usage batch locking both accounts cannot
 * deadlock with this). Answers the team's wallet as locked, or undefined when the user is gone.
 */
export async function lockTeamAndOwner(
  tx: TExecutor,
  teamId: string,
  ownerUserId: string,
): Promise<{ cents: number; ownerAccountId: string } | undefined> {
  const [owner] = await tx
    .select({ accountId: users.personalAccountId })
    .from(users)
    .where(eq(users.id, ownerUserId));
  if (!owner) return undefined;
  const rows = await tx
    .select({ id: accounts.id, walletCents: accounts.walletCents })
    .from(accounts)
    .where(inArray(accounts.id, [teamId, owner.accountId]))
    .orderBy(asc(accounts.id))
    .for('update');
  const cents = rows.find((r) => r.id === teamId)?.walletCents ?? 0;
  return { cents, ownerAccountId: owner.accountId };
}

const TRANSFER_NOTICE: Record<TServerNoticeKey, 'normal_success' | 'normal_warn'> = {
  team_balance_moved: 'normal_success',
  team_late_credit_moved: 'normal_success',
  team_late_usage_charged: 'normal_warn',
};

/**
 * Moves `cents` (either sign: money or arrears) from the team to the owner's personal account by two money-ledger
 * entries of kind team_transfer with the same `ref`, and tells the owner with the catalogued text `textKey` (shown in
 * the reader's language). Call with both rows locked (lockTeamAndOwner). Answers the notices raised.
 */
export async function moveTeamBalance(
  tx: TExecutor,
  o: {
    teamId: string;
    teamName: string;
    ownerUserId: string;
    ownerAccountId: string;
    cents: number;
    ref: string;
    textKey: TServerNoticeKey;
    at: number;
  },
): Promise<TNoticeRow[]> {
  const entry = { kind: 'team_transfer' as const, ref: o.ref, at: o.at };
  const out = await postMoney(tx, { ...entry, accountId: o.teamId, delta: -o.cents });
  const into = await postMoney(tx, { ...entry, accountId: o.ownerAccountId, delta: o.cents });
  // Half a move would create or destroy money: a ref met before rolls the whole transaction back.
  if (!out || !into) throw new Error(`team transfer ${o.ref} was already written`);
  const expand = {
    textKey: o.textKey,
    usdAmount: formatCents(Math.abs(o.cents)),
    teamId: o.teamId,
    teamName: o.teamName,
  };
  // The stored title and content are the catalogue's English wording; readers get it in their language.
  const text = renderServerNoticeText(o.textKey, expand, {
    lang: 'en',
    texts: NOTICE_TEXTS.en,
    formatDateTime: (ms) => new Date(ms).toISOString(),
  });
  return raiseNotice({
    db: tx,
    at: o.at,
    type: TRANSFER_NOTICE[o.textKey],
    userId: o.ownerUserId,
    accountId: o.ownerAccountId,
    ...text,
    expand,
  });
}

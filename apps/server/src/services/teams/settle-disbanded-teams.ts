/**
 * The settling sweep of disbanded teams (docs/decisions/teams.md, a periodic job, also called by tests with a moved
 * clock). Disbanding moves the team's money to the owner, but money can still reach the team afterwards: a deposit
 * or card payment confirmed late, and the gateways' last usage batches, billed after the balance moved (arrears).
 * Once the disbanding is older than the settling delay, whatever the team's wallet holds, either sign, moves to the
 * personal account of the owner who disbanded it (the `team.disband` audit line's actor), with a notice. Idempotent:
 * the move re-reads the balance under both rows' locks, so a second sweep, at once or later, finds nothing to move.
 */
import { accounts, moneyLedger, type TNoticeRow } from '@rpc/db';
import { and, asc, count, eq, gt, gte, isNotNull, like, lte, ne, sql } from 'drizzle-orm';
import type { TDeps } from '../../rpc/context';
import { publishAccountChange } from '../wallet/account-tier';
import { lockTeamAndOwner, moveTeamBalance } from './team-wallet';

/**
 * How long after disbanding the team's wallet is settled. Gateways flush usage every 5 s (UsageAggregator's
 * flushIntervalMs, apps/gateway/src/usage.ts) and drop a deleted key on its key-change message, or when that message
 * was lost at their next 30 s refresh pass (start-db-gateway.ts); calls admitted until then are billed by the next
 * flush. Two minutes is past both with room for a failed flush retried, so the last batches are usually in and the
 * owner gets one move and one notice. Later stragglers (a flush retried through a database outage, a crash journal
 * replayed on restart, a deposit confirmed days later) are moved by a later pass: each move has its own ref.
 */
export const DISBANDED_SETTLE_DELAY_MS = 2 * 60_000;

/**
 * Teams disbanded before this are not settled: until 8f1c77d (2026-12-05 03:59 UTC) a team could be disbanded in
 * arrears (the debt was written off) and kept what was left in its wallet, so settling those now would charge or
 * credit their former owners for something months old, under a notice about "the last calls". An operator moves
 * such money with a ledger adjustment, if at all.
 */
export const DISBANDED_SETTLE_SINCE_MS = Date.parse('2026-12-05T04:00:00Z');

/** Teams read per query; a pass pages through every due team by id. */
const PAGE = 100;

export type TSettleDisbandedDeps = Pick<
  TDeps,
  'db' | 'clock' | 'noticeBus' | 'keyEvents' | 'logger'
>;

export type TSettleDisbandedResult = {
  /** teams whose wallet moved */
  settled: number;
  /** cents moved to owners (money that arrived late) */
  creditedCents: number;
  /** cents of arrears charged to owners (usage billed late) */
  chargedCents: number;
};

/**
 * Who disbanded the team: the owner then (deleteTeam writes the line after checking the role, once per team).
 * `accounts.id` written out: drizzle prints a column in a select list unqualified, and "id" would be the log's.
 */
const ownerAtDisband = sql<string | null>`(select l.actor_user_id from team_audit_logs l
  where l.account_id = accounts.id and l.action = 'team.disband' order by l.id limit 1)`;

export async function settleDisbandedTeams(
  deps: TSettleDisbandedDeps,
): Promise<TSettleDisbandedResult> {
  const now = deps.clock.now();
  const result: TSettleDisbandedResult = { settled: 0, creditedCents: 0, chargedCents: 0 };
  // Paged by id (keyset): a team left as it is (no owner to settle with, or failing) does not hide those after it.
  let after: string | undefined;
  for (;;) {
    const due = await deps.db
      .select({ id: accounts.id, name: accounts.name, ownerUserId: ownerAtDisband })
      .from(accounts)
      .where(
        and(
          // As the partial index's predicate says it, so every plan can use that index.
          isNotNull(accounts.disbandedAt),
          lte(accounts.disbandedAt, new Date(now - DISBANDED_SETTLE_DELAY_MS)),
          gte(accounts.disbandedAt, new Date(DISBANDED_SETTLE_SINCE_MS)),
          eq(accounts.kind, 'team'),
          ne(accounts.walletCents, 0),
          after === undefined ? undefined : gt(accounts.id, after),
        ),
      )
      .orderBy(asc(accounts.id))
      .limit(PAGE);
    for (const team of due) {
      // No disbanding line (a team not disbanded by deleteTeam): nobody to settle with; an operator adjusts.
      if (!team.ownerUserId) continue;
      try {
        const cents = await settleTeam(deps, { ...team, ownerUserId: team.ownerUserId }, now);
        if (cents === 0) continue;
        result.settled += 1;
        if (cents > 0) result.creditedCents += cents;
        else result.chargedCents -= cents;
      } catch (err) {
        // One team's failure must not hold up the others.
        deps.logger.error({ err, teamId: team.id }, 'settling a disbanded team failed');
      }
    }
    if (due.length < PAGE) return result;
    after = due[due.length - 1]!.id;
  }
}

/** Moves the team's whole balance to the owner's personal account; answers the cents moved (0: nothing to move). */
async function settleTeam(
  deps: TSettleDisbandedDeps,
  team: { id: string; name: string; ownerUserId: string },
  now: number,
): Promise<number> {
  const moved = await deps.db.transaction(async (tx) => {
    // Both rows locked in id order, as disbanding and usage batches lock them; the balance read under the lock is
    // the one moved, so a sweep running at the same time waits here and then finds zero.
    const wallet = await lockTeamAndOwner(tx, team.id, team.ownerUserId);
    if (!wallet || wallet.cents === 0) return undefined;
    // The n-th settling of this team: counted under the team's lock, so every move has a ref of its own.
    const [done] = await tx
      .select({ n: count() })
      .from(moneyLedger)
      .where(
        and(
          eq(moneyLedger.accountId, team.id),
          eq(moneyLedger.kind, 'team_transfer'),
          like(moneyLedger.ref, `disband-settle:${team.id}:%`),
        ),
      );
    const notices: TNoticeRow[] = await moveTeamBalance(tx, {
      teamId: team.id,
      teamName: team.name,
      ownerUserId: team.ownerUserId,
      ownerAccountId: wallet.ownerAccountId,
      cents: wallet.cents,
      ref: `disband-settle:${team.id}:${(done?.n ?? 0) + 1}`,
      textKey: wallet.cents > 0 ? 'team_late_credit_moved' : 'team_late_usage_charged',
      at: now,
    });
    return { cents: wallet.cents, ownerAccountId: wallet.ownerAccountId, notices };
  });
  if (!moved) return 0;
  deps.noticeBus.push(moved.notices);
  // The owner's pay-as-you-go allowance moved with the wallet: gateways re-read the account's keys.
  await publishAccountChange(deps, moved.ownerAccountId);
  return moved.cents;
}

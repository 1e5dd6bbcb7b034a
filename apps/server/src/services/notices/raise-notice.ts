/** raiseNotice: the one way any part of the server creates a notice (stored now, pushed through the bus). */
import type { TNoticeType } from '@rpc/contract';
import { accountMembers, accounts, notices, type TExecutor, type TNoticeRow } from '@rpc/db';
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { TNoticeBus } from './notice-bus';

export type TRaiseNoticeOptions = {
  db: TExecutor;
  /**
   * Deliver through this bus right away. Leave it out inside a transaction and push the returned rows after
   * the commit, so no socket ever sees a notice that was rolled back.
   */
  bus?: TNoticeBus;
  at: number;
  type: TNoticeType;
  /** Server-side English text: shown for types SPEC §8 names and notices before the cutoff. */
  title: string;
  content: string;
  expand?: Record<string, unknown>;
  /** The recipient; when absent, every owner and admin of `accountId` receives it. */
  userId?: string;
  /** The account the notice concerns. */
  accountId?: string;
  /** Skip when a notice of this type for this account was raised in the last `dedupeMs` (all processes). */
  dedupeMs?: number;
};

export async function raiseNotice(o: TRaiseNoticeOptions): Promise<TNoticeRow[]> {
  let teamId: string | null = null;
  let recipients: string[] = o.userId ? [o.userId] : [];
  if (o.accountId) {
    if (o.dedupeMs !== undefined) {
      const [recent] = await o.db
        .select({ id: notices.id })
        .from(notices)
        .where(
          and(
            eq(notices.accountId, o.accountId),
            eq(notices.type, o.type),
            gt(notices.createdAt, new Date(o.at - o.dedupeMs)),
          ),
        )
        .limit(1);
      if (recent) return [];
    }
    const [account] = await o.db
      .select({ kind: accounts.kind })
      .from(accounts)
      .where(eq(accounts.id, o.accountId));
    if (!account) return [];
    if (account.kind === 'team') teamId = o.accountId;
    if (!o.userId) {
      const members = await o.db
        .select({ userId: accountMembers.userId })
        .from(accountMembers)
        .where(
          and(
            eq(accountMembers.accountId, o.accountId),
            inArray(accountMembers.role, ['owner', 'admin']),
          ),
        );
      recipients = members.map((m) => m.userId);
    }
  }
  if (recipients.length === 0) return [];
  const rows = await o.db
    .insert(notices)
    .values(
      recipients.map((userId) => ({
        userId,
        accountId: o.accountId ?? null,
        teamId,
        type: o.type,
        title: o.title,
        content: o.content,
        expand: o.expand ?? {},
        createdAt: new Date(o.at),
      })),
    )
    .returning();
  o.bus?.push(rows);
  return rows;
}

/** Reads shared by the team services: a team as one member sees it, and display names. */
import type { TTeam } from '@rpc/contract';
import { accountMembers, accounts, users, type TExecutor } from '@rpc/db';
import { and, asc, count, eq, isNull, sql, type SQL } from 'drizzle-orm';

/** How the console names a user to others: the nickname, else the e-mail address. */
export const displayName = sql<string>`coalesce(nullif(${users.nickname}, ''), ${users.email}, '')`;

const memberCount =
  sql<number>`(select count(*) from account_members m where m.account_id = ${accounts.id})`.mapWith(
    Number,
  );
const ownerName = sql<string>`coalesce((select coalesce(nullif(u.nickname, ''), u.email, '')
  from account_members m join users u on u.id = m.user_id
  where m.account_id = ${accounts.id} and m.role = 'owner' limit 1), '')`;

const teamColumns = {
  teamId: accounts.id,
  teamName: accounts.name,
  note: accounts.note,
  role: accountMembers.role,
  memberCount,
  ownerName,
  createdAt: accounts.createdAt,
  joinedAt: accountMembers.createdAt,
};

function myTeams(userId: string): SQL | undefined {
  return and(
    eq(accountMembers.userId, userId),
    eq(accounts.kind, 'team'),
    isNull(accounts.disbandedAt),
  );
}

function toTeam(r: {
  teamId: string;
  teamName: string;
  note: string;
  role: TTeam['role'];
  memberCount: number;
  ownerName: string;
  createdAt: Date;
  joinedAt: Date;
}): TTeam {
  return { ...r, createdAt: r.createdAt.getTime(), joinedAt: r.joinedAt.getTime() };
}

/** The teams a user belongs to, oldest membership first. */
export async function listTeamsOf(
  db: TExecutor,
  userId: string,
  page: { page: number; perPage: number },
): Promise<{ list: TTeam[]; total: number }> {
  const rows = await db
    .select(teamColumns)
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(myTeams(userId))
    .orderBy(asc(accountMembers.createdAt), asc(accounts.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage);
  const [total] = await db
    .select({ n: count() })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(myTeams(userId));
  return { list: rows.map(toTeam), total: total?.n ?? 0 };
}

/** One team as `userId` (a member) sees it; undefined when the user is not a member. */
export async function teamOf(
  db: TExecutor,
  userId: string,
  teamId: string,
): Promise<TTeam | undefined> {
  const [row] = await db
    .select(teamColumns)
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(and(myTeams(userId), eq(accounts.id, teamId)))
    .limit(1);
  return row ? toTeam(row) : undefined;
}

export async function userName(db: TExecutor, userId: string): Promise<string> {
  const [row] = await db.select({ name: displayName }).from(users).where(eq(users.id, userId));
  return row?.name ?? '';
}

export async function teamName(db: TExecutor, teamId: string): Promise<string> {
  const [row] = await db
    .select({ name: accounts.name })
    .from(accounts)
    .where(eq(accounts.id, teamId));
  return row?.name ?? '';
}

import { ERROR_CODES, type TResult } from '@rpc/contract';
import { accountMembers, accounts, apiKeys, userIdentities, users } from '@rpc/db';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { TAuth, TRpcContext } from '../../rpc/context';
import { RpcError } from '../../rpc/errors';
import { hasPendingInvite } from '../teams/answer-invite';
import { WALLET_PROVIDER } from '../sign-in/wallet-sign-in';

type TOptions = Pick<TRpcContext, 'db' | 'clock'> & { auth: TAuth };

export async function getUserProfile(o: TOptions): Promise<TResult<'hub_getUserProfile'>> {
  const [user] = await o.db.select().from(users).where(eq(users.id, o.auth.userId)).limit(1);
  if (!user) throw new RpcError(ERROR_CODES.SESSION_MISSING);
  const teams = await o.db
    .select({ teamId: accounts.id, teamName: accounts.name, role: accountMembers.role })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(
      and(
        eq(accountMembers.userId, user.id),
        eq(accounts.kind, 'team'),
        isNull(accounts.disbandedAt),
      ),
    )
    .orderBy(asc(accountMembers.createdAt), asc(accounts.id));
  const [keys] = await o.db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, o.auth.account.id), isNull(apiKeys.deletedAt)));
  // The wallet is listed with provider 'wallet' and its address in the email field (the web reads it so).
  const identities = await o.db
    .select({
      provider: userIdentities.provider,
      subject: userIdentities.subject,
      email: userIdentities.email,
    })
    .from(userIdentities)
    .where(eq(userIdentities.userId, user.id))
    .orderBy(asc(userIdentities.createdAt));
  return {
    id: user.id,
    accountId: user.personalAccountId,
    email: user.email,
    nickname: user.nickname,
    avatar: user.avatar,
    totalApiKeys: keys?.n ?? 0,
    oauth: identities.map((i) => ({
      provider: i.provider,
      email: i.provider === WALLET_PROVIDER ? i.subject : i.email,
    })),
    mailStatus: user.mailConfirmedAt ? 1 : 0,
    initialize: user.initialized,
    rechargeTips: user.rechargeTips === 0 ? 0 : 1,
    isNoPassword: user.passwordHash === null,
    teamList: teams,
    hasTeam: teams.length > 0,
    hasInvite: await hasPendingInvite(o.db, user.id, o.clock.now()),
    userType: user.userType,
    acceptTerm: user.acceptTerm,
    language: user.language,
    createdAt: user.createdAt.getTime(),
  };
}

/**
 * The one way a user comes to exist: user row, personal account, owner membership, and the welcome gift with its
 * notice, in the caller's transaction. E-mail sign-up (register.ts) and the password-less sign-ups (wallet, third
 * party: sign-in/create-passwordless-user.ts) all go through it.
 */
import { accountMembers, accounts, users, type TDatabase } from '@rpc/db';

type TTransaction = Parameters<Parameters<TDatabase['transaction']>[0]>[0];
import { grantRegisterGift } from '../wallet/grant-register-gift';
import { raiseNotice } from '../notices/raise-notice';
import { insertTeam } from '../teams/teams';

export type TInsertUserOptions = {
  email: string | null;
  passwordHash: string | null;
  nickname: string;
  language: 'en' | 'zh';
  /** e-mail sign-up carries the terms checkbox, so it starts initialised; wallet and third party go to /first-login */
  initialized: boolean;
  /** hub_registerTeam: a team-type user whose first team gets the gift */
  team?: { name: string; ip: string };
  giftRu: number;
  at: number;
};

export async function insertUser(
  tx: TTransaction,
  o: TInsertUserOptions,
): Promise<{
  userId: string;
  accountId: string;
  notices: Awaited<ReturnType<typeof raiseNotice>>;
}> {
  const [account] = await tx
    .insert(accounts)
    .values({ kind: 'personal', name: o.nickname, createdAt: new Date(o.at) })
    .returning({ id: accounts.id });
  const [user] = await tx
    .insert(users)
    .values({
      email: o.email,
      passwordHash: o.passwordHash,
      nickname: o.nickname,
      language: o.language,
      initialized: o.initialized,
      acceptTerm: o.initialized,
      personalAccountId: account!.id,
      userType: o.team ? 'team' : 'user',
      createdAt: new Date(o.at),
      updatedAt: new Date(o.at),
    })
    .returning({ id: users.id });
  await tx.insert(accountMembers).values({
    accountId: account!.id,
    userId: user!.id,
    role: 'owner',
    createdAt: new Date(o.at),
  });
  const giftAccountId = o.team
    ? await insertTeam(tx, {
        userId: user!.id,
        ip: o.team.ip,
        name: o.team.name,
        note: '',
        at: o.at,
      })
    : account!.id;
  let notices: Awaited<ReturnType<typeof raiseNotice>> = [];
  if (o.giftRu > 0) {
    // ref = the user id: one gift per user, whatever retries happen.
    await grantRegisterGift(tx, {
      accountId: giftAccountId,
      userId: user!.id,
      ru: o.giftRu,
      at: o.at,
    });
    notices = await raiseNotice({
      db: tx,
      at: o.at,
      type: 'register_gift',
      userId: user!.id,
      accountId: giftAccountId,
      title: 'Welcome gift',
      content: `${o.giftRu.toLocaleString('en-US')} RU have been added to your account.`,
      expand: { amount: o.giftRu },
    });
  }
  return { userId: user!.id, accountId: account!.id, notices };
}

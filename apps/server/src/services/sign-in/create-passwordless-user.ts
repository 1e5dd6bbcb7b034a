/**
 * Accounts for people who proved a wallet or a third-party identity instead of an e-mail and password: the user
 * (no e-mail, no password, uninitialised, so the web sends them to /first-login), its personal account, membership
 * and welcome gift (insertUser) and the identity, in one transaction.
 */
import type { TLanguage } from '@rpc/contract';
import { userIdentities, users, type TExecutor, type TNoticeRow } from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../lib/db-errors';
import type { TRpcContext } from '../../rpc/context';
import { insertUser } from '../account/insert-user';

const MAX_NICKNAME = 32;

export type TNewIdentity = {
  /** 'wallet' or the OAuth provider id */
  provider: string;
  /** lowercased address for a wallet, the provider's stable subject otherwise */
  subject: string;
  email: string | null;
  displayName: string | null;
};

export type TCreatePasswordlessUserContext = Pick<TRpcContext, 'db' | 'clock' | 'config' | 'ip'> &
  Partial<Pick<TRpcContext, 'noticeBus'>>;

export type TCreatedPasswordlessUser = {
  userId: string;
  accountId: string;
  /** the welcome-gift notice, already pushed through `noticeBus` when the context has one */
  notices: TNoticeRow[];
  /** false when the identity was registered meanwhile (two sign-ups racing): that user is answered instead */
  created: boolean;
};

/** The nickname of a new passwordless user: the provider's display name, else the mailbox part of its address. */
export function passwordlessNickname(name: string | null, email: string | null): string {
  const fromName = name?.trim().replace(/\s+/g, ' ');
  const fromEmail = email?.split('@')[0]?.trim();
  return (fromName || fromEmail || 'user').slice(0, MAX_NICKNAME);
}

/**
 * Creates the user with its identity. When the (provider, subject) identity already exists (two registrations
 * racing: the unique index decides) nothing is created and its owner is answered with `created: false`.
 */
export async function createPasswordlessUser(
  o: TCreatePasswordlessUserContext,
  p: { nickname: string; language: TLanguage; identity: TNewIdentity },
): Promise<TCreatedPasswordlessUser> {
  const now = o.clock.now();
  const nickname = p.nickname.trim().slice(0, MAX_NICKNAME) || 'user';
  let made: Omit<TCreatedPasswordlessUser, 'created'>;
  try {
    made = await o.db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        email: null,
        passwordHash: null,
        nickname,
        language: p.language,
        // No terms checkbox on a wallet or provider screen: /first-login asks for them.
        initialized: false,
        giftRu: o.config.registerGiftRu,
        at: now,
      });
      await tx.insert(userIdentities).values({
        userId: user.userId,
        provider: p.identity.provider,
        subject: p.identity.subject,
        email: p.identity.email,
        displayName: p.identity.displayName,
        createdAt: new Date(now),
      });
      return user;
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const existing = await findIdentityOwner(o.db, p.identity.provider, p.identity.subject);
    if (!existing) throw err;
    return { ...existing, notices: [], created: false };
  }
  // After the commit, so no socket ever sees a notice that was rolled back.
  o.noticeBus?.push(made.notices);
  return { ...made, created: true };
}

/** The user an identity is bound to, with their personal account; null when nobody has it. */
export async function findIdentityOwner(
  executor: TExecutor,
  provider: string,
  subject: string,
): Promise<{ userId: string; accountId: string } | null> {
  const [row] = await executor
    .select({ userId: users.id, accountId: users.personalAccountId })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)))
    .limit(1);
  return row ?? null;
}

/** Test data shared by the web tests: a signed-in user as hub_getUserProfile returns it. */
import type { TUserProfile } from '@rpc/contract';

export function makeUser(over: Partial<TUserProfile> = {}): TUserProfile {
  return {
    id: 'u1',
    accountId: 'a1',
    email: 'ada@example.com',
    nickname: 'Ada',
    avatar: null,
    totalApiKeys: 0,
    oauth: [],
    mailStatus: 1,
    initialize: true,
    rechargeTips: 1,
    isNoPassword: false,
    teamList: [],
    hasTeam: false,
    hasInvite: false,
    userType: 'user',
    acceptTerm: true,
    language: 'en',
    createdAt: 0,
    ...over,
  };
}

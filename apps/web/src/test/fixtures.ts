/** Test data shared by the web tests: a signed-in user and the public config, as the API answers them. */
import type { TResult, TUserProfile } from '@rpc/contract';

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

/** hub_getConfig as an installation answers it; `oauthProviders` are the third-party sign-in buttons. */
export function makePublicConfig(
  over: Partial<TResult<'hub_getConfig'>> = {},
): TResult<'hub_getConfig'> {
  return {
    version: 'test',
    gatewayHttpUrlTemplate: 'http://localhost:3001/v1/{chain}/{key}',
    gatewayWsUrlTemplate: 'ws://localhost:3001/v1/{chain}/{key}',
    registrationOpen: true,
    supportEmail: 'support@example.com',
    stripePublishableKey: null,
    oauthProviders: [],
    siweDomain: 'localhost',
    ...over,
  };
}

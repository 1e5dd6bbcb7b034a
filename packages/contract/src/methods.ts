/** Every console API method, by name. The server dispatches from this table; the web app types its calls with it. */
import type { z } from 'zod';
import * as account from './account/methods';
import * as apiKeys from './api-keys/methods';
import * as chains from './chains/methods';
import * as notices from './notices/methods';
import * as reports from './reports/methods';
import { CARD_METHODS } from './cards/methods';
import { DN_METHODS } from './dedicated-nodes/methods';
import { DEPOSIT_METHODS } from './deposits/methods';
import { EXPORT_METHODS } from './exports/methods';
import { INVOICE_METHODS } from './invoices/methods';
import { TEAM_METHODS } from './teams/methods';
import { SIGN_IN_METHODS } from './sign-in/methods';
import { SUPPORT_METHODS } from './support/methods';
import { REQUEST_LOG_METHODS } from './request-logs/methods';
import { WALLET_METHODS } from './wallet/methods';
import type { TMethodDef } from './define-method';

const all = [
  account.hubRegister,
  account.hubSendRegisterConfirmMail,
  account.hubEmailExists,
  account.hubEmailConfirm,
  account.hubCheckEmailConfirmCodeStatus,
  account.hubLogin,
  account.hubLogout,
  account.hubGetUserProfile,
  account.hubSendResetPasswordMail,
  account.hubPasswordResetCodeStatus,
  account.hubPasswordReset,
  account.hubChangePassword,
  account.hubSetUserNickname,
  account.hubChangeUserLang,
  account.hubSetUserAcceptTerm,
  account.hubSetRechargeTips,
  account.hubRemoveAvatar,
  account.hubGetConfig,
  chains.hubGetSupportChains,
  chains.hubGetUserLimitInfo,
  chains.hubGetRuTable,
  apiKeys.hubGenerateApiKey,
  apiKeys.hubGetApiKeys,
  apiKeys.hubGetApiKey,
  apiKeys.hubGetPureApiKeys,
  apiKeys.hubSetApiKeyName,
  apiKeys.hubDeleteApiKey,
  apiKeys.hubUpdateApiKey,
  apiKeys.hubSetApiKeyAdvancedFeatures,
  apiKeys.hubSetApiKeyMev,
  apiKeys.hubSetApiKeyBundler,
  apiKeys.hubGetApiKeyNeedUpgrade,
  notices.hubGetUserMessages,
  notices.hubSetUserMessageRead,
  notices.hubSetUserMessageReadAll,
  notices.hubGetUserEmailConfig,
  notices.hubSetUserEmailConfig,
  reports.hubReportUserRuUsage,
  reports.hubReportUserRequestByApikey,
  reports.hubReportUserRuUsageByApikey,
  reports.hubReportUserCompositeInfo,
  reports.hubReportApikeyRequest,
  reports.hubReportApikeyRuUsage,
  reports.hubReportApikeyCompositeInfo,
  reports.hubReportUsageInfoByApikey,
  reports.hubReportUsageInfoByNetwork,
  reports.hubReportUserCompositeInfoByApikey,
  reports.hubReportUserCompositeInfoByNetwork,
  reports.hubReportUserTop5MethodRuCostByApikey,
  reports.hubReportUserTop5MethodRuCostByNetwork,
  reports.hubReportUserRefusals,
  reports.hubReportUserPurchase,
  reports.hubReportUserDeposit,
  ...WALLET_METHODS,
  ...DEPOSIT_METHODS,
  ...EXPORT_METHODS,
  ...INVOICE_METHODS,
  ...CARD_METHODS,
  ...TEAM_METHODS,
  ...SIGN_IN_METHODS,
  ...DN_METHODS,
  ...SUPPORT_METHODS,
  ...REQUEST_LOG_METHODS,
] as const;

type TAll = (typeof all)[number];

export type TMethods = { [M in TAll as M['name']]: M };
export type TMethodName = keyof TMethods;
export type TParamsIn<N extends TMethodName> = z.input<TMethods[N]['params']>;
export type TParams<N extends TMethodName> = z.output<TMethods[N]['params']>;
export type TResult<N extends TMethodName> = z.output<TMethods[N]['result']>;

export const METHODS = Object.fromEntries(all.map((m) => [m.name, m])) as unknown as TMethods;

export function getMethod(name: string): TMethodDef | undefined {
  return Object.hasOwn(METHODS, name)
    ? (METHODS as unknown as Record<string, TMethodDef>)[name]
    : undefined;
}

/** Method names of one domain's list (e.g. WALLET_METHODS), for its handler map. */
export type TNamesOf<L extends readonly { name: string }[]> = L[number]['name'] & TMethodName;

export const METHOD_NAMES = all.map((m) => m.name) as TMethodName[];

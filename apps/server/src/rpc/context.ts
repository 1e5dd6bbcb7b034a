/** What a method sees: dependencies plus the caller's request facts. Built without Fastify so tests call methods in-process. */
import type { TChain } from '@rpc/gateway';
import type { TKeyEvents } from '../gateway/local-invalidation';
import type { TApiKeyCipher } from '../lib/api-key-cipher';
import type { TLogger } from '../lib/logger';
import type { TDatabase } from '@rpc/db';
import type { TInvoiceSeller, TTeamRole } from '@rpc/contract';
import type { TClock } from '../lib/clock';
import type { TPasswordHasher } from '../lib/password';
import type { TMailer } from '../mail/mailer';
import type { TDepositSettings } from '../services/deposits/deposit-settings';
import type { TJobQueue } from '../services/exports/job-queue';
import type { TNoticeBus } from '../services/notices/notice-bus';
import type { TThrottle } from '../throttle/enforce';
import type { TSkuCatalogue } from '../services/wallet/sku-catalogue';
import type { TStripeSettings } from '../services/cards/stripe-settings';
import type { TOauthSettings } from '../services/sign-in/oauth-settings';
import type { TDnCatalogue } from '../services/dedicated-nodes/dn-catalogue';
import type { TDnDriver } from '../services/dedicated-nodes/driver';

export type TAppConfig = {
  version: string;
  /** base of links in mails, e.g. http://localhost:3000 */
  publicUrl: string;
  gatewayHttpUrlTemplate: string;
  gatewayWsUrlTemplate: string;
  /** A dedicated node's private endpoint at the gateway: `{nodeId}` and `{key}` (an API key of the owner) filled in. */
  dnHttpUrlTemplate: string;
  dnWsUrlTemplate: string;
  supportEmail: string;
  /** The seller printed on every invoice (INVOICE_SELLER_* env). */
  invoiceSeller: TInvoiceSeller;
  /** Stripe's publishable key for the web app when card payments are configured, else null. */
  stripePublishableKey: string | null;
  /** RUs credited to every new personal account (register_gift). */
  registerGiftRu: number;
  /** A balance at or under this raises low_ru and counts as low for hub_getApiKeyNeedUpgrade. */
  lowRuThreshold: number;
  /** Days usage_minute rows are kept; minute-bucket reports and exact top-5 methods reach back this far. */
  minuteRetentionDays: number;
  /** Hours the per-key request log keeps its entries (REQUEST_LOG_RETENTION_HOURS). */
  requestLogRetentionHours: number;
};

/** Long-lived dependencies, one set per server. */
export type TDeps = {
  db: TDatabase;
  mailer: TMailer;
  throttle: TThrottle;
  clock: TClock;
  logger: TLogger;
  passwords: TPasswordHasher;
  config: TAppConfig;
  /** The chain catalogue the gateway serves (upstreams resolved), for hub_getSupportChains. */
  chains: TChain[];
  /** "key changed" to every gateway process: published after each committed key change. */
  keyEvents: TKeyEvents;
  /** Seals and opens API keys at rest (lib/api-key-cipher.ts). */
  apiKeyCipher: TApiKeyCipher;
  /** Realtime delivery of stored notices (issue 5's socket; a no-op until then). */
  noticeBus: TNoticeBus;
  /** The SKU catalogue (config/skus.json): packages for sale, pay-as-you-go, the monthly free SKU. */
  skus: TSkuCatalogue;
  /** Chains and coins that take crypto deposits, with the xpub of each (services/deposits/deposit-settings.ts). */
  deposits: TDepositSettings;
  /** The job engine (pg-boss on the open database): CSV exports run on it (services/exports/job-queue.ts). */
  jobs: TJobQueue;
  /** Stripe for card payments (services/cards/stripe-settings.ts); null: cards are not configured. */
  stripe: TStripeSettings | null;
  /** Third-party sign-in providers (services/sign-in/oauth-settings.ts); none configured: an empty list. */
  oauth: TOauthSettings;
  /** The dedicated-node catalogue (config/dn-skus.json): chains, node types, regions, periods, prices. */
  dnSkus: TDnCatalogue;
  /** What runs dedicated nodes (services/dedicated-nodes/driver.ts): the local Hardhat driver by default. */
  dnDriver: TDnDriver;
};

/** One call's context. */
export type TRpcContext = TDeps & {
  ip: string;
  userAgent: string | null;
  /** bearer token as sent, or null */
  token: string | null;
  /** X-Team-Id as sent, or null */
  teamId: string | null;
  requestId: string;
};

export type TActingAccount = {
  id: string;
  kind: 'personal' | 'team';
  /** the user's role on the account (a personal account's user is its owner) */
  role: TTeamRole;
};

/** The signed-in caller, resolved by the dispatcher for methods with auth 'user'. */
export type TAuth = {
  userId: string;
  sessionId: string;
  /** the account this request acts on: the personal account, or the team named by X-Team-Id */
  account: TActingAccount;
};

export function createContext(
  deps: TDeps,
  request: Partial<
    Pick<TRpcContext, 'ip' | 'userAgent' | 'token' | 'teamId' | 'requestId' | 'logger'>
  > = {},
): TRpcContext {
  return {
    ...deps,
    // A per-request child logger (carrying the request id) when the caller has one.
    logger: request.logger ?? deps.logger,
    ip: request.ip ?? '127.0.0.1',
    userAgent: request.userAgent ?? null,
    token: request.token ?? null,
    teamId: request.teamId ?? null,
    requestId: request.requestId ?? 'in-process',
  };
}

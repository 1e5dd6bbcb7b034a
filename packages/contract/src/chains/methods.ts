/** Chains, rate-limit tiers and the RU table: what the console shows so users can predict their bill. */
import { z } from 'zod';
import { defineMethod } from '../define-method';

export const ZChainSchema = z.object({
  id: z.string(),
  name: z.string(),
  network: z.enum(['mainnet', 'testnet']),
  chainId: z.number().int().nullable(),
  icon: z.string(),
  /** false when no upstream is configured for the chain */
  available: z.boolean(),
  features: z.array(z.enum(['archive', 'mev', 'bundler'])),
  ruMultiplier: z.number().positive(),
  httpUrlTemplate: z.string(),
  wsUrlTemplate: z.string(),
});
export type TChain = z.infer<typeof ZChainSchema>;

export const hubGetSupportChains = defineMethod({
  name: 'hub_getSupportChains',
  summary:
    'The chain catalogue with availability and the endpoint URL templates ({key} placeholder).',
  params: z.object({}),
  result: z.object({ list: z.array(ZChainSchema) }),
  auth: 'none',
});

export const ZTierSchema = z.object({
  level: z.string(),
  name: z.string(),
  order: z.number().int(),
  reqPerSec: z.number().int().positive(),
  ruPerSec: z.number().int().positive(),
  concurrency: z.number().int().positive(),
});

/** SPEC §3 rate limit info fields, plus the numbers behind them. */
export const hubGetUserLimitInfo = defineMethod({
  name: 'hub_getUserLimitInfo',
  summary:
    'The acting account’s rate-limit tier (SPEC §3 fields), its RU balance and every tier for comparison.',
  params: z.object({}),
  result: z.object({
    currentLimitRate: z.number().int(),
    currentLimitRateLevel: z.string(),
    currentLimitRateOrder: z.number().int(),
    currentLimitRateValue: z.number().int(),
    currentLimitRateLevelView: z.string(),
    currentLimitRateTitleView: z.string(),
    reqPerSec: z.number().int(),
    ruPerSec: z.number().int(),
    concurrency: z.number().int(),
    ruBalance: z.number().int(),
    tiers: z.array(ZTierSchema),
  }),
  auth: 'user',
  permission: 'view',
  hideError: true,
});

export const hubGetRuTable = defineMethod({
  name: 'hub_getRuTable',
  summary: 'The RU cost table the gateway bills with, and its surcharge rules, for the calculator.',
  params: z.object({}),
  result: z.object({
    version: z.string(),
    methods: z.array(z.object({ method: z.string(), ru: z.number().int().positive() })),
    rules: z.object({
      unlistedRuPer250Bytes: z.number().int(),
      archiveSurchargePercent: z.number().int(),
      getLogsSurchargePercentPer200KbOver200Kb: z.number().int(),
      responseSurchargePercentPerMbOver1Mb: z.number().int(),
    }),
  }),
  auth: 'none',
});

/** API-key methods (SPEC §7 API keys). Keys belong to the acting account (personal, or the team of X-Team-Id). */
import { z } from 'zod';
import { defineMethod } from '../define-method';
import { ZTwoFactorCodeSchema } from '../sign-in/schemas';
import {
  ADVANCED_FEATURES,
  ZAllowlistsSchema,
  ZApiKeyNameSchema,
  ZApiKeySchema,
  ZBundlerSchema,
  ZKeyIdSchema,
  ZMevModeSchema,
  ZPageParamsSchema,
} from './schemas';

export const MAX_API_KEYS_PER_ACCOUNT = 50;

export const hubGenerateApiKey = defineMethod({
  name: 'hub_generateApiKey',
  summary: `Creates an API key for the acting account (at most ${MAX_API_KEYS_PER_ACCOUNT}; more answers 50409).`,
  params: z.object({ name: ZApiKeyNameSchema }),
  result: ZApiKeySchema,
  auth: 'user',
  permission: 'keys',
});

export const hubGetApiKeys = defineMethod({
  name: 'hub_getApiKeys',
  summary:
    'Pages through the acting account’s keys, newest first; search matches the name or the key.',
  params: ZPageParamsSchema.extend({ search: z.string().trim().max(64).optional() }),
  result: z.object({
    list: z.array(ZApiKeySchema),
    total: z.number().int().nonnegative(),
    page: z.number().int(),
    perPage: z.number().int(),
  }),
  auth: 'user',
  permission: 'view',
});

export const hubGetApiKey = defineMethod({
  name: 'hub_getApiKey',
  summary: 'One key of the acting account (50404 when it is not the account’s).',
  params: z.object({ keyId: ZKeyIdSchema }),
  result: ZApiKeySchema,
  auth: 'user',
  permission: 'view',
});

export const hubGetPureApiKeys = defineMethod({
  name: 'hub_getPureApiKeys',
  summary: 'Every key of the acting account as id and name only, for selectors and report filters.',
  params: z.object({}),
  result: z.object({ list: z.array(z.object({ keyId: z.string(), name: z.string() })) }),
  auth: 'user',
  permission: 'view',
});

export const hubSetApiKeyName = defineMethod({
  name: 'hub_setApiKeyName',
  summary: 'Renames a key.',
  params: z.object({ keyId: ZKeyIdSchema, name: ZApiKeyNameSchema }),
  result: ZApiKeySchema,
  auth: 'user',
  permission: 'keys',
});

export const hubDeleteApiKey = defineMethod({
  name: 'hub_deleteApiKey',
  summary:
    'Deletes a key; the gateway refuses it within a second. Raises an apikey_delete notice. With two-factor sign-in on, the caller gives a current code (10219).',
  params: z.object({ keyId: ZKeyIdSchema, twoFactorCode: ZTwoFactorCodeSchema.optional() }),
  result: z.object({ success: z.literal(true) }),
  auth: 'user',
  permission: 'keys',
});

export const hubUpdateApiKey = defineMethod({
  name: 'hub_updateApiKey',
  summary:
    'Pauses or resumes a key and replaces its allowlists (origins, IPs, contracts, methods).',
  params: z.object({
    keyId: ZKeyIdSchema,
    paused: z.boolean().optional(),
    allowlists: ZAllowlistsSchema.partial().optional(),
  }),
  result: ZApiKeySchema,
  auth: 'user',
  permission: 'keys',
});

export const hubSetApiKeyAdvancedFeatures = defineMethod({
  name: 'hub_setApiKeyAdvancedFeatures',
  summary:
    'Turns an advanced feature (archive_mode) on or off. Raises an apikey_feature_update notice.',
  params: z.object({
    keyId: ZKeyIdSchema,
    feature: z.enum(ADVANCED_FEATURES),
    enabled: z.boolean(),
  }),
  result: ZApiKeySchema,
  auth: 'user',
  permission: 'keys',
});

export const hubSetApiKeyMev = defineMethod({
  name: 'hub_setApiKeyMev',
  summary: 'Sets MEV protection: "" (normal), auto or globalcast.',
  params: z.object({ keyId: ZKeyIdSchema, mev: ZMevModeSchema }),
  result: ZApiKeySchema,
  auth: 'user',
  permission: 'keys',
});

export const hubSetApiKeyBundler = defineMethod({
  name: 'hub_setApiKeyBundler',
  summary: 'Chooses the ERC-4337 bundler provider for the key.',
  params: z.object({ keyId: ZKeyIdSchema, bundler: ZBundlerSchema }),
  result: ZApiKeySchema,
  auth: 'user',
  permission: 'keys',
});

export const hubGetApiKeyNeedUpgrade = defineMethod({
  name: 'hub_getApiKeyNeedUpgrade',
  summary:
    'Whether the acting account should upgrade its tier: its keys use advanced features or its RU balance is low for the free tier.',
  params: z.object({}),
  result: z.object({
    needUpgrade: z.boolean(),
    tier: z.string(),
    reasons: z.array(z.enum(['advanced_features_on_free_tier', 'low_ru_balance'])),
  }),
  auth: 'user',
  permission: 'view',
});

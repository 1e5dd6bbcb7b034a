/** API keys, their advanced features and allowlists (SPEC §3 advanced features, §7 API keys). */
import { z } from 'zod';

export const MEV_MODES = ['', 'auto', 'globalcast'] as const;
export const BUNDLER_PROVIDERS = ['default', 'stackup', 'candide', 'pimlico', 'etherspot'] as const;
export const ADVANCED_FEATURES = ['archive_mode'] as const;

export const ZMevModeSchema = z.enum(MEV_MODES);
export const ZBundlerSchema = z.enum(BUNDLER_PROVIDERS);

/** Key ids are uuids; the key itself is the opaque credential in the endpoint URL. */
export const ZKeyIdSchema = z.uuid();

const SAFE_TEXT = /^[^\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]*$/;

export const ZApiKeyNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(SAFE_TEXT, 'contains control characters');

/** Origins: `https://app.example.com`, `https://*.example.com` or a bare host pattern `*.example.com`. */
export const ZOriginRuleSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(https?:\/\/)?(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/, 'not an origin');

/** IPv4 address or CIDR block, or an IPv6 address. */
export const ZIpRuleSchema = z
  .string()
  .trim()
  .max(64)
  .refine(
    (v) =>
      /^(\d{1,3})(\.\d{1,3}){3}(\/(\d|[12]\d|3[0-2]))?$/.test(v) &&
      v
        .split('/')[0]!
        .split('.')
        .every((o) => Number(o) <= 255)
        ? true
        : /^[0-9a-fA-F:]+$/.test(v) && v.includes(':'),
    'not an IP address or IPv4 CIDR block',
  );

export const ZContractRuleSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^0x[0-9a-f]{40}$/, 'not a contract address');

export const ZMethodRuleSchema = z
  .string()
  .trim()
  .regex(/^[a-zA-Z][a-zA-Z0-9_]{1,63}$/, 'not a JSON-RPC method name');

export const ALLOWLIST_MAX_ENTRIES = 100;

export const ZAllowlistsSchema = z.object({
  origins: z.array(ZOriginRuleSchema).max(ALLOWLIST_MAX_ENTRIES),
  ips: z.array(ZIpRuleSchema).max(ALLOWLIST_MAX_ENTRIES),
  contracts: z.array(ZContractRuleSchema).max(ALLOWLIST_MAX_ENTRIES),
  methods: z.array(ZMethodRuleSchema).max(ALLOWLIST_MAX_ENTRIES),
});
export type TAllowlists = z.infer<typeof ZAllowlistsSchema>;

export const ZApiKeySchema = z.object({
  keyId: z.string(),
  name: z.string(),
  /** the credential used in endpoint URLs */
  key: z.string(),
  createdAt: z.number().int(),
  paused: z.boolean(),
  archiveMode: z.boolean(),
  mev: ZMevModeSchema,
  bundler: ZBundlerSchema,
  allowlists: ZAllowlistsSchema,
  /** usage since the start of the current UTC day (requests and RUs) */
  today: z.object({ requests: z.number().int().nonnegative(), ru: z.number().int().nonnegative() }),
});
export type TApiKey = z.infer<typeof ZApiKeySchema>;

export const ZPageParamsSchema = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  perPage: z.number().int().min(1).max(100).default(5),
});

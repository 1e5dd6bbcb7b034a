/** The server's environment, parsed once at start; a bad value stops the process with a clear message. */
import { availableParallelism } from 'node:os';
import { DEFAULT_MINUTE_RETENTION_DAYS, DEFAULT_REQUEST_LOG_RETENTION_HOURS } from '@rpc/contract';
import { z } from 'zod';
import { ZDepositTokensSchema } from './services/deposits/deposit-settings';
import { parseOauthEnv, type TOauthProviderEnv } from './services/sign-in/oauth-env';

const ZPortSchema = z.coerce.number().int().min(0).max(65535);
const ZBooleanSchema = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1');

/**
 * TRUST_PROXY: how many proxies of ours stand in front (false/0: none, true: one, or a number). The client's address
 * is then X-Forwarded-For's entry that many places from the right: the one our outermost proxy appended. Entries
 * further left are whatever the client sent, so never the first one.
 */
const ZTrustProxySchema = z
  .string()
  .regex(/^(true|false|\d{1,2})?$/, 'true, false or a number of proxies (0-99)')
  .transform((v) => (v === 'true' ? 1 : v === 'false' || v === '' ? 0 : Number(v)));

export const ZEnvSchema = z.object({
  PORT: ZPortSchema.default(3000),
  GATEWAY_PORT: ZPortSchema.default(3001),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** The built web app to serve (default apps/web/dist); lets several builds be tested side by side. */
  WEB_DIST_DIR: z.string().min(1).optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /**
   * Encrypts API keys at rest (docs/decisions/api-key-storage.md). Required with DATABASE_URL, the same in every
   * process; otherwise, when unset, generated once into DATA_DIR/api-key-secret (lib/api-key-secret.ts).
   */
  API_KEY_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters (generate one with: openssl rand -base64 32)')
    .optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('RPC Console <no-reply@localhost>'),
  SUPPORT_EMAIL: z.string().min(3).default('support@localhost'),
  /** The seller on every invoice (docs/decisions/invoices.md): name, address lines separated by |, e-mail, tax id. */
  INVOICE_SELLER_NAME: z.string().trim().min(1).max(120).default('RPC Console'),
  INVOICE_SELLER_ADDRESS: z.string().max(600).optional(),
  /** Default: SUPPORT_EMAIL. */
  INVOICE_SELLER_EMAIL: z.string().trim().min(3).max(254).optional(),
  INVOICE_SELLER_TAX_ID: z.string().trim().max(40).optional(),
  /** Base of links in mails; defaults to http://localhost:PORT. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Base of the key URLs the console shows; defaults to http://localhost:GATEWAY_PORT. */
  GATEWAY_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Trust X-Forwarded-For (only behind a proxy you control), so throttling sees real client IPs. */
  TRUST_PROXY: ZTrustProxySchema.default(0),
  /**
   * The same count for the gateway's port, when its calls come through another chain of proxies than the console's
   * (a CDN in front of the RPC endpoints only, say). Default: TRUST_PROXY.
   */
  GATEWAY_TRUST_PROXY: ZTrustProxySchema.optional(),
  /**
   * Multiplies every throttle limit (rules.ts). Only for test rigs that sign up many users from one IP
   * (e2e from localhost); leave it at 1 in production.
   */
  THROTTLE_LIMIT_FACTOR: z.coerce.number().positive().max(10_000).default(1),
  /** RUs every new personal account receives (register_gift). */
  REGISTER_GIFT_RU: z.coerce.number().int().min(0).max(1e15).default(1_000_000),
  /** Balance at or under which low_ru is raised. */
  LOW_RU_THRESHOLD: z.coerce.number().int().min(0).max(1e15).default(100_000),
  /**
   * Days per-minute usage rows are kept (minute-bucket reports reach back this far); hour and day rollups stay.
   */
  USAGE_MINUTE_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3660)
    .default(DEFAULT_MINUTE_RETENTION_DAYS),
  /** Hours the per-key request log keeps its entries (docs/decisions/request-log.md); pruned hourly. */
  REQUEST_LOG_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(DEFAULT_REQUEST_LOG_RETENTION_HOURS),
  /** Port of the local Hardhat node started for the `localnet` chain (unless UPSTREAM_LOCALNET_HTTP is set). */
  LOCALNET_PORT: ZPortSchema.default(8545),
  /** Start that Hardhat node in the embedded default (`npm start`); false leaves `localnet` to its env URL. */
  LOCALNET: ZBooleanSchema.default(true),
  /**
   * What this process runs: everything (the embedded default), or in scale mode only the console API or only
   * the gateway, as many of each as needed (they meet in PostgreSQL and Redis).
   */
  ROLE: z.enum(['all', 'console', 'gateway']).default('all'),
  /**
   * The operator's BIP-32 extended public key (xpub) deposit addresses derive from, child i per account
   * (docs/decisions/crypto-deposits.md). Unset: only `localnet` takes deposits, with a public test key.
   */
  DEPOSIT_XPUB: z
    .string()
    .regex(/^[xt]pub[1-9A-HJ-NP-Za-km-z]{100,112}$/, 'must be an extended public key (xpub…)')
    .optional(),
  /** Token contracts known only at start, as JSON: {"localnet:USDT":"0x…"} (config/coins.json). */
  DEPOSIT_TOKENS: z
    .string()
    .transform((raw, ctx) => {
      try {
        return ZDepositTokensSchema.parse(JSON.parse(raw));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON {"<chain>:<COIN>":"0x…"}' });
        return z.NEVER;
      }
    })
    .optional(),
  /** Run the deposit watcher in the console role (false: addresses are still given, nothing is credited). */
  DEPOSIT_WATCHER: ZBooleanSchema.default(true),
  /**
   * Run the dedicated-node lifecycle sweep in the console role. The local driver's nodes are processes of the console
   * that sweeps: with several console processes (scale mode), leave it on in exactly one of them.
   */
  DN_SWEEP: ZBooleanSchema.default(true),
  /**
   * What runs dedicated nodes (docs/decisions/dedicated-nodes.md): a Hardhat process of this console (local), or a
   * StatefulSet per node in a cluster (kubernetes: KUBECONFIG, ~/.kube/config or the pod's service account).
   */
  DN_DRIVER: z.enum(['local', 'kubernetes']).default('local'),
  /** The namespace of the Kubernetes driver's objects (created by the operator, with the driver's RBAC). */
  DN_K8S_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a namespace name (DNS label)')
    .default('rpc-dedicated-nodes'),
  /** Images, storage and resources per chain and node type; default apps/server/config/dn-k8s.json. */
  DN_K8S_SETTINGS: z.string().min(1).optional(),
  /**
   * Where the gateway reaches a Kubernetes node, with {name}, {namespace} and {port}; default
   * http://{name}.{namespace}.svc.cluster.local:{port} (in-cluster DNS). WebSocket: the same URL as ws(s).
   */
  DN_K8S_UPSTREAM_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
    .refine(
      (v) => v.includes('{name}') && v.includes('{port}'),
      'must contain {name} and {port} (and usually {namespace})',
    )
    .optional(),
  /** How often the deposit watcher polls each chain. */
  DEPOSIT_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(4000),
  /**
   * Card payments (docs/decisions/card-payments.md). All three keys set: cards work; none: the console says card
   * payment is not configured. STRIPE_API_BASE points the SDK elsewhere than api.stripe.com (the tests' fake).
   */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]{1,200}$/, 'must be a Stripe secret key (sk_…)')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_[A-Za-z0-9_]{1,200}$/, 'must be a Stripe publishable key (pk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9_]{1,200}$/, 'must be a Stripe webhook secret (whsec_…)')
    .optional(),
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Third-party sign-in (docs/decisions/sign-in.md): comma-separated provider ids, each configured by
   * OAUTH_<ID>_CLIENT_ID, OAUTH_<ID>_CLIENT_SECRET, optional OAUTH_<ID>_NAME and OAUTH_<ID>_ISSUER (required except
   * for the github and google presets). Read by parseOauthEnv, which becomes this field's value.
   */
  OAUTH_PROVIDERS: z.string().optional(),
  /**
   * GET /metrics (console and gateway ports) answers only requests carrying `Authorization: Bearer <token>`; unset,
   * only clients on the loopback interface that came through no proxy (docs/decisions/metrics.md).
   */
  METRICS_TOKEN: z
    .string()
    .regex(/^\S{16,200}$/, 'must be 16 to 200 characters without spaces (openssl rand -hex 32)')
    .optional(),
  /**
   * Gateway processes behind GATEWAY_PORT (node:cluster; docs/scale-mode.md, "Gateway workers"). Above 1 needs
   * DATABASE_URL and REDIS_URL: the workers share one RU pool per account and split each key's rates through Redis,
   * and PGlite is one process's. Default: the machine's cores in scale mode, else 1.
   */
  GATEWAY_WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type TEnv = Omit<
  z.infer<typeof ZEnvSchema>,
  'OAUTH_PROVIDERS' | 'GATEWAY_WORKERS' | 'GATEWAY_TRUST_PROXY'
> & {
  /** resolved: the given count, or TRUST_PROXY's */
  GATEWAY_TRUST_PROXY: number;
  PUBLIC_URL: string;
  /** resolved: the given count, or the default (cores in scale mode, else 1) */
  GATEWAY_WORKERS: number;
  GATEWAY_PUBLIC_URL: string;
  /** the configured third-party sign-in providers, with their OAUTH_<ID>_* settings */
  OAUTH_PROVIDERS: TOauthProviderEnv[];
};

/** Parses the environment; throws an Error listing every bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): TEnv {
  // Empty strings mean "unset" (docker-compose and shells often export VAR=).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = ZEnvSchema.safeParse(cleaned);
  // OAUTH_<ID>_* names depend on OAUTH_PROVIDERS, so they are read beside the schema; issues are reported together.
  const oauth = parseOauthEnv(cleaned);
  const isScaleMode = parsed.success && !!parsed.data.DATABASE_URL && !!parsed.data.REDIS_URL;
  const workerIssues =
    parsed.success && (parsed.data.GATEWAY_WORKERS ?? 1) > 1 && !isScaleMode
      ? [
          'GATEWAY_WORKERS: above 1 needs DATABASE_URL and REDIS_URL (the workers share balances and limits through them)',
        ]
      : [];
  if (!parsed.success || oauth.issues.length > 0 || workerIssues.length > 0) {
    const lines = [
      ...(parsed.success ? [] : parsed.error.issues).map(
        (i) => `  ${i.path.join('.')}: ${i.message}`,
      ),
      ...oauth.issues.map((i) => `  ${i}`),
      ...workerIssues.map((i) => `  ${i}`),
    ];
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  return {
    ...env,
    OAUTH_PROVIDERS: oauth.providers,
    GATEWAY_WORKERS: env.GATEWAY_WORKERS ?? (isScaleMode ? availableParallelism() : 1),
    GATEWAY_TRUST_PROXY: env.GATEWAY_TRUST_PROXY ?? env.TRUST_PROXY,
    PUBLIC_URL: stripSlash(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`),
    GATEWAY_PUBLIC_URL: stripSlash(
      env.GATEWAY_PUBLIC_URL ?? `http://localhost:${env.GATEWAY_PORT}`,
    ),
  };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

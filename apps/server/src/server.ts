/** createServer(opts) → { app, deps, start, stop, url }: the console API, health and the web app, in one Fastify instance. */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, type TDatabase } from '@rpc/db';
import { loadChains, RedisInvalidationChannel, type TChain } from '@rpc/gateway';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { sql } from 'drizzle-orm';
import { parseEnv, type TEnv } from './env';
import { LocalInvalidationChannel, type TKeyEvents } from './gateway/local-invalidation';
import { registerApiRoute } from './http/api-route';
import { trustProxyOption } from './http/trust-proxy';
import { registerMetrics } from './metrics';
import { registerAvatarRoutes } from './http/avatar-routes';
import { registerExportDownloadRoute } from './http/export-download-route';
import { registerInvoicePdfRoute } from './http/invoice-pdf-route';
import { loadInvoiceSeller } from './services/invoices/invoice-seller';
import { registerSecurityHeaders } from './http/security-headers';
import { registerStripeWebhookRoute } from './http/stripe-webhook-route';
import { registerSupportTicketRoute } from './http/support-ticket-route';
import { loadStripeSettings } from './services/cards/stripe-settings';
import { DEFAULT_WEB_DIST_DIR, registerWebApp } from './http/web-app';
import { systemClock, type TClock } from './lib/clock';
import { startPackageSweep } from './jobs/package-sweep';
import { startCardOrderSweep } from './jobs/card-order-sweep';
import { startDisbandedTeamSweep } from './jobs/disbanded-team-sweep';
import { startUsagePruning } from './jobs/usage-pruning';
import { startDepositWatching } from './jobs/deposit-watching';
import { createDepositWatcher } from './services/deposits/deposit-watcher';
import { loadDepositSettings, type TDepositSettings } from './services/deposits/deposit-settings';
import { createPgBossQueue, type TJobQueue } from './services/exports/job-queue';
import { startExportWorker } from './services/exports/start-export-worker';
import { loadSkuCatalogue, type TSkuCatalogue } from './services/wallet/sku-catalogue';
import { loadDnCatalogue, type TDnCatalogue } from './services/dedicated-nodes/dn-catalogue';
import type { TDnDriver } from './services/dedicated-nodes/driver';
import { createDnDriver } from './services/dedicated-nodes/dn-driver-config';
import { startDnSweep } from './jobs/dedicated-node-sweep';
import { publishAccountChange } from './services/wallet/account-tier';
import { createLogger, redactUrl } from './lib/logger';
import { createPasswordHasher, type TArgon2Cost, type TPasswordHasher } from './lib/password';
import { createMailer, type TMailer } from './mail/mailer';
import type { TAppConfig, TDeps } from './rpc/context';
import { prepareApiKeyStorage } from './services/api-keys/prepare-api-key-storage';
import { withNoticeMail } from './services/notices/mail-notices';
import {
  createLocalNoticeBus,
  createRedisNoticeBus,
  type TNoticeBus,
} from './services/notices/notice-bus';
import { createNoticeSockets, registerNoticeSocket } from './socket/notice-sockets';
import { createThrottle, type TThrottle } from './throttle/enforce';
import { createDbThrottleStore } from './throttle/db-store';
import { createRedisThrottleStore } from './throttle/redis-store';
import { DEFAULT_THROTTLE_RULES, scaleThrottleRules, type TThrottleRules } from './throttle/rules';
import { loadOauthSettings, type TOauthSettings } from './services/sign-in/oauth-settings';

export type TCreateServerOptions = {
  /** Third-party sign-in providers; tests pass a local OpenID Connect provider. Default: from env. */
  oauth?: TOauthSettings;
  /** Environment values; anything not given comes from process.env (tests pass { PORT: 0, … }). */
  env?: Partial<TEnv>;
  /** An open database; when absent one is opened from DATABASE_URL / DATA_DIR and closed on stop. */
  db?: TDatabase;
  mailer?: TMailer;
  throttle?: TThrottle;
  throttleRules?: TThrottleRules;
  /** Namespaces Redis throttle keys (tests use a random one). */
  redisKeyPrefix?: string;
  clock?: TClock;
  logger?: Logger;
  passwords?: TPasswordHasher;
  /** argon2 cost; production uses argon2's defaults, tests something cheap. */
  argon2Cost?: TArgon2Cost;
  webDistDir?: string;
  /** The chain catalogue (default: config/chains.json resolved from process.env). */
  chains?: TChain[];
  /** Key invalidation channel; default: Redis pub/sub when REDIS_URL is set, else in-process. */
  keyEvents?: TKeyEvents;
  /** Notice delivery; default: Redis pub/sub when REDIS_URL is set, else in-process. Mail is added either way. */
  noticeBus?: TNoticeBus;
  /** The SKU catalogue (default: config/skus.json). */
  skus?: TSkuCatalogue;
  /** Chains and coins taking deposits (default: config/coins.json with DEPOSIT_XPUB and DEPOSIT_TOKENS). */
  deposits?: TDepositSettings;
  /** Run the deposit watcher from start() (default: env DEPOSIT_WATCHER); tests drive it themselves. */
  depositWatcher?: boolean;
  /** Redis channel of the notice bus (tests use a random one). */
  noticeChannel?: string;
  /** Notice socket heartbeat (ping, dead-peer and ended-session check); default 30 s. */
  noticeHeartbeatMs?: number;
  /** The job engine; default pg-boss on the server's database. */
  jobs?: TJobQueue;
  /** Run export jobs from start() (default true); false leaves them queued for another process. */
  exportWorker?: boolean;
  /** Run the dedicated-node lifecycle sweep from start() (default: env DN_SWEEP); tests sweep themselves. */
  dnSweep?: boolean;
  /** The dedicated-node catalogue (default: config/dn-skus.json). */
  dnSkus?: TDnCatalogue;
  /** What runs dedicated nodes (default: the local driver, a Hardhat process per node); closed by stop(). */
  dnDriver?: TDnDriver;
};

export type TConsoleServer = {
  app: FastifyInstance;
  deps: TDeps;
  env: TEnv;
  /** Listens on env PORT/HOST (0 picks a free port) and returns the URL. */
  start: () => Promise<string>;
  stop: () => Promise<void>;
  /** http://localhost:<port> once started */
  readonly url: string;
};

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export const SERVER_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/** process.env overridden by opts.env; public URLs follow overridden ports unless set explicitly. */
function resolveEnv(overrides: Partial<TEnv> = {}): TEnv {
  const env: TEnv = { ...parseEnv(), ...overrides };
  if (overrides.PUBLIC_URL === undefined && !process.env.PUBLIC_URL) {
    env.PUBLIC_URL = `http://localhost:${env.PORT}`;
  }
  if (overrides.GATEWAY_PUBLIC_URL === undefined && !process.env.GATEWAY_PUBLIC_URL) {
    env.GATEWAY_PUBLIC_URL = `http://localhost:${env.GATEWAY_PORT}`;
  }
  return env;
}

export async function createServer(opts: TCreateServerOptions = {}): Promise<TConsoleServer> {
  const env = resolveEnv(opts.env);
  const logger = opts.logger ?? createLogger({ level: env.LOG_LEVEL });
  const clock = opts.clock ?? systemClock;
  const closers: Array<() => Promise<void> | void> = [];

  let db = opts.db;
  if (!db) {
    const opened = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    logger.info({ kind: opened.kind }, 'database open');
    db = opened.db;
    closers.push(opened.close);
  }
  // Before anything reads a key: the secret checked against this database, no key left in plain text.
  const apiKeyCipher = await prepareApiKeyStorage({ db, env, logger }).catch(
    async (err: unknown) => {
      for (const close of closers) await close();
      throw err;
    },
  );

  let throttle = opts.throttle;
  if (!throttle) {
    const store = env.REDIS_URL
      ? createRedisThrottleStore({
          url: env.REDIS_URL,
          clock,
          keyPrefix: opts.redisKeyPrefix ?? 'rpc:throttle:',
        })
      : // Without Redis the counters live in the database, so a restart does not reset them.
        createDbThrottleStore({ db, clock });
    throttle = createThrottle(
      store,
      scaleThrottleRules(opts.throttleRules ?? DEFAULT_THROTTLE_RULES, env.THROTTLE_LIMIT_FACTOR),
    );
    closers.push(throttle.close);
  }

  let mailer = opts.mailer;
  if (!mailer) {
    mailer = createMailer({
      from: env.MAIL_FROM,
      logger,
      smtpUrl: env.SMTP_URL,
      outboxDir: path.resolve(env.DATA_DIR, 'outbox'),
    });
    if (!env.SMTP_URL)
      logger.info(
        { outbox: path.resolve(env.DATA_DIR, 'outbox') },
        'no SMTP_URL: mails go to the outbox',
      );
    closers.push(mailer.close);
  }

  let keyEvents = opts.keyEvents;
  if (!keyEvents) {
    if (env.REDIS_URL) {
      const redis = new RedisInvalidationChannel(env.REDIS_URL);
      // Not awaited: the console starts while Redis is down (like the throttle, which then fails closed);
      // a publish meanwhile fails and is logged, and the gateways' periodic refresh covers the gap.
      redis
        .start()
        .catch((err: unknown) => logger.error({ err }, 'key invalidation channel: no Redis'));
      closers.push(() => redis.close());
      keyEvents = redis;
    } else {
      keyEvents = new LocalInvalidationChannel();
    }
  }

  const noticeSockets = createNoticeSockets({
    db,
    clock,
    logger,
    ...(opts.noticeHeartbeatMs ? { heartbeatMs: opts.noticeHeartbeatMs } : {}),
  });
  closers.push(() => noticeSockets.stop());
  let noticeBus = opts.noticeBus;
  if (!noticeBus) {
    if (env.REDIS_URL) {
      const redisBus = createRedisNoticeBus({
        url: env.REDIS_URL,
        sink: noticeSockets,
        logger,
        ...(opts.noticeChannel ? { channel: opts.noticeChannel } : {}),
      });
      // Like the key channel: not awaited, so the console starts while Redis is down; pushes meanwhile reach
      // this process's sockets only (the notices are stored either way).
      redisBus.start().catch((err: unknown) => logger.error({ err }, 'notice bus: no Redis'));
      closers.push(redisBus.close);
      noticeBus = redisBus;
    } else {
      noticeBus = createLocalNoticeBus(noticeSockets);
    }
  }

  const jobs = opts.jobs ?? createPgBossQueue({ db, logger });
  closers.push(() => jobs.stop());

  const stripe = loadStripeSettings(env);
  const config: TAppConfig = {
    version: SERVER_VERSION,
    publicUrl: env.PUBLIC_URL,
    gatewayHttpUrlTemplate: `${env.GATEWAY_PUBLIC_URL}/v1/{chain}/{key}`,
    gatewayWsUrlTemplate: `${env.GATEWAY_PUBLIC_URL.replace(/^http/, 'ws')}/v1/{chain}/{key}`,
    // Served by the gateway's private dedicated-node route (next: only the owner's keys reach it).
    dnHttpUrlTemplate: `${env.GATEWAY_PUBLIC_URL}/dn/{nodeId}/{key}`,
    dnWsUrlTemplate: `${env.GATEWAY_PUBLIC_URL.replace(/^http/, 'ws')}/dn/{nodeId}/{key}`,
    supportEmail: env.SUPPORT_EMAIL,
    invoiceSeller: loadInvoiceSeller(env),
    stripePublishableKey: stripe?.publishableKey ?? null,
    registerGiftRu: env.REGISTER_GIFT_RU,
    lowRuThreshold: env.LOW_RU_THRESHOLD,
    minuteRetentionDays: env.USAGE_MINUTE_RETENTION_DAYS,
    requestLogRetentionHours: env.REQUEST_LOG_RETENTION_HOURS,
  };
  const chains = opts.chains ?? loadChains();
  const dnDriver = opts.dnDriver ?? createDnDriver(env, logger);
  // After the sweep stops (stop() stops it first): the driver's processes end with the server.
  closers.push(() => dnDriver.close());
  const deps: TDeps = {
    db,
    mailer,
    throttle,
    clock,
    logger,
    passwords: opts.passwords ?? createPasswordHasher(opts.argon2Cost),
    config,
    chains,
    deposits:
      opts.deposits ??
      loadDepositSettings({ chains, xpub: env.DEPOSIT_XPUB, tokens: env.DEPOSIT_TOKENS }),
    skus: opts.skus ?? loadSkuCatalogue(),
    jobs,
    stripe,
    oauth: opts.oauth ?? loadOauthSettings(env),
    dnSkus: opts.dnSkus ?? loadDnCatalogue(),
    dnDriver,
    keyEvents,
    apiKeyCipher,
    noticeBus: withNoticeMail(noticeBus, {
      db,
      mailer,
      logger,
      publicUrl: () => config.publicUrl,
    }),
  };

  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Our own one-line request log below, so URLs are redacted and nothing else about the request is dumped.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trustProxyOption(env.TRUST_PROXY),
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerSecurityHeaders(app, { publicUrl: () => config.publicUrl, isStripe: stripe !== null });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: redactUrl(request.url),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });

  registerMetrics(app, { config, token: env.METRICS_TOKEN, jobs, noticeSockets });
  app.get('/health', async () => {
    await deps.db.execute(sql`select 1`);
    return { ok: true, version: SERVER_VERSION };
  });
  await registerNoticeSocket(app, { db, clock, sockets: noticeSockets });
  await registerApiRoute(app, deps);
  registerExportDownloadRoute(app, deps);
  registerInvoicePdfRoute(app, deps);
  await registerStripeWebhookRoute(app, deps);
  await registerAvatarRoutes(app, deps);
  await registerSupportTicketRoute(app, deps);
  await registerWebApp(app, opts.webDistDir ?? env.WEB_DIST_DIR ?? DEFAULT_WEB_DIST_DIR);

  let url = '';
  // Periodic work of the console role: started by start(), which a gateway-only process never calls.
  let stopUsagePruning: (() => Promise<void>) | undefined;
  let stopPackageSweep: (() => Promise<void>) | undefined;
  let stopCardOrderSweep: (() => Promise<void>) | undefined;
  let stopDisbandedTeamSweep: (() => Promise<void>) | undefined;
  let stopDnSweep: (() => Promise<void>) | undefined;
  let stopDepositWatching: (() => Promise<void>) | undefined;
  let isExportWorkerStarted = false;
  return {
    app,
    deps,
    env,
    get url() {
      return url;
    },
    start: async () => {
      await app.listen({ port: env.PORT, host: env.HOST });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : env.PORT;
      url = `http://localhost:${port}`;
      stopUsagePruning ??= startUsagePruning(deps);
      stopPackageSweep ??= startPackageSweep(deps);
      if (deps.stripe) stopCardOrderSweep ??= startCardOrderSweep(deps);
      stopDisbandedTeamSweep ??= startDisbandedTeamSweep(deps);
      if (opts.dnSweep ?? env.DN_SWEEP) stopDnSweep ??= await startDnSweep(deps);
      if ((opts.exportWorker ?? true) && !isExportWorkerStarted) {
        isExportWorkerStarted = true;
        await startExportWorker(deps);
      }
      if ((opts.depositWatcher ?? env.DEPOSIT_WATCHER) && deps.deposits.chains.length > 0)
        stopDepositWatching ??= startDepositWatching(
          deps.logger,
          createDepositWatcher({
            ...deps,
            onCredited: async (accountIds) => {
              for (const id of accountIds) await publishAccountChange(deps, id);
            },
          }),
          env.DEPOSIT_POLL_MS,
        );
      // Links in mails must point at the real port when PORT was 0 and no PUBLIC_URL was given.
      if (env.PORT === 0 && !opts.env?.PUBLIC_URL && !process.env.PUBLIC_URL)
        config.publicUrl = url;
      return url;
    },
    stop: async () => {
      await stopUsagePruning?.();
      await stopPackageSweep?.();
      await stopCardOrderSweep?.();
      await stopDisbandedTeamSweep?.();
      await stopDnSweep?.();
      await stopDepositWatching?.();
      await app.close();
      for (const close of closers.reverse()) await close();
    },
  };
}

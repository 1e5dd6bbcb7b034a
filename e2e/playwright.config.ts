// Browser end-to-end tests: the product is started the way the README starts it (`npm start`),
// on its own ports and a throw-away data directory, and driven in Debian's Chromium.
import { defineConfig } from '@playwright/test';
import { E2E } from './fixtures/env';

const STRIPE_PORT = Number(process.env.E2E_STRIPE_PORT ?? E2E.consolePort + 3);
const STRIPE_API_BASE = `http://127.0.0.1:${STRIPE_PORT}`;
const STRIPE_WEBHOOK_SECRET = 'whsec_e2e_fake';
// The local OpenID Connect provider (apps/server/test/helpers/oidc-provider-main.ts) behind the "Local ID" sign-in.
const OIDC_ISSUER = `http://127.0.0.1:${E2E.oidcPort}`;
const OIDC_CLIENT_ID = 'console-e2e';
const OIDC_CLIENT_SECRET = 'console-e2e-secret';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    baseURL: E2E.consoleUrl,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      // The fake Stripe (apps/server/test/helpers/fake-stripe.ts): card payments run offline, its webhooks signed.
      command: 'node --import tsx apps/server/test/helpers/fake-stripe-main.ts',
      cwd: '..',
      url: `${STRIPE_API_BASE}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        FAKE_STRIPE_PORT: String(STRIPE_PORT),
        FAKE_STRIPE_WEBHOOK_URL: `${E2E.consoleUrl}/webhooks/stripe`,
        FAKE_STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET,
      },
    },
    {
      command: 'node --import tsx apps/server/test/helpers/oidc-provider-main.ts',
      cwd: '..',
      url: `${OIDC_ISSUER}/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        OIDC_PORT: String(E2E.oidcPort),
        OIDC_REDIRECT_URIS: `${E2E.consoleUrl}/auth/callback,${E2E.consoleUrl}/bind/callback`,
        OIDC_CLIENT_ID,
        OIDC_CLIENT_SECRET,
      },
    },
    {
      command: 'npm start',
      cwd: '..',
      url: `${E2E.consoleUrl}/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(E2E.consolePort),
        GATEWAY_PORT: String(E2E.gatewayPort),
        DATA_DIR: E2E.dataDir,
        PUBLIC_URL: E2E.consoleUrl,
        LOG_LEVEL: 'warn',
        // Every suite signs up from one IP, more often than the 10 sign-ups an hour a real address gets.
        THROTTLE_LIMIT_FACTOR: '20',
        LOCALNET_PORT: String(E2E.localnetPort),
        // The deposit watcher looks for new blocks every second, so a deposit is credited within seconds.
        DEPOSIT_POLL_MS: '1000',
        // Card payments against the fake Stripe above (the browser gets a fake Stripe.js: e2e/fixtures/fake-stripe-js.ts).
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
        STRIPE_WEBHOOK_SECRET,
        STRIPE_API_BASE,
        OAUTH_PROVIDERS: 'local',
        OAUTH_LOCAL_NAME: 'Local ID',
        OAUTH_LOCAL_ISSUER: OIDC_ISSUER,
        OAUTH_LOCAL_CLIENT_ID: OIDC_CLIENT_ID,
        OAUTH_LOCAL_CLIENT_SECRET: OIDC_CLIENT_SECRET,
        OAUTH_LOCAL_ALLOW_INSECURE_HTTP: 'true',
        // A build elsewhere than apps/web/dist (E2E_WEB_DIST_DIR), so several builds can be tested side by side.
        ...(process.env.E2E_WEB_DIST_DIR ? { WEB_DIST_DIR: process.env.E2E_WEB_DIST_DIR } : {}),
      },
    },
  ],
});

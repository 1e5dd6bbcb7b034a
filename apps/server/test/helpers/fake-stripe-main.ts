/**
 * The fake Stripe as a process, for the browser tests (e2e/playwright.config.ts starts it): FAKE_STRIPE_PORT,
 * FAKE_STRIPE_WEBHOOK_URL (the console's /webhooks/stripe) and FAKE_STRIPE_WEBHOOK_SECRET.
 */
import { startFakeStripe } from './fake-stripe';

const fake = await startFakeStripe({
  port: Number(process.env.FAKE_STRIPE_PORT ?? 12111),
  webhookUrl: process.env.FAKE_STRIPE_WEBHOOK_URL ?? null,
  webhookSecret: process.env.FAKE_STRIPE_WEBHOOK_SECRET ?? 'whsec_fake_secret',
});
process.stdout.write(`fake Stripe at ${fake.url}\n`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

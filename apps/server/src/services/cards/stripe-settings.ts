/**
 * Stripe, when the operator configured it: the SDK client (pointed at STRIPE_API_BASE when set, e.g. the tests'
 * fake), the publishable key the web app loads Stripe.js with, and the webhook signing secret. Null: card payments
 * are not configured, and every card method answers 10801.
 */
import Stripe from 'stripe';

export type TStripeSettings = {
  client: Stripe;
  publishableKey: string;
  webhookSecret: string;
};

export type TStripeEnv = {
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_PUBLISHABLE_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  STRIPE_API_BASE?: string | undefined;
};

export function loadStripeSettings(env: TStripeEnv): TStripeSettings | null {
  const keys = [env.STRIPE_SECRET_KEY, env.STRIPE_PUBLISHABLE_KEY, env.STRIPE_WEBHOOK_SECRET];
  const set = keys.filter((k) => k !== undefined).length;
  if (set === 0) return null;
  if (set !== keys.length)
    throw new Error(
      'Card payments need STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET together (or none)',
    );
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
  const client = new Stripe(env.STRIPE_SECRET_KEY!, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base
      ? {
          protocol: base.protocol === 'http:' ? 'http' : 'https',
          host: base.hostname,
          port: base.port || (base.protocol === 'http:' ? 80 : 443),
        }
      : {}),
  });
  return {
    client,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY!,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
  };
}

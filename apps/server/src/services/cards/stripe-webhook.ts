/**
 * Stripe's webhook events, verified by the SDK's signature check, applied idempotently: an event id seen before is
 * answered without doing anything again; a PaymentIntent event re-reads the PaymentIntent from Stripe and applies
 * its current state, so duplicated and out-of-order events (a failure after a success) end in the same place.
 */
import { accounts, cardOrders, ruPackages, stripeEvents } from '@rpc/db';
import { and, eq, isNotNull, isNull, notExists } from 'drizzle-orm';
import type Stripe from 'stripe';
import { callStripe, type TCardDeps } from './card-deps';
import { findCustomerId } from './customers';
import { applyPaymentIntent } from './settle-order';
import type { TStripeSettings } from './stripe-settings';

export type TWebhookAnswer = { status: number; body: { received: boolean; outcome: string } };

export async function handleStripeWebhook(
  deps: TCardDeps,
  rawBody: string,
  signature: string | undefined,
): Promise<TWebhookAnswer> {
  const stripe = deps.stripe;
  if (!stripe) return { status: 404, body: { received: false, outcome: 'not_configured' } };
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error('no Stripe-Signature header');
    event = stripe.client.webhooks.constructEvent(rawBody, signature, stripe.webhookSecret);
  } catch {
    return { status: 400, body: { received: false, outcome: 'bad_signature' } };
  }
  const [seen] = await deps.db
    .select({ outcome: stripeEvents.outcome })
    .from(stripeEvents)
    .where(eq(stripeEvents.id, event.id));
  if (seen) return { status: 200, body: { received: true, outcome: 'duplicate' } };

  const outcome = await applyEvent(deps, stripe, event);
  await deps.db
    .insert(stripeEvents)
    .values({ id: event.id, type: event.type, outcome, receivedAt: new Date(deps.clock.now()) })
    .onConflictDoNothing();
  return { status: 200, body: { received: true, outcome } };
}

async function applyEvent(
  deps: TCardDeps,
  stripe: TStripeSettings,
  event: Stripe.Event,
): Promise<string> {
  if (event.type.startsWith('payment_intent.')) {
    const sent = event.data.object as Stripe.PaymentIntent;
    const orderId = sent.metadata?.orderId;
    if (!orderId || !/^[0-9a-f-]{36}$/.test(orderId)) return 'ignored_no_order';
    const [order] = await deps.db.select().from(cardOrders).where(eq(cardOrders.id, orderId));
    if (!order) return 'ignored_unknown_order';
    if (order.paymentIntentId && order.paymentIntentId !== sent.id) return 'ignored_other_intent';
    // The event may beat the answer to our own create call: remember the PaymentIntent now.
    if (!order.paymentIntentId)
      await deps.db
        .update(cardOrders)
        .set({ paymentIntentId: sent.id })
        .where(and(eq(cardOrders.id, orderId), isNull(cardOrders.paymentIntentId)));
    const current = await callStripe(deps, 'paymentIntents.retrieve', () =>
      stripe.client.paymentIntents.retrieve(sent.id),
    );
    const { order: after } = await applyPaymentIntent(deps, orderId, current);
    return `order_${after.status}`;
  }
  if (event.type === 'setup_intent.succeeded') {
    return applySetupSucceeded(deps, stripe, event.data.object as Stripe.SetupIntent);
  }
  return 'ignored_type';
}

/** A card saved: the first card becomes the default; a card saved for one package's renewal renews it. */
async function applySetupSucceeded(
  deps: TCardDeps,
  stripe: TStripeSettings,
  sent: Stripe.SetupIntent,
): Promise<string> {
  const current = await callStripe(deps, 'setupIntents.retrieve', () =>
    stripe.client.setupIntents.retrieve(sent.id),
  );
  const accountId = current.metadata?.accountId;
  const pm =
    typeof current.payment_method === 'string'
      ? current.payment_method
      : current.payment_method?.id;
  const customer = typeof current.customer === 'string' ? current.customer : current.customer?.id;
  if (current.status !== 'succeeded' || !accountId || !pm || !customer) return 'ignored_setup';
  // The setup must belong to the account it names.
  if ((await findCustomerId(deps, accountId)) !== customer) return 'ignored_foreign_setup';
  const found = await callStripe(deps, 'customers.retrieve', () =>
    stripe.client.customers.retrieve(customer),
  );
  if (
    !('deleted' in found && found.deleted) &&
    !(found as Stripe.Customer).invoice_settings?.default_payment_method
  )
    await callStripe(deps, 'customers.update', () =>
      stripe.client.customers.update(customer, {
        invoice_settings: { default_payment_method: pm },
      }),
    );
  const packageId = current.metadata?.packageId;
  if (
    current.metadata?.purpose === 'auto_renew' &&
    packageId &&
    /^[0-9a-f-]{36}$/.test(packageId)
  ) {
    const [renews] = await deps.db
      .update(ruPackages)
      .set({ autoRenew: true, renewChannel: 'card', renewCardId: pm })
      .where(
        and(
          eq(ruPackages.id, packageId),
          eq(ruPackages.accountId, accountId),
          eq(ruPackages.status, 'active'),
          // A disbanded team's packages stay off: nobody can act for it, and a renewal charged to its card would
          // only be credited and moved to the former owner (settle-order.ts, account_disbanded).
          notExists(
            deps.db
              .select({ id: accounts.id })
              .from(accounts)
              .where(and(eq(accounts.id, accountId), isNotNull(accounts.disbandedAt))),
          ),
        ),
      )
      .returning({ id: ruPackages.id });
    return renews ? 'card_saved_for_renewal' : 'card_saved';
  }
  return 'card_saved';
}

/**
 * Loads Stripe.js only when a card form or a card authentication needs it. The pure entry of @stripe/stripe-js
 * injects https://js.stripe.com/… on the first call, not on import (the plain entry would load it on every page),
 * and with no publishable key (card payments not configured) it is never called at all.
 */
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';

const loaded = new Map<string, Promise<Stripe | null>>();

/** One Stripe instance per publishable key; a failed load is forgotten, so the next call tries again. */
export function getStripe(publishableKey: string): Promise<Stripe | null> {
  let promise = loaded.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey).catch((error: unknown) => {
      loaded.delete(publishableKey);
      throw error;
    });
    loaded.set(publishableKey, promise);
  }
  return promise;
}

/**
 * hub_createStripeSetup: starts saving a card (a Stripe SetupIntent the browser confirms with Stripe.js). No popup:
 * the add-card dialog shows why it failed, beside the card fields.
 */
import { callRpc } from '../../../lib/rpc-client';

export function createCardSetup() {
  return callRpc('hub_createStripeSetup', {}, { hideError: true });
}

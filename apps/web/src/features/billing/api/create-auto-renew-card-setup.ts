/**
 * hub_createAutoRenewStripeSetup: saves a card for renewing one package (the SetupIntent carries the package), for
 * an account that has no card yet. The add-card dialog shows a failure itself, so there is no popup.
 */
import { callRpc } from '../../../lib/rpc-client';

export function createAutoRenewCardSetup(packageId: string) {
  return callRpc('hub_createAutoRenewStripeSetup', { packageId }, { hideError: true });
}

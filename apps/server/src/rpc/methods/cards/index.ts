/** Handlers of the card domain (packages/contract/src/cards/methods.ts); the work is in services/cards. */
import type { CARD_METHODS, TNamesOf } from '@rpc/contract';
import { userHandler, type THandler } from '../../define-handler';
import {
  buyPackageByCard,
  createStripeOrder,
  pollOrder,
  skuFirstConfirmCard,
} from '../../../services/cards/card-orders';
import {
  createStripeSetup,
  getCreditCardList,
  removeCreditCard,
  setDefaultCreditCard,
} from '../../../services/cards/saved-cards';
import {
  createAutoRenewStripeSetup,
  getSubscriptions,
  setAutoRenewByCard,
} from '../../../services/cards/subscriptions';
import { caller } from '../wallet/caller';

export const CARD_HANDLERS: {
  [N in TNamesOf<typeof CARD_METHODS>]: THandler<N>;
} = {
  hub_getCreditCardList: userHandler('hub_getCreditCardList', ({ ctx, auth }) =>
    getCreditCardList(ctx, caller(auth)),
  ),
  hub_createStripeSetup: userHandler('hub_createStripeSetup', ({ ctx, auth }) =>
    createStripeSetup(ctx, caller(auth)),
  ),
  hub_setDefaultCreditCard: userHandler('hub_setDefaultCreditCard', ({ ctx, auth, params }) =>
    setDefaultCreditCard(ctx, caller(auth), params),
  ),
  hub_removeCreditCard: userHandler('hub_removeCreditCard', ({ ctx, auth, params }) =>
    removeCreditCard(ctx, caller(auth), params),
  ),
  hub_skuFirstConfirmCard: userHandler('hub_skuFirstConfirmCard', ({ ctx, auth, params }) =>
    skuFirstConfirmCard(ctx, caller(auth), params),
  ),
  hub_buyPackageByCard: userHandler('hub_buyPackageByCard', ({ ctx, auth, params }) =>
    buyPackageByCard(ctx, caller(auth), params),
  ),
  hub_createStripeOrder: userHandler('hub_createStripeOrder', ({ ctx, auth, params }) =>
    createStripeOrder(ctx, caller(auth), params),
  ),
  hub_polling: userHandler('hub_polling', ({ ctx, auth, params }) =>
    pollOrder(ctx, caller(auth), params),
  ),
  hub_createAutoRenewStripeSetup: userHandler(
    'hub_createAutoRenewStripeSetup',
    ({ ctx, auth, params }) => createAutoRenewStripeSetup(ctx, caller(auth), params),
  ),
  hub_setAutoRenewByCard: userHandler('hub_setAutoRenewByCard', ({ ctx, auth, params }) =>
    setAutoRenewByCard(ctx, caller(auth), params),
  ),
  hub_getSubscriptions: userHandler('hub_getSubscriptions', ({ ctx, auth }) =>
    getSubscriptions(ctx, caller(auth)),
  ),
};

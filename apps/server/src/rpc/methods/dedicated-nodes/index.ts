/** Handlers of the dedicated-node domain (packages/contract/src/dedicated-nodes/methods.ts). */
import type { DN_METHODS, TNamesOf } from '@rpc/contract';
import { buyDnNodeByWallet } from '../../../services/dedicated-nodes/buy-node';
import { getDnNodeView } from '../../../services/dedicated-nodes/get-nodes';
import { getDnSku } from '../../../services/dedicated-nodes/get-dn-sku';
import { buyDnNodeByCard, renewDnNodeByCard } from '../../../services/dedicated-nodes/pay-by-card';
import { renewDnNodeByWallet } from '../../../services/dedicated-nodes/renew-node';
import { userHandler, type THandler } from '../../define-handler';
import { asRpc, caller } from './dn-rpc-error';

export const DN_HANDLERS: {
  [N in TNamesOf<typeof DN_METHODS>]: THandler<N>;
} = {
  hub_getDnSku: userHandler('hub_getDnSku', ({ ctx }) => Promise.resolve(getDnSku(ctx))),
  hub_buyDnNodeByWallet: userHandler('hub_buyDnNodeByWallet', ({ ctx, auth, params }) =>
    asRpc(buyDnNodeByWallet(ctx, caller(auth), params)),
  ),
  hub_buyDnNodeByCard: userHandler('hub_buyDnNodeByCard', ({ ctx, auth, params }) =>
    asRpc(buyDnNodeByCard(ctx, caller(auth), params)),
  ),
  hub_getUserDnNodeView: userHandler('hub_getUserDnNodeView', ({ ctx, auth, params }) =>
    asRpc(getDnNodeView(ctx, caller(auth), params)),
  ),
  hub_renewDnNodeByWallet: userHandler('hub_renewDnNodeByWallet', ({ ctx, auth, params }) =>
    asRpc(renewDnNodeByWallet(ctx, caller(auth), params)),
  ),
  hub_renewDnNodeByCard: userHandler('hub_renewDnNodeByCard', ({ ctx, auth, params }) =>
    asRpc(renewDnNodeByCard(ctx, caller(auth), params)),
  ),
};

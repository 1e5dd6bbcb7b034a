/** Handlers of wallet sign-in (Sign-In with Ethereum); the work is in services/sign-in/wallet-sign-in.ts. */
import {
  bindMetamask,
  getMetamaskNonce,
  metamaskRegister,
  unbindMetamask,
} from '../../../services/sign-in/wallet-sign-in';
import { publicHandler, userHandler, type THandler } from '../../define-handler';

type TWalletNames =
  'hub_getMetamaskNonce' | 'hub_metamaskRegister' | 'hub_bindMetamask' | 'hub_unbindMetamask';

export const WALLET_SIGN_IN_HANDLERS: { [N in TWalletNames]: THandler<N> } = {
  hub_getMetamaskNonce: publicHandler('hub_getMetamaskNonce', ({ ctx, params }) =>
    getMetamaskNonce(ctx, params),
  ),
  hub_metamaskRegister: publicHandler('hub_metamaskRegister', ({ ctx, params }) =>
    metamaskRegister(ctx, params),
  ),
  hub_bindMetamask: userHandler('hub_bindMetamask', ({ ctx, auth, params }) =>
    bindMetamask(ctx, auth, params),
  ),
  hub_unbindMetamask: userHandler('hub_unbindMetamask', ({ ctx, auth }) =>
    unbindMetamask(ctx, auth),
  ),
};

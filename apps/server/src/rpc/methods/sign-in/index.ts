/** Handlers of the sign-in domain (packages/contract/src/sign-in/methods.ts); the work is in services/sign-in. */
import type { SIGN_IN_METHODS, TNamesOf } from '@rpc/contract';
import type { THandler } from '../../define-handler';
import { OAUTH_HANDLERS } from './oauth';
import { SECURITY_HANDLERS } from './security';
import { WALLET_SIGN_IN_HANDLERS } from './wallet';

export const SIGN_IN_HANDLERS: {
  [N in TNamesOf<typeof SIGN_IN_METHODS>]: THandler<N>;
} = {
  ...WALLET_SIGN_IN_HANDLERS,
  ...OAUTH_HANDLERS,
  ...SECURITY_HANDLERS,
};

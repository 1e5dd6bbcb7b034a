import { setUserAcceptTerm } from '../../../services/account/set-user-accept-term';
import { userHandler } from '../../define-handler';

export const setUserAcceptTermHandler = userHandler(
  'hub_setUserAcceptTerm',
  ({ ctx, auth, params }) => setUserAcceptTerm({ ...ctx, ...params, auth }),
);

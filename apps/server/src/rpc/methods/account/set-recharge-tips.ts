import { setRechargeTips } from '../../../services/account/set-recharge-tips';
import { userHandler } from '../../define-handler';

export const setRechargeTipsHandler = userHandler('hub_setRechargeTips', ({ ctx, auth, params }) =>
  setRechargeTips({ ...ctx, ...params, auth }),
);

import { setUserNickname } from '../../../services/account/set-user-nickname';
import { userHandler } from '../../define-handler';

export const setUserNicknameHandler = userHandler('hub_setUserNickname', ({ ctx, auth, params }) =>
  setUserNickname({ ...ctx, ...params, auth }),
);

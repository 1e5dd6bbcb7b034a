import { getUserMessages } from '../../../services/notices/get-user-messages';
import { userHandler } from '../../define-handler';

export const getUserMessagesHandler = userHandler('hub_getUserMessages', ({ ctx, auth, params }) =>
  getUserMessages({ ...ctx, auth, ...params }),
);

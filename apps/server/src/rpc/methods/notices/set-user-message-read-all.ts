import { setUserMessageReadAll } from '../../../services/notices/set-user-message-read';
import { userHandler } from '../../define-handler';

export const setUserMessageReadAllHandler = userHandler(
  'hub_setUserMessageReadAll',
  ({ ctx, auth }) => setUserMessageReadAll({ ...ctx, auth }),
);

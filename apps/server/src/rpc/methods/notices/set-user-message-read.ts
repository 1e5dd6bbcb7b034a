import { setUserMessageRead } from '../../../services/notices/set-user-message-read';
import { userHandler } from '../../define-handler';

export const setUserMessageReadHandler = userHandler(
  'hub_setUserMessageRead',
  ({ ctx, auth, params }) => setUserMessageRead({ ...ctx, auth, type: params.type }),
);

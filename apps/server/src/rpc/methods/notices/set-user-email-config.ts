import { setUserEmailConfig } from '../../../services/notices/email-config';
import { userHandler } from '../../define-handler';

export const setUserEmailConfigHandler = userHandler(
  'hub_setUserEmailConfig',
  ({ ctx, auth, params }) => setUserEmailConfig({ ...ctx, auth, types: params.types }),
);

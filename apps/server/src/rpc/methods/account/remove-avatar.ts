import { removeAvatar } from '../../../services/account/remove-avatar';
import { userHandler } from '../../define-handler';

export const removeAvatarHandler = userHandler('hub_removeAvatar', ({ ctx, auth }) =>
  removeAvatar({ db: ctx.db, clock: ctx.clock, auth }),
);

import { register } from '../../../services/account/register';
import { publicHandler } from '../../define-handler';

export const registerHandler = publicHandler('hub_register', ({ ctx, params }) =>
  register({ ...ctx, ...params }),
);

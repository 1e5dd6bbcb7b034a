import { login } from '../../../services/account/login';
import { publicHandler } from '../../define-handler';

export const loginHandler = publicHandler('hub_login', ({ ctx, params }) =>
  login({ ...ctx, ...params }),
);

import { emailExists } from '../../../services/account/email-exists';
import { publicHandler } from '../../define-handler';

export const emailExistsHandler = publicHandler('hub_emailExists', ({ ctx, params }) =>
  emailExists({ ...ctx, ...params }),
);

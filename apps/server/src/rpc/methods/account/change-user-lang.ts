import { changeUserLang } from '../../../services/account/change-user-lang';
import { userHandler } from '../../define-handler';

export const changeUserLangHandler = userHandler('hub_changeUserLang', ({ ctx, auth, params }) =>
  changeUserLang({ ...ctx, ...params, auth }),
);

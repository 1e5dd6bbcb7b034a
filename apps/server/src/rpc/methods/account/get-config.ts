import { getConfig } from '../../../services/account/get-config';
import { publicHandler } from '../../define-handler';

export const getConfigHandler = publicHandler('hub_getConfig', async ({ ctx }) => getConfig(ctx));

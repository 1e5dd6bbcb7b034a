import { getRuTable } from '../../../services/chains/get-ru-table';
import { publicHandler } from '../../define-handler';

export const getRuTableHandler = publicHandler('hub_getRuTable', async () => getRuTable());

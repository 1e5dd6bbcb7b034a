import { getSupportChains } from '../../../services/chains/get-support-chains';
import { publicHandler } from '../../define-handler';

export const getSupportChainsHandler = publicHandler('hub_getSupportChains', async ({ ctx }) =>
  getSupportChains(ctx),
);

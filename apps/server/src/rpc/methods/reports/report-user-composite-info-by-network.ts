import { reportUserCompositeInfoByNetwork } from '../../../services/reports/report-user-composite-info-by-network';
import { userHandler } from '../../define-handler';

export const reportUserCompositeInfoByNetworkHandler = userHandler(
  'hub_reportUserCompositeInfoByNetwork',
  ({ ctx, auth, params }) => reportUserCompositeInfoByNetwork({ ...ctx, auth, ...params }),
);

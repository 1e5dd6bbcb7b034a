import { reportUsageInfoByNetwork } from '../../../services/reports/report-usage-info-by-network';
import { userHandler } from '../../define-handler';

export const reportUsageInfoByNetworkHandler = userHandler(
  'hub_reportUsageInfoByNetwork',
  ({ ctx, auth, params }) => reportUsageInfoByNetwork({ ...ctx, auth, ...params }),
);

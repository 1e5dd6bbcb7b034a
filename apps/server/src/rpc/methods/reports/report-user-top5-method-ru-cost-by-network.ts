import { reportUserTop5MethodRuCostByNetwork } from '../../../services/reports/report-user-top5-method-ru-cost-by-network';
import { userHandler } from '../../define-handler';

export const reportUserTop5MethodRuCostByNetworkHandler = userHandler(
  'hub_reportUserTop5MethodRuCostByNetwork',
  ({ ctx, auth, params }) => reportUserTop5MethodRuCostByNetwork({ ...ctx, auth, ...params }),
);

import { reportUserTop5MethodRuCostByApikey } from '../../../services/reports/report-user-top5-method-ru-cost-by-apikey';
import { userHandler } from '../../define-handler';

export const reportUserTop5MethodRuCostByApikeyHandler = userHandler(
  'hub_reportUserTop5MethodRuCostByApikey',
  ({ ctx, auth, params }) => reportUserTop5MethodRuCostByApikey({ ...ctx, auth, ...params }),
);

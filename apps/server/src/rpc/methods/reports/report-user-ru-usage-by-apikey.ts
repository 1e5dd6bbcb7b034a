import { reportUserRuUsageByApikey } from '../../../services/reports/report-user-ru-usage-by-apikey';
import { userHandler } from '../../define-handler';

export const reportUserRuUsageByApikeyHandler = userHandler(
  'hub_reportUserRuUsageByApikey',
  ({ ctx, auth, params }) => reportUserRuUsageByApikey({ ...ctx, auth, ...params }),
);

import { reportUserRuUsage } from '../../../services/reports/report-user-ru-usage';
import { userHandler } from '../../define-handler';

export const reportUserRuUsageHandler = userHandler(
  'hub_reportUserRuUsage',
  ({ ctx, auth, params }) => reportUserRuUsage({ ...ctx, auth, ...params }),
);

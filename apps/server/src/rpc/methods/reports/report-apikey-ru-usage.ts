import { reportApikeyRuUsage } from '../../../services/reports/report-apikey-ru-usage';
import { userHandler } from '../../define-handler';

export const reportApikeyRuUsageHandler = userHandler(
  'hub_reportApikeyRuUsage',
  ({ ctx, auth, params }) => reportApikeyRuUsage({ ...ctx, auth, ...params }),
);

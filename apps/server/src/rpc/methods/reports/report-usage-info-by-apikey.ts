import { reportUsageInfoByApikey } from '../../../services/reports/report-usage-info-by-apikey';
import { userHandler } from '../../define-handler';

export const reportUsageInfoByApikeyHandler = userHandler(
  'hub_reportUsageInfoByApikey',
  ({ ctx, auth, params }) => reportUsageInfoByApikey({ ...ctx, auth, ...params }),
);

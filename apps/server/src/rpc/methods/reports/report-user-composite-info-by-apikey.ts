import { reportUserCompositeInfoByApikey } from '../../../services/reports/report-user-composite-info-by-apikey';
import { userHandler } from '../../define-handler';

export const reportUserCompositeInfoByApikeyHandler = userHandler(
  'hub_reportUserCompositeInfoByApikey',
  ({ ctx, auth, params }) => reportUserCompositeInfoByApikey({ ...ctx, auth, ...params }),
);

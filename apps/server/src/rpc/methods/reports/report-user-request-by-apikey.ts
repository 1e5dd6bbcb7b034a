import { reportUserRequestByApikey } from '../../../services/reports/report-user-request-by-apikey';
import { userHandler } from '../../define-handler';

export const reportUserRequestByApikeyHandler = userHandler(
  'hub_reportUserRequestByApikey',
  ({ ctx, auth, params }) => reportUserRequestByApikey({ ...ctx, auth, ...params }),
);

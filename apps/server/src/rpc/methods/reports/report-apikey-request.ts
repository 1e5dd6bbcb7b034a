import { reportApikeyRequest } from '../../../services/reports/report-apikey-request';
import { userHandler } from '../../define-handler';

export const reportApikeyRequestHandler = userHandler(
  'hub_reportApikeyRequest',
  ({ ctx, auth, params }) => reportApikeyRequest({ ...ctx, auth, ...params }),
);

import { reportApikeyCompositeInfo } from '../../../services/reports/report-apikey-composite-info';
import { userHandler } from '../../define-handler';

export const reportApikeyCompositeInfoHandler = userHandler(
  'hub_reportApikeyCompositeInfo',
  ({ ctx, auth, params }) => reportApikeyCompositeInfo({ ...ctx, auth, ...params }),
);

import { reportUserCompositeInfo } from '../../../services/reports/report-user-composite-info';
import { userHandler } from '../../define-handler';

export const reportUserCompositeInfoHandler = userHandler(
  'hub_reportUserCompositeInfo',
  ({ ctx, auth, params }) => reportUserCompositeInfo({ ...ctx, auth, ...params }),
);

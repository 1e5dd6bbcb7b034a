import { reportUserRefusals } from '../../../services/reports/report-user-refusals';
import { userHandler } from '../../define-handler';

export const reportUserRefusalsHandler = userHandler(
  'hub_reportUserRefusals',
  ({ ctx, auth, params }) => reportUserRefusals({ ...ctx, auth, ...params }),
);

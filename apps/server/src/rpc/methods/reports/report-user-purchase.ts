import { reportUserPurchase } from '../../../services/reports/report-user-purchase';
import { userHandler } from '../../define-handler';

export const reportUserPurchaseHandler = userHandler(
  'hub_reportUserPurchase',
  ({ ctx, auth, params }) =>
    reportUserPurchase({
      db: ctx.db,
      now: ctx.clock.now(),
      accountId: auth.account.id,
      range: {
        from: params.from,
        to: params.to,
        bucket: params.bucket,
        timeZone: params.timeZone,
      },
    }),
);

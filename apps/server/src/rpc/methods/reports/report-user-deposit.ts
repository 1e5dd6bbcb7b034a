import { reportUserDeposit } from '../../../services/reports/report-user-deposit';
import { userHandler } from '../../define-handler';

export const reportUserDepositHandler = userHandler(
  'hub_reportUserDeposit',
  ({ ctx, auth, params }) =>
    reportUserDeposit({
      db: ctx.db,
      now: ctx.clock.now(),
      accountId: auth.account.id,
      chainIds: ctx.chains.map((c) => c.id),
      range: {
        from: params.from,
        to: params.to,
        bucket: params.bucket,
        timeZone: params.timeZone,
        chain: params.chain,
      },
    }),
);

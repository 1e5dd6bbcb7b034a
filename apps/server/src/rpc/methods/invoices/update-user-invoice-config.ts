import { updateInvoiceConfig } from '../../../services/invoices/invoice-config';
import { userHandler } from '../../define-handler';

export const updateUserInvoiceConfigHandler = userHandler(
  'hub_updateUserInvoiceConfig',
  ({ ctx, auth, params }) =>
    updateInvoiceConfig(ctx.db, {
      accountId: auth.account.id,
      input: params,
      now: ctx.clock.now(),
    }),
);

import { getInvoiceConfig } from '../../../services/invoices/invoice-config';
import { userHandler } from '../../define-handler';

export const getUserInvoiceConfigHandler = userHandler(
  'hub_getUserInvoiceConfig',
  ({ ctx, auth }) => getInvoiceConfig(ctx.db, { accountId: auth.account.id }),
);

import { getInvoices } from '../../../services/invoices/get-invoices';
import { userHandler } from '../../define-handler';

export const getUserInvoiceHandler = userHandler('hub_getUserInvoice', ({ ctx, auth, params }) =>
  getInvoices(ctx.db, { accountId: auth.account.id, params }),
);

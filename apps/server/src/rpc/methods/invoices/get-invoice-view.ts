import { getInvoiceView } from '../../../services/invoices/get-invoice-view';
import { userHandler } from '../../define-handler';
import { asRpc, caller } from './invoice-rpc-error';

export const getInvoiceViewHandler = userHandler('hub_getInvoiceView', ({ ctx, auth, params }) =>
  asRpc(getInvoiceView({ deps: ctx, caller: caller(auth), params })),
);

import { getInvoicePdf } from '../../../services/invoices/get-invoice-pdf';
import { userHandler } from '../../define-handler';
import { asRpc, caller } from './invoice-rpc-error';

export const getInvoicePdfHandler = userHandler('hub_getInvoicePdf', ({ ctx, auth, params }) =>
  asRpc(getInvoicePdf({ deps: ctx, caller: caller(auth), params })),
);

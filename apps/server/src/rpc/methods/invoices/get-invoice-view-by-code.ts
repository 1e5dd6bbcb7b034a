import { getInvoiceViewByCode } from '../../../services/invoices/get-invoice-view';
import { publicHandler } from '../../define-handler';
import { asRpc } from './invoice-rpc-error';

export const getInvoiceViewByCodeHandler = publicHandler(
  'hub_getInvoiceViewByCode',
  ({ ctx, params }) => asRpc(getInvoiceViewByCode({ deps: ctx, params })),
);

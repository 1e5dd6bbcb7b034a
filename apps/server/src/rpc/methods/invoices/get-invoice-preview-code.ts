import { setInvoicePublicLink } from '../../../services/invoices/set-public-link';
import { userHandler } from '../../define-handler';
import { asRpc, caller } from './invoice-rpc-error';

export const getInvoicePreviewCodeHandler = userHandler(
  'hub_getInvoicePreviewCode',
  ({ ctx, auth, params }) =>
    asRpc(setInvoicePublicLink({ deps: ctx, caller: caller(auth), params })),
);

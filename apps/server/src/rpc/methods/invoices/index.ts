/** Handlers of the invoice domain (packages/contract/src/invoices/methods.ts). */
import type { INVOICE_METHODS, TNamesOf } from '@rpc/contract';
import type { THandler } from '../../define-handler';
import { getInvoicePdfHandler } from './get-invoice-pdf';
import { getInvoicePreviewCodeHandler } from './get-invoice-preview-code';
import { getInvoiceViewHandler } from './get-invoice-view';
import { getInvoiceViewByCodeHandler } from './get-invoice-view-by-code';
import { getUserInvoiceHandler } from './get-user-invoice';
import { getUserInvoiceConfigHandler } from './get-user-invoice-config';
import { updateUserInvoiceConfigHandler } from './update-user-invoice-config';

export const INVOICE_HANDLERS: {
  [N in TNamesOf<typeof INVOICE_METHODS>]: THandler<N>;
} = {
  hub_getUserInvoiceConfig: getUserInvoiceConfigHandler,
  hub_updateUserInvoiceConfig: updateUserInvoiceConfigHandler,
  hub_getUserInvoice: getUserInvoiceHandler,
  hub_getInvoiceView: getInvoiceViewHandler,
  hub_getInvoiceViewByCode: getInvoiceViewByCodeHandler,
  hub_getInvoicePreviewCode: getInvoicePreviewCodeHandler,
  hub_getInvoicePdf: getInvoicePdfHandler,
};

/** The operator as invoices print it, from INVOICE_SELLER_* (defaults: the console's name and support address). */
import type { TInvoiceSeller } from '@rpc/contract';
import type { TEnv } from '../../env';

export function loadInvoiceSeller(
  env: Pick<
    TEnv,
    | 'INVOICE_SELLER_NAME'
    | 'INVOICE_SELLER_ADDRESS'
    | 'INVOICE_SELLER_EMAIL'
    | 'INVOICE_SELLER_TAX_ID'
    | 'SUPPORT_EMAIL'
  >,
): TInvoiceSeller {
  return {
    name: env.INVOICE_SELLER_NAME,
    addressLines: (env.INVOICE_SELLER_ADDRESS ?? '')
      .split('|')
      .map((l) => l.trim())
      .filter((l) => l !== ''),
    email: env.INVOICE_SELLER_EMAIL ?? env.SUPPORT_EMAIL,
    taxId: env.INVOICE_SELLER_TAX_ID ?? '',
  };
}

/** hub_getInvoiceView (the acting account's, by id) and hub_getInvoiceViewByCode (anyone's, by a live public code). */
import type { TInvoiceSeller, TInvoiceView } from '@rpc/contract';
import type { TExecutor } from '@rpc/db';
import { findInvoiceByCode, findOwnInvoice } from './find-invoice';
import type { TInvoiceCaller } from './invoice-error';
import { toInvoiceView } from './to-invoice';

type TDeps = { db: TExecutor; config: { invoiceSeller: TInvoiceSeller } };

export async function getInvoiceView(o: {
  deps: TDeps;
  caller: TInvoiceCaller;
  params: { invoiceId: string };
}): Promise<TInvoiceView> {
  const row = await findOwnInvoice(o.deps.db, {
    accountId: o.caller.accountId,
    invoiceId: o.params.invoiceId,
  });
  return toInvoiceView(row, o.deps.config.invoiceSeller);
}

export async function getInvoiceViewByCode(o: {
  deps: TDeps;
  params: { code: string };
}): Promise<TInvoiceView> {
  const row = await findInvoiceByCode(o.deps.db, o.params.code);
  return toInvoiceView(row, o.deps.config.invoiceSeller);
}

/** Rows of invoices as the contract shows them. */
import type { TInvoiceSeller, TInvoiceSummary, TInvoiceView } from '@rpc/contract';
import type { TInvoiceRow } from '@rpc/db';

export function toInvoiceSummary(row: TInvoiceRow): TInvoiceSummary {
  return {
    id: row.id,
    number: row.number,
    issuedAt: row.issuedAt.getTime(),
    currency: 'USD',
    channel: row.channel,
    purchaseId: row.purchaseId,
    dnOrderId: row.dnOrderId,
    itemName: row.lines[0]?.name ?? { en: '', zh: '' },
    totalCents: row.totalCents,
    publicLinkCreatedAt: row.publicCodeHash ? (row.publicCodeCreatedAt?.getTime() ?? null) : null,
  };
}

/** `currentSeller` prints invoices issued before the seller was kept with them (migration 0023). */
export function toInvoiceView(row: TInvoiceRow, currentSeller: TInvoiceSeller): TInvoiceView {
  return {
    id: row.id,
    number: row.number,
    issuedAt: row.issuedAt.getTime(),
    currency: 'USD',
    channel: row.channel,
    status: 'paid',
    seller: row.seller ?? currentSeller,
    buyer: row.buyer,
    lines: row.lines,
    subtotalCents: row.subtotalCents,
    discountCents: row.discountCents,
    totalCents: row.totalCents,
    discountCode: row.discountCode,
  };
}

/**
 * Issues the invoice of a paid purchase, inside the purchase's own transaction (services/wallet/purchase-package.ts):
 * the next number of the account's UTC year from invoice_counters, the buyer's billing details and the line copied
 * as they are now. A purchase that rolls back takes its number with it, so numbers have no gaps
 * (docs/decisions/invoices.md).
 */
import {
  invoiceCounters,
  invoices,
  type TExecutor,
  type TInvoiceRow,
  type TPurchaseRow,
} from '@rpc/db';
import { eq, sql } from 'drizzle-orm';
import { readInvoiceParty } from './invoice-config';

export const INVOICE_NUMBER_PREFIX = 'INV';

/** INV-2026-000001: six digits at least, more once a year passes 999 999 invoices. */
export function formatInvoiceNumber(year: number, seq: number): string {
  return `${INVOICE_NUMBER_PREFIX}-${year}-${String(seq).padStart(6, '0')}`;
}

/**
 * The invoice of `purchase`, issued now unless it exists already (then unchanged, and no number is used).
 * Only purchases with something paid get one; a free claim answers null.
 */
export async function issueInvoice(
  tx: TExecutor,
  o: { purchase: TPurchaseRow; now: number },
): Promise<TInvoiceRow | null> {
  const p = o.purchase;
  if (p.paidCents <= 0) return null;
  const [existing] = await tx.select().from(invoices).where(eq(invoices.purchaseId, p.id));
  if (existing) return existing;

  const year = new Date(o.now).getUTCFullYear();
  // One statement: the counter row is created or moved, and stays locked until the purchase commits or rolls back.
  const [counter] = await tx
    .insert(invoiceCounters)
    .values({ accountId: p.accountId, year, lastSeq: 1 })
    .onConflictDoUpdate({
      target: [invoiceCounters.accountId, invoiceCounters.year],
      set: { lastSeq: sql`${invoiceCounters.lastSeq} + 1` },
    })
    .returning({ seq: invoiceCounters.lastSeq });
  const seq = counter!.seq;

  const [row] = await tx
    .insert(invoices)
    .values({
      accountId: p.accountId,
      purchaseId: p.id,
      number: formatInvoiceNumber(year, seq),
      year,
      seq,
      issuedAt: new Date(o.now),
      currency: 'USD',
      channel: p.channel,
      buyer: await readInvoiceParty(tx, p.accountId),
      lines: [
        {
          skuId: p.skuId,
          name: p.name,
          ru: p.ru,
          quantity: 1,
          unitCents: p.priceCents,
          amountCents: p.priceCents,
        },
      ],
      subtotalCents: p.priceCents,
      discountCents: p.discountCents,
      totalCents: p.paidCents,
      discountCode: p.discountCode,
      createdAt: new Date(o.now),
    })
    .returning();
  return row!;
}

/**
 * Issues the invoice of a paid purchase (or dedicated node order), inside the purchase's own transaction (services/wallet/purchase-package.ts):
 * the next number of the account's UTC year from invoice_counters, the seller (INVOICE_SELLER_*), the buyer's
 * billing details and the line copied as they are now. A purchase that rolls back takes its number with it, so numbers have no gaps
 * (docs/decisions/invoices.md).
 */
import {
  invoiceCounters,
  invoices,
  type TDedicatedNodeOrderRow,
  type TExecutor,
  type TInvoiceLineSnapshot,
  type TInvoiceRow,
  type TInvoiceSellerSnapshot,
  type TPurchaseRow,
} from '@rpc/db';
import { eq, sql } from 'drizzle-orm';
import { readInvoiceParty } from './invoice-config';

export const INVOICE_NUMBER_PREFIX = 'INV';

/** INV-2026-000001: six digits at least, more once a year passes 999 999 invoices. */
export function formatInvoiceNumber(year: number, seq: number): string {
  return `${INVOICE_NUMBER_PREFIX}-${year}-${String(seq).padStart(6, '0')}`;
}

/** What an invoice is for and its line, as the thing paid states them. */
type TInvoiceSource = {
  accountId: string;
  /** exactly one of purchaseId and dnOrderId */
  purchaseId: string | null;
  dnOrderId: string | null;
  channel: 'crypto' | 'card';
  seller: TInvoiceSellerSnapshot;
  line: TInvoiceLineSnapshot;
  discountCents: number;
  totalCents: number;
  discountCode: string | null;
};

/**
 * The invoice of `purchase`, issued now unless it exists already (then unchanged, and no number is used).
 * Only purchases with something paid get one; a free claim answers null.
 */
export async function issueInvoice(
  tx: TExecutor,
  o: { purchase: TPurchaseRow; seller: TInvoiceSellerSnapshot; now: number },
): Promise<TInvoiceRow | null> {
  const p = o.purchase;
  if (p.paidCents <= 0) return null;
  const [existing] = await tx.select().from(invoices).where(eq(invoices.purchaseId, p.id));
  if (existing) return existing;
  return writeInvoice(tx, o.now, {
    accountId: p.accountId,
    purchaseId: p.id,
    dnOrderId: null,
    channel: p.channel,
    seller: o.seller,
    line: {
      skuId: p.skuId,
      name: p.name,
      ru: p.ru,
      quantity: 1,
      unitCents: p.priceCents,
      amountCents: p.priceCents,
    },
    discountCents: p.discountCents,
    totalCents: p.paidCents,
    discountCode: p.discountCode,
  });
}

/**
 * The invoice of a dedicated node order (its purchase or a renewal), issued in the order's transaction like a
 * package's: one line of `months` at the monthly list price, the period's discount, the price paid. The wallet pays
 * as the crypto channel does (the balance), a card as card.
 */
export async function issueDnOrderInvoice(
  tx: TExecutor,
  o: {
    order: TDedicatedNodeOrderRow;
    chain: string;
    nodeType: string;
    region: string;
    name: { en: string; zh: string };
    seller: TInvoiceSellerSnapshot;
    now: number;
  },
): Promise<TInvoiceRow | null> {
  const d = o.order;
  if (d.priceCents <= 0) return null;
  const [existing] = await tx.select().from(invoices).where(eq(invoices.dnOrderId, d.id));
  if (existing) return existing;
  const subtotal = d.monthlyCents * d.months;
  return writeInvoice(tx, o.now, {
    accountId: d.accountId,
    purchaseId: null,
    dnOrderId: d.id,
    channel: d.channel === 'card' ? 'card' : 'crypto',
    seller: o.seller,
    line: {
      skuId: `dn:${o.chain}:${o.nodeType}:${o.region}`,
      name: o.name,
      ru: 0,
      quantity: d.months,
      unitCents: d.monthlyCents,
      amountCents: subtotal,
    },
    discountCents: subtotal - d.priceCents,
    totalCents: d.priceCents,
    discountCode: null,
  });
}

async function writeInvoice(tx: TExecutor, now: number, src: TInvoiceSource): Promise<TInvoiceRow> {
  const year = new Date(now).getUTCFullYear();
  // One statement: the counter row is created or moved, and stays locked until the purchase commits or rolls back.
  const [counter] = await tx
    .insert(invoiceCounters)
    .values({ accountId: src.accountId, year, lastSeq: 1 })
    .onConflictDoUpdate({
      target: [invoiceCounters.accountId, invoiceCounters.year],
      set: { lastSeq: sql`${invoiceCounters.lastSeq} + 1` },
    })
    .returning({ seq: invoiceCounters.lastSeq });
  const seq = counter!.seq;

  const [row] = await tx
    .insert(invoices)
    .values({
      accountId: src.accountId,
      purchaseId: src.purchaseId,
      dnOrderId: src.dnOrderId,
      number: formatInvoiceNumber(year, seq),
      year,
      seq,
      issuedAt: new Date(now),
      currency: 'USD',
      channel: src.channel,
      seller: src.seller,
      buyer: await readInvoiceParty(tx, src.accountId),
      lines: [src.line],
      subtotalCents: src.line.amountCents,
      discountCents: src.discountCents,
      totalCents: src.totalCents,
      discountCode: src.discountCode,
      createdAt: new Date(now),
    })
    .returning();
  return row!;
}

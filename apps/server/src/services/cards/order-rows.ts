/** A card order row as the API answers it. */
import { formatCents, type TCardBrand, type TCardOrder } from '@rpc/contract';
import type { TCardOrderRow } from '@rpc/db';

const SETTLED = new Set(['succeeded', 'failed', 'credited']);

export function isSettledStatus(status: string): boolean {
  return SETTLED.has(status);
}

export function toCardOrder(row: TCardOrderRow, clientSecret: string | null = null): TCardOrder {
  return {
    orderId: row.id,
    // An automatic package renewal is a package order to the buyer.
    kind: row.kind === 'renewal' ? 'package' : row.kind,
    status: row.status,
    isSettled: isSettledStatus(row.status),
    amountCents: row.amountCents,
    amount: formatCents(row.amountCents),
    skuId: row.skuId,
    skuName: row.skuName,
    clientSecret: row.status === 'requires_action' ? clientSecret : null,
    purchaseId: row.purchaseId,
    nodeId: row.nodeId,
    failureCode: row.failureCode,
    card:
      row.cardBrand && row.cardLast4
        ? { brand: row.cardBrand as TCardBrand, last4: row.cardLast4 }
        : null,
    createdAt: row.createdAt.getTime(),
    settledAt: row.settledAt?.getTime() ?? null,
  };
}

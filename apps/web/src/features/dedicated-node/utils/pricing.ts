/** Prices from the catalogue (hub_getDnSku), worked out as the server charges them (the contract's dnPriceCents). */
import type { TDnNodeType, TDnPeriod, TDnSku } from '@rpc/contract';
import { dnPriceCents } from '@rpc/contract';

export type TDnQuote = {
  monthlyCents: number;
  months: number;
  discountPercent: number;
  /** the monthly price times the months */
  listCents: number;
  discountCents: number;
  /** what is charged: the expectedCents of the payment */
  priceCents: number;
};

/** The monthly list price of a node type on a chain, or null when the catalogue no longer sells it. */
export function monthlyCentsOf(sku: TDnSku, chain: string, nodeType: TDnNodeType): number | null {
  const offer = sku.chains.find((c) => c.id === chain)?.nodeTypes.find((n) => n.type === nodeType);
  return offer?.monthlyCents ?? null;
}

export function quoteOf(monthlyCents: number, period: TDnPeriod): TDnQuote {
  const listCents = monthlyCents * period.months;
  const priceCents = dnPriceCents(monthlyCents, period.months, period.discountPercent);
  return {
    monthlyCents,
    months: period.months,
    discountPercent: period.discountPercent,
    listCents,
    discountCents: listCents - priceCents,
    priceCents,
  };
}

/** The cheapest monthly price of a chain, for "from $X / month". */
export function cheapestMonthlyCents(sku: TDnSku, chain: string): number | null {
  const prices = sku.chains.find((c) => c.id === chain)?.nodeTypes.map((n) => n.monthlyCents) ?? [];
  return prices.length ? Math.min(...prices) : null;
}

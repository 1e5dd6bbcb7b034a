/**
 * The dedicated-node catalogue: versioned data in config/dn-skus.json (like config/skus.json), checked at start
 * with the contract's schemas. An order stores the version and the prices it was made at.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ZDnChainOfferSchema,
  ZDnPeriodSchema,
  ZDnRegionSchema,
  dnPriceCents,
  type TDnChainOffer,
  type TDnNodeType,
} from '@rpc/contract';
import { z } from 'zod';
import { DnError } from './dn-error';

const ZDnCatalogueSchema = z.object({
  version: z.string().min(1),
  currency: z.literal('USD'),
  regions: z.array(ZDnRegionSchema).min(1),
  periods: z.array(ZDnPeriodSchema).min(1),
  chains: z.array(ZDnChainOfferSchema).min(1),
});
export type TDnCatalogue = z.infer<typeof ZDnCatalogueSchema>;

const DEFAULT_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../config/dn-skus.json',
);

/** Reads and checks a catalogue; a bad file stops the server at start with the reason. */
export function loadDnCatalogue(file = DEFAULT_PATH): TDnCatalogue {
  return checkDnCatalogue(JSON.parse(readFileSync(file, 'utf8')), file);
}

/** The checks of loadDnCatalogue on data already read (tests build catalogues in code). */
export function checkDnCatalogue(data: unknown, source = 'catalogue'): TDnCatalogue {
  const parsed = ZDnCatalogueSchema.safeParse(data);
  if (!parsed.success) throw new Error(`dedicated-node ${source}: ${parsed.error.message}`);
  const c = parsed.data;
  const fail = (why: string) => {
    throw new Error(`dedicated-node ${source}: ${why}`);
  };
  const regionIds = new Set<string>();
  for (const r of c.regions) {
    if (regionIds.has(r.id)) fail(`duplicate region ${r.id}`);
    regionIds.add(r.id);
  }
  const months = new Set<number>();
  for (const p of c.periods) {
    if (months.has(p.months)) fail(`duplicate period of ${p.months} months`);
    months.add(p.months);
  }
  const chainIds = new Set<string>();
  for (const chain of c.chains) {
    if (chainIds.has(chain.id)) fail(`duplicate chain ${chain.id}`);
    chainIds.add(chain.id);
    const types = chain.nodeTypes.map((t) => t.type);
    if (new Set(types).size !== types.length) fail(`chain ${chain.id}: a node type twice`);
    for (const r of chain.regions) if (!regionIds.has(r)) fail(`chain ${chain.id}: no region ${r}`);
  }
  return c;
}

/** What one order costs: the offer it matches and the price of the period, or the DnError saying what is wrong. */
export type TDnQuote = {
  chain: TDnChainOffer;
  nodeType: TDnNodeType;
  region: string;
  months: number;
  monthlyCents: number;
  discountPercent: number;
  priceCents: number;
};

export function quoteDn(
  catalogue: TDnCatalogue,
  terms: { chain: string; nodeType: TDnNodeType; region?: string; months: number },
): TDnQuote {
  const chain = catalogue.chains.find((c) => c.id === terms.chain);
  if (!chain) throw new DnError('chain_unknown');
  const type = chain.nodeTypes.find((t) => t.type === terms.nodeType);
  if (!type) throw new DnError('node_type_unavailable');
  // A renewal keeps the node's region: only a purchase names one.
  if (terms.region !== undefined && !chain.regions.includes(terms.region))
    throw new DnError('region_unknown');
  const period = catalogue.periods.find((p) => p.months === terms.months);
  if (!period) throw new DnError('period_unknown');
  return {
    chain,
    nodeType: terms.nodeType,
    region: terms.region ?? '',
    months: terms.months,
    monthlyCents: type.monthlyCents,
    discountPercent: period.discountPercent,
    priceCents: dnPriceCents(type.monthlyCents, terms.months, period.discountPercent),
  };
}

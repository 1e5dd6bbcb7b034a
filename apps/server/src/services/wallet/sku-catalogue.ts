/**
 * The SKU catalogue: versioned data in config/skus.json (like the gateway's RU table), validated at start with the
 * contract's schema. A purchase stores the catalogue version and the SKU's names, so history never changes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZLocalizedTextSchema, ZSkuSchema, type TSku } from '@rpc/contract';
import { z } from 'zod';

const ZCatalogueSchema = z.object({
  version: z.string().min(1),
  currency: z.literal('USD'),
  enterprise: z.object({
    contactEmail: z.string(),
    features: z.array(ZLocalizedTextSchema),
  }),
  skus: z.array(ZSkuSchema).min(1),
});
export type TSkuCatalogue = z.infer<typeof ZCatalogueSchema>;

const DEFAULT_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../config/skus.json',
);

/** Reads and checks a catalogue; a bad file stops the server at start with the reason. */
export function loadSkuCatalogue(file = DEFAULT_PATH): TSkuCatalogue {
  const parsed = ZCatalogueSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`SKU catalogue ${file}: ${parsed.error.message}`);
  const ids = new Set<string>();
  for (const sku of parsed.data.skus) {
    if (ids.has(sku.id)) throw new Error(`SKU catalogue ${file}: duplicate id ${sku.id}`);
    ids.add(sku.id);
    if (sku.type === 'default' && !sku.paygCentsPerMillionRu)
      throw new Error(`SKU catalogue ${file}: pay-as-you-go ${sku.id} has no price per million RU`);
  }
  return parsed.data;
}

export function findSku(catalogue: TSkuCatalogue, skuId: string): TSku | undefined {
  return catalogue.skus.find((s) => s.id === skuId);
}

/** CSV exports of deposits and purchases (SPEC §7 Wallet …Csv methods; docs/decisions/exports.md). */
import { z } from 'zod';
import { ZLanguageSchema } from '../account/schemas';
import {
  ZPackageTypeFilterSchema,
  ZPaymentChannelFilterSchema,
  ZSortOrderSchema,
} from '../wallet/schemas';

export const EXPORT_KINDS = ['deposit', 'purchase'] as const;
export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
/** Most rows one export holds; the file says so in its last line when there were more. */
export const EXPORT_MAX_ROWS = 100_000;
/** How long a download link works after it is handed out. */
export const EXPORT_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export const ZExportKindSchema = z.enum(EXPORT_KINDS);
export const ZExportStatusSchema = z.enum(EXPORT_STATUSES);
export type TExportKind = z.infer<typeof ZExportKindSchema>;
export type TExportStatus = z.infer<typeof ZExportStatusSchema>;

/** hub_getWalletDeposit's filters without paging, plus the language of localised cells (names). */
export const ZDepositExportParamsSchema = z.object({
  channel: ZPaymentChannelFilterSchema.default('all'),
  sort: ZSortOrderSchema.default('desc'),
  language: ZLanguageSchema.default('en'),
});
export type TDepositExportParams = z.infer<typeof ZDepositExportParamsSchema>;

/** hub_getViewUserPurchaseInfo's filters without paging, plus the language of localised cells (SKU names). */
export const ZPurchaseExportParamsSchema = z.object({
  channel: ZPaymentChannelFilterSchema.default('all'),
  packageType: ZPackageTypeFilterSchema.default('all'),
  sort: ZSortOrderSchema.default('desc'),
  language: ZLanguageSchema.default('en'),
});
export type TPurchaseExportParams = z.infer<typeof ZPurchaseExportParamsSchema>;

export const ZExportJobSchema = z.object({
  exportId: z.string(),
  kind: ZExportKindSchema,
  status: ZExportStatusSchema,
  /** set when done */
  fileName: z.string().optional(),
  /** set when done: a link only this account can use, valid for EXPORT_LINK_TTL_MS */
  downloadUrl: z.string().optional(),
  /** set when done: data rows in the file */
  rows: z.number().int().nonnegative().optional(),
  /** set when done: more rows matched than EXPORT_MAX_ROWS */
  truncated: z.boolean().optional(),
  createdAt: z.number().int(),
});
export type TExportJob = z.infer<typeof ZExportJobSchema>;

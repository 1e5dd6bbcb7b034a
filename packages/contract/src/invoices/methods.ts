/**
 * Invoice methods (SPEC §7 Wallet): billing details, the invoice list, one invoice, its public link and its PDF.
 * Every hub_getInvoice* call shows no error popup (SPEC §8 "getInvoice"): the screens say what went wrong.
 */
import { z } from 'zod';
import { ZLanguageSchema } from '../account/schemas';
import { defineMethod } from '../define-method';
import {
  ZPaymentChannelFilterSchema,
  ZWalletPageParamsSchema,
  pagedResult,
} from '../wallet/schemas';
import {
  ZInvoiceCodeSchema,
  ZInvoiceConfigInputSchema,
  ZInvoiceConfigSchema,
  ZInvoiceIdSchema,
  ZInvoicePdfSchema,
  ZInvoicePublicLinkSchema,
  ZInvoiceSummarySchema,
  ZInvoiceViewSchema,
} from './schemas';

export const hubGetUserInvoiceConfig = defineMethod({
  name: 'hub_getUserInvoiceConfig',
  summary:
    'The acting account’s billing details for invoices (every field "" until saved). An invoice copies them when ' +
    'it is issued; later changes reach later invoices only.',
  params: z.object({}),
  result: ZInvoiceConfigSchema,
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubUpdateUserInvoiceConfig = defineMethod({
  name: 'hub_updateUserInvoiceConfig',
  summary:
    'Changes the billing details: the fields given (trimmed, length-capped, "" clears one); the others keep ' +
    'their values. Answers the details as saved.',
  params: ZInvoiceConfigInputSchema,
  result: ZInvoiceConfigSchema,
  auth: 'user',
  permission: 'billing',
});

export const hubGetUserInvoice = defineMethod({
  name: 'hub_getUserInvoice',
  summary:
    'Invoices of the acting account, paged, newest first by default, filtered by payment channel. Every paid ' +
    'purchase has one (INV-<year>-<number>, numbered without gaps per account and year).',
  params: ZWalletPageParamsSchema.extend({ channel: ZPaymentChannelFilterSchema.default('all') }),
  result: pagedResult(ZInvoiceSummarySchema),
  auth: 'user',
  permission: 'billing',
  readOnly: true,
});

export const hubGetInvoiceView = defineMethod({
  name: 'hub_getInvoiceView',
  summary:
    'One invoice of the acting account in full (seller, buyer as issued, lines, totals). 50404 for an unknown id ' +
    'or another account’s invoice.',
  params: z.object({ invoiceId: ZInvoiceIdSchema }),
  result: ZInvoiceViewSchema,
  auth: 'user',
  permission: 'billing',
  readOnly: true,
  hideError: true,
});

export const hubGetInvoiceViewByCode = defineMethod({
  name: 'hub_getInvoiceViewByCode',
  summary:
    'The invoice behind a public code (the /invoice/{code} page; no session). 10400 for any code that is not ' +
    'live: unknown, malformed or revoked.',
  params: z.object({ code: ZInvoiceCodeSchema }),
  result: ZInvoiceViewSchema,
  auth: 'none',
  hideError: true,
});

export const hubGetInvoicePreviewCode = defineMethod({
  name: 'hub_getInvoicePreviewCode',
  summary:
    'Makes a public link to one invoice of the acting account: a new unguessable code, shown this once (only its ' +
    'hash is kept), which replaces any earlier one (that link stops working). revoke: true ends the link instead.',
  params: z.object({ invoiceId: ZInvoiceIdSchema, revoke: z.boolean().default(false) }),
  result: ZInvoicePublicLinkSchema,
  auth: 'user',
  permission: 'billing',
  hideError: true,
});

export const hubGetInvoicePdf = defineMethod({
  name: 'hub_getInvoicePdf',
  summary:
    'The PDF of one invoice of the acting account, base64, in the language given (default: the user’s). ' +
    'Without a session, GET /invoice-pdf?code=…&lang=… serves it for a live public code.',
  params: z.object({ invoiceId: ZInvoiceIdSchema, language: ZLanguageSchema.optional() }),
  result: ZInvoicePdfSchema,
  auth: 'user',
  permission: 'billing',
  readOnly: true,
  hideError: true,
});

/** The invoice domain's methods, merged into the catalogue by ../methods.ts. */
export const INVOICE_METHODS = [
  hubGetUserInvoiceConfig,
  hubUpdateUserInvoiceConfig,
  hubGetUserInvoice,
  hubGetInvoiceView,
  hubGetInvoiceViewByCode,
  hubGetInvoicePreviewCode,
  hubGetInvoicePdf,
] as const;

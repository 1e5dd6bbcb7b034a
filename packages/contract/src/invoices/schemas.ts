/**
 * Invoices (SPEC §7 Wallet invoice methods; docs/decisions/invoices.md): the billing details an account keeps, and
 * the invoice every paid purchase gets, numbered without gaps per account and year and readable through an opaque
 * public code (SPEC §2 /invoice/{code}).
 */
import { z } from 'zod';
import { ZCentsSchema, ZLocalizedTextSchema, ZPaymentChannelSchema } from '../wallet/schemas';

/** Longest value of each billing field, in characters (after trimming); the web form uses the same caps. */
export const INVOICE_CONFIG_LIMITS = {
  name: 100,
  company: 120,
  addressLine1: 120,
  addressLine2: 120,
  city: 80,
  state: 80,
  postalCode: 16,
  country: 56,
  taxId: 40,
  email: 254,
} as const;
export type TInvoiceConfigField = keyof typeof INVOICE_CONFIG_LIMITS;
export const INVOICE_CONFIG_FIELDS = Object.keys(INVOICE_CONFIG_LIMITS) as TInvoiceConfigField[];

/** Where a public invoice's PDF is served (GET, no session): `?code=…&lang=en|zh`. */
export const INVOICE_PDF_PATH = '/invoice-pdf';
/** The public invoice page of SPEC §2. */
export const INVOICE_PAGE_PATH = '/invoice';

export function invoicePdfPath(code: string, language: 'en' | 'zh'): string {
  return `${INVOICE_PDF_PATH}?code=${encodeURIComponent(code)}&lang=${language}`;
}

// Control characters, zero-width space, line separators, bidi overrides and the BOM: nothing an invoice line needs,
// and the bidi ones can make a printed name read differently from what was typed.
const UNSAFE_TEXT = /[\p{Cc}\u200B\u2028-\u202E\u2066-\u2069\uFEFF]/u;

function line(max: number) {
  return z
    .string()
    .trim()
    .max(max)
    .refine((s) => !UNSAFE_TEXT.test(s), 'control or invisible characters are not allowed');
}

/** One field's rule ('' means "not given" everywhere). */
export const ZInvoiceConfigFieldSchemas = {
  name: line(INVOICE_CONFIG_LIMITS.name),
  company: line(INVOICE_CONFIG_LIMITS.company),
  addressLine1: line(INVOICE_CONFIG_LIMITS.addressLine1),
  addressLine2: line(INVOICE_CONFIG_LIMITS.addressLine2),
  city: line(INVOICE_CONFIG_LIMITS.city),
  state: line(INVOICE_CONFIG_LIMITS.state),
  postalCode: z
    .string()
    .trim()
    .regex(/^(?:[A-Za-z0-9][A-Za-z0-9 -]{0,15})?$/, 'letters, digits, spaces and - only'),
  country: line(INVOICE_CONFIG_LIMITS.country),
  taxId: z
    .string()
    .trim()
    .regex(/^(?:[A-Za-z0-9][A-Za-z0-9 ./-]{0,39})?$/, 'letters, digits, spaces and . / - only'),
  email: z
    .string()
    .trim()
    .max(INVOICE_CONFIG_LIMITS.email)
    .pipe(z.union([z.literal(''), z.email('not an e-mail address')])),
} satisfies Record<TInvoiceConfigField, z.ZodType<string>>;

/** hub_updateUserInvoiceConfig: the fields to change; a field left out keeps its value. */
export const ZInvoiceConfigInputSchema = z.object(ZInvoiceConfigFieldSchemas).partial();
export type TInvoiceConfigInput = z.infer<typeof ZInvoiceConfigInputSchema>;

/** The buyer on an invoice: the account's billing details when it was issued. */
export const ZInvoicePartySchema = z.object({
  name: z.string(),
  company: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string(),
  city: z.string(),
  state: z.string(),
  postalCode: z.string(),
  country: z.string(),
  taxId: z.string(),
  email: z.string(),
});
export type TInvoiceParty = z.infer<typeof ZInvoicePartySchema>;

export const ZInvoiceConfigSchema = ZInvoicePartySchema.extend({
  /** null: never saved (every field '') */
  updatedAt: z.number().int().nullable(),
});
export type TInvoiceConfig = z.infer<typeof ZInvoiceConfigSchema>;

/** The operator issuing the invoices (server configuration). */
export const ZInvoiceSellerSchema = z.object({
  name: z.string(),
  addressLines: z.array(z.string()),
  email: z.string(),
  taxId: z.string(),
});
export type TInvoiceSeller = z.infer<typeof ZInvoiceSellerSchema>;

export const ZInvoiceIdSchema = z.uuid();
/** A public code as typed into a URL: anything not a live code is refused alike (10400), so only length is checked. */
export const ZInvoiceCodeSchema = z.string().trim().min(1).max(128);

/** A package line: its SKU and RUs, quantity 1 · a dedicated node line: dn:<chain>:<type>:<region>, 0 RU, months. */
export const ZInvoiceLineSchema = z.object({
  skuId: z.string(),
  name: ZLocalizedTextSchema,
  ru: z.number().int().nonnegative(),
  quantity: z.number().int().positive(),
  unitCents: ZCentsSchema,
  amountCents: ZCentsSchema,
});
export type TInvoiceLine = z.infer<typeof ZInvoiceLineSchema>;

/** A row of hub_getUserInvoice. */
export const ZInvoiceSummarySchema = z.object({
  id: z.string(),
  /** INV-2026-000001 */
  number: z.string(),
  issuedAt: z.number().int(),
  currency: z.literal('USD'),
  /** crypto: paid from the wallet balance; card: paid by card */
  channel: ZPaymentChannelSchema,
  /** the RU package purchase invoiced, or null for a dedicated node's order */
  purchaseId: z.string().nullable(),
  /** the dedicated node order invoiced (its purchase or a renewal), or null for a package */
  dnOrderId: z.string().nullable(),
  itemName: ZLocalizedTextSchema,
  totalCents: ZCentsSchema,
  /** when the live public link was made; null: none (never made, or revoked) */
  publicLinkCreatedAt: z.number().int().nullable(),
});
export type TInvoiceSummary = z.infer<typeof ZInvoiceSummarySchema>;

/** One invoice in full: what the page and the PDF show. */
export const ZInvoiceViewSchema = z.object({
  id: z.string(),
  number: z.string(),
  issuedAt: z.number().int(),
  currency: z.literal('USD'),
  channel: ZPaymentChannelSchema,
  /** every invoice is for a purchase already paid */
  status: z.literal('paid'),
  seller: ZInvoiceSellerSchema,
  buyer: ZInvoicePartySchema,
  lines: z.array(ZInvoiceLineSchema),
  subtotalCents: ZCentsSchema,
  discountCents: ZCentsSchema,
  totalCents: ZCentsSchema,
  discountCode: z.string().nullable(),
});
export type TInvoiceView = z.infer<typeof ZInvoiceViewSchema>;

export const ZInvoicePublicLinkSchema = z.object({
  invoiceId: z.string(),
  /** the code, shown this once (only its hash is kept); null after a revoke */
  code: z.string().nullable(),
  /** the public page, PUBLIC_URL + /invoice/{code} */
  url: z.string().nullable(),
  /** the PDF of that page in English (lang=zh for Chinese) */
  pdfUrl: z.string().nullable(),
  createdAt: z.number().int().nullable(),
});
export type TInvoicePublicLink = z.infer<typeof ZInvoicePublicLinkSchema>;

export const ZInvoicePdfSchema = z.object({
  /** INV-2026-000001.pdf */
  fileName: z.string(),
  contentType: z.literal('application/pdf'),
  /** the PDF, base64 */
  base64: z.string(),
});
export type TInvoicePdf = z.infer<typeof ZInvoicePdfSchema>;

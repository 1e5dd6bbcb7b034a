/**
 * Support tickets, the operator banner and page/action tracking (SPEC §7 "Support ticket" and "Other";
 * docs/decisions/support-and-banners.md).
 */
import { z } from 'zod';
import { ZLanguageSchema } from '../account/schemas';

/** The ticket's own path (SPEC §7: not the JSON-RPC path): multipart/form-data, answered with the API envelope. */
export const SUPPORT_TICKET_PATH = '/support/ticket';

export const TICKET_CATEGORIES = ['billing', 'technical', 'account', 'api_keys', 'other'] as const;
export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export const TICKET_SUBJECT_MAX = 200;
export const TICKET_BODY_MIN = 10;
export const TICKET_BODY_MAX = 10_000;
/** Largest attachment, in bytes. */
export const TICKET_ATTACHMENT_MAX_BYTES = 2 * 1024 * 1024;
/** Types an attachment may have, told by its bytes (never by its name or the browser's claim). */
export const TICKET_ATTACHMENT_TYPES = [
  'image/png',
  'image/jpeg',
  'application/pdf',
  'text/plain',
] as const;
/** Extensions offered in the file picker (a hint only: the server sniffs the bytes). */
export const TICKET_ATTACHMENT_ACCEPT = '.png,.jpg,.jpeg,.pdf,.txt,.log';

export const ZTicketCategorySchema = z.enum(TICKET_CATEGORIES);
export const ZTicketStatusSchema = z.enum(TICKET_STATUSES);
export type TTicketCategory = z.infer<typeof ZTicketCategorySchema>;
export type TTicketStatus = z.infer<typeof ZTicketStatusSchema>;

/** Text of one line: no control characters at all (a subject ends up in a mail header). */
const ONE_LINE = /^[^\u0000-\u001f\u007f\u2028\u2029]*$/;
/** Free text: line breaks and tabs allowed, other control characters not. */
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

/** The form fields of a ticket (the attachment travels beside them as one file part named `attachment`). */
export const ZSupportTicketFieldsSchema = z.strictObject({
  category: ZTicketCategorySchema,
  subject: z.string().trim().min(3).max(TICKET_SUBJECT_MAX).regex(ONE_LINE),
  body: z.string().trim().min(TICKET_BODY_MIN).max(TICKET_BODY_MAX).regex(MULTI_LINE),
  /** one of the acting account's API keys the ticket is about */
  apiKeyId: z.uuid().optional(),
});
export type TSupportTicketFields = z.infer<typeof ZSupportTicketFieldsSchema>;

/** "TKT-000123": how a ticket number is shown everywhere (notice, mail, list). */
export function formatTicketNumber(n: number): string {
  return `TKT-${String(n).padStart(6, '0')}`;
}

/** The answer of POST SUPPORT_TICKET_PATH. */
export const ZSupportTicketCreatedSchema = z.object({
  ticketId: z.string(),
  /** e.g. TKT-000123 */
  number: z.string(),
  createdAt: z.number().int(),
});
export type TSupportTicketCreated = z.infer<typeof ZSupportTicketCreatedSchema>;

export const ZSupportTicketSchema = z.object({
  ticketId: z.string(),
  number: z.string(),
  category: ZTicketCategorySchema,
  subject: z.string(),
  status: ZTicketStatusSchema,
  createdAt: z.number().int(),
  hasAttachment: z.boolean(),
});
export type TSupportTicket = z.infer<typeof ZSupportTicketSchema>;

export const BANNER_LEVELS = ['info', 'warning'] as const;
export const BANNER_LANGUAGES = ['en', 'zh', 'all'] as const;
export const BANNER_TEXT_MAX = 500;
export const ZBannerLevelSchema = z.enum(BANNER_LEVELS);

/** An http(s) link, nothing else (no javascript:, data:, protocol-relative or credentials in the URL). */
export function isSafeHttpUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
    );
  } catch {
    return false;
  }
}

export const ZBannerSchema = z.object({
  bannerId: z.string(),
  level: ZBannerLevelSchema,
  text: z.string(),
  linkUrl: z.string().refine(isSafeHttpUrl).nullable(),
  startsAt: z.number().int(),
  endsAt: z.number().int(),
});
export type TBanner = z.infer<typeof ZBannerSchema>;

export const ZGetBannerParamsSchema = z.object({
  /** the language the console shows now; default: the user's saved language */
  language: ZLanguageSchema.optional(),
});

/** Tracking (hub_saveEventTracking): what a batch may hold. */
export const TRACKING_MAX_EVENTS = 50;
export const TRACKING_PAGE_MAX = 200;
/** Events may come this late (a tab that slept) … */
export const TRACKING_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** … and this early (a client clock a little ahead). */
export const TRACKING_MAX_SKEW_MS = 60 * 1000;

/** A console route path: starts with '/', no query string, no fragment, no spaces or control characters. */
const PAGE_PATH = /^\/[A-Za-z0-9/_.~\-:]*$/;
/** A short code such as `view`, `support.open`, `apikey.create`. */
const ACTION_CODE = /^[a-z][a-z0-9_.-]{0,47}$/;

export const ZTrackingEventSchema = z.strictObject({
  page: z.string().max(TRACKING_PAGE_MAX).regex(PAGE_PATH),
  action: z.string().regex(ACTION_CODE),
  /** epoch ms on the client; checked against the server clock (not too old, not in the future) */
  at: z.number().int().positive(),
});
export type TTrackingEvent = z.infer<typeof ZTrackingEventSchema>;

export const ZSaveEventTrackingParamsSchema = z.strictObject({
  events: z.array(ZTrackingEventSchema).max(TRACKING_MAX_EVENTS).default([]),
});

/** Support tickets (listing; filing has its own POST path), the operator banner and event tracking (SPEC §7). */
import { z } from 'zod';
import { ZPageParamsSchema } from '../api-keys/schemas';
import { defineMethod } from '../define-method';
import { pagedResult } from '../wallet/schemas';
import {
  ZBannerSchema,
  ZGetBannerParamsSchema,
  ZSaveEventTrackingParamsSchema,
  ZSupportTicketSchema,
} from './schemas';

export const hubGetSupportTickets = defineMethod({
  name: 'hub_getSupportTickets',
  summary:
    'The acting account’s support tickets, newest first (SPEC §9 paging). Tickets are filed with a multipart ' +
    'POST to /support/ticket; a team’s tickets are listed to every member of the team.',
  params: ZPageParamsSchema,
  result: pagedResult(ZSupportTicketSchema),
  auth: 'user',
  permission: 'view',
  readOnly: true,
});

export const hubGetBanner = defineMethod({
  name: 'hub_getBanner',
  summary:
    'The operator banner live now for the given language (default: the user’s saved one), or null. Banners ' +
    'marked for all languages count for both; when several are live, the one that started last wins.',
  params: ZGetBannerParamsSchema,
  result: ZBannerSchema.nullable(),
  auth: 'user',
  permission: 'self',
  readOnly: true,
  hideError: true,
});

export const hubSaveEventTracking = defineMethod({
  name: 'hub_saveEventTracking',
  summary:
    'Stores a batch of up to 50 page/action events {page (a route path, no query string), action (a short ' +
    'code), at (epoch ms, at most a day old and a minute ahead)} against the acting account only: no user id, ' +
    'IP or user agent is kept. Answers success; throttled per user.',
  params: ZSaveEventTrackingParamsSchema,
  result: z.object({ success: z.literal(true), saved: z.number().int().nonnegative() }),
  auth: 'user',
  permission: 'self',
  hideError: true,
  hideLimit: true,
  keepDuplicates: true,
});

/** The support domain's methods, merged into the catalogue by ../methods.ts. */
export const SUPPORT_METHODS = [hubGetSupportTickets, hubGetBanner, hubSaveEventTracking] as const;

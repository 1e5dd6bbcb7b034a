/** Notice methods (SPEC §7 Notices, §4 notice read) and the user's notice e-mail preferences. */
import { z } from 'zod';
import { defineMethod } from '../define-method';
import { ZNoticeSchema, ZNoticeTypeSchema } from './schemas';

export const hubGetUserMessages = defineMethod({
  name: 'hub_getUserMessages',
  summary:
    'The signed-in user’s notices, newest first. `cursor` is 0 for the first page, then the `nextCursor` of the previous answer; `unread` limits to unread ones; `type` to one type. `unreadCount` and `unreadByType` count every unread notice regardless of paging.',
  params: z.object({
    cursor: z.union([z.number().int().min(0), z.string().max(128)]).default(0),
    perPage: z.number().int().min(1).max(9999).default(20),
    unread: z.boolean().optional(),
    type: ZNoticeTypeSchema.optional(),
  }),
  result: z.object({
    list: z.array(ZNoticeSchema),
    /** null when there is nothing after this page */
    nextCursor: z.string().nullable(),
    unreadCount: z.number().int().nonnegative(),
    unreadByType: z.record(z.string(), z.number().int().nonnegative()),
  }),
  auth: 'user',
  permission: 'self',
});

export const hubSetUserMessageRead = defineMethod({
  name: 'hub_setUserMessageRead',
  summary: 'Marks every notice of the given type read (SPEC §4); answers the new unread count.',
  params: z.object({ type: ZNoticeTypeSchema }),
  result: z.object({ unreadCount: z.number().int().nonnegative() }),
  auth: 'user',
  permission: 'self',
});

export const hubSetUserMessageReadAll = defineMethod({
  name: 'hub_setUserMessageReadAll',
  summary: 'Marks every notice of the user read.',
  params: z.object({}),
  result: z.object({ unreadCount: z.literal(0) }),
  auth: 'user',
  permission: 'self',
});

export const ZEmailConfigSchema = z.object({
  /** notice types that are also sent by e-mail */
  types: z.array(ZNoticeTypeSchema).max(64),
});

export const hubGetUserEmailConfig = defineMethod({
  name: 'hub_getUserEmailConfig',
  summary: 'Which notice types are also mailed to the user, and which types can be mailed at all.',
  params: z.object({}),
  result: ZEmailConfigSchema.extend({ available: z.array(ZNoticeTypeSchema) }),
  auth: 'user',
  permission: 'self',
});

export const hubSetUserEmailConfig = defineMethod({
  name: 'hub_setUserEmailConfig',
  summary: 'Sets which notice types are also mailed (types outside `available` answer 10004).',
  params: ZEmailConfigSchema,
  result: ZEmailConfigSchema,
  auth: 'user',
  permission: 'self',
});

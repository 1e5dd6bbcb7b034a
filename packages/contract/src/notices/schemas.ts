/** Notices (SPEC §3 notice fields, §4 notice read, §8 notice texts). */
import { z } from 'zod';
import { NOTICE_TYPES } from '../constants';

export const ZNoticeTypeSchema = z.enum(NOTICE_TYPES);

/** SPEC §3 `expand`: the parameters the client builds localised text from. All optional. */
export const ZNoticeExpandSchema = z
  .object({
    coinAmount: z.union([z.string(), z.number()]),
    coin: z.string(),
    usdAmount: z.union([z.string(), z.number()]),
    skuName: z.string(),
    timeStamp: z.number(),
    leftDays: z.number(),
    amount: z.union([z.string(), z.number()]),
    name: z.string(),
    featureName: z.string(),
    apikeyName: z.string(),
    userName: z.string(),
    teamName: z.string(),
    teamId: z.string(),
    inviteInfo: z.unknown(),
    type: z.string(),
  })
  .partial()
  .catchall(z.unknown());

export const ZNoticeSchema = z.object({
  id: z.string(),
  type: ZNoticeTypeSchema,
  /** the server's own text, shown for notices before the cutoff and for the types SPEC §8 names */
  title: z.string(),
  content: z.string(),
  createdAt: z.number().int(),
  read: z.boolean(),
  teamId: z.string().nullable(),
  expand: ZNoticeExpandSchema,
});
export type TNotice = z.infer<typeof ZNoticeSchema>;

/** A frame on the notice socket (SPEC §4): `params.type` is `message` and `params.body` the notice. */
export const ZNoticeFrameSchema = z.object({
  params: z.object({ type: z.literal('message'), body: ZNoticeSchema }),
});
export type TNoticeFrame = z.infer<typeof ZNoticeFrameSchema>;

/** WebSocket path and close codes of the notice socket. */
export const NOTICE_SOCKET_PATH = '/ws';
export const NOTICE_SOCKET_CLOSE = {
  /** no token, unknown token, expired or ended session: the client must not reconnect with it */
  UNAUTHORIZED: 4401,
  /** the session ended while the socket was open (logout elsewhere, password change) */
  SESSION_ENDED: 4403,
  /** the server is shutting down; reconnect with backoff */
  GOING_AWAY: 1001,
} as const;

/** Field and result schemas of the team methods (SPEC §7 Team; docs/decisions/teams.md). */
import { z } from 'zod';
import { ZEmailSchema } from '../account/schemas';
import { GRANTABLE_ROLES, PERMISSIONS, TEAM_ROLES } from './permissions';

const UNSAFE_TEXT = /[\p{Cc}\u200B-\u200F\u2028-\u202E\u2066-\u2069\uFEFF]/u;
const safeText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !UNSAFE_TEXT.test(s), 'control or invisible characters are not allowed');

/** Most teams a user may own; creating more answers 10308. */
export const MAX_OWNED_TEAMS = 20;
/** Most members (and pending invitations) a team may hold; more answers 10311. */
export const MAX_TEAM_MEMBERS = 100;
/** An invitation not answered within this many days lapses. */
export const INVITE_TTL_DAYS = 7;

const uuidOf = (what: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.uuid({ message: `expected ${what}` }));
export const ZTeamIdSchema = uuidOf('a team id');
export const ZUserIdSchema = uuidOf('a user id');
export const ZInviteIdSchema = uuidOf('an invitation id');
export const ZTeamNameSchema = safeText(40).pipe(z.string().min(1, 'a team needs a name'));
export const ZTeamNoteSchema = safeText(200);
/** What hub_getUserCode answers: 10 characters a member can read out to an admin. */
export const ZUserCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[0-9A-HJKMNP-TV-Z]{10}$/, 'expected a 10-character user code');
export const ZTeamRoleSchema = z.enum(TEAM_ROLES);
export const ZGrantableRoleSchema = z.enum(GRANTABLE_ROLES);
export const ZPermissionSchema = z.enum(PERMISSIONS);

export const ZTeamPageParamsSchema = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  /** SPEC §9 loads the team list as page 1 of 1000 */
  perPage: z.number().int().min(1).max(1000).default(10),
});

export const ZTeamSchema = z.object({
  teamId: z.string(),
  teamName: z.string(),
  note: z.string(),
  /** the caller's role in the team */
  role: ZTeamRoleSchema,
  memberCount: z.number().int().nonnegative(),
  ownerName: z.string(),
  createdAt: z.number().int(),
  joinedAt: z.number().int(),
});
export type TTeam = z.infer<typeof ZTeamSchema>;

export const ZTeamMemberSchema = z.object({
  userId: z.string(),
  nickname: z.string(),
  /** shown to every member: members know who they work with */
  email: z.string().nullable(),
  role: ZTeamRoleSchema,
  joinedAt: z.number().int(),
  isYou: z.boolean(),
});
export type TTeamMember = z.infer<typeof ZTeamMemberSchema>;

export const ZInviteStatusSchema = z.enum([
  'pending',
  'approved',
  'rejected',
  'cancelled',
  'expired',
]);

/** An invitation as the team sees it (hub_getTeamInvites). */
export const ZTeamInviteSchema = z.object({
  inviteId: z.string(),
  /** the address or user code the invitation went to */
  invitee: z.string(),
  role: ZGrantableRoleSchema,
  invitedBy: z.string(),
  createdAt: z.number().int(),
  expiresAt: z.number().int(),
});
export type TTeamInvite = z.infer<typeof ZTeamInviteSchema>;

/** An invitation as the invited user sees it (hub_getMyInvite). */
export const ZMyInviteSchema = z.object({
  inviteId: z.string(),
  teamId: z.string(),
  teamName: z.string(),
  invitedBy: z.string(),
  role: ZGrantableRoleSchema,
  createdAt: z.number().int(),
  expiresAt: z.number().int(),
});
export type TMyInvite = z.infer<typeof ZMyInviteSchema>;

/** hub_addMember: by e-mail address or by the user code of hub_getUserCode, exactly one of them. */
export const ZAddMemberParamsSchema = z
  .object({
    teamId: ZTeamIdSchema,
    email: ZEmailSchema.optional(),
    userCode: ZUserCodeSchema.optional(),
    role: ZGrantableRoleSchema.default('viewer'),
  })
  .refine((p) => (p.email === undefined) !== (p.userCode === undefined), {
    message: 'give either email or userCode',
    path: ['email'],
  });

/** Audit log actions the team services write themselves (every other action is a method name the dispatcher logs). */
export const TEAM_LIFECYCLE_ACTIONS = [
  'team.create',
  'team.join',
  'team.decline',
  'team.leave',
  'team.disband',
] as const;
export type TTeamLifecycleAction = (typeof TEAM_LIFECYCLE_ACTIONS)[number];

/** Audit log actions: the method names the dispatcher logs plus the team lifecycle written by the team services. */
export const ZTeamLogSchema = z.object({
  id: z.string(),
  action: z.string(),
  actorUserId: z.string().nullable(),
  actorName: z.string(),
  /** what the action touched, e.g. a key name or a member's e-mail, when known */
  target: z.string().nullable(),
  /** params of the call, secrets removed */
  detail: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  createdAt: z.number().int(),
});
export type TTeamLog = z.infer<typeof ZTeamLogSchema>;

export const ZTeamLogParamsSchema = z
  .object({
    teamId: ZTeamIdSchema,
    page: z.number().int().min(1).max(100_000).default(1),
    perPage: z.number().int().min(1).max(100).default(20),
    /** exact action name (a method name such as hub_generateApiKey, or team.create, team.join …) */
    action: z
      .string()
      .max(64)
      .regex(/^[A-Za-z_.]+$/, 'malformed action')
      .optional(),
    actorUserId: ZUserIdSchema.optional(),
    startTime: z.number().int().nonnegative().optional(),
    endTime: z.number().int().nonnegative().optional(),
  })
  .refine((p) => p.startTime === undefined || p.endTime === undefined || p.startTime < p.endTime, {
    message: 'endTime must be after startTime',
    path: ['endTime'],
  });

/** The acting team as its member sees it (hub_getTeamUserProfile), with what the member's role allows. */
export const ZTeamUserProfileSchema = ZTeamSchema.extend({
  permissions: z.array(ZPermissionSchema),
});

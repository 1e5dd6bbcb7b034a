/**
 * Team methods (SPEC §7 Team, plus hub_getTeamUserProfile of §7 Account). Methods about one team take its id as a
 * param (teamFrom 'params'): /rpc/team manages every team of the user from any login. Beyond the SPEC's names:
 * hub_getTeamInvites, hub_cancelInvite and hub_setMemberRole (roles are the SPEC's "not shown" part).
 */
import { z } from 'zod';
import { defineMethod } from '../define-method';
import {
  ZEmailSchema,
  ZLanguageSchema,
  ZNicknameSchema,
  ZPasswordDigestSchema,
  ZSuccessSchema,
} from '../account/schemas';
import { pagedResult } from '../wallet/schemas';
import {
  ZAddMemberParamsSchema,
  ZInviteIdSchema,
  ZMyInviteSchema,
  ZTeamIdSchema,
  ZTeamInviteSchema,
  ZTeamLogParamsSchema,
  ZTeamLogSchema,
  ZTeamMemberSchema,
  ZTeamNameSchema,
  ZTeamNoteSchema,
  ZTeamPageParamsSchema,
  ZTeamRoleSchema,
  ZTeamSchema,
  ZTeamUserProfileSchema,
  ZUserIdSchema,
} from './schemas';

export const hubCreateTeam = defineMethod({
  name: 'hub_createTeam',
  summary: `Creates a team account owned by the caller (at most 20 owned teams: 10308).`,
  params: z.object({ teamName: ZTeamNameSchema, note: ZTeamNoteSchema.default('') }),
  result: ZTeamSchema,
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const hubGetMyTeam = defineMethod({
  name: 'hub_getMyTeam',
  summary:
    'The teams the caller belongs to, with the caller’s role in each, oldest membership first.',
  params: ZTeamPageParamsSchema,
  result: pagedResult(ZTeamSchema),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
  keepDuplicates: true,
});

export const hubGetTeamMembers = defineMethod({
  name: 'hub_getTeamMembers',
  summary: 'Members of a team the caller belongs to, owner first.',
  params: z.object({ teamId: ZTeamIdSchema }),
  result: z.object({ list: z.array(ZTeamMemberSchema) }),
  auth: 'user',
  permission: 'view',
  teamFrom: 'params',
});

export const hubEditTeamName = defineMethod({
  name: 'hub_editTeamName',
  summary: 'Renames a team (owner or admin).',
  params: z.object({ teamId: ZTeamIdSchema, teamName: ZTeamNameSchema }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'members',
  teamFrom: 'params',
});

export const hubEditTeamNote = defineMethod({
  name: 'hub_editTeamNote',
  summary: 'Sets a team’s note, up to 200 characters (owner or admin).',
  params: z.object({ teamId: ZTeamIdSchema, note: ZTeamNoteSchema }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'members',
  teamFrom: 'params',
});

export const hubAddMember = defineMethod({
  name: 'hub_addMember',
  summary:
    "Invites a user by e-mail address or by user code (hub_getUserCode), with a role below the caller's (the " +
    'owner grants admin, billing or viewer, an admin billing or viewer; else 10309; default viewer). The ' +
    'invitation lapses after 7 days, or as soon as its sender leaves the team or can no longer grant its role; ' +
    'an address not registered yet receives a sign-up link.',
  params: ZAddMemberParamsSchema,
  result: ZTeamInviteSchema,
  auth: 'user',
  permission: 'members',
  teamFrom: 'params',
  limitType: 'type2',
});

export const hubGetTeamInvites = defineMethod({
  name: 'hub_getTeamInvites',
  summary: 'Pending invitations of a team (owner or admin).',
  params: z.object({ teamId: ZTeamIdSchema }),
  result: z.object({ list: z.array(ZTeamInviteSchema) }),
  auth: 'user',
  permission: 'members',
  teamFrom: 'params',
  readOnly: true,
});

export const hubCancelInvite = defineMethod({
  name: 'hub_cancelInvite',
  summary: 'Withdraws a pending invitation (owner or admin).',
  params: z.object({ teamId: ZTeamIdSchema, inviteId: ZInviteIdSchema }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'members',
  teamFrom: 'params',
});

export const hubGetMyInvite = defineMethod({
  name: 'hub_getMyInvite',
  summary:
    'Pending invitations to the caller: sent to the caller’s user code, or to the caller’s confirmed e-mail address.',
  params: z.object({}),
  result: z.object({ list: z.array(ZMyInviteSchema) }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const hubApproveInvite = defineMethod({
  name: 'hub_approveInvite',
  summary:
    'Accepts an invitation: the caller joins the team with the invited role (notice team_approve_invite).',
  params: z.object({ inviteId: ZInviteIdSchema }),
  result: z.object({ teamId: z.string(), teamName: z.string(), role: ZTeamRoleSchema }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const hubRejectInvite = defineMethod({
  name: 'hub_rejectInvite',
  summary: 'Declines an invitation.',
  params: z.object({ inviteId: ZInviteIdSchema }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const hubRemoveMember = defineMethod({
  name: 'hub_removeMember',
  summary:
    'Removes a member of a lower role than the caller’s (owner or admin; notice team_remove_member to the member, ' +
    'whose sessions in the team end).',
  params: z.object({ teamId: ZTeamIdSchema, userId: ZUserIdSchema }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'members',
  teamFrom: 'params',
});

export const hubSetMemberRole = defineMethod({
  name: 'hub_setMemberRole',
  summary:
    'Changes a member’s role (owner only). Giving the role owner hands the team over: the caller becomes admin.',
  params: z.object({ teamId: ZTeamIdSchema, userId: ZUserIdSchema, role: ZTeamRoleSchema }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'owner',
  teamFrom: 'params',
});

export const hubLeaveTeam = defineMethod({
  name: 'hub_leaveTeam',
  summary:
    'The caller leaves a team (notice team_member_leave to its owner and admins). The owner cannot leave: hand ' +
    'the team over or disband it (10303).',
  params: z.object({ teamId: ZTeamIdSchema }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'self',
  teamFrom: 'params',
});

export const hubDeleteTeam = defineMethod({
  name: 'hub_deleteTeam',
  summary:
    'Disbands a team (owner only): members are removed (notice team_disband), its API keys stop working, pending ' +
    'invitations lapse. Money left in its wallet moves to the owner’s personal wallet. Its ledgers, invoices and ' +
    'audit log are kept. Refused while its wallet is in arrears (10313).',
  params: z.object({ teamId: ZTeamIdSchema }),
  result: ZSuccessSchema,
  auth: 'user',
  permission: 'owner',
  teamFrom: 'params',
});

export const hubGetTeamLogs = defineMethod({
  name: 'hub_getTeamLogs',
  summary:
    'The team’s audit log, newest first: who did what, when and from which IP (owner or admin). Filters: action, ' +
    'member, time range.',
  params: ZTeamLogParamsSchema,
  result: pagedResult(ZTeamLogSchema),
  auth: 'user',
  permission: 'members',
  teamFrom: 'params',
  readOnly: true,
});

export const hubGetUserCode = defineMethod({
  name: 'hub_getUserCode',
  summary:
    'The caller’s user code: an admin invites the caller with it instead of an e-mail address.',
  params: z.object({}),
  result: z.object({ userCode: z.string() }),
  auth: 'user',
  permission: 'self',
  ignoresTeamHeader: true,
});

export const hubGetTeamUserProfile = defineMethod({
  name: 'hub_getTeamUserProfile',
  summary:
    'The team named by X-Team-Id as its member sees it: name, note, the member’s role and what the role allows.',
  params: z.object({}),
  result: ZTeamUserProfileSchema,
  auth: 'user',
  permission: 'self',
});

export const hubRegisterTeam = defineMethod({
  name: 'hub_registerTeam',
  summary:
    'Registers a team-type user (SPEC §3 userType team) together with its first team, and mails a confirmation ' +
    'link. Password and confirmPassword are md5 digests (SPEC §5). Throttled like hub_register (type3).',
  params: z.object({
    email: ZEmailSchema,
    password: ZPasswordDigestSchema,
    confirmPassword: ZPasswordDigestSchema,
    teamName: ZTeamNameSchema,
    nickname: ZNicknameSchema.optional(),
    language: ZLanguageSchema.optional(),
  }),
  result: z.object({ email: z.string(), confirmMailSent: z.boolean() }),
  auth: 'none',
  limitType: 'type3',
});

export const TEAM_METHODS = [
  hubCreateTeam,
  hubGetMyTeam,
  hubGetTeamMembers,
  hubEditTeamName,
  hubEditTeamNote,
  hubAddMember,
  hubGetTeamInvites,
  hubCancelInvite,
  hubGetMyInvite,
  hubApproveInvite,
  hubRejectInvite,
  hubRemoveMember,
  hubSetMemberRole,
  hubLeaveTeam,
  hubDeleteTeam,
  hubGetTeamLogs,
  hubGetUserCode,
  hubGetTeamUserProfile,
  hubRegisterTeam,
] as const;

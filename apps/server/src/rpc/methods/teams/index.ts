/** Handlers of the team domain (packages/contract/src/teams/methods.ts); the work is in services/teams. */
import type { TEAM_METHODS, TNamesOf } from '@rpc/contract';
import { registerTeam } from '../../../services/account/register';
import { approveInvite, getMyInvite, rejectInvite } from '../../../services/teams/answer-invite';
import { addMember, cancelInvite, getTeamInvites } from '../../../services/teams/invites';
import {
  deleteTeam,
  leaveTeam,
  removeMember,
  setMemberRole,
} from '../../../services/teams/membership';
import { teamCaller } from '../../../services/teams/team-caller';
import { getTeamLogs } from '../../../services/teams/team-logs';
import {
  createTeam,
  editTeam,
  getMyTeam,
  getTeamMembers,
  getTeamUserProfile,
  getUserCode,
} from '../../../services/teams/teams';
import { publicHandler, userHandler, type THandler } from '../../define-handler';

export const TEAM_HANDLERS: {
  [N in TNamesOf<typeof TEAM_METHODS>]: THandler<N>;
} = {
  hub_createTeam: userHandler('hub_createTeam', ({ ctx, auth, params }) =>
    createTeam(ctx, teamCaller(auth, ctx.ip), params),
  ),
  hub_getMyTeam: userHandler('hub_getMyTeam', ({ ctx, auth, params }) =>
    getMyTeam(ctx, teamCaller(auth, ctx.ip), params),
  ),
  hub_getTeamMembers: userHandler('hub_getTeamMembers', ({ ctx, auth }) =>
    getTeamMembers(ctx, teamCaller(auth, ctx.ip)),
  ),
  hub_editTeamName: userHandler('hub_editTeamName', ({ ctx, auth, params }) =>
    editTeam(ctx, teamCaller(auth, ctx.ip), { name: params.teamName }),
  ),
  hub_editTeamNote: userHandler('hub_editTeamNote', ({ ctx, auth, params }) =>
    editTeam(ctx, teamCaller(auth, ctx.ip), { note: params.note }),
  ),
  hub_addMember: userHandler('hub_addMember', ({ ctx, auth, params }) =>
    addMember(ctx, teamCaller(auth, ctx.ip), params),
  ),
  hub_getTeamInvites: userHandler('hub_getTeamInvites', ({ ctx, auth }) =>
    getTeamInvites(ctx, teamCaller(auth, ctx.ip)),
  ),
  hub_cancelInvite: userHandler('hub_cancelInvite', ({ ctx, auth, params }) =>
    cancelInvite(ctx, teamCaller(auth, ctx.ip), params),
  ),
  hub_getMyInvite: userHandler('hub_getMyInvite', ({ ctx, auth }) =>
    getMyInvite(ctx, teamCaller(auth, ctx.ip)),
  ),
  hub_approveInvite: userHandler('hub_approveInvite', ({ ctx, auth, params }) =>
    approveInvite(ctx, teamCaller(auth, ctx.ip), params),
  ),
  hub_rejectInvite: userHandler('hub_rejectInvite', ({ ctx, auth, params }) =>
    rejectInvite(ctx, teamCaller(auth, ctx.ip), params),
  ),
  hub_removeMember: userHandler('hub_removeMember', ({ ctx, auth, params }) =>
    removeMember(ctx, teamCaller(auth, ctx.ip), params),
  ),
  hub_setMemberRole: userHandler('hub_setMemberRole', ({ ctx, auth, params }) =>
    setMemberRole(ctx, teamCaller(auth, ctx.ip), params),
  ),
  hub_leaveTeam: userHandler('hub_leaveTeam', ({ ctx, auth }) =>
    leaveTeam(ctx, teamCaller(auth, ctx.ip)),
  ),
  hub_deleteTeam: userHandler('hub_deleteTeam', ({ ctx, auth }) =>
    deleteTeam(ctx, teamCaller(auth, ctx.ip)),
  ),
  hub_getTeamLogs: userHandler('hub_getTeamLogs', ({ ctx, auth, params }) =>
    getTeamLogs(ctx, teamCaller(auth, ctx.ip), params),
  ),
  hub_getUserCode: userHandler('hub_getUserCode', ({ ctx, auth }) =>
    getUserCode(ctx, teamCaller(auth, ctx.ip)),
  ),
  hub_getTeamUserProfile: userHandler('hub_getTeamUserProfile', ({ ctx, auth }) =>
    getTeamUserProfile(ctx, teamCaller(auth, ctx.ip)),
  ),
  hub_registerTeam: publicHandler('hub_registerTeam', ({ ctx, params }) =>
    registerTeam({ ...ctx, ...params }),
  ),
};

/** Handlers of e-mail binding, two-factor sign-in and the session list; the work is in services/sign-in. */
import {
  bindEmail,
  noPassword,
  preBindEmail,
  sendBindConfirmMail,
} from '../../../services/sign-in/email-binding';
import {
  getSessions,
  revokeOtherSessions,
  revokeSession,
} from '../../../services/sign-in/session-list';
import {
  disableTwoFactor,
  enableTwoFactor,
  getTwoFactorStatus,
  regenerateBackupCodes,
  startTwoFactorSetup,
} from '../../../services/sign-in/two-factor';
import { verifyTwoFactorLogin } from '../../../services/sign-in/two-factor-login';
import type { TAuth, TRpcContext } from '../../context';
import { userHandler, type THandler } from '../../define-handler';

type TSecurityNames =
  | 'hub_noPassword'
  | 'hub_preBindEmail'
  | 'hub_sendBindConfirmMail'
  | 'hub_bindEmail'
  | 'hub_getTwoFactorStatus'
  | 'hub_startTwoFactorSetup'
  | 'hub_enableTwoFactor'
  | 'hub_disableTwoFactor'
  | 'hub_regenerateBackupCodes'
  | 'hub_verifyTwoFactorLogin'
  | 'hub_getSessions'
  | 'hub_revokeSession'
  | 'hub_revokeOtherSessions';

/** Who is asking, from where: every one of these methods is about the signed-in user, never a team. */
const callerOf = (ctx: TRpcContext, auth: TAuth) => ({
  userId: auth.userId,
  sessionId: auth.sessionId,
  ip: ctx.ip,
  userAgent: ctx.userAgent,
});

export const SECURITY_HANDLERS: { [N in TSecurityNames]: THandler<N> } = {
  hub_noPassword: userHandler('hub_noPassword', ({ ctx, auth }) =>
    noPassword(ctx, callerOf(ctx, auth)),
  ),
  hub_preBindEmail: userHandler('hub_preBindEmail', ({ ctx, auth, params }) =>
    preBindEmail(ctx, callerOf(ctx, auth), params),
  ),
  hub_sendBindConfirmMail: userHandler('hub_sendBindConfirmMail', ({ ctx, auth, params }) =>
    sendBindConfirmMail(ctx, callerOf(ctx, auth), params),
  ),
  hub_bindEmail: userHandler('hub_bindEmail', ({ ctx, auth, params }) =>
    bindEmail(ctx, callerOf(ctx, auth), params),
  ),
  hub_getTwoFactorStatus: userHandler('hub_getTwoFactorStatus', ({ ctx, auth }) =>
    getTwoFactorStatus(ctx, callerOf(ctx, auth)),
  ),
  hub_startTwoFactorSetup: userHandler('hub_startTwoFactorSetup', ({ ctx, auth }) =>
    startTwoFactorSetup(ctx, callerOf(ctx, auth)),
  ),
  hub_enableTwoFactor: userHandler('hub_enableTwoFactor', ({ ctx, auth, params }) =>
    enableTwoFactor(ctx, callerOf(ctx, auth), params),
  ),
  hub_disableTwoFactor: userHandler('hub_disableTwoFactor', ({ ctx, auth, params }) =>
    disableTwoFactor(ctx, callerOf(ctx, auth), params),
  ),
  hub_regenerateBackupCodes: userHandler('hub_regenerateBackupCodes', ({ ctx, auth, params }) =>
    regenerateBackupCodes(ctx, callerOf(ctx, auth), params),
  ),
  hub_verifyTwoFactorLogin: userHandler('hub_verifyTwoFactorLogin', ({ ctx, auth, params }) =>
    verifyTwoFactorLogin(ctx, callerOf(ctx, auth), params),
  ),
  hub_getSessions: userHandler('hub_getSessions', ({ ctx, auth }) =>
    getSessions(ctx, callerOf(ctx, auth)),
  ),
  hub_revokeSession: userHandler('hub_revokeSession', ({ ctx, auth, params }) =>
    revokeSession(ctx, callerOf(ctx, auth), params),
  ),
  hub_revokeOtherSessions: userHandler('hub_revokeOtherSessions', ({ ctx, auth }) =>
    revokeOtherSessions(ctx, callerOf(ctx, auth)),
  ),
};

/** /activate-account?code=…: the link in the registration mail (reachable while signed in, SPEC §2). */
import { EmailConfirmFlow } from './email-confirm-flow';

export function ActivateAccountPage() {
  return <EmailConfirmFlow />;
}

/** /email-confirm?code=…: a signed-in user confirming an address; same mechanics as activation. */
import { EmailConfirmFlow } from './email-confirm-flow';

export function EmailConfirmPage() {
  return <EmailConfirmFlow />;
}

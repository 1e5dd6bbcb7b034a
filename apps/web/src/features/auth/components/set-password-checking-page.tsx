/** /set-password/checking?code=…: the link in the set-password mail. */
import { PasswordCodeChecking } from './password-code-checking';

export function SetPasswordCheckingPage() {
  return <PasswordCodeChecking purpose="set" />;
}
